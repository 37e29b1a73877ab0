// Impacts against physics: Stewart–Trinkle contact is inelastic (no restitution), so a
// dropped or thrown body lands without bouncing, energy never grows beyond what the
// integrator itself adds, momentum is kept between free bodies, and a body written into
// another is pushed out at the documented speed without being given any velocity.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <variant>
#include <vector>

#include "dynamics/penetration_recovery.hpp"
#include "pivot/geometry.hpp"
#include "pivot/world.hpp"
#include "support/scene_builder.hpp"

namespace pivot {
namespace {

using test::SceneBuilder;

constexpr double kG = 9.81;
// The depth the velocity step still removes at once (docs/scene-format.md).
constexpr double kSlop_m = kRecoverySlop_m;

// Energy E = kinetic + m g z changes per step by the integrator itself: symplectic Euler
// loses m g^2 h^2 / 2 per step in free fall, and where contact impulses turn the velocity
// the first-order position update moves points along tangents rather than arcs, by up to
// the same order. A gain of m g^2 h^2 per step (1 mJ for 1 kg at h = 0.01 s) is that term
// with a factor of two; the bounces this guards against gain joules in one step.
double energy_budget_j(const World& world) {
  double mass = 0.0;
  for (const Body& b : world.scene().bodies) mass += b.fixed ? 0.0 : b.mass_kg;
  const double h = world.scene().settings.time_step_s;
  return mass * kG * kG * h * h;
}

Shape hull_about_its_centre_of_mass() {
  // An irregular pebble: the hull of 14 points, moved so that its centre of mass is the
  // body origin (SceneBuilder::body needs that).
  const std::vector<Vec3> points = {
      {0.12, 0.0, 0.02},    {-0.1, 0.03, 0.0},    {0.0, 0.11, -0.03},  {0.02, -0.09, 0.01},
      {0.01, 0.02, 0.08},   {-0.02, 0.0, -0.07},  {0.07, 0.07, 0.05},  {-0.06, -0.06, 0.04},
      {0.06, -0.05, -0.05}, {-0.07, 0.06, -0.04}, {0.09, 0.02, -0.04}, {-0.03, -0.08, -0.03},
      {0.03, 0.05, 0.07},   {-0.08, -0.02, 0.05}};
  ConvexMesh mesh = make_convex_mesh(points);
  const Vec3 com = compute_mass_properties(mesh, 1.0).center_of_mass_m;
  std::vector<Vec3> centred;
  for (const Vec3& p : mesh.vertices) centred.push_back(p - com);
  return make_convex_mesh(centred);
}

Shape shape_of(const std::string& kind) {
  if (kind == "box") return Box{Vec3(0.1, 0.1, 0.1)};
  if (kind == "sphere") return Sphere{0.1};
  if (kind == "cylinder") return Cylinder{0.08, 0.1};
  if (kind == "capsule") return Capsule{0.06, 0.1};
  return hull_about_its_centre_of_mass();
}

struct DropCase {
  std::string shape;
  double h_s;
  int d;
};

std::string case_name(const ::testing::TestParamInfo<DropCase>& info) {
  return info.param.shape + "_h" + std::to_string(static_cast<int>(info.param.h_s * 1000)) +
         "ms_d" + std::to_string(info.param.d);
}

class Drop : public ::testing::TestWithParam<DropCase> {};

// Four drops per case from 0.3 to 2 m (impact at 2.4 to 6.3 m/s), random orientation and a
// spin of up to 3 rad/s about each axis, 4 s each, mu 0.5, density 1000.
TEST_P(Drop, LandsWithoutBouncingOrSinkingAndNeverGainsEnergy) {
  const DropCase c = GetParam();
  const Shape shape = shape_of(c.shape);
  const double radius = bounding_radius_m(shape);
  std::mt19937 random(std::hash<std::string>{}(case_name({c, 0})));
  std::uniform_real_distribution<double> height(0.3, 2.0), spin(-3.0, 3.0), unit(-1.0, 1.0);
  for (int drop = 0; drop < 4; ++drop) {
    const Quat orientation =
        Quat(Eigen::Vector4d(unit(random), unit(random), unit(random), unit(random))).normalized();
    const double z0 = radius + height(random);
    const Vec3 w0(spin(random), spin(random), spin(random));
    Scene scene = SceneBuilder()
                      .ground(0.5)
                      .body("pebble", shape, 1000.0, 0.5, Vec3(0, 0, z0), orientation)
                      .velocity(Vec3::Zero(), w0)
                      .time_step(c.h_s)
                      .directions(c.d)
                      .scene();
    scene.settings.contact_margin_m.reset();  // the default a user gets
    World world(scene);
    const double budget = energy_budget_j(world);
    bool touched = false;
    double highest_after_contact = 0.0, deepest = 0.0, largest_gain = -1e300;
    const int steps = static_cast<int>(std::lround(4.0 / c.h_s));
    for (int k = 0; k < steps; ++k) {
      const double e0 = world.energy_j();
      deepest = std::max(deepest, world.step().max_penetration_m);
      largest_gain = std::max(largest_gain, world.energy_j() - e0);
      for (const ContactImpulse& i : world.impulses()) touched = touched || i.normal_ns > 0.0;
      if (touched) {
        highest_after_contact =
            std::max(highest_after_contact, world.state().bodies[1].pose.position.z());
      }
    }
    const std::string what =
        c.shape + " drop " + std::to_string(drop) + " from z0 = " + std::to_string(z0) + " m";
    ASSERT_TRUE(touched) << what;
    // Resting on the ground, the centre of mass is at most the bounding radius high; a
    // bounce lifts it above. 2 mm is the tolerance the issue states.
    EXPECT_LE(highest_after_contact, radius + 2e-3) << what;
    EXPECT_LT(deepest, 1e-3) << what;
    EXPECT_LE(largest_gain, budget) << what;
    if (c.shape == "box" || c.shape == "hull") {
      // Flat faces stop rolling: at rest within 4 s. Resting contact holds the velocity
      // at round-off; 1 mm/s and 0.01 rad/s are far below any motion a user would see.
      const Twist& v = world.state().bodies[1].twist;
      EXPECT_LT(v.linear.norm(), 1e-3) << what;
      EXPECT_LT(v.angular.norm(), 1e-2) << what;
    }
  }
}

std::vector<DropCase> drop_cases() {
  std::vector<DropCase> cases;
  for (const char* shape : {"box", "sphere", "cylinder", "capsule", "hull"}) {
    for (double h : {0.01, 0.005}) {
      for (int d : {4, 8}) cases.push_back({shape, h, d});
    }
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(EveryShape, Drop, ::testing::ValuesIn(drop_cases()), case_name);

TEST(Impact, BoxDroppedFlatStopsDeadAtTheGround) {
  // Flat from 1 m: the step that closes the last gap f ends at v = -f/h, exactly on the
  // ground (Egan (5) with nu = 0), and the next one at rest. Round-off of a 0.1 m pose is
  // 1e-17 m, so 1e-12 m and 1e-10 m/s leave room for the gap computation and nothing else.
  Scene scene =
      SceneBuilder().ground(0.5).box("box", Vec3(0.2, 0.2, 0.2), 8.0, 0.5, Vec3(0, 0, 1.1)).scene();
  scene.settings.contact_margin_m.reset();
  World world(scene);
  int landed = -1;
  for (int k = 0; k < 200; ++k) {
    world.step();
    const BodyState& s = world.state().bodies[1];
    double theta = 0.0;
    for (const ContactImpulse& i : world.impulses()) theta += i.normal_ns;
    if (landed < 0 && theta > 0.0) {
      landed = k;
      // The landing step's impulse took out all the speed but what closes the gap.
      EXPECT_NEAR(s.pose.position.z(), 0.1, 1e-12);
    } else if (landed >= 0) {
      EXPECT_NEAR(s.pose.position.z(), 0.1, 1e-12) << "step " << k;
      EXPECT_LT(s.twist.linear.norm(), 1e-10) << "step " << k;
      EXPECT_LT(s.twist.angular.norm(), 1e-10) << "step " << k;
    }
  }
  // Free fall of 1 m takes sqrt(2 / g) = 0.45 s, 45 steps.
  EXPECT_GE(landed, 40);
  EXPECT_LE(landed, 47);
}

// A long cylinder or capsule (the bin pile's cylinder10: r 17.8 mm, 12.6 cm long) dropped
// almost flat (tilted 0.05 rad) from 2 cm onto a box resting on the ground. Touching at its
// lowest point alone, each step, it rocked about one end then the other at 1.8 rad/s for
// as long as it ran, the other end 4 mm inside the box (issue 21 item 5). It must come to
// rest on the box's face within 1 s and stay there: after that no contact deeper than the
// recovery slop, and the same velocity bounds as a box at rest on the ground (Drop).
TEST(Impact, LongBodyDroppedNearlyFlatOntoABoxComesToRestOnIt) {
  for (const Shape& shape : {Shape{Cylinder{0.0178, 0.0628}}, Shape{Capsule{0.0178, 0.0628}}}) {
    const bool cylinder = std::holds_alternative<Cylinder>(shape);
    const double radius = 0.0178, lowest = radius + 0.0628 * std::sin(0.05);
    Scene scene = SceneBuilder()
                      .ground(0.5)
                      .box("box", Vec3(0.141, 0.146, 0.062), 0.64, 0.5, Vec3(0, 0, 0.031))
                      .body("log", shape, 500.0, 0.5, Vec3(0, 0, 0.062 + lowest + 0.02),
                            Quat(Eigen::AngleAxisd(M_PI / 2 + 0.05, Vec3::UnitY())))
                      .scene();
    scene.settings.contact_margin_m.reset();
    World world(scene);
    double deepest_at_rest = 0.0;
    for (int k = 0; k < 200; ++k) {
      const double depth = world.step().max_penetration_m;
      if (k >= 100) deepest_at_rest = std::max(deepest_at_rest, depth);
    }
    const char* what = cylinder ? "cylinder" : "capsule";
    EXPECT_LT(deepest_at_rest, kSlop_m) << what;
    const BodyState& log = world.state().bodies[2];
    EXPECT_LT(log.twist.linear.norm(), 1e-3) << what;
    EXPECT_LT(log.twist.angular.norm(), 1e-2) << what;
    // Lying on the box's top face (z = 0.062), along it.
    EXPECT_NEAR(log.pose.position.z(), 0.062 + radius, 1e-3) << what;
  }
}

TEST(Impact, TumblingStackOfDroppedBoxesNeverGainsEnergy) {
  // Three boxes dropped tilted onto each other: landings on edges and corners, impacts
  // between moving bodies, then a settled pile.
  SceneBuilder builder;
  builder.ground(0.5);
  for (int k = 0; k < 3; ++k) {
    const Quat tilt(Eigen::AngleAxisd(0.3 + 0.2 * k, Vec3(1.0, 0.5 * k, 0.3).normalized()));
    builder.box("box" + std::to_string(k), Vec3(0.3, 0.2, 0.15), 4.0, 0.6,
                Vec3(0.03 * k, -0.02 * k, 0.3 + 0.45 * k), tilt);
  }
  Scene scene = builder.scene();
  scene.settings.contact_margin_m.reset();
  World world(scene);
  const double budget = energy_budget_j(world);
  double deepest = 0.0;
  for (int k = 0; k < 400; ++k) {
    const double e0 = world.energy_j();
    deepest = std::max(deepest, world.step().max_penetration_m);
    EXPECT_LE(world.energy_j() - e0, budget) << "step " << k;
  }
  EXPECT_LT(deepest, 1e-3);
  for (int b = 1; b <= 3; ++b) {
    EXPECT_LT(world.state().bodies[b].twist.linear.norm(), 1e-3) << "box " << b << " not at rest";
  }
}

Vec3 angular_momentum(const World& world) {
  Vec3 L = Vec3::Zero();
  for (size_t k = 0; k < world.scene().bodies.size(); ++k) {
    const Body& body = world.scene().bodies[k];
    const BodyState& s = world.state().bodies[k];
    const Mat3 R = s.pose.orientation.toRotationMatrix();
    L += body.mass_kg * s.pose.position.cross(s.twist.linear) +
         R * body.inertia_body_kgm2 * R.transpose() * s.twist.angular;
  }
  return L;
}

Vec3 linear_momentum(const World& world) {
  Vec3 p = Vec3::Zero();
  for (size_t k = 0; k < world.scene().bodies.size(); ++k) {
    p += world.scene().bodies[k].mass_kg * world.state().bodies[k].twist.linear;
  }
  return p;
}

struct ThrowResult {
  int recovery_steps = 0;
  bool hit = false;
  double closing_after_mps = 0.0;  // x velocity of the cube relative to the ball at the end
  double energy_lost_j = 0.0;
};

// No gravity, no fixed body: a spinning cube and a spinning ball meet off-centre at
// closing_mps with friction. Contact impulses are equal and opposite at one point, so
// linear and angular momentum (about the origin) are conserved up to round-off; both
// bodies have isotropic inertia, so free flight keeps them exactly too. 1e-9 relative is
// round-off of a few hundred steps with margin. The recovery pass moves poses, not
// velocities: linear momentum stays exact on every step, angular momentum (x cross m v)
// on the steps without one.
ThrowResult throw_cube_at_ball(double closing_mps, double spin_radps) {
  Scene scene = SceneBuilder()
                    .gravity(Vec3::Zero())
                    .body("cube", Box{Vec3(0.1, 0.1, 0.1)}, 700.0, 0.5, Vec3(-0.6, 0.0, 0.0),
                          Quat(Eigen::AngleAxisd(0.4, Vec3(0.2, 1.0, 0.3).normalized())))
                    .velocity(Vec3(0.5 * closing_mps, 0.02 * closing_mps, 0.0),
                              spin_radps * Vec3(0.3, -0.5, 0.8))
                    .body("ball", Sphere{0.1}, 1000.0, 0.5, Vec3(0.6, 0.06, 0.04))
                    .velocity(Vec3(-0.5 * closing_mps, 0.0, 0.0125 * closing_mps),
                              spin_radps * Vec3(0.0, 1.0, -0.6))
                    .scene();
  scene.settings.contact_margin_m.reset();
  World world(scene);
  const Vec3 p0 = linear_momentum(world), L0 = angular_momentum(world);
  const double e_start = world.energy_j();
  // A penetration below the recovery slop is closed by the velocity step, at slop / h at
  // most (1e-5 m / 0.01 s = 1 mm/s): that kinetic energy is the only gain allowed.
  double slop_energy_j = 0.0;
  for (const Body& b : world.scene().bodies) {
    slop_energy_j += 0.5 * b.mass_kg * std::pow(kSlop_m / world.scene().settings.time_step_s, 2);
  }
  ThrowResult result;
  // Until 0.3 m after they meet (about 1 m apart at the start).
  const int steps = static_cast<int>(std::lround(1.3 / closing_mps / 0.01));
  for (int k = 0; k < steps; ++k) {
    const double e0 = world.energy_j();
    const Vec3 L_before = angular_momentum(world);
    world.step();
    result.hit = result.hit || !world.impulses().empty();
    EXPECT_LE((linear_momentum(world) - p0).norm(), 1e-9 * p0.norm()) << "step " << k;
    if (world.last_stats().recoveries == 0) {
      EXPECT_LE((angular_momentum(world) - L_before).norm(), 1e-9 * L0.norm()) << "step " << k;
    } else {
      ++result.recovery_steps;
    }
    EXPECT_LE(world.energy_j(), e0 + slop_energy_j) << "step " << k;
    EXPECT_LT(world.last_stats().max_penetration_m, 2e-3) << "step " << k;
  }
  result.closing_after_mps =
      world.state().bodies[0].twist.linear.x() - world.state().bodies[1].twist.linear.x();
  result.energy_lost_j = e_start - world.energy_j();
  return result;
}

TEST(Impact, BodiesThrownAtEachOtherKeepMomentumAndLoseEnergy) {
  // At 0.3 m/s the spin the impact gives (about 1 rad/s) turns the cube's face by 0.01 rad
  // per step, a linearisation gap of r (h w)^2 / 2 = 5 um, within the recovery slop: no
  // recovery pass runs and angular momentum is exact on every step.
  const ThrowResult slow = throw_cube_at_ball(0.3, 0.5);
  ASSERT_TRUE(slow.hit);
  EXPECT_EQ(slow.recovery_steps, 0);
  EXPECT_LE(slow.closing_after_mps, 1e-9);  // they parted, or move on as one
  EXPECT_GT(slow.energy_lost_j, 0.0);
}

TEST(Impact, FastSpinningBodiesKeepLinearMomentumThroughRecovery) {
  // At 4 m/s the impact spins both bodies at ~12 rad/s: the face turns 0.12 rad per step
  // and the first-order step leaves ~1 mm overlaps, which the recovery pass removes.
  const ThrowResult fast = throw_cube_at_ball(4.0, 2.0);
  ASSERT_TRUE(fast.hit);
  EXPECT_GT(fast.recovery_steps, 0);
  EXPECT_LE(fast.closing_after_mps, 1e-9);
  EXPECT_GT(fast.energy_lost_j, 0.0);
}

TEST(Impact, BodyWrittenIntoTheGroundIsPushedOutAtTheRecoverySpeedWithoutVelocity) {
  // A 0.2 m cube written 2 cm deep. docs/scene-format.md: out within
  // ceil((0.02 - slop) / (speed h)) = 10 steps at 0.2 m/s and h = 0.01 s; each step rises at
  // most speed h plus the slop the velocity step removes; the velocity left is at most
  // slop / h (1 mm/s), so the cube never flies off.
  const double speed = 0.2, h = 0.01, depth = 0.02;
  Scene scene = SceneBuilder()
                    .ground(0.5)
                    .box("box", Vec3(0.2, 0.2, 0.2), 8.0, 0.5, Vec3(0, 0, 0.1 - depth))
                    .recovery_speed(speed)
                    .scene();
  scene.settings.contact_margin_m.reset();
  World world(scene);
  const int expected_steps = static_cast<int>(std::ceil((depth - kSlop_m) / (speed * h)));
  EXPECT_EQ(expected_steps, 10);
  double z = world.state().bodies[1].pose.position.z();
  int out_at = -1;
  for (int k = 0; k < 100; ++k) {
    world.step();
    const BodyState& s = world.state().bodies[1];
    EXPECT_LE(s.pose.position.z() - z, speed * h + kSlop_m + 1e-12) << "step " << k;
    EXPECT_LE(s.twist.linear.norm(), kSlop_m / h + 1e-12) << "step " << k;
    EXPECT_LE(s.pose.position.z(), 0.1 + kSlop_m) << "step " << k;
    z = s.pose.position.z();
    if (out_at < 0 && z >= 0.1 - kSlop_m) out_at = k + 1;
  }
  EXPECT_EQ(out_at, expected_steps);
  EXPECT_NEAR(z, 0.1, kSlop_m);
  EXPECT_LT(world.state().bodies[1].twist.linear.norm(), 1e-9);
}

}  // namespace
}  // namespace pivot
