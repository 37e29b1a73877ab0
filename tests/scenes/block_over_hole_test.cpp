// Egan, Berard and Trinkle's Fig. 1 in 3-D (scenes/block_over_hole_*.json): a block sliding
// across a hole in a table, under each nonconvex formulation.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "pivot/world.hpp"
#include "support/shipped_scene.hpp"

namespace pivot {
namespace {

using test::body_index;
using test::run_until;
using test::shipped_scene;

constexpr double kG = 9.81;
constexpr double kHalfLength_m = 0.15;  // of the block, along the slide
constexpr double kHalfHeight_m = 0.05;

BodyState slide(const char* file, NonconvexFormulation formulation, double t_s) {
  World world(shipped_scene(file));
  world.settings().nonconvex = formulation;
  run_until(&world, t_s);
  return world.state().bodies[body_index(world.scene(), "block")];
}

class BlockOverNarrowHole : public ::testing::TestWithParam<NonconvexFormulation> {};

TEST_P(BlockOverNarrowHole, SlidesOverAndStopsWhereFrictionStopsIt) {
  // Sliding at v0 = 2 m/s with mu = 0.2 the block stops after v0^2 / (2 mu g) = 1.02 m,
  // at x = -0.4 + 1.02 = 0.62 m; the hole and the 1 mm step down do not change that
  // beyond the first-order step error v0 h / 2 = 1 cm (so 2 cm).
  const BodyState block = slide("block_over_hole_narrow.json", GetParam(), 1.2);
  EXPECT_NEAR(block.pose.position.x(), -0.4 + 4.0 / (2 * 0.2 * kG), 0.02);
  // On the far side, 1 mm lower, flat: resting contact holds to round-off.
  EXPECT_NEAR(block.pose.position.z(), kHalfHeight_m - 0.001, 1e-6);
  EXPECT_LT(block.twist.linear.norm(), 1e-6);
  EXPECT_NEAR(block.pose.orientation.w(), 1.0, 1e-9);
}

INSTANTIATE_TEST_SUITE_P(Formulations, BlockOverNarrowHole,
                         ::testing::Values(NonconvexFormulation::Max, NonconvexFormulation::Sum),
                         [](const ::testing::TestParamInfo<NonconvexFormulation>& formulation) {
                           return std::string(to_string(formulation.param));
                         });

TEST(BlockOverNarrowHole, CatchesOnTheRimWithNonconvexOff) {
  // Egan's artifact: the far wall's plane, taken as a half-space that extends above the
  // table, stops the block's front corners before the rim at x = 0.06 m (a rigid stop:
  // the front face ends within the contact margin of it, never beyond).
  const BodyState block = slide("block_over_hole_narrow.json", NonconvexFormulation::Off, 1.2);
  const double front = block.pose.position.x() + kHalfLength_m;
  EXPECT_LT(front, 0.06);
  EXPECT_GT(front, 0.06 - 0.03);
  EXPECT_LT(block.twist.linear.norm(), 1e-6);
}

class BlockOverWideHole : public ::testing::TestWithParam<NonconvexFormulation> {};

TEST_P(BlockOverWideHole, TipsIntoThePit) {
  // Wider than the block, the hole gives way under it: it ends flat on the pit's floor
  // (z = -0.15 m), its centre at -0.15 + 0.05, inside the 0.45 m hole.
  const BodyState block = slide("block_over_hole_wide.json", GetParam(), 1.0);
  EXPECT_NEAR(block.pose.position.z(), -0.15 + kHalfHeight_m, 1e-6);
  EXPECT_LT(std::abs(block.pose.position.x()), 0.225 - kHalfLength_m + 1e-6);
}

INSTANTIATE_TEST_SUITE_P(Formulations, BlockOverWideHole,
                         ::testing::Values(NonconvexFormulation::Max, NonconvexFormulation::Sum),
                         [](const ::testing::TestParamInfo<NonconvexFormulation>& formulation) {
                           return std::string(to_string(formulation.param));
                         });

}  // namespace
}  // namespace pivot
