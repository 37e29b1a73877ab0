// The fallback chain of a contact solve (solve_contact_with_fallback): each stage answers
// only through the original problem's acceptance check, the chain climbs in its order and
// says which stage answered, and a problem no stage solves fails honestly.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "pivot/lcp.hpp"
#include "support/random_contact_problems.hpp"
#include "support/shipped_problem.hpp"

namespace pivot {
namespace {

ContactProblem soak(const char* name) {
  return test::shipped_contact_problem(std::string("lcp/soak/") + name);
}

TEST(FallbackChain, EveryStageAnswersThroughTheOriginalCheck) {
  const ContactProblem p = soak("block_stack_5_step4082.contact");
  for (int k = 0; k < kFallbackStages; ++k) {
    const FallbackStage stage = static_cast<FallbackStage>(k);
    if (stage == FallbackStage::MergedDuplicates) continue;  // below: needs duplicates
    const std::optional<LcpResult> r = solve_contact_stage(p, stage);
    ASSERT_TRUE(r.has_value()) << to_string(stage);
    ASSERT_EQ(r->status, LcpStatus::Solved) << to_string(stage);
    EXPECT_TRUE(check_contact_solution(p, r->z).accepted) << to_string(stage);
    EXPECT_EQ(r->w, contact_lcp_w(p, r->z)) << to_string(stage);  // the original's w
  }
  // Without duplicate contacts there is nothing to merge.
  EXPECT_FALSE(solve_contact_stage(p, FallbackStage::MergedDuplicates).has_value());
}

// Above kDenseFallbackMaxSize the dense stages do not apply (they would form two n x n
// matrices and pivot at O(n^2) each); the structural stages still do. Whether a stage
// applies, not what it answers, is the point: one pivot each keeps the test short.
TEST(FallbackChain, DenseStagesApplyOnlyUpToTheirSize) {
  LemkeOptions one_pivot;
  one_pivot.max_pivots = 1;
  testing::RandomProblemShape shape;
  shape.bodies = 40;
  shape.contacts = kDenseFallbackMaxSize / (2 + shape.d) + 1;
  const ContactProblem large = testing::random_contact_problem(7, shape);
  ASSERT_GT(large.lcp_size(), kDenseFallbackMaxSize);
  EXPECT_FALSE(solve_contact_stage(large, FallbackStage::Regularised, one_pivot).has_value());
  EXPECT_FALSE(solve_contact_stage(large, FallbackStage::Standard, one_pivot).has_value());
  EXPECT_TRUE(solve_contact_stage(large, FallbackStage::Structural, one_pivot).has_value());
  // At the size, they do.
  shape.contacts = kDenseFallbackMaxSize / (2 + shape.d);
  const ContactProblem at_size = testing::random_contact_problem(7, shape);
  ASSERT_LE(at_size.lcp_size(), kDenseFallbackMaxSize);
  EXPECT_TRUE(solve_contact_stage(at_size, FallbackStage::Regularised, one_pivot).has_value());
  EXPECT_TRUE(solve_contact_stage(at_size, FallbackStage::Standard, one_pivot).has_value());
}

TEST(FallbackChain, MergedDuplicatesSolveTheOriginalProblem) {
  // The soak's duplicated mix: every contact written twice or more with identical columns.
  // Merged, the structural method answers it.
  const ContactProblem p = soak("duplicated_seed_79.contact");
  const std::optional<LcpResult> r = solve_contact_stage(p, FallbackStage::MergedDuplicates);
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->status, LcpStatus::Solved);
  EXPECT_TRUE(check_contact_solution(p, r->z).accepted);
  EXPECT_EQ(r->z.size(), p.lcp_size());
}

TEST(FallbackChain, StandardMethodIsRescuedByTheStructuralStage) {
  // A step of the ten-block tower rocking on its base (d = 8). The standard method's
  // factorised run solves it in 102 pivots, where the structural method's path takes 42:
  // within a budget of 50 pivots the chain's first stage answers (the method runs in the
  // chain without the end repair). (The problems that stood here the standard method now
  // solves within the budget itself: tower step 105268 and a fuzz input by its end repair
  // and answers solved with their residuals in long double, cold step 1914 in 39 pivots
  // since its small bases are bordered.)
  const ContactProblem p = soak("block_tower_10_d8_rocking_step107166.contact");
  LemkeOptions budget;
  budget.max_pivots = 50;
  LemkeOptions paths_only = budget;
  paths_only.repair_refused_end = false;
  ASSERT_NE(solve_contact(p, LcpMethod::Standard, paths_only).status, LcpStatus::Solved);
  const FallbackResult r = solve_contact_with_fallback(p, LcpMethod::Standard, budget);
  ASSERT_EQ(r.result.status, LcpStatus::Solved);
  ASSERT_TRUE(r.rescued_by.has_value());
  EXPECT_EQ(*r.rescued_by, FallbackStage::Structural);
  EXPECT_EQ(r.attempts, 1);
  EXPECT_TRUE(check_contact_solution(p, r.result.z).accepted);
  EXPECT_GT(r.result.pivots, solve_contact_stage(p, FallbackStage::Structural, budget)->pivots)
      << "the pivots of every attempt";
}

TEST(FallbackChain, TowerStepsOnceRescuedOnlyByThePerturbedCoverNeedNoStage) {
  // Steps 13122 and 105268 of the ten-block tower: every method ended on an answer the
  // acceptance rule refuses, and only the perturbed-cover stage (13122) or none (105268)
  // answered. The reduced method now restarts from another cover itself.
  for (const char* file :
       {"block_tower_10_step13122.contact", "block_tower_10_step105268.contact"}) {
    const ContactProblem p = soak(file);
    const FallbackResult r = solve_contact_with_fallback(p, LcpMethod::Reduced);
    ASSERT_EQ(r.result.status, LcpStatus::Solved) << file;
    EXPECT_FALSE(r.rescued_by.has_value()) << file;
    EXPECT_EQ(r.attempts, 0) << file;
    EXPECT_TRUE(check_contact_solution(p, r.result.z).accepted) << file;
  }
}

TEST(FallbackChain, ARefusedEndIsRepairedOnlyAsTheLastStage) {
  // Step 25399 of the ten-block tower's hour at d = 8: the reduced method's four paths end
  // past the rule, and the flips of its first refused end answer it; the structural
  // method's fourth path answers it too. The chain asks the reduced method without the
  // repair and climbs: the structural stage answers, before the repair is reached. (Steps
  // 23062, 104450 and 153113 of the tower, which only the repair answered, are solved by
  // the reduced method's paths since infeasible rows of round-off pivots are spared,
  // lemke_fast.cpp, indeterminate_rows_stay_feasible.)
  const ContactProblem p = soak("block_tower_10_d8_step25399.contact");
  LemkeOptions plain;
  plain.repair_refused_end = false;
  EXPECT_EQ(solve_contact(p, LcpMethod::Reduced, plain).status, LcpStatus::NumericalFailure);
  const FallbackResult r = solve_contact_with_fallback(p, LcpMethod::Reduced);
  ASSERT_EQ(r.result.status, LcpStatus::Solved);
  ASSERT_TRUE(r.rescued_by.has_value());
  EXPECT_EQ(*r.rescued_by, FallbackStage::Structural);
  EXPECT_EQ(r.attempts, 1);
  EXPECT_TRUE(check_contact_solution(p, r.result.z).accepted);
  // The last stage on its own: the reduced method with the repair answers.
  const std::optional<LcpResult> last = solve_contact_stage(p, FallbackStage::RepairedEnd);
  ASSERT_TRUE(last.has_value());
  ASSERT_EQ(last->status, LcpStatus::Solved);
  EXPECT_TRUE(check_contact_solution(p, last->z).accepted);
}

TEST(FallbackChain, AProblemNoStageSolvesFailsWithTheMethodsOwnStatus) {
  // large_mu_seed_27 (mu ~ 1000): only the reduced method solves it within the default
  // pivot budget (2050); asked with the structural method, every stage runs out. The same
  // holds at 300, which keeps the test short.
  const ContactProblem p = soak("large_mu_seed_27.contact");
  LemkeOptions options;
  options.max_pivots = 300;
  const FallbackResult r = solve_contact_with_fallback(p, LcpMethod::Structural, options);
  EXPECT_EQ(r.result.status, LcpStatus::PivotLimit);
  EXPECT_FALSE(r.rescued_by.has_value());
  EXPECT_EQ(r.attempts, 4);  // perturbed cover, regularised, standard, repaired end (no duplicates)
}

}  // namespace
}  // namespace pivot
