// The World's warm start (WorldOptions::warm_start): each island's solve starts from the
// previous step's basis, matched by contact features. The physics must not change: warm
// and cold runs of the shipped scenes follow the same trajectory, with every method.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>

#include "dynamics/penetration_recovery.hpp"
#include "pivot/world.hpp"
#include "support/scene_builder.hpp"
#include "support/shipped_scene.hpp"

namespace pivot {
namespace {

WorldOptions cold() {
  WorldOptions o;
  o.warm_start = false;
  return o;
}

struct Comparison {
  double position_m = 0.0;  // largest distance between a body's two positions
  double speed_mps = 0.0;   // largest difference of a body's linear velocities
  long warm_starts = 0, islands = 0;
  long warm_pivots = 0, cold_pivots = 0;
};

Comparison compare(const std::string& file, int steps, LcpMethod method = LcpMethod::Reduced) {
  Scene scene = test::shipped_scene(file);
  scene.settings.solver = method;
  World warm(scene), cold_world(scene, cold());
  Comparison c;
  for (int k = 0; k < steps; ++k) {
    const StepStats& w = warm.step();
    const StepStats& s = cold_world.step();
    EXPECT_EQ(w.failures + w.fallbacks + s.failures + s.fallbacks, 0) << file << " step " << k;
    c.warm_starts += w.warm_starts;
    c.islands += w.islands;
    c.warm_pivots += w.pivots;
    c.cold_pivots += s.pivots;
    EXPECT_EQ(s.warm_starts, 0);
    for (size_t b = 0; b < scene.bodies.size(); ++b) {
      const BodyState& x = warm.state().bodies[b];
      const BodyState& y = cold_world.state().bodies[b];
      c.position_m = std::max(c.position_m, (x.pose.position - y.pose.position).norm());
      c.speed_mps = std::max(c.speed_mps, (x.twist.linear - y.twist.linear).norm());
    }
  }
  return c;
}

class WarmStartScene : public ::testing::TestWithParam<const char*> {};

// Stacks at rest, a block tipping into a hole and a jammed peg, 2 s each.
// Where the step's velocities are unique the two runs differ only by the round-off of
// solving different bases of the same LCP: measured at 1e-14 m and 1e-13 m/s at most
// (8e-15 m on the rotated stack). 1e-9 m and 1e-8 m/s leave five orders for that to grow,
// and are far below any physical difference (a different contact answer moves a block by
// g h^2 = 1e-3 m in a step).
// The standard method's warm start solves its basis densely (flip_to_answer) where its
// path's end is solved the same way: the same bounds hold.
TEST_P(WarmStartScene, FollowsTheColdRunsTrajectoryWithFewerPivots) {
  for (LcpMethod method : {LcpMethod::Reduced, LcpMethod::Standard}) {
    const Comparison c = compare(GetParam(), 200, method);
    EXPECT_LT(c.position_m, 1e-9) << to_string(method);
    EXPECT_LT(c.speed_mps, 1e-8) << to_string(method);
    EXPECT_GT(c.warm_starts, 0) << to_string(method);
    EXPECT_LT(c.warm_pivots, c.cold_pivots) << to_string(method);
  }
}

INSTANTIATE_TEST_SUITE_P(Shipped, WarmStartScene,
                         ::testing::Values("block_stack_rotated_5.json",
                                           "block_over_hole_wide.json", "peg_in_hole_jam.json"),
                         [](const ::testing::TestParamInfo<const char*>& param) {
                           return test::scene_test_name(param.param);
                         });

// A tumble is not a scene whose steps all have unique answers: two cold runs whose states
// differ by round-off (4e-15 m/s, from solving one step through another basis) get answers
// 2.9e-3 m/s apart at an impact (step 50 of drop_and_tumble); two steps later their
// velocities agree again (2.5e-11 m/s), the bodies 3.3e-5 m apart, about one step of that
// difference times h (1e-2 s). Since grouped islands start warm too, a second impact
// takes another of its answers (steps 52-53, a corner over an edge: 1.2e-2 m/s apart, warm
// from the previous step's selection and basis, cold from Step 0), and after 5 s the bodies
// are 1.5e-4 m apart (measured). What the warm start must keep is the physics: every step
// solved, after 5 s the same positions within a few such steps (3e-4 m), the same
// velocities (measured 3e-13 m/s apart), the same energy to round-off, and fewer pivots.
TEST(WorldWarmStart, TumbleEndsWhereTheColdRunEnds) {
  const Scene scene = test::shipped_scene("drop_and_tumble.json");
  World warm(scene), cold_world(scene, cold());
  long warm_pivots = 0, cold_pivots = 0, warm_starts = 0;
  int grouped_steps = 0, grouped_steps_warm = 0;  // steps with a nonconvex group
  for (int k = 0; k < 500; ++k) {
    const StepStats& w = warm.step();
    const StepStats& s = cold_world.step();
    ASSERT_EQ(w.failures + w.fallbacks + s.failures + s.fallbacks, 0) << "step " << k;
    warm_pivots += w.pivots;
    cold_pivots += s.pivots;
    warm_starts += w.warm_starts;
    if (w.groups > 0) {
      ++grouped_steps;
      grouped_steps_warm += w.warm_starts == w.islands && w.pivots == 0;
    }
  }
  // Grouped islands start warm too (the max search from the last step's selection and
  // basis): measured 23 of the 36 grouped steps answered without a pivot.
  EXPECT_GT(grouped_steps, 20);
  EXPECT_GT(grouped_steps_warm, grouped_steps / 2);
  for (size_t b = 0; b < scene.bodies.size(); ++b) {
    const BodyState& x = warm.state().bodies[b];
    const BodyState& y = cold_world.state().bodies[b];
    EXPECT_LT((x.pose.position - y.pose.position).norm(), 3e-4) << scene.bodies[b].name;
    EXPECT_LT((x.twist.linear - y.twist.linear).norm(), 1e-9) << scene.bodies[b].name;
  }
  EXPECT_NEAR(warm.energy_j(), cold_world.energy_j(), 1e-9 * cold_world.energy_j());
  EXPECT_GT(warm_starts, 0);
  EXPECT_LT(warm_pivots, cold_pivots);
}

// With the scene's settings, and with the standard method at d = 8 and 16 (n = 400 and 720;
// its dense warm start was once tried only up to n = 512), 3 s each. When the standard
// method's factorised run first led here, its lexicographic rule loaded every face on the
// same diagonal (lemke_factored.cpp) and its answers were clamped at zero (complementary_z):
// the tower tipped by round-off about that diagonal, and from step 90 or so (d = 4) the
// degenerate corners' impulses were refused by the warm start's slack (78 of 1,000 steps
// warm at d = 8).
TEST(WorldWarmStart, RestingTowerTakesItsBasisEveryStepWithoutAPivot) {
  for (const auto& [method, d] :
       {std::pair{LcpMethod::Reduced, 4}, {LcpMethod::Standard, 8}, {LcpMethod::Standard, 16}}) {
    Scene scene = test::shipped_scene("block_tower_10.json");
    scene.settings.solver = method;
    scene.settings.friction_directions = d;
    World world(scene);
    const StepStats first = world.step();
    EXPECT_EQ(first.warm_starts, 0);  // nothing to start from
    EXPECT_GT(first.pivots, 0);
    for (int k = 1; k < 300; ++k) {
      const StepStats& s = world.step();
      ASSERT_EQ(s.islands, 1);
      ASSERT_EQ(s.warm_starts, 1) << to_string(method) << " d " << d << " step " << k;
      EXPECT_EQ(s.pivots, 0) << to_string(method) << " step " << k;
    }
  }
}

// A slider that changes d keeps the warm start: the recorded friction flags map to the
// new directions (ContactBases: each contact's count of basic directions kept, around the
// friction it carried), and at rest that basis is the answer. Before, the step after the
// change started at Step 0 (the tower: 31 pivots; the bin pile at rest, d = 4 -> 8: 9,688
// pivots, past the viewer's 1 s step budget), and where d is no multiple of 4 the mapped
// basis could be singular (the toppled block stack 4 -> 6: 35 pivots; the single boxes at
// rest on a face, 4 -> 5, 6 or 3: 4).
TEST(WorldWarmStart, ChangingDKeepsTheRestingStacksBasis) {
  for (const auto& [name, d] : {std::pair{"block_tower_10.json", 16},
                                {"block_stack_rotated_5.json", 8},
                                {"block_stack_rotated_5.json", 3},
                                {"block_stack_topple.json", 6},
                                {"box_on_edge.json", 5},
                                {"box_on_vertex.json", 6},
                                {"block_over_hole_wide.json", 3}}) {
    World world(test::shipped_scene(name));
    for (int k = 0; k < 100; ++k) world.step();
    world.settings().friction_directions = d;
    for (int k = 0; k < 20; ++k) {
      const StepStats& s = world.step();
      ASSERT_EQ(s.islands, 1);
      EXPECT_EQ(s.failures + s.fallbacks, 0);
      EXPECT_EQ(s.warm_starts, 1) << name << " d " << d << " step " << k;
    }
  }
}

// A large island at rest whose warm basis is no answer takes the warm path, not Step 0's
// (kRestWarmPathSize): the 40-body bin pile at rest with d changed 4 -> 6 creeps into the
// new cone at velocities within the slack. At 47f98c5, changed at step 120, Step 0's paths
// took 2,572 to 10,616 pivots on every step from 125 to 135, their answers refused by the
// next step's flips; the warm path answered step 125 in 71 pivots, and every step after it
// was warm. Since its landing's steps are retaken in substeps where they strayed from their
// linearisation (contact_substeps), the pile is still moving at step 120 (0.18 m/s) and
// nearly at rest by step 200. Changed then (with carried substeps, its fastest body at 3.7
// cm/s), step 200 takes 1,430 pivots, 201 a warm path of 7, and every step from 202 to 215
// is warm: warm starts, and one warm path of 5 pivots at step 209 (measured).
TEST(WorldWarmStart, ALargePileAtRestSettlingIntoANewConeTakesTheWarmPath) {
  World world(test::shipped_scene("bin_pile_40.json"));
  for (int k = 0; k < 200; ++k) world.step();
  world.settings().friction_directions = 6;
  for (int k = 200; k < 216; ++k) {
    const StepStats& s = world.step();
    EXPECT_EQ(s.failures + s.fallbacks, 0) << "step " << k;
    if (k >= 204) {
      EXPECT_EQ(s.warm_starts + s.warm_paths, s.islands) << "step " << k;
      EXPECT_LE(s.pivots, 100) << "step " << k;
    }
  }
}

// Where a moving island's basis is no answer, its path starts there (a fast method's warm
// path) and counts in StepStats::warm_paths, apart from the warm starts: the jammed peg
// takes two in 3 s (measured), each with pivots; a cold run takes none.
TEST(WorldWarmStart, AMovingIslandsPathStartingAtItsBasisIsCounted) {
  const Scene scene = test::shipped_scene("peg_in_hole_jam.json");
  World warm(scene), cold_world(scene, cold());
  int warm_paths = 0;
  for (int k = 0; k < 300; ++k) {
    const StepStats& w = warm.step();
    ASSERT_EQ(w.failures + w.fallbacks, 0) << "step " << k;
    EXPECT_LE(w.warm_starts + w.warm_paths, w.islands) << "step " << k;
    if (w.warm_paths > 0) {
      EXPECT_GT(w.pivots, 0) << "step " << k;
    }
    warm_paths += w.warm_paths;
    EXPECT_EQ(cold_world.step().warm_paths, 0) << "step " << k;
  }
  EXPECT_GT(warm_paths, 0);
}

// The recovery push (a penetration deeper than the slop) starts from the step's answer
// basis: its LCP is the step's with mu = 0 and a deeper b, pushed by the contacts that carry
// the weight. Two boxes started 4 mm into the ground and into each other, pushed out at
// 0.05 m/s (0.5 mm a step): once the step's own solve is warm, each push is answered by its
// basis without a pivot (a cold push takes Lemke's path every step). The physics is the cold
// run's: the push's velocities are unique (frictionless), so both runs agree to round-off
// (the bounds of WarmStartScene), and both end out of the ground and of each other.
TEST(WorldWarmStart, RecoveryPushStartsFromTheStepsBasis) {
  const Vec3 size(0.2, 0.2, 0.2);
  const double depth_m = 0.004;
  const Scene scene = test::SceneBuilder()
                          .ground(0.5)
                          .box("low", size, 2.0, 0.5, Vec3(0, 0, 0.1 - depth_m))
                          .box("high", size, 2.0, 0.5, Vec3(0, 0, 0.3 - 2 * depth_m))
                          .recovery_speed(0.05)
                          .scene();
  World warm(scene), cold_world(scene, cold());
  int pushes = 0, warm_pushes = 0;
  long warm_pivots = 0, cold_pivots = 0;
  for (int k = 0; k < 30; ++k) {
    const StepStats& w = warm.step();
    const StepStats& s = cold_world.step();
    ASSERT_EQ(w.failures + w.fallbacks + s.failures + s.fallbacks, 0) << "step " << k;
    EXPECT_EQ(w.recoveries, s.recoveries) << "step " << k;
    if (w.recoveries > 0 && w.warm_starts == w.islands) {
      ++warm_pushes;
      EXPECT_EQ(w.pivots, 0) << "step " << k;
    }
    pushes += w.recoveries;
    warm_pivots += w.pivots;
    cold_pivots += s.pivots;
    for (size_t b = 0; b < scene.bodies.size(); ++b) {
      const BodyState& x = warm.state().bodies[b];
      const BodyState& y = cold_world.state().bodies[b];
      EXPECT_LT((x.pose.position - y.pose.position).norm(), 1e-9) << "step " << k;
      EXPECT_LT((x.twist.linear - y.twist.linear).norm(), 1e-8) << "step " << k;
    }
  }
  // 4 mm at 0.5 mm a step: eight pushes, the last ones smaller.
  EXPECT_GE(pushes, 7);
  EXPECT_GE(warm_pushes, pushes - 1);
  EXPECT_LT(warm_pivots, cold_pivots);
  EXPECT_LT(warm.step().max_penetration_m, kRecoverySlop_m);
  EXPECT_LT(cold_world.step().max_penetration_m, kRecoverySlop_m);
}

TEST(WorldWarmStart, ResetAndSetStateForgetTheBasis) {
  // A basis belongs to the state it was found in: after a reset or a jump to another state
  // the first step starts from Lemke's Step 0 again.
  World world(test::shipped_scene("block_stack_5.json"));
  for (int k = 0; k < 5; ++k) world.step();
  const WorldState saved = world.state();
  ASSERT_EQ(world.step().warm_starts, 1);
  world.reset();
  EXPECT_EQ(world.step().warm_starts, 0);
  EXPECT_EQ(world.step().warm_starts, 1);
  world.set_state(saved);
  EXPECT_EQ(world.step().warm_starts, 0);
}

}  // namespace
}  // namespace pivot
