// Cancelling a solve (LemkeOptions::cancel and ::deadline): every pivoting solver looks
// between pivots and ends with Cancelled, which nothing downstream retries or mistakes
// for a failure; a cancelled World step leaves the state where it was.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <variant>

#include "pivot/lcp.hpp"
#include "pivot/nonconvex.hpp"
#include "pivot/problem_file.hpp"
#include "pivot/world.hpp"
#include "support/shipped_problem.hpp"
#include "support/shipped_scene.hpp"

namespace pivot {
namespace {

// Needs pivots with every method (the five-block stack, step 4082 of the soak).
ContactProblem stack_problem() {
  return test::shipped_contact_problem("lcp/soak/block_stack_5_step4082.contact");
}

LemkeOptions cancelled(const std::atomic<bool>& flag) {
  LemkeOptions options;
  options.cancel = &flag;
  return options;
}

class CancelEveryMethod : public testing::TestWithParam<LcpMethod> {};

TEST_P(CancelEveryMethod, ASetFlagEndsTheSolveBeforeItsSecondPivot) {
  const ContactProblem p = stack_problem();
  ASSERT_GT(solve_contact(p, GetParam()).pivots, 1);  // it would pivot
  const std::atomic<bool> flag{true};
  const LcpResult r = solve_contact(p, GetParam(), cancelled(flag));
  EXPECT_EQ(r.status, LcpStatus::Cancelled);
  EXPECT_LE(r.pivots, 1);  // Step 0's pivot at most
  EXPECT_STREQ(to_string(r.status), "cancelled");
}

TEST_P(CancelEveryMethod, APassedDeadlineEndsTheSolveWithinTheClockPeriod) {
  const ContactProblem p = stack_problem();
  LemkeOptions options;
  options.deadline = std::chrono::steady_clock::now() - std::chrono::seconds(1);
  const LcpResult r = solve_contact(p, GetParam(), options);
  EXPECT_EQ(r.status, LcpStatus::Cancelled);
  EXPECT_LE(r.pivots, 1);  // the clock is read before the first pivot after Step 0
  // A deadline far ahead changes nothing.
  options.deadline = std::chrono::steady_clock::now() + std::chrono::hours(1);
  EXPECT_EQ(solve_contact(p, GetParam(), options).status, LcpStatus::Solved);
}

INSTANTIATE_TEST_SUITE_P(Methods, CancelEveryMethod,
                         testing::Values(LcpMethod::Standard, LcpMethod::Structural,
                                         LcpMethod::Reduced),
                         [](const auto& method) { return std::string(to_string(method.param)); });

TEST(Cancel, TheFallbackChainTriesNoStageAfterACancelledSolve) {
  const std::atomic<bool> flag{true};
  const FallbackResult r =
      solve_contact_with_fallback(stack_problem(), LcpMethod::Reduced, cancelled(flag));
  EXPECT_EQ(r.result.status, LcpStatus::Cancelled);
  EXPECT_EQ(r.attempts, 0);
  EXPECT_FALSE(r.rescued_by.has_value());
}

TEST(Cancel, TheDenseStandardMethodIsNotRetriedWithOtherReadings) {
  const DenseLcp lcp = assemble_contact_lcp(stack_problem());
  const std::atomic<bool> flag{true};
  const LcpResult r = solve_lemke(lcp.M, lcp.q, cancelled(flag));
  EXPECT_EQ(r.status, LcpStatus::Cancelled);
  EXPECT_LE(r.pivots, 1);
}

TEST(Cancel, TheMaxGroupSearchStopsAtItsFirstCancelledSelection) {
  const std::string path =
      std::string(PIVOT_SOURCE_DIR) + "/tests/lcp/grouped/egan_corner_step0.contact";
  const ContactProblemFile file = std::get<ContactProblemFile>(read_problem_file(path));
  ASSERT_TRUE(file.groups.has_value());
  ASSERT_EQ(solve_grouped_contact(file.problem, *file.groups, LcpMethod::Reduced).lcp.status,
            LcpStatus::Solved);
  const std::atomic<bool> flag{true};
  const GroupedSolve r =
      solve_grouped_contact(file.problem, *file.groups, LcpMethod::Reduced, cancelled(flag));
  EXPECT_EQ(r.lcp.status, LcpStatus::Cancelled);
  EXPECT_EQ(r.selections, 1);
}

// A cancelled step changes nothing; the same step taken afterwards is the step an
// uncancelled twin takes (cold starts on both: a cancelled step forgets its warm start).
TEST(Cancel, ACancelledWorldStepLeavesTheStateAndIsTakenAgainUnchanged) {
  std::atomic<bool> flag{false};
  WorldOptions options;
  options.warm_start = false;
  options.lemke.cancel = &flag;
  const Scene scene = test::shipped_scene("block_stack_5.json");
  World world(scene, options);
  World twin(scene, options);
  for (int k = 0; k < 20; ++k) {
    world.step();
    twin.step();
  }
  const WorldState before = world.state();
  flag = true;
  const StepStats& st = world.step();
  EXPECT_TRUE(st.cancelled);
  EXPECT_EQ(world.state().step, before.step);
  EXPECT_EQ(world.state().time_s, before.time_s);
  for (size_t b = 0; b < before.bodies.size(); ++b) {
    EXPECT_EQ(world.state().bodies[b].pose.position, before.bodies[b].pose.position);
    EXPECT_EQ(world.state().bodies[b].twist.linear, before.bodies[b].twist.linear);
    EXPECT_EQ(world.state().bodies[b].twist.angular, before.bodies[b].twist.angular);
  }
  EXPECT_TRUE(world.impulses().empty());
  flag = false;
  EXPECT_FALSE(world.step().cancelled);
  twin.step();
  for (size_t b = 0; b < before.bodies.size(); ++b) {
    EXPECT_EQ(world.state().bodies[b].pose.position, twin.state().bodies[b].pose.position);
    EXPECT_EQ(world.state().bodies[b].pose.orientation.coeffs(),
              twin.state().bodies[b].pose.orientation.coeffs());
  }
}

TEST(Cancel, AStepTimeLimitAbandonsASlowStep) {
  WorldOptions options;
  options.step_time_limit_s = 1e-9;  // passed before the first clock read
  World world(test::shipped_scene("block_stack_5.json"), options);
  const WorldState before = world.state();
  const StepStats& st = world.step();
  EXPECT_TRUE(st.cancelled);
  EXPECT_EQ(world.state().step, before.step);
}

// An abandoned step says where its budget went: the viewer's stats showed "solve 0.0 us"
// for a step abandoned after a second of solving. The ten-block tower with the dense
// standard method at d = 32 (n = 1,360: M alone 1.8 million entries, each pivot a pass
// over them) solves cold in 31 ms on this machine, 31 times the 1 ms budget; the budget
// runs from the step's start, so collision, assembly and the cancelled solve together take
// at least it (if the deadline passes before the solve starts, its first check cancels).
TEST(Cancel, AnAbandonedStepCountsTheTimeItsSolveRan) {
  Scene scene = test::shipped_scene("block_tower_10.json");
  scene.settings.solver = LcpMethod::Standard;
  scene.settings.friction_directions = 32;
  WorldOptions options;
  options.warm_start = false;
  options.step_time_limit_s = 0.001;
  World world(scene, options);
  const StepStats& st = world.step();
  ASSERT_TRUE(st.cancelled);
  EXPECT_GT(st.solve_us, 0.0);
  EXPECT_GE(st.collision_us + st.assembly_us + st.solve_us, 0.95 * 1e6 * options.step_time_limit_s);
}

}  // namespace
}  // namespace pivot
