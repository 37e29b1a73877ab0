// scenes/bin_pile_40.json (bench/bin_pile_scene.py 40 1, issue 21 item 5): 40 boxes,
// cylinders and spheres released from up to 1 m into an open bin of four fixed walls on the
// ground. Its claim, not asserted here because it does not hold yet: with the scene's own
// settings (reduced method, max formulation, a failed solve throws) every step solves,
// nothing sinks more than 1 mm into anything, and after 10 s every body rests inside the
// bin. First measured at 6cc233e: the run stopped at step 345 after 691 s, 37.7 mm deep
// at step 154, most of it cylinders held at one point (now fixed: docs/robustness.md, "A
// tilted cylinder rocking on a box"). Measured at a0a16db (Release, 2 shared cores):
// `pivot run scenes/bin_pile_40.json --duration 10 --keep-going` ran 134 steps in 2,282 s
// (8,927 pivots a step on average, 165,359 at most) and failed steps 93 and 104 (islands
// of about 180 contacts: the reduced method ends 1.7e-2 below zero on step 93 after
// 6,208 pivots; items 1-3 of issue 21); the deepest contact was 20.5 mm, where a wide
// cylinder spinning at 10 rad/s met a box falling at 3 m/s (step 35): the linearised
// contact of a 10 ms step does not follow that rotation. Since (840b3e0) the max search
// stops climbing the fallback chain once it has failed a selection and the dense stages
// keep to one pivot limit, yet step 78 still held the run for over 8 minutes, the
// backtraces in the standard stage's refactorisations (StandardLemke::refactor).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <variant>

#include "pivot/geometry.hpp"
#include "pivot/world.hpp"
#include "support/shipped_scene.hpp"

namespace pivot {
namespace {

using test::body_index;
using test::shipped_scene;

// Half the extent along the world direction e (unit) of a shape turned by q: the support
// distance from its centre, for the three shapes the bin holds.
double half_extent_m(const Shape& shape, const Quat& q, const Vec3& e) {
  const Vec3 local = q.conjugate() * e;
  if (const auto* box = std::get_if<Box>(&shape)) {
    return local.cwiseAbs().dot(box->half_extents_m);
  }
  if (const auto* sphere = std::get_if<Sphere>(&shape)) return sphere->radius_m;
  const auto& cylinder = std::get<Cylinder>(shape);
  const double along = std::abs(local.z());
  return cylinder.radius_m * std::sqrt(std::max(0.0, 1.0 - along * along)) +
         cylinder.half_length_m * along;
}

// Expects every dynamic body of world inside the bin, within tol_m: inside the walls'
// inner faces (taken from the scene) and above the floor.
void expect_inside_bin(const World& world, double tol_m) {
  const Scene& scene = world.scene();
  const auto face = [&](const char* name, int axis, double side) {
    const int w = body_index(scene, name);
    return scene.initial_states[w].pose.position[axis] +
           side * std::get<Box>(scene.bodies[w].shape).half_extents_m[axis];
  };
  const double x_max = face("wall_east", 0, -1), x_min = face("wall_west", 0, 1);
  const double y_max = face("wall_north", 1, -1), y_min = face("wall_south", 1, 1);
  for (size_t b = 0; b < scene.bodies.size(); ++b) {
    if (scene.bodies[b].fixed) continue;
    const std::string& name = scene.bodies[b].name;
    const Shape& shape = scene.bodies[b].shape;
    const Vec3& p = world.state().bodies[b].pose.position;
    const Quat& q = world.state().bodies[b].pose.orientation;
    EXPECT_LE(p.x() + half_extent_m(shape, q, Vec3::UnitX()), x_max + tol_m) << name;
    EXPECT_GE(p.x() - half_extent_m(shape, q, Vec3::UnitX()), x_min - tol_m) << name;
    EXPECT_LE(p.y() + half_extent_m(shape, q, Vec3::UnitY()), y_max + tol_m) << name;
    EXPECT_GE(p.y() - half_extent_m(shape, q, Vec3::UnitY()), y_min - tol_m) << name;
    EXPECT_GE(p.z() - half_extent_m(shape, q, Vec3::UnitZ()), -tol_m) << name << " below the floor";
  }
}

// What the generator promises: every body starts inside the bin, 1 cm clear of the walls,
// the floor and the others (bounding spheres), so the first step finds no contact within
// its margin (|g| h^2 = 1 mm) and each body falls freely: g h after it.
TEST(BinPile, EveryBodyStartsInsideTheBinTouchingNothing) {
  World world(shipped_scene("bin_pile_40.json"));
  const Scene& scene = world.scene();
  EXPECT_EQ(scene.bodies.size(), 45u);  // the ground, four walls, 40 bodies
  expect_inside_bin(world, -0.0099);    // 1 cm less the file's rounding (0.05 mm)
  const StepStats& stats = world.step();
  EXPECT_EQ(stats.contacts, 0);
  const double fall_mps = scene.settings.gravity_mps2.norm() * scene.settings.time_step_s;
  for (size_t b = 0; b < scene.bodies.size(); ++b) {
    if (scene.bodies[b].fixed) continue;
    EXPECT_NEAR(world.state().bodies[b].twist.linear.z(), -fall_mps, 1e-12) << scene.bodies[b].name;
  }
}

}  // namespace
}  // namespace pivot
