// Sutherland-Hodgman clipping with features, and the separating-axis choice.
#include "collision/manifold.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace pivot {
namespace {

// A 2x2 square reference face in the plane z = 0, normal +z, counter-clockwise.
void load_square(ReferenceFace* ref) {
  ref->corners = {Vec3(-1, -1, 0), Vec3(1, -1, 0), Vec3(1, 1, 0), Vec3(-1, 1, 0)};
  ref->corner_features.clear();
  ref->edge_features.clear();
  for (int k = 0; k < 4; ++k) {
    ref->corner_features.push_back({FeatureType::Vertex, 10 + k, 0});
    ref->edge_features.push_back({FeatureType::Edge, 20 + k, 0});
  }
  ref->face = {FeatureType::Face, 30, 0};
  ref->normal = Vec3::UnitZ();
  ref->offset = 0.0;
}

// An incident polygon on body piece 1: corner k is vertex k, edge k runs from corner k to
// corner k + 1.
void load_incident(const std::vector<Vec3>& corners, int face, ClipScratch* scratch) {
  scratch->polygon.clear();
  for (size_t k = 0; k < corners.size(); ++k) {
    ClipPoint q;
    q.p = corners[k];
    q.incident = {FeatureType::Vertex, static_cast<int>(k), 1};
    q.segment = {FeatureType::Edge, static_cast<int>(k), 1};
    scratch->polygon.push_back(q);
  }
  scratch->incident_interior = {FeatureType::Face, face, 1};
}

TEST(Manifold, ClippedCornersAndCrossingsCarryTheirFeatures) {
  ClipScratch scratch;
  load_square(&scratch.reference);
  // An incident triangle with one corner inside and two beyond the +x edge.
  load_incident({Vec3(0, 0, 0.1), Vec3(2, -0.5, 0.1), Vec3(2, 0.5, 0.1)}, 0, &scratch);
  clip_against_reference(1e-12, &scratch);
  ASSERT_EQ(scratch.polygon.size(), 3u);
  EXPECT_EQ(scratch.polygon[0].incident, (Feature{FeatureType::Vertex, 0, 1}));
  EXPECT_EQ(scratch.polygon[0].reference, (Feature{FeatureType::Face, 30, 0}));
  // Incident edges 0 and 2 cross reference edge 1 (x = 1).
  EXPECT_TRUE(scratch.polygon[1].p.isApprox(Vec3(1, -0.25, 0.1)));
  EXPECT_EQ(scratch.polygon[1].incident, (Feature{FeatureType::Edge, 0, 1}));
  EXPECT_EQ(scratch.polygon[1].reference, (Feature{FeatureType::Edge, 21, 0}));
  EXPECT_TRUE(scratch.polygon[2].p.isApprox(Vec3(1, 0.25, 0.1)));
  EXPECT_EQ(scratch.polygon[2].incident, (Feature{FeatureType::Edge, 2, 1}));

  std::vector<Contact> contacts;
  emit_clipped(scratch, true, 0.2, &contacts);
  ASSERT_EQ(contacts.size(), 3u);
  EXPECT_NEAR(contacts[1].gap_m, 0.1, 1e-15);
  EXPECT_TRUE(contacts[1].point.isApprox(Vec3(1, -0.25, 0)));  // on the reference (B)
  contacts.clear();
  emit_clipped(scratch, true, 0.05, &contacts);  // all beyond this margin
  EXPECT_TRUE(contacts.empty());
}

TEST(Manifold, BiggerIncidentFaceIsCutAtTheReferenceCorners) {
  ClipScratch scratch;
  load_square(&scratch.reference);
  load_incident({Vec3(-3, -3, 0), Vec3(3, -3, 0), Vec3(3, 3, 0), Vec3(-3, 3, 0)}, 5, &scratch);
  clip_against_reference(1e-12, &scratch);
  ASSERT_EQ(scratch.polygon.size(), 4u);
  for (const ClipPoint& q : scratch.polygon) {
    // Each result is a corner of the reference face inside the incident face.
    EXPECT_EQ(q.reference.type, FeatureType::Vertex);
    EXPECT_EQ(q.incident, (Feature{FeatureType::Face, 5, 1}));
    EXPECT_NEAR(q.p.x() * q.p.x(), 1.0, 1e-12);
    EXPECT_NEAR(q.p.y() * q.p.y(), 1.0, 1e-12);
  }
}

// Stacked blocks that drift apart sideways by round-off put an incident edge along a side
// plane of the reference face, its ends a hair either side of the merge distance. The
// ten-block tower after 136 s (offsets of 3e-10 m between blocks, merge distance 3.5e-10 m)
// got a contact 1.98 m out on a 0.2 m block from the cut computed against the plane itself
// (t = dp / (dp - dq) of about -5000), and every method failed its LCP.
TEST(Manifold, EdgeAlongASidePlaneIsCutWithinTheFace) {
  const double merge = 1e-9;
  ClipScratch scratch;
  load_square(&scratch.reference);
  const double in = merge * (1.0 - 1e-4), out = merge * (1.0 + 1e-4);
  load_incident({Vec3(-1, -1, 0), Vec3(1 + in, -1, 0), Vec3(1 + out, 1, 0), Vec3(-1, 1, 0)}, 5,
                &scratch);
  clip_against_reference(merge, &scratch);
  ASSERT_FALSE(scratch.polygon.empty());
  for (const ClipPoint& q : scratch.polygon) {
    EXPECT_LE(std::abs(q.p.x()), 1.0 + 2 * merge) << q.p.transpose();
    EXPECT_LE(std::abs(q.p.y()), 1.0 + 2 * merge) << q.p.transpose();
  }
}

TEST(Manifold, ClosestSegmentParameters) {
  double s = 0, t = 0;
  closest_segment_params(Vec3(-1, 0, 0), Vec3(1, 0, 0), Vec3(0.5, -1, 1), Vec3(0.5, 1, 1), &s, &t);
  EXPECT_NEAR(s, 0.75, 1e-15);
  EXPECT_NEAR(t, 0.5, 1e-15);
  closest_segment_params(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(3, -1, 0), Vec3(3, 1, 0), &s, &t);
  EXPECT_EQ(s, 1.0);  // clamped at the end
  EXPECT_NEAR(t, 0.5, 1e-15);
}

}  // namespace
}  // namespace pivot
