// block_stack_topple.json: a push on the top block of a stack topples it above the force
// that moment balance predicts, and not below. (The stacks' rest without drift is checked
// with the other resting scenes in resting_scene_test.cpp.)
#include <gtest/gtest.h>

#include <cmath>
#include <utility>

#include "pivot/world.hpp"
#include "support/shipped_scene.hpp"

namespace pivot {
namespace {

using test::body_index;
using test::run_until;
using test::shipped_scene;

// The slender top block: width w along the push, height h; the push is horizontal at its
// top edge, on the side away from the tipping edge.
constexpr double kWidth_m = 0.05, kHeight_m = 0.3;
constexpr double kScenePushFactor = 1.2;  // the scene pushes with 1.2 times the threshold

// Moment balance about the far bottom edge (the one it would tip over): the push acts h
// above it with moment F h, the weight w/2 beside it with m g w/2. Below F* = m g w / (2 h)
// the contacts under the near edge stay loaded and the block stays put; above it they
// unload and it turns about the far edge. Sliding would need F > mu m g, which is
// 2 mu h / w = 7.2 times F* here: h > w / mu, so it tips first.
double tipping_force_n(const Scene& scene) {
  const Body& top = scene.bodies[body_index(scene, "top")];
  return top.mass_kg * -scene.settings.gravity_mps2.z() * kWidth_m / (2.0 * kHeight_m);
}

// The top block's tilt [rad] after t_s with the scene's push scaled to factor times F*.
double tilt_after_push(double factor, double t_s) {
  Scene scene = shipped_scene("block_stack_topple.json");
  const double threshold = tipping_force_n(scene);
  EXPECT_NEAR(scene.wrenches.at(0).force_n.x(), kScenePushFactor * threshold, 1e-6 * threshold);
  scene.wrenches.at(0).force_n.x() = factor * threshold;
  World world(std::move(scene));
  const int top = body_index(world.scene(), "top");
  run_until(&world, t_s);
  return world.state().bodies[top].pose.orientation.angularDistance(
      world.scene().initial_states[top].pose.orientation);
}

TEST(BlockStackTopple, PushTwentyPercentBelowTheTippingForceLeavesTheTopBlockStanding) {
  // Static: the LCP holds it exactly, round-off only (1e-9 rad) over 1.5 s of pushing.
  EXPECT_LT(tilt_after_push(0.8, 1.6), 1e-9);
}

TEST(BlockStackTopple, PushTwentyPercentAboveTheTippingForceTopplesTheTopBlock) {
  // Past tan(theta) = w / h (9.5 degrees) its weight turns it further too; by 1.6 s it lies
  // on its side, well past 45 degrees.
  EXPECT_GT(tilt_after_push(kScenePushFactor, 1.6), std::atan(1.0));
}

}  // namespace
}  // namespace pivot
