# Tests on the 40-body bin pile's large islands (saved LCPs of n = 1,008 to 1,656, a grouped
# island of 163 contacts) or 136 steps of the pile itself: 2 to 10 s each in Release and 12
# to 20 times that under ASan + UBSan, where they took 460 of the pass's 1,477 s of test
# time. scripts/test.sh runs them in the Release pass only, and checks that each name is a
# test; the same solvers meet the bin pile's islands under the sanitizers in
# PileIsland/SoakRegression.* and BinPile.*.
set_tests_properties(
  WorldWarmStart.ALargePileAtRestSettlingIntoANewConeTakesTheWarmPath
  FactoredRun.AnswersThePilesPathsAtASmallZ0
  FactoredRun.LeadsTheStandardMethodOnAPilesIsland
  NonconvexMax.AnAnswersPlaneBasisIsTheWarmStartOfOneSelectionWithoutAPivot
  NonconvexMax.BinPileGroupThatNeedsNoForceIsSolvedInTwoSelections
  LemkeFast.PathCrawlingAtASmallZ0EndsOnABasisWhoseAnswerTheRuleTakes
  PROPERTIES LABELS heavy)
