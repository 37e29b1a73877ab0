// A failed island solve is returned as data: the library writes no file, the program
// decides (World::failed_solves under FailurePolicy::Continue, SolverFailure under Stop).
// One pivot cannot solve the resting two-block stack's first step by any method.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <variant>

#include "pivot/world.hpp"
#include "support/shipped_scene.hpp"

namespace pivot {
namespace {

WorldOptions one_pivot(FailurePolicy policy) {
  WorldOptions options;
  options.on_failure = policy;
  options.lemke.max_pivots = 1;
  return options;
}

TEST(FailedSolve, ContinueKeepsTheProblemAndWritesNothing) {
  const std::string default_file = "./failed-step-0-island-0.contact";
  std::filesystem::remove(default_file);
  World world(test::shipped_scene("block_stack_2.json"), one_pivot(FailurePolicy::Continue));
  const StepStats& stats = world.step();
  ASSERT_EQ(stats.failures, 1);
  ASSERT_EQ(world.failed_solves().size(), 1u);
  const FailedSolve& failed = world.failed_solves()[0];
  EXPECT_EQ(failed.step, 0);
  EXPECT_EQ(failed.island, 0);
  EXPECT_EQ(failed.status, LcpStatus::PivotLimit);
  EXPECT_EQ(failed.problem.problem.num_contacts(), stats.contacts);
  EXPECT_FALSE(std::filesystem::exists(default_file));
  // The island moved without contact impulses; the next step starts with no failure kept.
  for (const ContactImpulse& impulse : world.impulses()) EXPECT_EQ(impulse.normal_ns, 0.0);
  world.step();
  EXPECT_EQ(world.failed_solves().size(), static_cast<size_t>(world.last_stats().failures));
}

TEST(FailedSolve, StopThrowsWithTheProblemAndItsFileReplays) {
  World world(test::shipped_scene("block_stack_2.json"), one_pivot(FailurePolicy::Stop));
  try {
    world.step();
    FAIL() << "one pivot solved the step";
  } catch (const SolverFailure& e) {
    EXPECT_EQ(std::string(e.what()), "step 0 (t = 0.000000 s), island 0 with " +
                                         std::to_string(e.failed().problem.problem.num_contacts()) +
                                         " contacts: no method solved the LCP (pivot_limit)");
    const std::string file = write_failed_solve(e.failed(), ::testing::TempDir());
    EXPECT_EQ(file, ::testing::TempDir() + "/failed-step-0-island-0.contact");
    const auto replay = std::get<ContactProblemFile>(read_problem_file(file));
    EXPECT_EQ(replay.problem.num_contacts(), e.failed().problem.problem.num_contacts());
    EXPECT_EQ(solve_contact(replay.problem, LcpMethod::Reduced).status, LcpStatus::Solved);
  }
}

}  // namespace
}  // namespace pivot
