// The stepper against physics: each test compares a run with a closed form, with the
// tolerance justified where it is set.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "pivot/world.hpp"
#include "support/scene_builder.hpp"

namespace pivot {
namespace {

using test::SceneBuilder;

constexpr double kG = 9.81;
const Vec3 kBoxSize(0.4, 0.4, 0.2);  // flat, so tilted gravity never tips it (tan > 2)

void run(World* world, int steps) {
  for (int k = 0; k < steps; ++k) world->step();
}

// Gravity of an incline of slope alpha whose downhill direction is at azimuth beta from
// the world x axis: the same contact mechanics as tilting the ground, with the slope
// direction relative to the friction directions exactly known.
Vec3 incline_gravity(double alpha, double beta) {
  return kG * Vec3(std::sin(alpha) * std::cos(beta), std::sin(alpha) * std::sin(beta),
                   -std::cos(alpha));
}

// docs/stewart-trinkle.md: the d-gon's threshold at angle psi from a friction direction.
double polyhedral_threshold(double mu, int d, double psi) {
  return mu * std::cos(M_PI / d) / std::cos(psi - M_PI / d);
}

TEST(WorldPhysics, BoxRestingOnPlaneStaysPut) {
  // The LCP holds the box exactly (nu = 0); drift is round-off only, so 1e-6 m over 10 s
  // (1000 steps) is generous by orders of magnitude.
  World world(SceneBuilder().ground(0.5).box("box", kBoxSize, 2.0, 0.5, Vec3(0, 0, 0.1)).scene());
  const Vec3 start = world.state().bodies[1].pose.position;
  run(&world, 1000);
  EXPECT_LT((world.state().bodies[1].pose.position - start).norm(), 1e-6);
  EXPECT_EQ(world.last_stats().contacts, 4);
  EXPECT_EQ(world.last_stats().fallbacks, 0);
  // The four normal impulses carry the weight over the step: sum theta = m g h.
  double theta = 0.0;
  for (const ContactImpulse& c : world.impulses()) theta += c.normal_ns;
  EXPECT_NEAR(theta, 2.0 * kG * 0.01, 1e-9);
}

struct InclineCase {
  int d;
  double psi;  // downhill azimuth relative to friction direction 0
};

class WorldIncline : public ::testing::TestWithParam<InclineCase> {};

TEST_P(WorldIncline, SticksBelowAndSlidesAboveThePolyhedralThreshold) {
  const InclineCase c = GetParam();
  const double mu = 0.5;
  const double threshold = polyhedral_threshold(mu, c.d, c.psi);
  // 5% either side of the threshold: far from it in LCP terms (the LCP decides stick or
  // slip exactly), close enough that a wrong cone (e.g. the circular one, mu) would fail
  // for psi != 0 where the polyhedral threshold is up to 29% lower.
  for (double factor : {0.95, 1.05}) {
    const double alpha = std::atan(factor * threshold);
    World world(SceneBuilder()
                    .ground(mu)
                    .box("box", kBoxSize, 2.0, mu, Vec3(0, 0, 0.1))
                    .gravity(incline_gravity(alpha, c.psi))
                    .directions(c.d)
                    .scene());
    run(&world, 100);
    const double moved = (world.state().bodies[1].pose.position.head<2>()).norm();
    if (factor < 1.0) {
      EXPECT_LT(moved, 1e-6) << "d=" << c.d << " psi=" << c.psi << " should stick";
    } else {
      // Sliding for 1 s at acceleration >= g (sin - mu_eff cos) covers more than 1 cm.
      EXPECT_GT(moved, 1e-2) << "d=" << c.d << " psi=" << c.psi << " should slide";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Cones, WorldIncline,
                         ::testing::Values(InclineCase{4, 0.0}, InclineCase{4, M_PI / 4},
                                           InclineCase{4, M_PI / 8}, InclineCase{8, 0.0},
                                           InclineCase{8, M_PI / 8}, InclineCase{8, M_PI / 16}));

TEST(WorldPhysics, SlidingAlongAFrictionDirectionDeceleratesAtMuG) {
  // Sliding along +x (friction direction 0) the cone's edge is exact: each step removes
  // mu g h of speed, so v_k = v0 - k mu g h up to round-off (1e-9).
  const double mu = 0.3, v0 = 2.0, h = 0.01;
  World world(SceneBuilder()
                  .ground(mu)
                  .box("box", kBoxSize, 2.0, mu, Vec3(0, 0, 0.1))
                  .velocity(Vec3(v0, 0, 0))
                  .time_step(h)
                  .scene());
  double energy = world.energy_j();
  for (int k = 1; k <= 50; ++k) {
    world.step();
    EXPECT_NEAR(world.state().bodies[1].twist.linear.x(), v0 - k * mu * kG * h, 1e-9);
    EXPECT_NEAR(world.state().bodies[1].twist.linear.y(), 0.0, 1e-12);
    EXPECT_LT(world.energy_j(), energy);  // friction only takes energy out
    energy = world.energy_j();
  }
  // It stops after v0 / (mu g) = 0.68 s and stays stopped.
  run(&world, 50);
  EXPECT_NEAR(world.state().bodies[1].twist.linear.norm(), 0.0, 1e-9);
}

TEST(WorldPhysics, FiveBlockStackRestsForTenSeconds) {
  // Issue 5's bound: drift < 1 mm over 10 s for every block.
  SceneBuilder builder;
  builder.ground(0.6);
  for (int k = 0; k < 5; ++k) {
    builder.box("block" + std::to_string(k), kBoxSize, 1.0, 0.6, Vec3(0, 0, 0.1 + 0.2 * k));
  }
  World world(builder.scene());
  const WorldState start = world.state();
  run(&world, 1000);
  for (int k = 1; k <= 5; ++k) {
    EXPECT_LT((world.state().bodies[k].pose.position - start.bodies[k].pose.position).norm(), 1e-3)
        << "block " << k - 1;
  }
  EXPECT_EQ(world.last_stats().contacts, 20);  // 4 per face-on-face interface
}

TEST(WorldPhysics, SameSceneGivesBitIdenticalStates) {
  // Determinism: two worlds from one scene step to the same bits (no hidden state,
  // no unordered iteration).
  SceneBuilder builder;
  builder.ground(0.4).box("a", kBoxSize, 1.0, 0.4, Vec3(0, 0, 0.12)).velocity(Vec3(0.5, 0.2, 0), Vec3(0, 0, 1));
  builder.box("b", kBoxSize, 1.0, 0.4, Vec3(0.1, 0.05, 0.35), Quat(Eigen::AngleAxisd(0.3, Vec3::UnitZ())));
  World first(builder.scene());
  World second(builder.scene());
  for (int k = 0; k < 200; ++k) {
    first.step();
    second.step();
  }
  for (size_t b = 0; b < first.state().bodies.size(); ++b) {
    const BodyState& x = first.state().bodies[b];
    const BodyState& y = second.state().bodies[b];
    EXPECT_EQ(std::memcmp(x.pose.position.data(), y.pose.position.data(), sizeof(double) * 3), 0);
    EXPECT_EQ(std::memcmp(x.pose.orientation.coeffs().data(), y.pose.orientation.coeffs().data(),
                          sizeof(double) * 4), 0);
    EXPECT_EQ(std::memcmp(x.twist.linear.data(), y.twist.linear.data(), sizeof(double) * 3), 0);
  }
}

TEST(WorldPhysics, ResetRestoresTheInitialStateAndSetStateSteppingReplays) {
  World world(SceneBuilder().ground(0.5).box("box", kBoxSize, 1.0, 0.5, Vec3(0, 0, 0.5)).scene());
  run(&world, 10);
  const WorldState saved = world.state();
  run(&world, 10);
  const WorldState after = world.state();
  world.set_state(saved);
  run(&world, 10);
  EXPECT_EQ(world.state().bodies[1].pose.position, after.bodies[1].pose.position);
  world.reset();
  EXPECT_EQ(world.state().step, 0);
  EXPECT_EQ(world.state().bodies[1].pose.position, Vec3(0, 0, 0.5));
}

TEST(WorldPhysics, AppliedWrenchAcceleratesAFreeBodyUntilReset) {
  // No gravity, no contact: the force gives v = F t / m exactly (symplectic Euler on a
  // constant force is exact for velocity), and a torque about the z axis of the box gives
  // omega = tau t / I_zz (a principal axis, so no gyroscopic coupling).
  const double m = 2.0;
  World world(SceneBuilder().gravity(Vec3::Zero()).box("box", kBoxSize, m, 0.5, Vec3(0, 0, 5)).scene());
  Vec6 wrench;
  wrench << 3.0, -1.0, 0.5, 0.0, 0.0, 0.2;
  world.set_applied_wrench(0, wrench);
  run(&world, 50);
  const double t = 50 * world.scene().settings.time_step_s;
  const BodyState& s = world.state().bodies[0];
  EXPECT_LT((s.twist.linear - wrench.head<3>() * t / m).norm(), 1e-12);
  const double Izz = m * (kBoxSize.x() * kBoxSize.x() + kBoxSize.y() * kBoxSize.y()) / 12.0;
  EXPECT_NEAR(s.twist.angular.z(), 0.2 * t / Izz, 1e-9);
  world.reset();
  EXPECT_EQ(world.applied_wrenches()[0], Vec6::Zero());
  run(&world, 10);
  EXPECT_EQ(world.state().bodies[0].twist.linear, Vec3::Zero());
  EXPECT_THROW(world.set_applied_wrench(1, wrench), std::invalid_argument);
}

}  // namespace
}  // namespace pivot
