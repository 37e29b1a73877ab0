// Speculative contacts (CollisionSettings::body_motion): a pair is searched as far as the
// two bodies can close in the step, struck by their other neighbours. Closed forms with
// boxes 0.1 m apart and motions of h v = 0.06 to 0.12 m.
#include <gtest/gtest.h>

#include <set>
#include <utility>
#include <vector>

#include "collision/collision_scene.hpp"

namespace pivot {
namespace {

using test::box;
using test::CollisionScene;
using test::pose_at;

StepMotion translating(const Vec3& translation_m) {
  StepMotion m;
  m.translation_now_m = translation_m;
  m.translation_free_m = translation_m;
  return m;
}

// Unit cubes (half size 0.5) in a row along x, 0.1 m apart, no ground.
CollisionScene row(int n) {
  CollisionScene s;
  for (int k = 0; k < n; ++k) s.add("box", box(0.5, 0.5, 0.5), pose_at(Vec3(1.1 * k, 0, 0)));
  return s;
}

std::set<std::pair<int, int>> touching_pairs(const CollisionScene& s,
                                             const std::vector<StepMotion>& motion) {
  CollisionSettings settings;
  settings.margin_m = 0.005;
  settings.body_motion = motion;
  std::set<std::pair<int, int>> pairs;
  for (const Contact& c : collide(s.bodies, s.states, settings).contacts) {
    pairs.emplace(std::min(c.body_a, c.body_b), std::max(c.body_a, c.body_b));
  }
  return pairs;
}

TEST(StepMotion, ReachAndClosingAreTheClosedForms) {
  StepMotion a = translating(Vec3(0, 0, -0.1));
  a.translation_now_m = Vec3(0, 0, -0.05);
  a.rotation_m = 0.02;
  EXPECT_DOUBLE_EQ(reach_m(a), 0.1 + 0.02);
  const StepMotion b = translating(Vec3(0.03, 0, -0.1));
  // Relative translations (0.03, 0, 0.05) now and (0.03, 0, 0) free; one rotation.
  EXPECT_DOUBLE_EQ(closing_m(a, b), std::hypot(0.03, 0.05) + 0.02);
  EXPECT_DOUBLE_EQ(closing_m(a, a), 2 * 0.02);
}

TEST(StepMotion, BodiesMovingTogetherDoNotClose) {
  // Falling side by side at 10 m/s (h = 0.01 s): 0.1 m a step each, 0 towards each other.
  CollisionScene s = row(2);
  EXPECT_TRUE(
      touching_pairs(s, {translating(Vec3(0, 0, -0.1)), translating(Vec3(0, 0, -0.1))}).empty());
  // Closing at 12 m/s: the 0.1 m gap is within reach.
  EXPECT_EQ(touching_pairs(s, {translating(Vec3(0.12, 0, 0)), StepMotion{}}),
            (std::set<std::pair<int, int>>{{0, 1}}));
}

TEST(StepMotion, AStruckBodyPassesTheBlowOnOneHop) {
  // Box 0 strikes 1 at 0.12 m a step; 1 can then close the 0.1 m gap to 2 within the step,
  // so (1, 2) is a potential contact too. 2 passes nothing on: (2, 3) is left to the next
  // step's search (and recovery).
  CollisionScene s = row(4);
  const std::vector<StepMotion> motion = {translating(Vec3(0.12, 0, 0)), StepMotion{}, StepMotion{},
                                          StepMotion{}};
  EXPECT_EQ(touching_pairs(s, motion), (std::set<std::pair<int, int>>{{0, 1}, {1, 2}}));
}

TEST(StepMotion, APairIsNotWidenedByItsOwnClosing) {
  // Two bodies alone: the margin is their closing, not three times it (each one's
  // transfer comes from the other). 0.1 m apart, closing 0.06 m: nothing.
  CollisionScene s = row(2);
  EXPECT_TRUE(touching_pairs(s, {translating(Vec3(0.06, 0, 0)), StepMotion{}}).empty());
}

TEST(StepMotion, RejectsAMotionListOfTheWrongSizeOrNotFinite) {
  CollisionScene s = row(2);
  CollisionDetector detector(s.bodies);
  CollisionSettings settings;
  settings.body_motion.resize(3);
  try {
    detector.detect(s.states, settings);
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "collision: 3 motions for 2 bodies");
  }
  settings.body_motion.resize(2);
  settings.body_motion[1].rotation_m = -1.0;
  try {
    detector.detect(s.states, settings);
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "collision: body 1: body_motion must be finite with rotation_m >= 0");
  }
}

}  // namespace
}  // namespace pivot
