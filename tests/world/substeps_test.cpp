// World::step in substeps where a body spins too fast for h to resolve its rotation
// (rotation_substeps, docs/stewart-trinkle.md): a needle dropped with a slow tumble spins
// up about its axis at impact, and with one rotation a step it stood up on its tip.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

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
  double deepest = 0.0;
  for (int k = 0; k < 500; ++k) {
    const double e0 = world.energy_j();
    const StepStats& st = world.step();
    EXPECT_LE(world.energy_j() - e0, budget_j) << "step " << k;
    EXPECT_EQ(st.failures, 0);
    EXPECT_DOUBLE_EQ(st.time_step_s * st.substeps, h) << "step " << k;
    most = std::max(most, st.substeps);
    deepest = std::max(deepest, st.max_penetration_m);
  }
  EXPECT_GE(most, 5);
  EXPECT_EQ(world.state().step, 500);
  EXPECT_NEAR(world.state().time_s, 5.0, 1e-9);
  EXPECT_EQ(world.scene().settings.time_step_s, h);
  // Lying: its centre one radius above the floor, its axis level.
  const BodyState& s = world.state().bodies[needle];
  EXPECT_NEAR(s.pose.position.z(), 0.002, 1e-4);
  EXPECT_NEAR((s.pose.orientation * Vec3::UnitZ()).z(), 0.0, 0.01);
  EXPECT_LT(deepest, 1e-3);
}

// No shipped scene has a body spinning that fast: their steps are one substep each, so
// their trajectories are those of the one-rotation step. Three seconds of each (every drop
// has landed, every push been given), the bin pile's first 0.4 s (its landing, which
// follows, costs seconds a step under ASan).
TEST(Substeps, NoShippedSceneTakesThem) {
  const std::vector<std::string> files = test::shipped_scene_files();
  ASSERT_GE(files.size(), 20u);
  for (const std::string& file : files) {
    World world(test::shipped_scene(file));
    const int steps = file == "bin_pile_40.json" ? 40 : 300;
    for (int k = 0; k < steps; ++k) ASSERT_EQ(world.step().substeps, 1) << file << " step " << k;
  }
}

}  // namespace
}  // namespace pivot
