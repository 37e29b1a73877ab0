#include "collision/polyhedron.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "pivot/geometry.hpp"

namespace pivot {
namespace {

TEST(Polyhedron, BoxNumberingIsTheDocumentedOne) {
  const Polyhedron p = make_box_polyhedron(Vec3(1, 2, 3));
  ASSERT_EQ(p.vertices.size(), 8u);
  EXPECT_EQ(p.vertices[0], Vec3(-1, -2, -3));
  EXPECT_EQ(p.vertices[5], Vec3(1, -2, 3));  // bits 0 and 2 set
  ASSERT_EQ(p.faces.size(), 6u);
  const Vec3 normals[6] = {Vec3::UnitX(),  -Vec3::UnitX(), Vec3::UnitY(),
                           -Vec3::UnitY(), Vec3::UnitZ(),  -Vec3::UnitZ()};
  const double offsets[6] = {1, 1, 2, 2, 3, 3};
  for (int f = 0; f < 6; ++f) {
    EXPECT_TRUE(p.faces[f].normal.isApprox(normals[f])) << "face " << f;
    EXPECT_NEAR(p.faces[f].offset, offsets[f], 1e-15) << "face " << f;
    EXPECT_EQ(p.faces[f].count, 4);
  }
  EXPECT_EQ(p.edges.size(), 12u);
  EXPECT_EQ(p.hull_vertices.size(), 8u);
  EXPECT_NEAR(p.radius, std::sqrt(14.0), 1e-15);
}

TEST(Polyhedron, FacesAreCounterClockwiseFromOutside) {
  const Polyhedron p = make_box_polyhedron(Vec3(1, 1, 1));
  for (const Polyhedron::Face& f : p.faces) {
    const Vec3& a = p.vertices[p.corner_ids[f.first]];
    const Vec3& b = p.vertices[p.corner_ids[f.first + 1]];
    const Vec3& c = p.vertices[p.corner_ids[f.first + 2]];
    EXPECT_GT((b - a).cross(c - b).dot(f.normal), 0.0);
  }
}

TEST(Polyhedron, EveryEdgeJoinsTwoFacesWalkingItOppositeWays) {
  const Polyhedron p = make_box_polyhedron(Vec3(1, 1, 1));
  for (const Polyhedron::Edge& e : p.edges) {
    ASSERT_GE(e.face1, 0);
    EXPECT_NE(e.face0, e.face1);
    // Both end vertices lie on both faces.
    for (int f : {e.face0, e.face1}) {
      for (int v : {e.v0, e.v1}) {
        EXPECT_NEAR(p.faces[f].normal.dot(p.vertices[v]), p.faces[f].offset, 1e-12);
      }
    }
  }
  for (int v = 0; v < 8; ++v) {
    EXPECT_EQ(p.vertex_face_start[v + 1] - p.vertex_face_start[v], 3);
    EXPECT_EQ(p.vertex_edge_start[v + 1] - p.vertex_edge_start[v], 3);
  }
}

TEST(Polyhedron, TriangulatedCubeMergesIntoSixSquares) {
  ConvexMesh mesh;
  for (int i = 0; i < 8; ++i) {
    mesh.vertices.emplace_back((i & 1) ? 1 : -1, (i & 2) ? 1 : -1, (i & 4) ? 1 : -1);
  }
  mesh.vertices.emplace_back(0, 0, 0);  // an interior point no face uses
  // Two triangles per side, counter-clockwise from outside.
  mesh.faces = {{0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6}, {0, 1, 5}, {0, 5, 4},
                {2, 6, 7}, {2, 7, 3}, {0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5}};
  const Polyhedron p = make_mesh_polyhedron(mesh);
  EXPECT_EQ(p.faces.size(), 6u);
  EXPECT_EQ(p.edges.size(), 12u);
  EXPECT_EQ(p.hull_vertices.size(), 8u);  // the interior point is no corner
  for (const Polyhedron::Face& f : p.faces) EXPECT_EQ(f.count, 4);
}

TEST(Polyhedron, HullFromMakeConvexMeshIsAccepted) {
  // A hexagonal prism from the geometry stage's hull.
  std::vector<Vec3> points;
  for (int k = 0; k < 6; ++k) {
    for (double z : {-0.5, 0.5})
      points.emplace_back(std::cos(k * M_PI / 3), std::sin(k * M_PI / 3), z);
  }
  const Polyhedron p = make_mesh_polyhedron(make_convex_mesh(points));
  EXPECT_EQ(p.faces.size(), 8u);
  EXPECT_EQ(p.edges.size(), 18u);
  EXPECT_EQ(p.hull_vertices.size(), 12u);
}

TEST(Polyhedron, RejectsOpenAndNonconvexMeshes) {
  ConvexMesh open;
  for (int i = 0; i < 8; ++i) {
    open.vertices.emplace_back((i & 1) ? 1 : -1, (i & 2) ? 1 : -1, (i & 4) ? 1 : -1);
  }
  open.faces = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}};
  EXPECT_THROW(make_mesh_polyhedron(open), std::invalid_argument);

  ConvexMesh dented = open;
  dented.faces.push_back({1, 3, 7, 5});
  dented.vertices[7] = Vec3(0.2, 0.2, 0.2);  // pushed inside: faces at it fold inward
  EXPECT_THROW(make_mesh_polyhedron(dented), std::invalid_argument);

  ConvexMesh bad_index = open;
  bad_index.faces.push_back({1, 3, 7, 9});
  EXPECT_THROW(make_mesh_polyhedron(bad_index), std::invalid_argument);
}

TEST(Polyhedron, ClosestPointNamesTheFeature) {
  PosedPolyhedron poly;
  const Polyhedron box = make_box_polyhedron(Vec3(1, 1, 1));
  Pose pose;
  pose.position = Vec3(10, 0, 0);
  poly.set_pose(box, pose);

  // Over the +z face: the face, at the height above it.
  PolyhedronPoint q = closest_point(poly, Vec3(10.2, 0.3, 1.5));
  EXPECT_EQ(q.type, FeatureType::Face);
  EXPECT_EQ(q.index, 4);
  EXPECT_NEAR(q.distance, 0.5, 1e-15);
  EXPECT_NEAR(q.max_plane_distance, 0.5, 1e-15);

  // Beyond the edge between +x and +z: the edge, at the diagonal distance.
  q = closest_point(poly, Vec3(11.3, 0.3, 1.4));
  EXPECT_EQ(q.type, FeatureType::Edge);
  EXPECT_NEAR(q.distance, 0.5, 1e-15);
  EXPECT_NEAR(q.max_plane_distance, 0.4, 1e-15);
  EXPECT_TRUE(q.closest.isApprox(Vec3(11, 0.3, 1)));

  // Beyond the +x +y +z corner: vertex 7.
  q = closest_point(poly, Vec3(11.1, 1.2, 1.2));
  EXPECT_EQ(q.type, FeatureType::Vertex);
  EXPECT_EQ(q.index, 7);
  EXPECT_NEAR(q.distance, std::sqrt(0.01 + 0.04 + 0.04), 1e-15);

  // Inside: minus the depth below the nearest face (-y, at 0.25).
  q = closest_point(poly, Vec3(10.1, -0.75, 0.2));
  EXPECT_EQ(q.type, FeatureType::Face);
  EXPECT_EQ(q.index, 3);
  EXPECT_NEAR(q.distance, -0.25, 1e-15);
}

}  // namespace
}  // namespace pivot
