# Tests whose work is thousands of pivots on dense islands of the bin pile (n of 1,000 to
# 1,656): 2 to 10 s each in Release, 13 to 20 times that under ASan + UBSan, where they
# made up a third of the sanitizer pass. scripts/test.sh runs them in the Release pass
# only; the same solvers run on the bin pile's islands under the sanitizers in
# PileIsland/SoakRegression.* and BinPile.*. scripts/test.sh checks that each name is a test.
set_tests_properties(
  WorldWarmStart.ALargePileAtRestSettlingIntoANewConeTakesTheWarmPath
  FactoredRun.AnswersThePilesPathsAtASmallZ0
  FactoredRun.LeadsTheStandardMethodOnAPilesIsland
  NonconvexMax.AnAnswersPlaneBasisIsTheWarmStartOfOneSelectionWithoutAPivot
  NonconvexMax.BinPileGroupThatNeedsNoForceIsSolvedInTwoSelections
  LemkeFast.PathCrawlingAtASmallZ0EndsOnABasisWhoseAnswerTheRuleTakes
  PROPERTIES LABELS heavy)
