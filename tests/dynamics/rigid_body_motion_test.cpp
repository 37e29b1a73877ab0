#include "dynamics/rigid_body_motion.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace pivot {
namespace {

Body brick() {
  Body body;
  body.name = "brick";
  body.mass_kg = 2.0;
  // Distinct principal moments (a 0.1 x 0.2 x 0.3 m box of 2 kg): tumbling is unstable
  // about the middle axis, the hardest case for angular-momentum conservation.
  const double a = 0.1, b = 0.2, c = 0.3, m = 2.0;
  body.inertia_body_kgm2 = Mat3(Eigen::Vector3d(m * (b * b + c * c) / 12, m * (a * a + c * c) / 12,
                                                m * (a * a + b * b) / 12).asDiagonal());
  return body;
}

// Free flight with no contacts: v = M^-1 k~_x, then integrate_pose.
void free_step(const Body& body, BodyState* state, const Vec3& g, double h) {
  const Vec6 k = free_motion_impulse(body, *state, g, Vec3::Zero(), Vec3::Zero(), h);
  const Vec6 v = spatial_mass(body, state->pose.orientation).ldlt().solve(k);
  state->twist.linear = v.head<3>();
  state->twist.angular = v.tail<3>();
  integrate_pose(state, h);
}

TEST(RigidBodyMotion, SpatialMassIsRotatedInertia) {
  const Body body = brick();
  const Quat q(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()));
  const Mat6 M = spatial_mass(body, q);
  const Mat3 R = q.toRotationMatrix();
  const Mat3 linear = M.topLeftCorner<3, 3>();
  const Mat3 angular = M.bottomRightCorner<3, 3>();
  const Mat3 coupling = M.topRightCorner<3, 3>();
  EXPECT_TRUE(linear.isApprox(2.0 * Mat3::Identity()));
  EXPECT_TRUE(angular.isApprox(R * body.inertia_body_kgm2 * R.transpose()));
  EXPECT_EQ(coupling.norm(), 0.0);
}

TEST(RigidBodyMotion, FreeFallMatchesSymplecticEulerClosedForm) {
  // Velocity first, then position (semi-implicit Euler): after k steps
  // z_k = z0 - g h^2 k (k + 1) / 2 exactly, so the tolerance is round-off only.
  const Body body = brick();
  BodyState state;
  state.pose.position = Vec3(0, 0, 10);
  const double h = 0.01, g = 9.81;
  const int steps = 100;
  for (int k = 0; k < steps; ++k) free_step(body, &state, Vec3(0, 0, -g), h);
  EXPECT_NEAR(state.pose.position.z(), 10 - g * h * h * steps * (steps + 1) / 2, 1e-9);
  EXPECT_NEAR(state.twist.linear.z(), -g * h * steps, 1e-9);
  EXPECT_NEAR(state.pose.position.x(), 0.0, 1e-15);
}

TEST(RigidBodyMotion, ProjectileRangeConvergesToClosedForm) {
  // The discrete range differs from v^2 sin(2a)/g by O(h); with h = 1e-4 s the error is
  // below 1e-3 m for a 10 m shot.
  const Body body = brick();
  BodyState state;
  const double g = 9.81, speed = 10.0, angle = 0.6;
  state.twist.linear = Vec3(speed * std::cos(angle), 0, speed * std::sin(angle));
  const double h = 1e-4;
  Vec3 previous = state.pose.position;
  while (true) {
    previous = state.pose.position;
    free_step(body, &state, Vec3(0, 0, -g), h);
    if (state.pose.position.z() < 0.0) break;
  }
  // Interpolate the crossing of z = 0 between the last two positions.
  const Vec3 now = state.pose.position;
  const double s = previous.z() / (previous.z() - now.z());
  const double range = previous.x() + s * (now.x() - previous.x());
  EXPECT_NEAR(range, speed * speed * std::sin(2 * angle) / g, 1e-3);
}

TEST(RigidBodyMotion, TumblingBodyConservesAngularMomentumAndEnergyBound) {
  // Spin mostly about the unstable middle axis. The implicit gyroscopic step is first
  // order: |L| drifts by O(h) per unit time and never grows (it dissipates slightly), so
  // with h = 1e-3 over 2 s we allow 1% and require no energy gain.
  const Body body = brick();
  BodyState state;
  state.twist.angular = Vec3(0.05, 6.0, 0.05);
  auto momentum = [&](const BodyState& s) {
    return Vec3(spatial_mass(body, s.pose.orientation).bottomRightCorner<3, 3>() * s.twist.angular);
  };
  auto energy = [&](const BodyState& s) { return 0.5 * s.twist.angular.dot(momentum(s)); };
  const Vec3 L0 = momentum(state);
  const double E0 = energy(state);
  for (int k = 0; k < 2000; ++k) free_step(body, &state, Vec3::Zero(), 1e-3);
  const Vec3 L = momentum(state);
  EXPECT_NEAR(L.norm(), L0.norm(), 0.01 * L0.norm());
  EXPECT_GT(L.normalized().dot(L0.normalized()), 0.999);
  EXPECT_LE(energy(state), E0 * (1 + 1e-9));
  EXPECT_NEAR(state.pose.orientation.norm(), 1.0, 1e-12);
}

TEST(RigidBodyMotion, IntegratePoseRotatesByAngleTimesStep) {
  BodyState state;
  state.twist.angular = Vec3(0, 0, 2.0);
  integrate_pose(&state, 0.25);
  const Eigen::AngleAxisd aa(state.pose.orientation);
  EXPECT_NEAR(aa.angle(), 0.5, 1e-14);
  EXPECT_NEAR(aa.axis().z(), 1.0, 1e-14);
}

// A needle: a 0.4 m rod of 2 mm radius (axis z), I_axis << I_perp.
Body needle() {
  Body body;
  body.name = "needle";
  body.mass_kg = 0.04;
  const double r = 0.002, length = 0.4, m = body.mass_kg;
  const double axial = m * r * r / 2, across = m * (3 * r * r + length * length) / 12;
  body.inertia_body_kgm2 = Mat3(Eigen::Vector3d(across, across, axial).asDiagonal());
  return body;
}

BodyState spinning(const Vec3& w_world, const Quat& q = Quat::Identity()) {
  BodyState state;
  state.pose.orientation = q;
  state.twist.angular = w_world;
  return state;
}

// A symmetric top's body-frame w precesses at nu = w_a (I_perp - I_axis) / I_perp. The
// needle spinning at 573 rad/s with 0.3 rad/s across (docs/stewart-trinkle.md) needs
// ceil(nu h / 0.5) substeps at h = 0.01 s: 12.
TEST(RigidBodyMotion, ASpinningTumblingNeedleTakesTheSubstepsItsPrecessionNeeds) {
  const Body body = needle();
  const Mat3& I = body.inertia_body_kgm2;
  const double w_axis = 573.0, h = 0.01;
  const double nu = w_axis * (I(0, 0) - I(2, 2)) / I(0, 0);
  const Quat tilted(Eigen::AngleAxisd(0.3, Vec3::UnitX()));
  const Vec3 w = tilted * Vec3(0.3, 0.0, w_axis);
  EXPECT_EQ(rotation_substeps(body, spinning(w, tilted), h),
            static_cast<int>(std::ceil(nu * h / 0.5)));
  EXPECT_EQ(rotation_substeps(body, spinning(w, tilted), h), 12);
  // Five times the step needs five times the substeps (58). At a tenth of it, where the
  // needle fell as it should, the held rotation misses 1/2 |drift| h^2 = 9e-5 rad: one step.
  EXPECT_EQ(rotation_substeps(body, spinning(w, tilted), 0.05),
            static_cast<int>(std::ceil(nu * 0.05 / 0.5)));
  EXPECT_EQ(rotation_substeps(body, spinning(w, tilted), 0.001), 1);
  // A hundred times the spin would need 1,146: the step's cost is capped at 64.
  EXPECT_EQ(rotation_substeps(body, spinning(100.0 * w, tilted), h), 64);
}

// A steady spin about a principal axis does not drift, so exp(h w) is its exact motion:
// a needle rolling on its side at 610 rad/s, a ball spinning at any rate, a brick
// tumbling at 10 rad/s (its drift resolved at h = 0.01 s) take one step.
TEST(RigidBodyMotion, SpinsThatOneRotationResolvesTakeNoSubsteps) {
  EXPECT_EQ(rotation_substeps(needle(), spinning(Vec3(0, 0, 610)), 0.01), 1);
  Body ball = needle();
  ball.inertia_body_kgm2 = 1e-4 * Mat3::Identity();
  EXPECT_EQ(rotation_substeps(ball, spinning(Vec3(300, -200, 900)), 0.01), 1);
  EXPECT_EQ(rotation_substeps(brick(), spinning(Vec3(6, 5, 6)), 0.01), 1);
  EXPECT_EQ(rotation_substeps(needle(), BodyState{}, 0.01), 1);
}

}  // namespace
}  // namespace pivot
