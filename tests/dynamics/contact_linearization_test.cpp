#include "dynamics/contact_linearization.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace pivot {
namespace {

// Bodies: 0 the fixed ground, 1 = A, 2 = B. A's witness sits on B's top face (z = 0.05 in
// B's frame) and slides 0.1 m along +x while B turns by theta about y: to first order (what
// Egan (5) solves with) the gap stays 0; the plane turned under the point.
struct TurningFace {
  double theta = -0.2;
  std::vector<BodyState> start = std::vector<BodyState>(3), end = std::vector<BodyState>(3);
  std::vector<double> radius_m{0.0, 0.1, 0.1};
  Contact contact;

  explicit TurningFace(double turn = -0.2) : theta(turn) {
    start[1].pose.position = end[1].pose.position = Vec3(0, 0, 0.1);
    end[1].pose.position.x() += 0.1;
    end[2].pose.orientation = Quat(Eigen::AngleAxisd(theta, Vec3::UnitY()));
    contact.body_a = 1;
    contact.body_b = 2;
    contact.point = Vec3(0, 0, 0.05);
    contact.normal = Vec3::UnitZ();
    contact.gap_m = 0.0;
    contact.plane = ContactPlane::FaceOfB;
  }
  // The gap at the end: n'.(a' - b'), in closed form.
  double end_gap() const {
    const Vec3 n(std::sin(theta), 0.0, std::cos(theta));
    const Vec3 b = 0.05 * n;  // B's witness turned with B about its centre
    const Vec3 a(0.1, 0.0, 0.05);
    return n.dot(a - b);
  }
  int substeps(const CollisionResult& collision, int max_substeps = 64) const {
    StepMotions motions;
    motions.set(start, end);
    return contact_substeps(radius_m, collision, motions, max_substeps);
  }
};

CollisionResult only(const Contact& c) {
  CollisionResult collision;
  collision.contacts.push_back(c);
  return collision;
}

// -0.0209 m deep where 0 was predicted, with a tolerance of 1 % of 0.1 m: the error is
// second order in h, so ceil(sqrt(0.0209 / 0.001)) = 5 substeps bring it within.
TEST(ContactLinearization, AFaceTurningUnderASlidingPointWantsSubsteps) {
  const TurningFace f;
  const double depth = -f.end_gap();
  EXPECT_NEAR(depth, 0.0209, 1e-4);
  EXPECT_EQ(f.substeps(only(f.contact)), static_cast<int>(std::ceil(std::sqrt(depth / 1e-3))));
  EXPECT_EQ(f.substeps(only(f.contact)), 5);
  EXPECT_EQ(f.substeps(only(f.contact), 3), 3);  // at most max_substeps
}

TEST(ContactLinearization, AFaceTurningAwayFromThePointWantsNone) {
  const TurningFace f(0.2);
  EXPECT_GT(f.end_gap(), 0.0);
  EXPECT_EQ(f.substeps(only(f.contact)), 1);
}

// The tolerance is 1 % of the smaller moving body's radius: 2 mm when both are twice as
// large, ceil(sqrt(0.0209 / 0.002)) = 4.
TEST(ContactLinearization, TheToleranceScalesWithTheSmallerBody) {
  TurningFace f;
  f.radius_m = {0.0, 0.2, 0.4};
  EXPECT_EQ(f.substeps(only(f.contact)), 4);
}

// An edge-edge contact's normal, or a curved face's, does not turn with a body: not judged.
TEST(ContactLinearization, AContactWithoutAFacePlaneIsNotJudged) {
  TurningFace f;
  f.contact.plane = ContactPlane::None;
  EXPECT_EQ(f.substeps(only(f.contact)), 1);
}

// A group holds when its largest side does (Egan (29)): the vertex starts 0.05 m outside a
// second side (a plane x = -0.05 of B facing +x) and moves away from it.
TEST(ContactLinearization, AGroupIsJudgedByItsLargestSide) {
  const TurningFace f;
  ContactGroup group;
  group.body_a = 1;
  group.body_b = 2;
  group.vertex_on_a = true;
  ContactSide top;
  top.normal = f.contact.normal;
  top.point = f.contact.point;
  top.gap_m = 0.0;
  group.sides.push_back(top);
  CollisionResult collision;
  collision.groups.push_back(group);
  EXPECT_EQ(f.substeps(collision), 5);

  ContactSide outside;
  outside.normal = Vec3::UnitX();
  outside.point = Vec3(-0.05, 0, 0.05);  // A's witness, the same vertex, 0.05 m out of it
  outside.gap_m = 0.05;
  collision.groups[0].sides.push_back(outside);
  EXPECT_EQ(f.substeps(collision), 1);
}

}  // namespace
}  // namespace pivot
