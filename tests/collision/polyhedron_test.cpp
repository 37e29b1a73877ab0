#include "collision/polyhedron.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

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

  ConvexMesh inside_out = open;  // closed, every face clockwise seen from outside
  inside_out.faces.push_back({1, 3, 7, 5});
  for (auto& face : inside_out.faces) std::reverse(face.begin(), face.end());
  EXPECT_THROW(make_mesh_polyhedron(inside_out), std::invalid_argument);

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

// What collision needs of the hull of `points`: make_mesh_polyhedron accepts it, every edge
// joins two faces, no hull vertex lies in front of a face plane and every input point lies
// behind all of them. The tolerance is twice the hull's (1e-6 of the points' extent): faces
// are merged from triangles whose corners lie within one tolerance of the seed's plane,
// and make_convex_mesh keeps a merged face only while no vertex lies more than two in front
// of its plane (over 1.2 million random sets the worst was 1.42e-6).
void expect_accepted_hull(const std::vector<Vec3>& points) {
  Vec3 lo = points[0], hi = points[0];
  for (const Vec3& q : points) lo = lo.cwiseMin(q), hi = hi.cwiseMax(q);
  const double tol = 2e-6 * (hi - lo).maxCoeff();
  Polyhedron p;
  ASSERT_NO_THROW(p = make_mesh_polyhedron(make_convex_mesh(points)));
  for (const Polyhedron::Edge& e : p.edges) EXPECT_GE(e.face1, 0);
  for (const Polyhedron::Face& f : p.faces) {
    for (int v : p.hull_vertices) {
      EXPECT_LE(f.normal.dot(p.vertices[v]) - f.offset, tol) << "vertex " << v << " in front";
    }
    for (const Vec3& q : points) EXPECT_LE(f.normal.dot(q) - f.offset, tol) << "point outside";
  }
}

TEST(Polyhedron, AcceptsTheFuzzHullWithAStraightCorner) {
  // collision_pair_fuzz's first finding: coordinates -0.09 + 0.19 v / 65535 m for 16-bit v.
  // Points 1, 2 and 5 share x and y, so 1 lies on the segment 5-2; make_convex_mesh keeps
  // it as a corner of three faces, in one of them on a straight line. Re-hulling each face
  // dropped it from that face only, leaving three edges with one face each.
  const int v[8][3] = {
      {29966, 0, 0},         {0, 0, 1}, {0, 0, 256},           {17733, 17733, 7749},
      {17733, 17733, 28958}, {0, 0, 0}, {65280, 65535, 65535}, {65535, 32357, 65310}};
  std::vector<Vec3> points;
  for (const auto& c : v) {
    Vec3 q;
    for (int k = 0; k < 3; ++k) q[k] = (0.01 + (0.2 - 0.01) * (c[k] / 65535.0)) - 0.1;
    points.push_back(q);
  }
  const ConvexMesh mesh = make_convex_mesh(points);
  int straight_corners = 0;
  for (const auto& face : mesh.faces) {
    for (std::size_t k = 0; k < face.size(); ++k) {
      const Vec3& a = mesh.vertices[face[k]];
      const Vec3& b = mesh.vertices[face[(k + 1) % face.size()]];
      const Vec3& c = mesh.vertices[face[(k + 2) % face.size()]];
      straight_corners += (b - a).cross(c - b).norm() == 0.0 ? 1 : 0;
    }
  }
  EXPECT_EQ(straight_corners, 1);  // the case this test is about
  expect_accepted_hull(points);
}

TEST(Polyhedron, SliversSharingTheirLongestEdgeJoinTheFacesBesideThem) {
  // Twenty points within 2e-4 of a line and one off it (found by a random search): the
  // hull keeps two faces of three nearly collinear corners that share their longest edge.
  // Each joins the face across its longest edge that has a plane; joining across the
  // longest edge alone paired them with each other and left a face without a plane.
  const std::vector<Vec3> points = {
      Vec3(0.56044348132721589, 0.27410859209868432, 0.013465647488818877),
      Vec3(0.61509594945637092, 0.30083079933731754, 0.014778969261633983),
      Vec3(0.4305678654963222, 0.21056640113384692, 0.010346594390466774),
      Vec3(0.19520834075068266, 0.095469511644463947, 0.0046915954126126539),
      Vec3(0.77538783375425746, 0.37920942568945981, 0.018631729231342736),
      Vec3(0.54976204545199825, 0.26886860824125253, 0.01320991608023395),
      Vec3(0.81809345525641664, 0.40009433083101797, 0.019657950134675365),
      Vec3(0.13355975545852319, 0.0653386701954069, 0.0032076001863275312),
      Vec3(0.56862692201181964, 0.278083280594632, 0.013664169096256295),
      Vec3(0.10763102164638157, 0.052658392352361985, 0.0025845297871853021),
      Vec3(0.6671512358720858, 0.3262794182615012, 0.016029692561692725),
      Vec3(0.39431385303966537, 0.19285009865010747, 0.0094730457777387998),
      Vec3(0.5663526183514096, 0.27698260900287253, 0.013608165096650408),
      Vec3(0.7296601782432357, 0.35685768682116964, 0.017531960606094757),
      Vec3(0.17004967459766532, 0.083187827377793649, 0.0040853639600814317),
      Vec3(0.23419035311874103, 0.11453977098702003, 0.0056277894507723806),
      Vec3(0.76439020947397807, 0.37382003713943623, 0.018368382982679277),
      Vec3(0.1973083361992857, 0.096514497050250267, 0.0047394857745199602),
      Vec3(0.27495098620360386, 0.1344724620843889, 0.0066066150303817914),
      Vec3(0.30900727936977662, 0.15111799080976904, 0.0074254797897081804),
      Vec3(0.23150983946243098, 0.66694624011982095, -0.039836001582909356)};
  const ConvexMesh mesh = make_convex_mesh(points);
  int slivers = 0;
  for (const auto& face : mesh.faces) {
    Vec3 n = Vec3::Zero();
    for (std::size_t k = 0; k < face.size(); ++k)
      n += mesh.vertices[face[k]].cross(mesh.vertices[face[(k + 1) % face.size()]]);
    slivers += n.norm() < 1e-15 ? 1 : 0;
  }
  EXPECT_EQ(slivers, 2);
  expect_accepted_hull(points);
}

TEST(Polyhedron, ThinTetrahedronKeepsItsFourFaces) {
  // collision_pair_fuzz (CI of stop 32): a tetrahedron 10 cm wide and 0.3 um thick, 3e-6
  // of its size, above the hull's 2e-6, lying in a plane through the origin. Judged by
  // their planes' offsets from the origin, its two upper faces were one (4.5e-6 rad
  // apart), as were its two lower ones, and the polyhedron was refused as flat.
  const std::vector<Vec3> points = {
      Vec3(-0.0031221484702830676, 0.099399862668802935, 0.1), Vec3(0.1, 0.1, 0.1),
      Vec3(0.1, -0.0024234378576333399, -0.0030235751888304102),
      Vec3(0.025968566414892813, 0.025968566414892813, 0.025968566414892813)};
  const ConvexMesh mesh = make_convex_mesh(points);
  ASSERT_EQ(mesh.faces.size(), 4u);
  Polyhedron p;
  ASSERT_NO_THROW(p = make_mesh_polyhedron(mesh));
  EXPECT_EQ(p.faces.size(), 4u);
  expect_accepted_hull(points);
}

// Point sets where quickhull meets near-duplicates, near-collinear and near-coplanar
// points: the fuzz target's 16-bit grid with repeated coordinates, tight clusters, and thin
// sheets and needles (some thicker than the hull's tolerance by only a few times).
std::vector<Vec3> clustered_points(std::mt19937& rng, int kind) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  auto pick = [&](int n) { return std::uniform_int_distribution<int>(0, n)(rng); };
  std::vector<Vec3> points;
  if (kind == 0) {
    std::vector<std::array<int, 3>> grid;
    for (int k = 0; k < 8; ++k) {
      std::array<int, 3> c;
      for (int a = 0; a < 3; ++a) {
        const double r = u(rng);
        if (r < 0.25) {
          c[a] = 0;
        } else if (r < 0.4) {
          c[a] = 65535;
        } else if (r < 0.6 && k > 0) {  // an earlier point's, perhaps nudged
          const int nudge = u(rng) < 0.5 ? 0 : pick(600) - 300;
          c[a] = std::clamp(grid[pick(k - 1)][a] + nudge, 0, 65535);
        } else {
          c[a] = pick(65535);
        }
      }
      grid.push_back(c);
      points.emplace_back(c[0] / 65535.0, c[1] / 65535.0, c[2] / 65535.0);
    }
  } else if (kind == 1) {
    const int n = 4 + pick(26), clusters = 2 + pick(4);
    std::vector<Vec3> centres;
    for (int c = 0; c < clusters; ++c) centres.emplace_back(u(rng), u(rng), u(rng));
    for (int k = 0; k < n; ++k) {
      const double radius = std::pow(10.0, -1.0 - 7.0 * u(rng));
      Vec3 q = centres[k % clusters] + radius * Vec3(u(rng) - 0.5, u(rng) - 0.5, u(rng) - 0.5);
      if (u(rng) < 0.3) q = (q * 1e4).array().round() / 1e4;
      points.push_back(q);
    }
  } else {
    const int n = 5 + pick(15);
    const double thickness = std::pow(10.0, -2.0 - 5.0 * u(rng));
    for (int k = 0; k < n; ++k) {
      Vec3 q(u(rng), u(rng), thickness * (u(rng) - 0.5));
      if (kind == 3) q.y() *= 10 * thickness;  // a needle
      if (u(rng) < 0.5) q = (q * 1e5).array().round() / 1e5;
      points.push_back(q);
    }
    points.emplace_back(0.5, 0.5, u(rng) < 0.5 ? 0.3 : 1e-3);
    const Quat turn = Quat(u(rng), u(rng) - 0.5, u(rng) - 0.5, u(rng) - 0.5).normalized();
    for (Vec3& q : points) q = turn * q;
  }
  return points;
}

TEST(Polyhedron, EveryHullOfClusteredPointsIsAccepted) {
  // Before the fix, 2 % of such sets were refused (the first at trial 37 here).
  std::mt19937 rng(21);
  int hulls = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const std::vector<Vec3> points = clustered_points(rng, trial % 4);
    try {
      make_convex_mesh(points);
    } catch (const std::invalid_argument&) {
      continue;  // flat within the tolerance: no hull to hand on
    }
    ++hulls;
    SCOPED_TRACE("trial " + std::to_string(trial));
    expect_accepted_hull(points);
    if (HasFailure()) break;
  }
  EXPECT_GT(hulls, 1800);  // 1,890: the rest are flat within the tolerance
}

}  // namespace
}  // namespace pivot
