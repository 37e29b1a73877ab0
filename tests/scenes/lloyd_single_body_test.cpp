// Lloyd's single-body contact cases (scenes/block_in_corner.json, block_in_v_groove.json,
// ball_in_rim.json, box_on_edge.json, box_on_vertex.json) under gravity and a push: each
// holds below the force its statics predicts, gives way above it, and the balanced boxes
// fall toward the side they are tipped. Their rest and contact counts: resting_scene_test.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>

#include "pivot/world.hpp"
#include "support/shipped_scene.hpp"

namespace pivot {
namespace {

using test::body_index;
using test::run_until;
using test::shipped_scene;

constexpr double kPushTime_s = 0.5;
constexpr double kDegree_rad = 0.017453292519943295;

// The body's state after kPushTime_s of a constant force through its centre of mass.
BodyState pushed(const char* file, const char* body, const Vec3& force_n) {
  Scene scene = shipped_scene(file);
  ExternalWrench push;
  push.body = body_index(scene, body);
  push.force_n = force_n;
  scene.wrenches.push_back(push);
  World world(std::move(scene));
  run_until(&world, kPushTime_s);
  return world.state().bodies[push.body];
}

double mass_kg(const char* file, const char* body) {
  const Scene scene = shipped_scene(file);
  return scene.bodies[body_index(scene, body)].mass_kg;
}

// m g [N], with the scene's gravity.
double weight_n(const char* file, const char* body) {
  return mass_kg(file, body) * -shipped_scene(file).settings.gravity_mps2.z();
}

// A push along +x, factor times the force friction can hold (mu times the normal force
// pressing the body on), on a body that slides along x: below, static friction holds it
// exactly (round-off, 1e-9 m); above, it slides with a = (F - F*) / m from the first step,
// friction at its bound mu N along x, one of the d = 4 friction directions, so exactly
// (Lloyd's cone is exact there): v = a t to round-off, 1e-9 m/s.
void expect_slides_only_above(const char* file, const char* body, double holding_n) {
  const double m = mass_kg(file, body);
  const BodyState held = pushed(file, body, Vec3(0.8 * holding_n, 0, 0));
  EXPECT_LT(std::abs(held.pose.position.x()), 1e-9);
  EXPECT_LT(held.twist.linear.norm(), 1e-9);
  const BodyState sliding = pushed(file, body, Vec3(1.2 * holding_n, 0, 0));
  EXPECT_NEAR(sliding.twist.linear.x(), 0.2 * holding_n / m * kPushTime_s, 1e-9);
  EXPECT_NEAR(sliding.twist.linear.z(), 0.0, 1e-9);
}

TEST(BlockInCorner, SlidesAwayFromTheWallOnlyWhenPushedHarderThanFrictionHolds) {
  // Pushed straight away from the x wall, the box leaves it and slides along the y wall,
  // which bears no load: only the floor's friction, mu m g, holds it. The push through the
  // centre cannot tip it: F (s/2) < m g (s/2) while F < m g, and 1.2 mu = 0.6.
  const double mu = 0.5;
  expect_slides_only_above("block_in_corner.json", "box",
                           mu * weight_n("block_in_corner.json", "box"));
}

TEST(BlockInVGroove, SlidesAlongTheGrooveOnlyAboveSqrtTwoTimesMuMg) {
  // Each side of the 90-degree groove carries N = m g / (2 cos 45) = m g / sqrt(2), so the
  // wedge holds the bar with mu (2 N) = sqrt(2) mu m g, more than a flat floor would.
  const double mu = 0.5;
  expect_slides_only_above("block_in_v_groove.json", "bar",
                           std::sqrt(2.0) * mu * weight_n("block_in_v_groove.json", "bar"));
}

TEST(BallInRim, RollsOutOverTheRimOnlyAboveMgTimesAOverB) {
  // The rim contact P ahead of the push is a = 0.06 m from the axis, b = 0.08 m below the
  // ball's centre. Lifting off every other rim contact, the ball turns about P; the push's
  // moment F b beats the weight's m g a when F > F* = m g a / b = 0.75 m g. Every contact
  // force points through the centre, so friction does not move the threshold.
  const double a = 0.06, b = 0.08;
  const double threshold = weight_n("ball_in_rim.json", "ball") * a / b;
  const BodyState held = pushed("ball_in_rim.json", "ball", Vec3(0.8 * threshold, 0, 0));
  EXPECT_LT(std::abs(held.pose.position.norm() - b), 1e-9);
  EXPECT_LT(std::abs(held.pose.position.x()), 1e-9);
  // Above it, the centre swings up over P (x = a) within the push's time.
  const BodyState rolled = pushed("ball_in_rim.json", "ball", Vec3(1.2 * threshold, 0, 0));
  EXPECT_GT(rolled.pose.position.x(), a);
}

struct TipCase {
  const char* file;
  double extra_tip_deg;   // about world x, on top of the scene's own tip
  double falls_toward_y;  // -1 or +1
};

class BalancedBox : public ::testing::TestWithParam<TipCase> {};

TEST_P(BalancedBox, FallsOverTowardTheSideItIsTippedAndLiesOnAFace) {
  // The scene tips the box 1 degree (about x) so its centre is beside the supporting edge
  // or corner, toward -y; tipped back by 2 degrees it is as far beside it toward +y.
  Scene scene = shipped_scene(GetParam().file);
  const int box = body_index(scene, "box");
  Pose& pose = scene.initial_states[box].pose;
  pose.orientation =
      Quat(Eigen::AngleAxisd(GetParam().extra_tip_deg * kDegree_rad, Vec3::UnitX())) *
      pose.orientation;
  World world(std::move(scene));
  run_until(&world, 2.0);
  const BodyState& end = world.state().bodies[box];
  // Fallen by at least half a box width (0.1 m) to the tipped side...
  EXPECT_GT(GetParam().falls_toward_y * end.pose.position.y(), 0.05);
  // ...and at rest on a face: its centre half a width (0.1 m) up, to round-off, since
  // Stewart-Trinkle ends impacts inelastically and holds resting contact exactly.
  EXPECT_NEAR(end.pose.position.z(), 0.1, 1e-9);
  EXPECT_LT(end.twist.linear.norm() + end.twist.angular.norm(), 1e-9);
}

INSTANTIATE_TEST_SUITE_P(Scenes, BalancedBox,
                         ::testing::Values(TipCase{"box_on_edge.json", 0.0, -1.0},
                                           TipCase{"box_on_edge.json", -2.0, +1.0},
                                           TipCase{"box_on_vertex.json", 0.0, -1.0},
                                           TipCase{"box_on_vertex.json", -2.0, +1.0}),
                         [](const ::testing::TestParamInfo<TipCase>& param_info) {
                           return test::scene_test_name(param_info.param.file) +
                                  (param_info.param.extra_tip_deg == 0.0 ? "_as_shipped"
                                                                         : "_tipped_back");
                         });

}  // namespace
}  // namespace pivot
