// The peg-in-hole scenes (Lloyd Fig. 4): the contact counts they claim, a push that
// inserts the peg, and the jam of peg_in_hole_jam.json against its closed form.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "pivot/world.hpp"
#include "support/shipped_scene.hpp"

namespace pivot {
namespace {

using test::body_index;
using test::run_until;
using test::shipped_scene;

// Every peg scene: the peg's head is 0.1 m above the block, the push is 60 N from 0.1 s.
constexpr double kHeadTravel_m = 0.1;
constexpr double kPush_n = 60.0;
constexpr double kPushStart_s = 0.1;

struct PegCase {
  const char* file;
  int contacts;  // at rest: both rims of every wall the peg touches
};

class PegInHole : public ::testing::TestWithParam<PegCase> {};

TEST_P(PegInHole, RestsWithItsRimContactsAndThePushSeatsIt) {
  World world(shipped_scene(GetParam().file));
  const int peg = body_index(world.scene(), "peg");
  const double start_z = world.state().bodies[peg].pose.position.z();
  const double a = kPush_n / world.scene().bodies[peg].mass_kg;
  const double h = world.scene().settings.time_step_s;

  world.step();
  EXPECT_EQ(world.last_stats().contacts, GetParam().contacts);
  EXPECT_EQ(world.last_stats().groups, 0);

  // Until its head arrives the peg touches the walls with no load, so nothing resists the
  // push: after k pushed steps v = -k a h exactly (round-off, 1e-9), and the rims neither
  // catch it nor turn it.
  int pushed = 0;
  while (world.state().time_s < 0.3) {
    if (world.state().time_s >= kPushStart_s) ++pushed;
    world.step();
  }
  ASSERT_GT(pushed, 0);
  const BodyState& sliding = world.state().bodies[peg];
  EXPECT_NEAR(sliding.twist.linear.z(), -pushed * a * h, 1e-9);
  EXPECT_LT(sliding.twist.linear.head<2>().norm(), 1e-9);
  EXPECT_LT(sliding.twist.angular.norm(), 1e-9);

  // Seated: the head's face on the block top stops it (an inelastic impact in
  // Stewart-Trinkle), exactly kHeadTravel_m down; the contact holds to round-off (1e-9).
  run_until(&world, 1.0);
  const BodyState& seated = world.state().bodies[peg];
  EXPECT_NEAR(seated.pose.position.z(), start_z - kHeadTravel_m, 1e-9);
  EXPECT_LT(seated.twist.linear.norm(), 1e-9);
  EXPECT_LT(world.last_stats().max_penetration_m, 1e-9);
}

INSTANTIATE_TEST_SUITE_P(Scenes, PegInHole,
                         ::testing::Values(PegCase{"peg_in_hole.json", 16},
                                           PegCase{"peg_in_hole_square_8.json", 8},
                                           PegCase{"peg_in_hole_round_8.json", 8},
                                           PegCase{"peg_in_hole_round_16.json", 16},
                                           PegCase{"peg_in_hole_round_32.json", 32}),
                         test::SceneFileName());

// peg_in_hole_jam.json: a lateral force F = 200 N at a = 0.125 m above the top rim wedges
// the peg between the +x wall's top rim and the -x wall's bottom rim, L = 0.15 m apart.
// Moments about each rim give N_top = F (L + a) / L and N_bottom = F a / L; friction along
// the peg (a friction direction: vertical is exact in the d = 4 cone) holds the push while
// kPush_n < mu (N_top + N_bottom).
constexpr double kLateral_n = 200.0, kAbove_m = 0.125, kDepth_m = 0.15;
constexpr double kWedge_n = kLateral_n * (kDepth_m + 2.0 * kAbove_m) / kDepth_m;  // 533 N

TEST(PegInHoleJam, StaysJammedWhileFrictionHoldsThePush) {
  World world(shipped_scene("peg_in_hole_jam.json"));
  const int peg = body_index(world.scene(), "peg");
  const double mu = world.scene().materials[world.scene().bodies[peg].material].friction;
  ASSERT_GT(mu * kWedge_n, 1.5 * kPush_n);  // the scene's claim, with room to spare
  const double start_z = world.state().bodies[peg].pose.position.z();
  run_until(&world, 0.45);
  // Wedging tilts it by about 2 c / L (c = 0.5 mm clearance), which lifts its centre by
  // less than c; sliding would have dropped it by 1/2 (P/m) t^2 = 0.1 m.
  EXPECT_LT(std::abs(world.state().bodies[peg].pose.position.z() - start_z), 0.5e-3);
  EXPECT_LT(world.state().bodies[peg].twist.linear.norm(), 1e-6);
}

// At mu = 2 the wedge locks: its step-2 velocity LCP, asked to undo a penetration of
// 2e-7 m, has no solution any method finds (tests/dynamics/penetration_recovery_test.cpp),
// and the step leaves that penetration to the recovery push instead of failing. The peg
// stays jammed as at mu = 0.3, and no step fails (a failure would throw here). The step
// goes to that second problem straight from the method's failure, not after the fallback
// chain's stages have failed too: no step that defers counts a fallback.
TEST(PegInHoleJam, StaysJammedAtMu2WithTheWedgesPenetrationLeftToThePush) {
  World world(shipped_scene("peg_in_hole_jam.json"));
  world.settings().friction_override = 2.0;
  const int peg = body_index(world.scene(), "peg");
  const double start_z = world.state().bodies[peg].pose.position.z();
  int deferred = 0, fallbacks_where_deferred = 0;
  double max_penetration_m = 0.0;
  while (world.state().time_s < 1.0) {
    const StepStats& s = world.step();
    deferred += s.deferred_penetrations;
    if (s.deferred_penetrations > 0) fallbacks_where_deferred += s.fallbacks;
    max_penetration_m = std::max(max_penetration_m, s.max_penetration_m);
  }
  EXPECT_GE(deferred, 1);
  EXPECT_EQ(fallbacks_where_deferred, 0);
  // Below the recovery slop (1e-5 m): the push removed what the velocity step was spared.
  EXPECT_LT(max_penetration_m, 1e-5);
  EXPECT_LT(std::abs(world.state().bodies[peg].pose.position.z() - start_z), 0.5e-3);
  EXPECT_LT(world.state().bodies[peg].twist.linear.norm(), 1e-6);
}

TEST(PegInHoleJam, SlipsWhenMuIsLowered) {
  World world(shipped_scene("peg_in_hole_jam.json"));
  const int peg = body_index(world.scene(), "peg");
  const double mu = 0.05;
  world.settings().friction_override = mu;
  const double predicted = (kPush_n - mu * kWedge_n) / world.scene().bodies[peg].mass_kg;
  run_until(&world, 0.25);
  const double v0 = world.state().bodies[peg].twist.linear.z();
  // Stop before the head reaches the block (at about 0.5 s).
  run_until(&world, 0.45);
  const double v1 = world.state().bodies[peg].twist.linear.z();
  const double measured = -(v1 - v0) / 0.2;
  EXPECT_NEAR(measured, predicted, 0.1 * predicted);
}

}  // namespace
}  // namespace pivot
