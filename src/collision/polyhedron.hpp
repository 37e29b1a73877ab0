// Convex polyhedra as the collision code sees them: faces as convex polygons with their
// planes, edges with the two faces they join, and the faces and edges around each vertex.
// Built once per shape (Box, ConvexMesh) in the piece frame; posed copies hold the world
// coordinates of one step.
#pragma once

#include <vector>

#include "pivot/contact.hpp"
#include "pivot/math.hpp"
#include "pivot/shape.hpp"

namespace pivot {

struct Polyhedron {
  struct Face {
    Vec3 normal;    // unit, outward
    double offset;  // plane: normal . x = offset
    int first;      // corners are corner_ids[first, first + count), counter-clockwise from outside
    int count;
  };
  struct Edge {
    int v0, v1;
    int face0, face1;  // face0 walks v0 -> v1 counter-clockwise, face1 walks v1 -> v0
  };

  std::vector<Vec3> vertices;
  std::vector<int> hull_vertices;  // ids of the vertices that are corners of some face
  std::vector<Face> faces;
  std::vector<int> corner_ids;    // vertex ids of the face polygons
  std::vector<int> corner_edges;  // edge from corner k to corner k + 1 of the same face
  std::vector<Edge> edges;
  // Per vertex: the faces and edges around it, [start[v], start[v + 1]) into the lists.
  // Vertices not on the hull (a ConvexMesh may list some) have none.
  std::vector<int> vertex_face_start, vertex_faces;
  std::vector<int> vertex_edge_start, vertex_edges;
  Vec3 centroid = Vec3::Zero();  // mean of the hull vertices (an interior point)
  double radius = 0.0;           // max distance of a vertex from the centroid [m]
};

// Box vertices and faces are numbered as documented in pivot/contact.hpp.
Polyhedron make_box_polyhedron(const Vec3& half_extents);
// Adjacent coplanar faces of the mesh (a hull may come triangulated) are merged into one
// polygon, so face-face contact clips against the whole face, and a sliver face (no
// reliable normal) joins a neighbour. Corners stay as the mesh gives them, a corner on a
// straight line included. Vertex ids stay those of the mesh; faces are numbered in order of
// first appearance. Throws std::invalid_argument when the faces do not close a
// consistently oriented surface, or it is not convex.
Polyhedron make_mesh_polyhedron(const ConvexMesh& mesh);

// A polyhedron at one pose: the same topology, world coordinates.
struct PosedPolyhedron {
  const Polyhedron* shape = nullptr;
  std::vector<Vec3> vertices;
  std::vector<Vec3> normals;    // per face
  std::vector<double> offsets;  // per face
  Vec3 centroid = Vec3::Zero();

  void set_pose(const Polyhedron& polyhedron, const Pose& pose);
  // Vertex of the hull with the least projection onto direction.
  int min_vertex(const Vec3& direction) const;
};

// Where a point is relative to a posed polyhedron.
struct PolyhedronPoint {
  double distance = 0.0;        // signed: < 0 inside (minus the depth below the nearest face) [m]
  Vec3 closest = Vec3::Zero();  // on the surface
  FeatureType type = FeatureType::Face;  // the closest feature
  int index = 0;                         // its id
  double max_plane_distance = 0.0;       // max over faces of the signed distance to the plane
  int plane_face = 0;                    // the face that attains it
};
PolyhedronPoint closest_point(const PosedPolyhedron& poly, const Vec3& p);

// Closest point of face f (the polygon, not its plane) to p; *type and *index say which
// feature of the polygon it lies in.
Vec3 closest_on_face(const PosedPolyhedron& poly, int f, const Vec3& p, FeatureType* type,
                     int* index);

}  // namespace pivot
