// Egan, Berard and Trinkle's nonconvex groups: a vertex meeting a convex edge or vertex
// gets one group whose sides are the adjacent faces; a vertex over a face stays a convex
// contact (their Fig. 5); Off mode reports each side as a convex contact (their Fig. 1
// artifact).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <string>
#include <vector>

#include "collision/collision_scene.hpp"
#include "pivot/geometry.hpp"
#include "pivot/scene.hpp"

namespace pivot {
namespace {

using test::box;
using test::CollisionScene;
using test::corner_down;
using test::pose_at;
using test::round_hole_rim;
using test::square_hole_plate;

constexpr double kTol = 1e-12;

const ContactSide* side_with_normal(const ContactGroup& g, const Vec3& normal) {
  const auto it = std::find_if(g.sides.begin(), g.sides.end(), [&](const ContactSide& s) {
    return (s.normal - normal).norm() < 1e-12;
  });
  return it == g.sides.end() ? nullptr : &*it;
}

TEST(NonconvexGroups, BlockCornerOverHoleRimIsOneGroupOfTopAndWall) {
  // The rim of the right bar (piece 1) is the edge x = hw, z = 0. The block's lowest corner
  // is over the hole, delta short of the rim and h above the top: it meets that edge, and
  // may pass either above the top or beside the wall.
  const double hw = 0.05, delta = 1.5e-3, h = 0.5e-3, a = 0.02;
  const Vec3 v(hw - delta, 0.0, h);
  CollisionScene s;
  s.add("plate", square_hole_plate(hw, 0.02, 0.15), Pose{}, true);
  const int block = s.add("block", box(a, a, a), corner_down(a, v, M_PI));
  const CollisionResult r = s.collide(2e-3);
  ASSERT_EQ(r.groups.size(), 1u);
  const ContactGroup& g = r.groups[0];
  EXPECT_EQ(g.body_a, block);
  EXPECT_EQ(g.body_b, 0);
  EXPECT_TRUE(g.vertex_on_a);
  EXPECT_LT((g.point - v).norm(), kTol);
  EXPECT_EQ(g.feature_a, (Feature{FeatureType::Vertex, 0, 0}));
  EXPECT_EQ(g.feature_b.type, FeatureType::Edge);
  EXPECT_EQ(g.feature_b.piece, 1);
  ASSERT_EQ(g.sides.size(), 2u);
  const ContactSide* top = side_with_normal(g, Vec3::UnitZ());
  const ContactSide* wall = side_with_normal(g, -Vec3::UnitX());
  ASSERT_TRUE(top && wall);
  EXPECT_NEAR(top->gap_m, h, kTol);
  EXPECT_NEAR(wall->gap_m, delta, kTol);
  EXPECT_EQ(top->feature, (Feature{FeatureType::Face, 4, 1}));
  EXPECT_EQ(wall->feature, (Feature{FeatureType::Face, 1, 1}));
  EXPECT_LT((top->point - Vec3(hw - delta, 0, 0)).norm(), kTol);  // foot on the top plane
  EXPECT_LT((wall->point - Vec3(hw, 0, h)).norm(), kTol);         // foot on the wall plane
  // The group replaces the convex contacts of that corner.
  for (const Contact& c : r.contacts) EXPECT_NE(c.feature_a, g.feature_a);
  // Sum builds a different LCP from the same groups.
  const CollisionResult sum = s.collide(2e-3, NonconvexFormulation::Sum);
  EXPECT_EQ(sum.groups.size(), r.groups.size());
  EXPECT_EQ(sum.contacts.size(), r.contacts.size());

  // Off: no group; each side is a convex contact of its own, its plane extended beyond
  // its face (Egan's Fig. 1 artifact: the corner may pass neither above the top nor
  // beside the wall). They replace the corner's one manifold contact.
  const CollisionResult off = s.collide(2e-3, NonconvexFormulation::Off);
  EXPECT_TRUE(off.groups.empty());
  ASSERT_EQ(off.contacts.size(), r.contacts.size() + 2);
  std::vector<Contact> corner;
  std::copy_if(off.contacts.begin(), off.contacts.end(), std::back_inserter(corner),
               [&](const Contact& c) { return c.feature_a == g.feature_a; });
  ASSERT_EQ(corner.size(), 2u);
  for (const Contact& c : corner) {
    const ContactSide* side = side_with_normal(g, c.normal);
    ASSERT_TRUE(side);
    EXPECT_EQ(c.body_a, block);
    EXPECT_EQ(c.feature_b, side->feature);
    EXPECT_NEAR(c.gap_m, side->gap_m, kTol);
    EXPECT_LT((c.point - side->point).norm(), kTol);
  }
}

TEST(NonconvexGroups, VertexOverFaceStaysOneConvexContact) {
  // Egan Fig. 5: the face defines the contact plane.
  const double a = 0.02;
  CollisionScene s;
  s.add("plate", square_hole_plate(0.05, 0.02, 0.15), Pose{}, true);
  s.add("block", box(a, a, a), corner_down(a, Vec3(0.1, 0.0, 1e-3), M_PI));
  const CollisionResult r = s.collide(2e-3);
  EXPECT_TRUE(r.groups.empty());
  ASSERT_EQ(r.contacts.size(), 1u);
  EXPECT_NEAR(r.contacts[0].gap_m, 1e-3, kTol);
  EXPECT_TRUE(r.contacts[0].normal.isApprox(Vec3::UnitZ()));
  EXPECT_EQ(r.contacts[0].feature_a, (Feature{FeatureType::Vertex, 0, 0}));
}

TEST(NonconvexGroups, RimMadeOfTwoPiecesIsOneGroupAcrossThem) {
  // A bar (piece 0, top at z = 0 for x >= 0) with a 45-degree chamfer wedge glued to its
  // -x side (piece 1). The convex rim edge is between the bar's top and the wedge's
  // chamfer; the faces where the pieces are glued are no sides.
  Compound block;
  block.pieces.push_back({box(0.1, 0.1, 0.025), pose_at(Vec3(0.1, 0, -0.025))});
  block.pieces.push_back(
      {make_convex_mesh({Vec3(0, -0.1, 0), Vec3(0, 0.1, 0), Vec3(-0.03, -0.1, -0.03),
                         Vec3(-0.03, 0.1, -0.03), Vec3(0, -0.1, -0.03), Vec3(0, 0.1, -0.03)}),
       Pose{}});
  const double angle = 100.0 * M_PI / 180.0;  // between the two face normals (90 and 135)
  const Vec3 v = 2e-3 * Vec3(std::cos(angle), 0, std::sin(angle));
  const double a = 0.02;
  CollisionScene s;
  s.add("block", block, Pose{}, true);
  s.add("corner", box(a, a, a), corner_down(a, v, M_PI));
  const CollisionResult r = s.collide(2.2e-3);
  ASSERT_EQ(r.groups.size(), 1u);
  const ContactGroup& g = r.groups[0];
  ASSERT_EQ(g.sides.size(), 2u);
  const Vec3 chamfer_normal = Vec3(-1, 0, 1).normalized();
  const ContactSide* top = side_with_normal(g, Vec3::UnitZ());
  const ContactSide* chamfer = side_with_normal(g, chamfer_normal);
  ASSERT_TRUE(top && chamfer);
  EXPECT_EQ(top->feature.piece, 0);
  EXPECT_EQ(chamfer->feature.piece, 1);
  EXPECT_NEAR(top->gap_m, v.z(), kTol);
  EXPECT_NEAR(chamfer->gap_m, chamfer_normal.dot(v), 1e-12);
  for (const Contact& c : r.contacts) EXPECT_NE(c.feature_a, g.feature_a);
}

TEST(NonconvexGroups, CornerNearConcaveJunctionKeepsOneGroupPerPiece) {
  // Over the corner where two pieces of the 8-piece round hole meet, the hole is the
  // intersection of the two walls' half-spaces: one union of top and both walls would let
  // the corner into a piece. Each piece keeps its own group (top and its wall).
  const int n = 8;
  const double R = 0.1, alpha = 2 * M_PI / n, a = 0.02, h = 0.5e-3, inward = 1e-3;
  const Vec3 bisector(std::cos(alpha / 2), std::sin(alpha / 2), 0);
  const Vec3 v = R / std::cos(alpha / 2) * bisector - inward * bisector + Vec3(0, 0, h);
  CollisionScene s;
  s.add("rim", round_hole_rim(n, R, 0.02), Pose{}, true);
  s.add("corner", box(a, a, a), corner_down(a, v, alpha / 2 + M_PI));
  const CollisionResult r = s.collide(2e-3);
  ASSERT_EQ(r.groups.size(), 2u);
  for (int k = 0; k < 2; ++k) {
    const ContactGroup& g = r.groups[k];
    EXPECT_EQ(g.feature_b.piece, k);
    ASSERT_EQ(g.sides.size(), 2u);
    const double theta = alpha * k;
    const Vec3 wall_normal(-std::cos(theta), -std::sin(theta), 0);
    const ContactSide* top = side_with_normal(g, Vec3::UnitZ());
    const ContactSide* wall = side_with_normal(g, wall_normal);
    ASSERT_TRUE(top && wall) << "piece " << k;
    EXPECT_NEAR(top->gap_m, h, kTol);
    EXPECT_NEAR(wall->gap_m, inward * std::cos(alpha / 2), 1e-12);
  }
}

TEST(NonconvexGroups, CornerOverCornerGroupsBothWaysWithAllThreeFaces) {
  // A moving cube's corner v diagonally beyond a fixed box's corner w: v meets vertex w
  // (sides: the three faces at w) and w meets vertex v (sides: the three faces at v,
  // seen from the fixed body as B). Every face at the corner is a side (Egan Fig. 8).
  const Vec3 w(0.5, 0.5, 0.5), gaps(1e-3, 2e-3, 3e-3);
  const Vec3 v = w + gaps;
  const double a = 0.1;
  CollisionScene s;
  s.add("fixed", box(0.5, 0.5, 0.5), Pose{}, true);
  const int cube = s.add("cube", box(a, a, a), pose_at(v + Vec3(a, a, a)));
  const CollisionResult r = s.collide(5e-3);
  EXPECT_TRUE(r.contacts.empty());  // no face overlaps the other's
  ASSERT_EQ(r.groups.size(), 2u);
  for (const ContactGroup& g : r.groups) {
    EXPECT_EQ(g.body_a, cube);  // the moving body is A either way
    EXPECT_EQ(g.body_b, 0);
    ASSERT_EQ(g.sides.size(), 3u);
    for (int axis = 0; axis < 3; ++axis) {
      const ContactSide* side = side_with_normal(g, Vec3::Unit(axis));
      ASSERT_TRUE(side) << "axis " << axis;
      EXPECT_NEAR(side->gap_m, gaps[axis], kTol);
      // As in Contact, A's witness is point + gap normal: v itself, or its face plane.
      EXPECT_NEAR((side->point + side->gap_m * side->normal)[axis], v[axis], kTol);
    }
  }
  const ContactGroup& moving_vertex = r.groups[0].vertex_on_a ? r.groups[0] : r.groups[1];
  const ContactGroup& fixed_vertex = r.groups[0].vertex_on_a ? r.groups[1] : r.groups[0];
  ASSERT_TRUE(moving_vertex.vertex_on_a);
  ASSERT_FALSE(fixed_vertex.vertex_on_a);
  EXPECT_LT((moving_vertex.point - v).norm(), kTol);
  EXPECT_EQ(moving_vertex.feature_a, (Feature{FeatureType::Vertex, 0, 0}));
  EXPECT_EQ(moving_vertex.feature_b, (Feature{FeatureType::Vertex, 7, 0}));
  EXPECT_LT((fixed_vertex.point - w).norm(), kTol);
  EXPECT_EQ(fixed_vertex.feature_a, (Feature{FeatureType::Vertex, 0, 0}));  // met on A
  EXPECT_EQ(fixed_vertex.feature_b, (Feature{FeatureType::Vertex, 7, 0}));  // the vertex
  for (const ContactSide& side : fixed_vertex.sides) {
    // The sides are the moving cube's -x, -y, -z faces, turned to point from B to A.
    EXPECT_EQ(side.feature.type, FeatureType::Face);
    EXPECT_EQ(side.feature.index % 2, 1);
    EXPECT_LT((side.point - w).norm(), kTol);  // B's witness is the fixed corner
  }
  EXPECT_TRUE(s.collide(5e-3, NonconvexFormulation::Off).groups.empty());
}

// The separating axis of two boxes of a pile is that of an edge of each, the upper one's
// ending at its vertex v2, which also meets the lower one's edge: a group. The group keeps
// v2 out; the edge-edge contact keeps the edges from crossing, and stays. When the group
// replaced it, the upper box's edge crossed the lower one's 10 to 17 mm deep in a step on
// the piles (docs/nonconvex-max.md).
TEST(NonconvexGroups, AnEdgeEdgeContactEndingAtAGroupsVertexStays) {
  const Scene scene =
      read_scene_file(std::string(PIVOT_SOURCE_DIR) + "/tests/collision/edge_past_corner.json")
          .scene;
  CollisionSettings settings;
  settings.margin_m = 0.16;  // as the step's reach had it
  const CollisionResult r = collide(scene.bodies, scene.initial_states, settings);
  const int lower = 1, upper = 2;
  ASSERT_EQ(scene.bodies[upper].name, "upper");
  const Feature v2{FeatureType::Vertex, 2, 0};
  const auto group = std::find_if(r.groups.begin(), r.groups.end(), [&](const ContactGroup& g) {
    return g.body_a == lower && g.body_b == upper && !g.vertex_on_a && g.feature_b == v2;
  });
  ASSERT_NE(group, r.groups.end());
  const auto edge = std::find_if(r.contacts.begin(), r.contacts.end(), [&](const Contact& c) {
    return c.body_a == lower && c.body_b == upper && c.feature_b == v2;
  });
  ASSERT_NE(edge, r.contacts.end());
  EXPECT_EQ(edge->feature_a.type, FeatureType::Edge);
  EXPECT_EQ(edge->plane, ContactPlane::None);
  EXPECT_NEAR(edge->gap_m, 0.0142, 1e-4);
}

}  // namespace
}  // namespace pivot
