// World::step in substeps where a body spins too fast for h to resolve its rotation
// (rotation_substeps, docs/stewart-trinkle.md): a needle dropped with a slow tumble spins
// up about its axis at impact, and with one rotation a step it stood up on its tip. And
// where a step, taken whole, left a contact deeper than its linearisation predicted
// (contact_substeps): it is taken again in substeps.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "dynamics/contact_linearization.hpp"
#include "pivot/scene.hpp"
#include "pivot/world.hpp"
#include "support/shipped_scene.hpp"

namespace pivot {
namespace {

// tests/world/needle_drop.json: a capsule of radius 2 mm and half-length 0.2 m, dropped
// upright onto a floor with a slow tumble.
Scene needle_scene() {
  return read_scene_file(std::string(PIVOT_SOURCE_DIR) + "/tests/world/needle_drop.json").scene;
}

// At h = 0.01 s the impact spins the needle to hundreds of rad/s about its axis. In
// substeps it falls over and lies on the floor within the 5 s, as it does stepped at
// h = 0.001 s; in one rotation a step it stood on its tip the whole time, its tip 4.4 mm
// deep. Energy only drains (the step's own term m g^2 h^2 aside, tests/world/impact_test),
// and the step keeps its h, time and index.
TEST(Substeps, ANeedleSpinningAboutItsAxisFallsOverAndLiesOnTheFloor) {
  World world(needle_scene());
  const int needle = test::body_index(world.scene(), "needle");
  const double h = world.scene().settings.time_step_s;
  const double g = 9.81;
  const double budget_j = world.scene().bodies[needle].mass_kg * g * g * h * h;
  int most = 1;
  int fast_spins = 0;  // steps in substeps for the spin, not for a retake
  double deepest = 0.0;
  for (int k = 0; k < 500; ++k) {
    const double e0 = world.energy_j();
    const StepStats& st = world.step();
    EXPECT_LE(world.energy_j() - e0, budget_j) << "step " << k;
    EXPECT_EQ(st.failures, 0);
    EXPECT_DOUBLE_EQ(st.time_step_s * st.substeps, h) << "step " << k;
    most = std::max(most, st.substeps);
    fast_spins += substep_cause(st) == SubstepCause::FastSpin;
    deepest = std::max(deepest, st.max_penetration_m);
  }
  EXPECT_GE(most, 5);
  EXPECT_GE(fast_spins, 1);
  EXPECT_EQ(world.state().step, 500);
  EXPECT_NEAR(world.state().time_s, 5.0, 1e-9);
  EXPECT_EQ(world.scene().settings.time_step_s, h);
  // Lying: its centre one radius above the floor, its axis level.
  const BodyState& s = world.state().bodies[needle];
  EXPECT_NEAR(s.pose.position.z(), 0.002, 1e-4);
  EXPECT_NEAR((s.pose.orientation * Vec3::UnitZ()).z(), 0.0, 0.01);
  EXPECT_LT(deepest, 1e-3);
}

// tests/world/corner_strike.json: a box falling at 12.4 m/s past the corner of one spinning
// on the ground. Taken whole, the first step spun the falling box to 28 rad/s while the
// other's corner slid along its face, and the corner ended 34 mm inside it (67 mm two steps
// later, measured at 99c3627). Retaken in 6 substeps, and the next five steps carried from
// it, no contact or group is ever deeper than the retake's tolerance (1.1 mm a substep, 1 %
// of the boxes' bounding radius; 0.38 mm measured, 2.1 mm when only the steps that strayed
// were taken in substeps), energy never rises, and the boxes come to rest. Where they rest
// turns on h: at h = 0.5 to 4 ms the falling box ends on the other; at 5 ms it ends standing
// on its end beside it, with or without carried substeps, and so it does at 10 ms with them
// (on top without them). Either way each box lies on a face, the
// spinning one on the ground, the falling one on the ground or on the spinning one.
TEST(Substeps, AStepThatEndsAContactDeeperThanItsLinearisationIsRetaken) {
  World world(
      read_scene_file(std::string(PIVOT_SOURCE_DIR) + "/tests/world/corner_strike.json").scene);
  const double h = world.scene().settings.time_step_s;
  double deepest = 0.0;
  for (int k = 0; k < 100; ++k) {
    const double e0 = world.energy_j();
    const StepStats& st = world.step();
    ASSERT_EQ(st.failures + st.fallbacks, 0) << "step " << k;
    EXPECT_LE(world.energy_j(), e0) << "step " << k;
    EXPECT_DOUBLE_EQ(st.time_step_s * st.substeps, h) << "step " << k;
    EXPECT_EQ(st.retaken || st.carried, st.substeps > 1) << "step " << k;  // no fast spin
    if (k == 0) {
      EXPECT_TRUE(st.retaken);
      EXPECT_EQ(st.substeps, 6);
    }
    const CollisionResult& found = world.collision();
    for (const Contact& c : found.contacts) deepest = std::max(deepest, -c.gap_m);
    for (const ContactGroup& g : found.groups) {
      double largest = -1.0;
      for (const ContactSide& side : g.sides) largest = std::max(largest, side.gap_m);
      deepest = std::max(deepest, -largest);
    }
  }
  const double radius = std::sqrt(0.08 * 0.08 + 0.06 * 0.06 + 0.05 * 0.05);  // the boxes'
  EXPECT_LT(deepest, kMissedDepthRel * radius);
  EXPECT_EQ(world.state().step, 100);
  EXPECT_NEAR(world.state().time_s, 1.0, 1e-9);
  const BodyState& spinning = world.state().bodies[test::body_index(world.scene(), "spinning")];
  const BodyState& falling = world.state().bodies[test::body_index(world.scene(), "falling")];
  EXPECT_LT(spinning.twist.linear.norm() + falling.twist.linear.norm(), 1e-3);
  EXPECT_LT(spinning.twist.angular.norm() + falling.twist.angular.norm(), 1e-2);
  const double half_extents[] = {0.05, 0.06, 0.08};
  auto on_a_face = [&](double z, double below) {  // z of a centre, below: what it lies on
    return std::any_of(std::begin(half_extents), std::end(half_extents),
                       [&](double e) { return std::abs(z - e - below) < 1e-3; });
  };
  EXPECT_TRUE(on_a_face(spinning.pose.position.z(), 0.0)) << spinning.pose.position.z();
  bool falling_rests = on_a_face(falling.pose.position.z(), 0.0);
  for (double e : half_extents) {
    if (std::abs(spinning.pose.position.z() - e) < 1e-3) {
      falling_rests = falling_rests || on_a_face(falling.pose.position.z(), 2.0 * e);
    }
  }
  EXPECT_TRUE(falling_rests) << falling.pose.position.z();
}

// The steps after a retaken one start in its substeps, one fewer a step, since what made
// it stray lasts: after the corner strike's first step (retaken in 6), the falling box
// still spins and slides over the other. Carried, none of them is retaken. The carry is part
// of the state: set again (the viewer's Back), the state steps on as it did; with a carry of
// 1 (a state read from a recording) the step is taken whole first.
TEST(Substeps, TheStepsAfterARetakenOneStartInItsSubstepsOneFewerAStep) {
  World world(
      read_scene_file(std::string(PIVOT_SOURCE_DIR) + "/tests/world/corner_strike.json").scene);
  const StepStats& first = world.step();
  ASSERT_TRUE(first.retaken);
  EXPECT_FALSE(first.carried);
  EXPECT_EQ(first.substeps, 6);
  EXPECT_EQ(substep_cause(first), SubstepCause::Retaken);
  const WorldState after_first = world.state();
  for (int expected : {6, 5, 4, 3, 2, 1}) {
    const StepStats& st = world.step();
    EXPECT_EQ(st.substeps, expected);
    EXPECT_EQ(st.carried, expected > 1);
    EXPECT_FALSE(st.retaken);
    EXPECT_EQ(substep_cause(st), expected > 1 ? SubstepCause::Carried : SubstepCause::None);
  }
  EXPECT_EQ(after_first.carried_substeps, 6);
  EXPECT_EQ(world.state().carried_substeps, 1);
  world.set_state(after_first);
  const StepStats& again = world.step();
  EXPECT_TRUE(again.carried);
  EXPECT_EQ(again.substeps, 6);
  WorldState uncarried = after_first;
  uncarried.carried_substeps = 1;
  world.set_state(uncarried);
  const StepStats& afresh = world.step();
  EXPECT_FALSE(afresh.carried);
  EXPECT_TRUE(afresh.substeps == 1 || afresh.retaken);
  uncarried.carried_substeps = 65;
  try {
    world.set_state(uncarried);
    ADD_FAILURE() << "a carry of 65 was taken";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "state's carried_substeps must be 1 to 64, got 65");
  }
  EXPECT_EQ(world.state().step, 2);  // the refused state was not set
}

// No shipped scene has a body spinning that fast: their steps are one substep each unless
// retaken for a contact (as the bin pile's landing is: 8 steps in its first 0.4 s) or carried
// from such a step, so
// their trajectories are otherwise those of the one-rotation step. Three seconds of each
// (every drop has landed, every push been given), the bin pile's first 0.4 s (its landing,
// which follows, costs seconds a step under ASan).
TEST(Substeps, NoShippedSceneSpinsFastEnoughToTakeThem) {
  const std::vector<std::string> files = test::shipped_scene_files();
  ASSERT_GE(files.size(), 20u);
  for (const std::string& file : files) {
    World world(test::shipped_scene(file));
    const int steps = file == "bin_pile_40.json" ? 40 : 300;
    for (int k = 0; k < steps; ++k) {
      const StepStats& st = world.step();
      ASSERT_TRUE(st.substeps == 1 || st.retaken || st.carried) << file << " step " << k;
    }
  }
}

}  // namespace
}  // namespace pivot
