// The collision stage against closed forms: contact counts, points, normals and gaps for
// the configurations of Lloyd (2005) Fig. 1-2 and the peg-in-hole problems.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "collision/collision_scene.hpp"

namespace pivot {
namespace {

using test::about;
using test::box;
using test::CollisionScene;
using test::has_contact;
using test::pose_at;
using test::round_hole_rim;
using test::square_hole_plate;

// Round-off of a few rotations and products of numbers of order one.
constexpr double kTol = 1e-12;

TEST(Collide, BoxOnPlaneGivesItsFourBottomCorners) {
  CollisionScene s;
  s.add_ground();
  const int b = s.add("box", box(0.5, 0.3, 0.2), pose_at(Vec3(1, 2, 0.2)));
  const CollisionResult r = s.collide();
  ASSERT_EQ(r.contacts.size(), 4u);
  EXPECT_TRUE(r.groups.empty());
  for (int k = 0; k < 4; ++k) {
    const Contact& c = r.contacts[k];
    EXPECT_EQ(c.body_a, b);
    EXPECT_EQ(c.body_b, 0);
    EXPECT_NEAR(c.gap_m, 0.0, kTol);
    EXPECT_TRUE(c.normal.isApprox(Vec3::UnitZ()));
    // Box vertices 0-3 are the -z ones; the plane's face is 0.
    EXPECT_EQ(c.feature_a, (Feature{FeatureType::Vertex, k, 0}));
    EXPECT_EQ(c.feature_b, (Feature{FeatureType::Face, 0, 0}));
    const Vec3 expected(1 + ((k & 1) ? 0.5 : -0.5), 2 + ((k & 2) ? 0.3 : -0.3), 0);
    EXPECT_LT((c.point - expected).norm(), kTol) << c.point.transpose();
  }
}

TEST(Collide, SquareTurnedFortyFiveDegreesOnSquareGivesTheOctagon) {
  // Lloyd Fig. 2: the overlap of the two faces is a regular octagon; its corners are where
  // the turned square's edges |x| + |y| = sqrt(2)/2 cross the lower square's edges.
  CollisionScene s;
  s.add("base", box(0.5, 0.5, 0.5), pose_at(Vec3(0, 0, -0.5)), true);
  s.add("top", box(0.5, 0.5, 0.5), pose_at(Vec3(0, 0, 0.5), about(Vec3::UnitZ(), M_PI / 4)));
  const CollisionResult r = s.collide();
  ASSERT_EQ(r.contacts.size(), 8u);
  const double u = std::sqrt(0.5) - 0.5;
  for (double sx : {-1.0, 1.0}) {
    for (double sy : {-1.0, 1.0}) {
      EXPECT_TRUE(has_contact(r.contacts, Vec3(sx * 0.5, sy * u, 0), Vec3::UnitZ(), kTol));
      EXPECT_TRUE(has_contact(r.contacts, Vec3(sx * u, sy * 0.5, 0), Vec3::UnitZ(), kTol));
    }
  }
  for (const Contact& c : r.contacts) {
    EXPECT_EQ(c.body_a, 1);
    EXPECT_NEAR(c.gap_m, 0.0, kTol);
    // Every octagon corner is a crossing of an edge of each square.
    EXPECT_EQ(c.feature_a.type, FeatureType::Edge);
    EXPECT_EQ(c.feature_b.type, FeatureType::Edge);
  }
}

TEST(Collide, BoxInCornerOfThreePlanesGivesTwelve) {
  // Lloyd Fig. 1, left: four corners on each of the three planes.
  CollisionScene s;
  s.add("floor", HalfSpace{Vec3::UnitZ(), 0.0}, Pose{}, true);
  s.add("wall_x", HalfSpace{Vec3::UnitX(), 0.0}, Pose{}, true);
  s.add("wall_y", HalfSpace{Vec3::UnitY(), 0.0}, Pose{}, true);
  s.add("box", box(0.5, 0.5, 0.5), pose_at(Vec3(0.5, 0.5, 0.5)));
  const CollisionResult r = s.collide();
  ASSERT_EQ(r.contacts.size(), 12u);
  for (int plane = 0; plane < 3; ++plane) {
    const Vec3 n = plane == 0 ? Vec3::UnitZ() : Vec3::Unit(plane - 1);  // floor, wall_x, wall_y
    int on_plane = 0;
    for (const Contact& c : r.contacts) {
      if (c.body_b != plane) continue;
      ++on_plane;
      EXPECT_TRUE(c.normal.isApprox(n));
      EXPECT_NEAR(c.point.dot(n), 0.0, kTol);
      EXPECT_NEAR(c.gap_m, 0.0, kTol);
    }
    EXPECT_EQ(on_plane, 4);
  }
}

TEST(Collide, CubeInVGrooveTouchesBothSlopesAlongWholeFaces) {
  // Two slabs at +-45 degrees about x meet at the groove's bottom line (y = z = 0). A cube
  // of half size a turned 45 degrees about x lies with one face on each slope: each face
  // gives its four corners, (+-a, 0, 0) and (+-a, -+a sqrt 2, a sqrt 2).
  const double a = 0.1, w = 0.3, t = 0.05;
  Compound groove;
  for (double side : {-1.0, 1.0}) {
    // The slab's +z face lies in the slope plane z = -side y, its lower edge on the bottom line.
    const Quat q = about(Vec3::UnitX(), side * M_PI / 4);
    const Vec3 normal = q * Vec3::UnitZ();
    const Vec3 down_slope = q * Vec3::UnitY() * (-side);
    const Vec3 face_centre = -w * down_slope;
    groove.pieces.push_back({box(0.5, w, t), pose_at(face_centre - t * normal, q)});
  }
  CollisionScene s;
  s.add("groove", groove, Pose{}, true);
  s.add("cube", box(a, a, a),
        pose_at(Vec3(0, 0, a * std::sqrt(2.0)), about(Vec3::UnitX(), M_PI / 4)));
  const CollisionResult r = s.collide();
  ASSERT_EQ(r.contacts.size(), 8u);
  EXPECT_TRUE(r.groups.empty());
  const double d = a * std::sqrt(2.0);
  const Vec3 n_left = Vec3(0, 1, 1).normalized(), n_right = Vec3(0, -1, 1).normalized();
  for (double x : {-a, a}) {
    EXPECT_TRUE(has_contact(r.contacts, Vec3(x, 0, 0), n_left, 1e-9));
    EXPECT_TRUE(has_contact(r.contacts, Vec3(x, -d, d), n_left, 1e-9));
    EXPECT_TRUE(has_contact(r.contacts, Vec3(x, 0, 0), n_right, 1e-9));
    EXPECT_TRUE(has_contact(r.contacts, Vec3(x, d, d), n_right, 1e-9));
  }
  for (const Contact& c : r.contacts) EXPECT_NEAR(c.gap_m, 0.0, 1e-9);
}

TEST(Collide, SeparatedBoxesReportTheExactGapWithinTheMargin) {
  CollisionScene s;
  s.add("lower", box(0.5, 0.5, 0.5), pose_at(Vec3(0, 0, 0.5)), true);
  const int upper = s.add("upper", box(0.5, 0.5, 0.5), pose_at(Vec3(0, 0, 1.5 + 1e-3)));
  CollisionResult r = s.collide(5e-3);
  ASSERT_EQ(r.contacts.size(), 4u);
  for (const Contact& c : r.contacts) {
    EXPECT_NEAR(c.gap_m, 1e-3, kTol);
    EXPECT_NEAR(c.point.z(), 1.0, kTol);  // on the lower box; the upper's corner is 1 mm up
    EXPECT_NEAR(std::abs(c.point.x()), 0.5, kTol);
    EXPECT_NEAR(std::abs(c.point.y()), 0.5, kTol);
  }
  EXPECT_TRUE(r.groups.empty());  // corners over corners are vertex-face: no groups

  s.states[upper].pose.position.z() = 1.5 + 6e-3;  // beyond the 5 mm margin
  r = s.collide(5e-3);
  EXPECT_TRUE(r.contacts.empty());
  EXPECT_TRUE(r.groups.empty());
}

TEST(Collide, NothingIsReportedBeyondTheMargin) {
  CollisionScene s;
  s.add_ground();
  const int ball = s.add("ball", Sphere{0.1}, pose_at(Vec3(0, 0, 0.1 + 4e-3)));
  CollisionResult r = s.collide(5e-3);
  ASSERT_EQ(r.contacts.size(), 1u);
  EXPECT_NEAR(r.contacts[0].gap_m, 4e-3, kTol);
  EXPECT_TRUE(r.contacts[0].point.isApprox(Vec3::Zero()));
  s.states[ball].pose.position.z() = 0.1 + 5.5e-3;
  EXPECT_TRUE(s.collide(5e-3).contacts.empty());
  // A tilted box: only the corners within the margin.
  CollisionScene t;
  t.add_ground();
  const Quat tilt = about(Vec3::UnitY(), 0.01);
  const Vec3 lowest = tilt * Vec3(0.5, -0.5, -0.5);
  t.add("box", box(0.5, 0.5, 0.5), pose_at(Vec3(0, 0, -lowest.z() + 1e-3), tilt));
  r = t.collide(5e-3);
  // The +x corners are 1 mm up; the -x ones 1 mm + sin(0.01) m, beyond the margin.
  ASSERT_EQ(r.contacts.size(), 2u);
  for (const Contact& c : r.contacts) EXPECT_NEAR(c.gap_m, 1e-3, kTol);
}

TEST(Collide, CrossedRidgesTouchEdgeToEdge) {
  // Two cubes turned 45 degrees about y and about x: the ridges cross at one point, and the
  // separating axis is the cross product of the two edges (no face normal is vertical).
  const double ridge = std::sqrt(0.5), gap = 1e-3;
  CollisionScene s;
  s.add("lower", box(0.5, 0.5, 0.5), pose_at(Vec3::Zero(), about(Vec3::UnitY(), M_PI / 4)), true);
  s.add("upper", box(0.5, 0.5, 0.5),
        pose_at(Vec3(0.1, 0.2, 2 * ridge + gap), about(Vec3::UnitX(), M_PI / 4)));
  const CollisionResult r = s.collide(5e-3);
  ASSERT_EQ(r.contacts.size(), 1u);
  const Contact& c = r.contacts[0];
  EXPECT_NEAR(c.gap_m, gap, kTol);
  EXPECT_LT((c.normal - Vec3::UnitZ()).norm(), kTol);
  EXPECT_LT((c.point - Vec3(0, 0.2, ridge)).norm(), kTol);
  EXPECT_EQ(c.feature_a.type, FeatureType::Edge);
  EXPECT_EQ(c.feature_b.type, FeatureType::Edge);
}

TEST(Collide, SquarePegInSquareHoleTouchesAllFourWallsAtBothRims) {
  // Lloyd's 16-contact peg-in-hole: each wall face clips the peg's side to a rectangle
  // whose corners are on the top and bottom rims; clearance c within the margin.
  const double hw = 0.05, t = 0.02, c = 1e-3;
  for (NonconvexFormulation mode :
       {NonconvexFormulation::Max, NonconvexFormulation::Sum, NonconvexFormulation::Off}) {
    CollisionScene s;
    s.add("plate", square_hole_plate(hw, t, 0.15), Pose{}, true);
    s.add("peg", box(hw - c, hw - c, 0.1), pose_at(Vec3::Zero()));
    const CollisionResult r = s.collide(5e-3, mode);
    ASSERT_EQ(r.contacts.size(), 16u) << to_string(mode);
    // The hole's corners are no convex vertices of the plate: no groups.
    EXPECT_TRUE(r.groups.empty()) << to_string(mode);
    for (const Contact& k : r.contacts) {
      EXPECT_NEAR(k.gap_m, c, kTol);
      EXPECT_TRUE(std::abs(k.point.z()) < kTol || std::abs(k.point.z() + t) < kTol);
      // On a wall of the hole, at a corner of the peg's side.
      const int across = std::abs(k.normal.x()) > 0.5 ? 0 : 1;
      EXPECT_NEAR(std::abs(k.point[across]), hw, kTol);
      EXPECT_NEAR(std::abs(k.point[1 - across]), hw - c, kTol);
      EXPECT_NEAR(k.normal.dot(k.point), -hw, kTol);  // normals point into the hole
    }
  }
}

TEST(Collide, SphereRestsOnCircularRimAtEveryPiece) {
  // The rim: 12 boxes (see round_hole_rim). A sphere of radius r on a hole of radius R
  // touches each box at the midpoint of its inner top edge, (R cos, R sin, 0), with its
  // centre at height sqrt(r^2 - R^2); the normals point at the centre.
  const int n = 12;
  const double R = 0.1, r = 0.15;
  const double zc = std::sqrt(r * r - R * R);
  CollisionScene s;
  s.add("rim", round_hole_rim(n, R, 0.02), Pose{}, true);
  s.add("ball", Sphere{r}, pose_at(Vec3(0, 0, zc)));
  const CollisionResult r_ = s.collide();
  ASSERT_EQ(r_.contacts.size(), static_cast<size_t>(n));
  for (int k = 0; k < n; ++k) {
    const double theta = 2 * M_PI * k / n;
    const Vec3 p(R * std::cos(theta), R * std::sin(theta), 0);
    const Vec3 normal = (Vec3(0, 0, zc) - p) / r;
    EXPECT_TRUE(has_contact(r_.contacts, p, normal, 1e-12)) << "piece " << k;
  }
  for (const Contact& c : r_.contacts) {
    EXPECT_NEAR(c.gap_m, 0.0, 1e-12);
    EXPECT_EQ(c.feature_b.type, FeatureType::Edge);  // the inner top edge of a piece
  }
  EXPECT_TRUE(r_.groups.empty());  // a sphere has no vertices
}

TEST(Collide, RoundPegInRoundHoleTouchesEveryPieceAtBothRims) {
  // A cylinder of radius R - c in the 8-piece hole of radius R: its side line facing each
  // piece's inner face is clipped to the face, giving the top and bottom rims: 16 contacts.
  const int n = 8;
  const double R = 0.1, t = 0.02, c = 1e-3;
  CollisionScene s;
  s.add("rim", round_hole_rim(n, R, t), Pose{}, true);
  s.add("peg", Cylinder{R - c, 0.1}, pose_at(Vec3(0, 0, 0)));
  const CollisionResult r = s.collide();
  ASSERT_EQ(r.contacts.size(), 2u * n);
  for (int k = 0; k < n; ++k) {
    const double theta = 2 * M_PI * k / n;
    const Vec3 radial(std::cos(theta), std::sin(theta), 0);
    for (double z : {0.0, -t}) {
      EXPECT_TRUE(has_contact(r.contacts, R * radial + Vec3(0, 0, z), -radial, 1e-9))
          << "piece " << k << " z " << z;
    }
  }
  for (const Contact& k : r.contacts) EXPECT_NEAR(k.gap_m, c, 1e-9);
}

TEST(Collide, CornerSharedByTwoPiecesIsReportedOnce) {
  // Two cubes side by side in one compound share the bottom corners at x = 0.5.
  Compound pair;
  pair.pieces.push_back({box(0.5, 0.5, 0.5), pose_at(Vec3(0, 0, 0))});
  pair.pieces.push_back({box(0.5, 0.5, 0.5), pose_at(Vec3(1, 0, 0))});
  CollisionScene s;
  s.add_ground();
  s.add("pair", pair, pose_at(Vec3(0, 0, 0.5)));
  const CollisionResult r = s.collide();
  ASSERT_EQ(r.contacts.size(), 6u);
  for (double x : {-0.5, 0.5, 1.5}) {
    for (double y : {-0.5, 0.5}) {
      EXPECT_TRUE(has_contact(r.contacts, Vec3(x, y, 0), Vec3::UnitZ(), kTol)) << x << " " << y;
    }
  }
}

TEST(Collide, DetectorReusedAcrossStepsAgreesWithOneShotCollide) {
  CollisionScene s;
  s.add_ground();
  for (int k = 0; k < 5; ++k) {
    s.add("block" + std::to_string(k), box(0.2, 0.2, 0.1),
          pose_at(Vec3(0.001 * k, 0, 0.1 + 0.2 * k)));
  }
  CollisionSettings settings;
  CollisionDetector detector(s.bodies);
  for (int step = 0; step < 3; ++step) {
    for (size_t i = 1; i < s.states.size(); ++i) s.states[i].pose.position.x() += 0.003 * step;
    const CollisionResult once = collide(s.bodies, s.states, settings);
    const CollisionResult& reused = detector.detect(s.states, settings);
    ASSERT_EQ(once.contacts.size(), reused.contacts.size());
    for (size_t k = 0; k < once.contacts.size(); ++k) {
      EXPECT_EQ(once.contacts[k].point, reused.contacts[k].point);
      EXPECT_EQ(once.contacts[k].gap_m, reused.contacts[k].gap_m);
      EXPECT_EQ(once.contacts[k].feature_a, reused.contacts[k].feature_a);
    }
    EXPECT_EQ(once.contacts.size(), 4u + 4u * 4u);  // ground and four stacked faces
  }
}

TEST(Collide, RejectsBadInputNamingTheBody) {
  CollisionScene s;
  s.add("flat", box(0.5, 0.0, 0.5), Pose{});
  try {
    CollisionDetector detector(s.bodies);
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("'flat'"), std::string::npos) << e.what();
  }
  CollisionScene ok;
  ok.add("ball", Sphere{0.1}, Pose{});
  CollisionDetector detector(ok.bodies);
  EXPECT_THROW(detector.detect({}, CollisionSettings{}), std::invalid_argument);
  CollisionSettings negative;
  negative.margin_m = -1.0;
  EXPECT_THROW(detector.detect(ok.states, negative), std::invalid_argument);
}

}  // namespace
}  // namespace pivot
