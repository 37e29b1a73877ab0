// Rolling and sliding down an incline against their closed forms: a body of radius r and
// moment of inertia k m r^2 about its rolling axis, on a slope of angle theta with
// friction mu, rolls without slipping at a = g sin(theta) / (1 + k) when
// mu >= k tan(theta) / (1 + k), and otherwise slides at a = g (sin(theta) - mu cos(theta))
// while friction spins it up at alpha = mu g cos(theta) / (k r). The slope is the floor
// under gravity tilted by theta, along a friction direction (d = 4: the pyramid's edge
// along the slope, so its friction is exact, docs/stewart-trinkle.md).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "pivot/scene.hpp"
#include "pivot/world.hpp"

namespace pivot {
namespace {

constexpr double kTheta = 20.0 * 3.14159265358979323846 / 180.0;
constexpr double kG = 9.81;
constexpr double kR = 0.1;
constexpr double kH = 0.01;

// A number as JSON that reads back to the same double.
std::string exact(double x) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.17g", x);
  return text;
}

// shape: its JSON; lying: a cylinder or capsule with its axis across the slope (world y).
World incline(const std::string& shape, double mu, bool lying) {
  const std::string orientation =
      lying ? R"(, "orientation": [0.7071067811865476, 0.7071067811865476, 0, 0])" : "";
  const std::string json = R"({"version": 1,
    "settings": {"gravity": [)" +
                           exact(kG * std::sin(kTheta)) + ", 0, " + exact(-kG * std::cos(kTheta)) +
                           R"(], "time_step": 0.01, "friction_directions": 4},
    "materials": [{"name": "m", "friction": )" +
                           exact(mu) + R"(}],
    "bodies": [
      {"name": "floor", "fixed": true, "material": "m",
       "shape": {"type": "half_space", "normal": [0, 0, 1], "offset": 0}},
      {"name": "b", "material": "m", "density": 1000, "shape": )" +
                           shape + R"(, "position": [0, 0, 0.1])" + orientation + "}]}";
  return World(parse_scene(json, "incline.json").scene);
}

// After n steps of symplectic Euler from rest at constant acceleration a: v = a n h and
// x = a h^2 n (n + 1) / 2, exact but for round-off (1e-9 of it allowed over 100 steps).
struct Motion {
  double x, v, w;
};

Motion after(World* world, int steps) {
  for (int k = 0; k < steps; ++k) world->step();
  const BodyState& s = world->state().bodies[1];
  return {s.pose.position.x(), s.twist.linear.x(), s.twist.angular.y()};
}

void expect_accelerates(const Motion& m, double a, int steps) {
  const double t = steps * kH;
  EXPECT_NEAR(m.v, a * t, 1e-9 * a * t);
  EXPECT_NEAR(m.x, a * kH * kH * steps * (steps + 1) / 2, 1e-9 * a * t * t);
}

// Gravity's pull along the slope and into it [m/s^2].
const double kAlong = kG * std::sin(kTheta);
const double kInto = kG * std::cos(kTheta);

TEST(Rolling, ABallRollsDownAtFiveSeventhsOfGSinTheta) {
  World world = incline(R"({"type": "sphere", "radius": 0.1})", 0.5, false);
  const Motion m = after(&world, 100);
  expect_accelerates(m, kAlong / (1 + 0.4), 100);
  EXPECT_NEAR(m.w * kR, m.v, 1e-9 * m.v);  // no slip: the contact point is at rest
  EXPECT_NEAR(world.state().bodies[1].pose.position.z(), kR, 1e-12);
}

TEST(Rolling, ACylinderRollsDownAtTwoThirdsOfGSinTheta) {
  World world = incline(R"({"type": "cylinder", "radius": 0.1, "half_length": 0.15})", 0.5, true);
  const Motion m = after(&world, 100);
  expect_accelerates(m, kAlong / (1 + 0.5), 100);
  EXPECT_NEAR(m.w * kR, m.v, 1e-9 * m.v);
}

// Below mu = (2/7) tan(theta) = 0.104 the ball slides, spun up by friction alone.
TEST(Rolling, ABallOnTooSlipperyASlopeSlidesAndSpinsUpByItsFriction) {
  const double mu = 0.05;
  World world = incline(R"({"type": "sphere", "radius": 0.1})", mu, false);
  const Motion m = after(&world, 100);
  expect_accelerates(m, kAlong - mu * kInto, 100);
  EXPECT_NEAR(m.w, mu * kInto / (0.4 * kR) * 100 * kH, 1e-9 * m.w);
  EXPECT_LT(m.w * kR, m.v);  // the contact point slips down the slope
}

}  // namespace
}  // namespace pivot
