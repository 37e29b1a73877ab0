// scenes/bin_pile_40.json (bench/bin_pile_scene.py 40 1, issue 21 item 5): 40 boxes,
// cylinders and spheres released from up to 1 m into an open bin of four fixed walls on the
// ground. Its claim: with the scene's own settings (reduced method, max formulation, a
// failed solve throws) every step solves, and after 10 s every body rests inside the bin.
// History: at 6cc233e the run stopped at step 345 after 691 s; at a0a16db 134 steps took
// 2,282 s and two failed; at 5d1d568 the 1.6 s run failed 9 steps (islands of 37 to 40
// bodies, z0 leaving within the noise bound) and a resting step took 400 ms (the warm
// start's keys collided); at 14ded49 it took 141 s, its main island never at rest (box edges
// across cylinder rims jittered by 1e-6 m a step); now about 20 s, at rest from t = 3 s
// (docs/robustness.md, "A box edge across a cylinder's rim").
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

// The bin's inner faces, taken from the scene's walls [m].
struct Bin {
  double x_min, x_max, y_min, y_max;
};

Bin bin_of(const Scene& scene) {
  const auto face = [&](const char* name, int axis, double side) {
    const int w = body_index(scene, name);
    return scene.initial_states[w].pose.position[axis] +
           side * std::get<Box>(scene.bodies[w].shape).half_extents_m[axis];
  };
  return Bin{face("wall_west", 0, 1), face("wall_east", 0, -1), face("wall_south", 1, 1),
             face("wall_north", 1, -1)};
}

// Expects every dynamic body of world inside the bin, within tol_m: inside the walls'
// inner faces and above the floor.
void expect_inside_bin(const World& world, double tol_m) {
  const Scene& scene = world.scene();
  const Bin bin = bin_of(scene);
  for (size_t b = 0; b < scene.bodies.size(); ++b) {
    if (scene.bodies[b].fixed) continue;
    const std::string& name = scene.bodies[b].name;
    const Shape& shape = scene.bodies[b].shape;
    const Vec3& p = world.state().bodies[b].pose.position;
    const Quat& q = world.state().bodies[b].pose.orientation;
    EXPECT_LE(p.x() + half_extent_m(shape, q, Vec3::UnitX()), bin.x_max + tol_m) << name;
    EXPECT_GE(p.x() - half_extent_m(shape, q, Vec3::UnitX()), bin.x_min - tol_m) << name;
    EXPECT_LE(p.y() + half_extent_m(shape, q, Vec3::UnitY()), bin.y_max + tol_m) << name;
    EXPECT_GE(p.y() - half_extent_m(shape, q, Vec3::UnitY()), bin.y_min - tol_m) << name;
    EXPECT_GE(p.z() - half_extent_m(shape, q, Vec3::UnitZ()), -tol_m) << name << " below the floor";
  }
}

// Expects every dynamic body's centre over the bin's floor, between its walls: nothing fell
// out. A body on top of a full bin may overhang a wall's top edge (box36 does, by 2 cm).
void expect_centres_inside_bin(const World& world) {
  const Scene& scene = world.scene();
  const Bin bin = bin_of(scene);
  for (size_t b = 0; b < scene.bodies.size(); ++b) {
    if (scene.bodies[b].fixed) continue;
    const Vec3& p = world.state().bodies[b].pose.position;
    EXPECT_TRUE(p.x() > bin.x_min && p.x() < bin.x_max && p.y() > bin.y_min && p.y() < bin.y_max &&
                p.z() > 0.0)
        << scene.bodies[b].name << " at " << p.transpose();
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

// Under the sanitizers a step is about ten times slower, and the landing (steps 20 to 100,
// islands of up to 40 bodies and 1,200 rows solved afresh) takes most of a run: the first
// 0.4 s of the same scene there, every step solved and nothing out of the bin.
#if defined(__SANITIZE_ADDRESS__)
constexpr double kDuration_s = 0.4;
#else
constexpr double kDuration_s = 10.0;
#endif
constexpr bool kWholeRun = kDuration_s >= 10.0;

// Issue 21, item 5, with the scene's own settings (reduced method, max formulation; a
// failed solve throws SolverFailure). The bodies land between 0.2 s and 1.5 s; contacts
// deeper than 1 mm occur only then (20.5 mm at most, step 35: a small box spinning at
// 35 rad/s meets a cylinder, which the step's linearised contact does not follow; not
// asserted, docs/robustness.md). When the landing ends moves with the trajectory: with a
// variant of the overlap search that was not kept, cylinder28 tumbled onto box12 until
// 1.4 s (4.9 mm deep at 1.18 s: its rim on the box's edge, turning at 2.7 rad/s). After
// the landing the gap term keeps every contact within the 1 mm, against the walls
// too (from 1 s on: 1.2e-6 m at 397b648, 1.6e-6 m at 76de30e, 2.3e-4 m with the overlap
// search's 0.01 rad first turn; from 1.5 s on: 9.8e-6 m with it). At 10 s every body's
// centre is inside the bin and every box moves below 1 mm/s (measured at both: every body
// but one below 1e-10 m/s). A sphere or a cylinder may still roll, which nothing in the
// model resists (no rolling resistance; point contacts without torsional friction): one
// sphere rolls on the floor at 0.27 mm/s or 3.6 mm/s, as solver changes move the
// trajectory, so those are held to 1 cm/s. At rest the contacts stay closed to round-off:
// from 5 s on no contact is deeper than 1e-9 m (1.1e-15 m measured). Box edges lying across
// cylinder rims, whose normals the distance search gave only to within 0.01 rad, were left
// 1e-6 m deep or apart after every step until the closest points of edge and rim were
// solved for (4.6e-6 m at 7 s before; the pile then never came to rest). At rest each
// step's answer is the last step's basis (the warm start, no pivot): in the last second at
// most 5 of the 100 steps pivot at all (none measured; before the fix at least 52 did,
// about 400 pivots a step on average).
TEST(BinPile, EveryStepSolvesAndThePileComesToRestInsideTheBin) {
  World world(shipped_scene("bin_pile_40.json"));
  const Scene& scene = world.scene();
  const double h = scene.settings.time_step_s;
  const long steps = std::lround(kDuration_s / h);
  const long landed = std::lround(1.5 / h);
  const long resting = std::lround(5.0 / h);
  const long last_second = steps - std::lround(1.0 / h);
  double deepest_after_landing_m = 0.0, deepest_at_rest_m = 0.0;
  int pivoting_in_last_second = 0;
  for (long k = 0; k < steps; ++k) {
    const StepStats& s = world.step();
    ASSERT_EQ(s.failures, 0) << "step " << k;
    if (k >= last_second && s.pivots > 0) ++pivoting_in_last_second;
    if (k >= landed)
      deepest_after_landing_m = std::max(deepest_after_landing_m, s.max_penetration_m);
    if (k >= resting) deepest_at_rest_m = std::max(deepest_at_rest_m, s.max_penetration_m);
  }
  expect_centres_inside_bin(world);
  if (!kWholeRun) return;
  EXPECT_LT(deepest_after_landing_m, 1e-3);
  EXPECT_LT(deepest_at_rest_m, 1e-9);
  EXPECT_LE(pivoting_in_last_second, 5);
  for (size_t b = 0; b < scene.bodies.size(); ++b) {
    const double limit_mps = std::holds_alternative<Box>(scene.bodies[b].shape) ? 1e-3 : 1e-2;
    EXPECT_LT(world.state().bodies[b].twist.linear.norm(), limit_mps) << scene.bodies[b].name;
  }
}

}  // namespace
}  // namespace pivot
