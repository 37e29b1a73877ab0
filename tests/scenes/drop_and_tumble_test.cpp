// scenes/drop_and_tumble.json: five shapes dropped with spin onto a floor and a resting
// crate. Its claim: nothing bounces, nothing sinks, energy only drains, and the flat-sided
// bodies come to rest where they landed (the ball and the capsule may roll on: there is no
// rolling resistance in the model).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "pivot/geometry.hpp"
#include "pivot/world.hpp"
#include "support/shipped_scene.hpp"

namespace pivot {
namespace {

using test::body_index;
using test::shipped_scene;

TEST(DropAndTumble, EverythingLandsWithoutBouncingOrSinkingAndTheBoxesRest) {
  World world(shipped_scene("drop_and_tumble.json"));
  const Scene& scene = world.scene();
  const double h = scene.settings.time_step_s;
  const double g = scene.settings.gravity_mps2.norm();
  double mass = 0.0;
  for (const Body& b : scene.bodies) mass += b.fixed ? 0.0 : b.mass_kg;
  // tests/world/impact_test.cpp: the first-order step's own energy term, m g^2 h^2.
  const double budget_j = mass * g * g * h * h;

  // After a body's first contact its centre of mass never climbs above where it was at
  // that contact plus its bounding radius: a bounce would throw it higher.
  std::vector<double> ceiling(scene.bodies.size(), 1e300);
  double deepest = 0.0;
  for (int k = 0; k < 600; ++k) {
    const double e0 = world.energy_j();
    const StepStats& stats = world.step();
    EXPECT_LE(world.energy_j() - e0, budget_j) << "step " << k;
    EXPECT_EQ(stats.failures, 0) << "step " << k;
    deepest = std::max(deepest, stats.max_penetration_m);
    for (const ContactImpulse& i : world.impulses()) {
      if (i.normal_ns <= 0.0) continue;
      const Contact& c = world.collision().contacts[i.contact];
      for (int b : {c.body_a, c.body_b}) {
        if (scene.bodies[b].fixed || ceiling[b] < 1e300) continue;
        ceiling[b] =
            world.state().bodies[b].pose.position.z() + bounding_radius_m(scene.bodies[b].shape);
      }
    }
    for (size_t b = 0; b < scene.bodies.size(); ++b) {
      EXPECT_LE(world.state().bodies[b].pose.position.z(), ceiling[b])
          << scene.bodies[b].name << " bounced at step " << k;
    }
  }
  // The capsule, spun to ~20 rad/s by the cube's edge, turns 0.2 rad a step: the
  // first-order step leaves overlaps of r (h w)^2 / 2 = 3 mm, recovered the next steps.
  EXPECT_LT(deepest, 5e-3);

  // At rest after 6 s: the crate where it stood, the cube on the crate, the cylinder on
  // its side or end and the pebble on the floor; 1 mm/s is far below visible motion.
  for (const char* name : {"crate", "cube", "cylinder", "pebble"}) {
    const BodyState& s = world.state().bodies[body_index(scene, name)];
    EXPECT_LT(s.twist.linear.norm(), 1e-3) << name;
    EXPECT_LT(s.twist.angular.norm(), 1e-2) << name;
  }
  EXPECT_NEAR(world.state().bodies[body_index(scene, "crate")].pose.position.z(), 0.15, 1e-5);
  // The cube's half size above the crate's top (0.3 m), within the recovery slop.
  EXPECT_NEAR(world.state().bodies[body_index(scene, "cube")].pose.position.z(), 0.38, 1e-4);
  // The ball ends on the floor, its centre one radius up.
  EXPECT_NEAR(world.state().bodies[body_index(scene, "ball")].pose.position.z(), 0.07, 1e-4);
}

}  // namespace
}  // namespace pivot
