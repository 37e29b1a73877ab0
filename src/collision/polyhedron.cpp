#include "collision/polyhedron.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>

namespace pivot {

namespace {

// Adjacent faces whose unit normals differ by less than ~1e-5 rad and whose corners lie
// within 1e-9 of the size of each other's plane are one face: a triangulated hull's
// coplanar triangles agree to round-off, while the facets of a 100-gon prism differ by
// 0.06 rad. The corners are measured, not the planes' offsets from the origin: two faces
// at a small angle have offsets that differ by that angle times the origin's distance from
// them, so the faces of a thin sheet lying in a plane through the origin agreed at any
// angle, and joining both pairs of a tetrahedron 3e-6 of its size thick left it flat.
constexpr double kCoplanarCos = 1.0 - 5e-11;
constexpr double kCoplanarDistance = 1e-9;
// A face whose corners lie within this (relative to the size) of the line of its longest
// edge has no reliable normal: it is a sliver along that edge, and joins the face across
// it. Its corners then lie that close to the joined face's plane, far inside the convexity
// tolerance, while the round-off of a normal that is kept stays below 1e-7 rad.
constexpr double kSliverHeight = 1e-9;
// A vertex further than this (relative to the size) in front of a face plane makes the
// mesh nonconvex; make_convex_mesh places hull points within 1e-6 of the size.
constexpr double kConvexityTolerance = 1e-5;

const char* const kNotClosed = "ConvexMesh faces do not close a convex polyhedron";

int find_root(std::vector<int>& parent, int f) {
  while (parent[f] != f) f = parent[f] = parent[parent[f]];
  return f;
}

// The faces are joined by their topology, never re-cut by a geometric test: a corner that
// one face holds on a straight line (a hull keeps those within its tolerance) stays a
// corner, so each edge keeps the two faces that share it. Re-hulling each face's corners
// dropped such a corner from that face alone and left the edges on either side of it
// with one face.
Polyhedron build(std::vector<Vec3> vertices, const std::vector<std::vector<int>>& faces) {
  const int nf = static_cast<int>(faces.size());
  for (int f = 0; f < nf; ++f) {
    if (faces[f].size() < 3) {
      throw std::invalid_argument("ConvexMesh face " + std::to_string(f) +
                                  " has fewer than 3 corners");
    }
    for (int id : faces[f]) {
      if (id < 0 || id >= static_cast<int>(vertices.size())) {
        throw std::invalid_argument("ConvexMesh face refers to vertex " + std::to_string(id) +
                                    " of " + std::to_string(vertices.size()));
      }
    }
  }
  std::vector<char> used(vertices.size(), 0);
  for (const auto& face : faces) {
    for (int id : face) used[id] = 1;
  }
  Vec3 centroid = Vec3::Zero();
  int num_used = 0;
  for (size_t i = 0; i < vertices.size(); ++i) {
    if (used[i]) centroid += vertices[i], ++num_used;
  }
  if (num_used < 4) throw std::invalid_argument("ConvexMesh needs faces over at least 4 vertices");
  centroid /= num_used;
  double size = 0.0;
  for (size_t i = 0; i < vertices.size(); ++i) {
    if (used[i]) size = std::max(size, (vertices[i] - centroid).norm());
  }
  if (!(size > 0.0)) throw std::invalid_argument("ConvexMesh has zero size");

  // A closed, consistently oriented surface uses every edge once in each direction.
  std::map<std::pair<int, int>, int> face_of_edge;
  for (int f = 0; f < nf; ++f) {
    const auto& face = faces[f];
    for (size_t k = 0; k < face.size(); ++k) {
      const int a = face[k], b = face[(k + 1) % face.size()];
      if (a == b || !face_of_edge.emplace(std::make_pair(a, b), f).second)
        throw std::invalid_argument(kNotClosed);
    }
  }
  for (const auto& [edge, f] : face_of_edge) {
    if (!face_of_edge.count({edge.second, edge.first})) throw std::invalid_argument(kNotClosed);
  }
  auto across = [&](int a, int b) { return face_of_edge.at({b, a}); };

  // Plane of each face (Newell's normal); slivers have none.
  std::vector<Vec3> normal(nf);
  std::vector<double> offset(nf);
  std::vector<char> sliver(nf);
  for (int f = 0; f < nf; ++f) {
    const auto& face = faces[f];
    Vec3 n = Vec3::Zero();
    Vec3 mean = Vec3::Zero();
    double longest_length = 0.0;
    for (size_t k = 0; k < face.size(); ++k) {
      const Vec3& a = vertices[face[k]];
      const Vec3& b = vertices[face[(k + 1) % face.size()]];
      n += (a - centroid).cross(b - centroid);
      mean += a;
      longest_length = std::max(longest_length, (b - a).norm());
    }
    mean /= static_cast<double>(face.size());
    sliver[f] = n.norm() <= kSliverHeight * size * longest_length;
    if (sliver[f]) continue;
    normal[f] = n.normalized();
    offset[f] = normal[f].dot(mean);
  }

  // Coplanar neighbours and slivers join into one face (union-find); the joined face
  // keeps the plane of its first face that has one.
  std::vector<int> parent(nf);
  for (int f = 0; f < nf; ++f) parent[f] = f;
  auto join = [&](int f, int g) {
    const int rf = find_root(parent, f), rg = find_root(parent, g);
    parent[std::max(rf, rg)] = std::min(rf, rg);
  };
  auto corners_on_plane = [&](int f, int g) {
    return std::all_of(faces[g].begin(), faces[g].end(), [&](int v) {
      return std::abs(normal[f].dot(vertices[v]) - offset[f]) <= kCoplanarDistance * size;
    });
  };
  for (int f = 0; f < nf; ++f) {
    const auto& face = faces[f];
    if (sliver[f]) {
      // Across its longest edge that leads to a face with a plane (two slivers along one
      // line may share their longest edge), else across its longest edge.
      std::pair<bool, double> best(false, -1.0);
      int target = -1;
      for (size_t k = 0; k < face.size(); ++k) {
        const int a = face[k], b = face[(k + 1) % face.size()];
        const std::pair<bool, double> key(!sliver[across(a, b)],
                                          (vertices[a] - vertices[b]).norm());
        if (key > best) best = key, target = across(a, b);
      }
      join(f, target);
      continue;
    }
    for (size_t k = 0; k < face.size(); ++k) {
      const int g = across(face[k], face[(k + 1) % face.size()]);
      if (!sliver[g] && normal[f].dot(normal[g]) > kCoplanarCos && corners_on_plane(f, g) &&
          corners_on_plane(g, f))
        join(f, g);
    }
  }
  std::vector<int> plane_of(nf, -1);  // per root
  for (int f = 0; f < nf; ++f) {
    const int r = find_root(parent, f);
    if (plane_of[r] < 0 && !sliver[f]) plane_of[r] = f;
  }

  Polyhedron p;
  p.vertices = std::move(vertices);
  std::map<std::pair<int, int>, int> edge_of;
  std::vector<char> done(nf, 0);
  for (int first = 0; first < nf; ++first) {
    const int root = find_root(parent, first);
    if (done[root]) continue;
    done[root] = 1;
    const int plane = plane_of[root];
    if (plane < 0) throw std::invalid_argument(kNotClosed);  // slivers only
    // The joined face's boundary: its edges whose other face lies outside it, one cycle.
    std::map<int, int> next;
    for (int f = first; f < nf; ++f) {
      if (find_root(parent, f) != root) continue;
      const auto& face = faces[f];
      for (size_t k = 0; k < face.size(); ++k) {
        const int a = face[k], b = face[(k + 1) % face.size()];
        if (find_root(parent, across(a, b)) != root && !next.emplace(a, b).second)
          throw std::invalid_argument(kNotClosed);  // pinched at a
      }
    }
    if (next.size() < 3) throw std::invalid_argument(kNotClosed);
    std::vector<int> corners = {next.begin()->first};
    while (corners.size() <= next.size()) {
      const auto it = next.find(corners.back());
      if (it == next.end()) throw std::invalid_argument(kNotClosed);
      if (it->second == corners.front()) break;
      corners.push_back(it->second);
    }
    if (corners.size() != next.size()) throw std::invalid_argument(kNotClosed);  // a hole
    // Start at the least corner in the plane's (u, v) coordinates, so a face's corners
    // (and the edge numbers that follow them) do not depend on the input's starting corner.
    const Vec3 u = normal[plane].unitOrthogonal();
    const Vec3 v = normal[plane].cross(u);
    std::rotate(corners.begin(),
                std::min_element(corners.begin(), corners.end(),
                                 [&](int a, int b) {
                                   const double au = p.vertices[a].dot(u),
                                                bu = p.vertices[b].dot(u);
                                   return au < bu ||
                                          (au == bu && p.vertices[a].dot(v) < p.vertices[b].dot(v));
                                 }),
                corners.end());

    const int f = static_cast<int>(p.faces.size());
    p.faces.push_back({normal[plane], offset[plane], static_cast<int>(p.corner_ids.size()),
                       static_cast<int>(corners.size())});
    for (size_t k = 0; k < corners.size(); ++k) {
      const int a = corners[k], b = corners[(k + 1) % corners.size()];
      p.corner_ids.push_back(a);
      const auto key = std::minmax(a, b);
      auto it = edge_of.find(key);
      if (it == edge_of.end()) {
        edge_of.emplace(key, static_cast<int>(p.edges.size()));
        p.corner_edges.push_back(static_cast<int>(p.edges.size()));
        p.edges.push_back({a, b, f, -1});
      } else {
        p.edges[it->second].face1 = f;
        p.corner_edges.push_back(it->second);
      }
    }
  }
  if (p.faces.size() < 4) throw std::invalid_argument("ConvexMesh is flat");

  // Faces and edges around each vertex (compressed rows).
  const int nv = static_cast<int>(p.vertices.size());
  std::vector<std::vector<int>> vf(nv), ve(nv);
  for (int f = 0; f < static_cast<int>(p.faces.size()); ++f) {
    for (int k = 0; k < p.faces[f].count; ++k) vf[p.corner_ids[p.faces[f].first + k]].push_back(f);
  }
  for (int e = 0; e < static_cast<int>(p.edges.size()); ++e) {
    ve[p.edges[e].v0].push_back(e);
    ve[p.edges[e].v1].push_back(e);
  }
  p.vertex_face_start.push_back(0);
  p.vertex_edge_start.push_back(0);
  for (int v = 0; v < nv; ++v) {
    p.vertex_faces.insert(p.vertex_faces.end(), vf[v].begin(), vf[v].end());
    p.vertex_edges.insert(p.vertex_edges.end(), ve[v].begin(), ve[v].end());
    p.vertex_face_start.push_back(static_cast<int>(p.vertex_faces.size()));
    p.vertex_edge_start.push_back(static_cast<int>(p.vertex_edges.size()));
    if (!vf[v].empty()) p.hull_vertices.push_back(v);
  }

  p.centroid = Vec3::Zero();
  for (int v : p.hull_vertices) p.centroid += p.vertices[v];
  p.centroid /= static_cast<double>(p.hull_vertices.size());
  for (int v : p.hull_vertices) p.radius = std::max(p.radius, (p.vertices[v] - p.centroid).norm());
  for (const Polyhedron::Face& f : p.faces) {
    for (int v : p.hull_vertices) {
      if (f.normal.dot(p.vertices[v]) - f.offset > kConvexityTolerance * p.radius) {
        throw std::invalid_argument("ConvexMesh is not convex");
      }
    }
  }
  return p;
}

}  // namespace

Polyhedron make_box_polyhedron(const Vec3& h) {
  std::vector<Vec3> vertices(8);
  for (int i = 0; i < 8; ++i) {
    vertices[i] =
        Vec3((i & 1) ? h.x() : -h.x(), (i & 2) ? h.y() : -h.y(), (i & 4) ? h.z() : -h.z());
  }
  // +x, -x, +y, -y, +z, -z: the vertices with bit `axis` set or clear, walked round by the
  // other two bits, counter-clockwise seen from outside: (00, 10, 11, 01) on the + side,
  // the reverse on the - side.
  std::vector<std::vector<int>> faces;
  for (int axis = 0; axis < 3; ++axis) {
    const int u = 1 << ((axis + 1) % 3), v = 1 << ((axis + 2) % 3);
    for (int set : {1, 0}) {
      const int base = set << axis;
      faces.push_back(set ? std::vector<int>{base, base | u, base | u | v, base | v}
                          : std::vector<int>{base, base | v, base | u | v, base | u});
    }
  }
  return build(std::move(vertices), faces);
}

Polyhedron make_mesh_polyhedron(const ConvexMesh& mesh) { return build(mesh.vertices, mesh.faces); }

void PosedPolyhedron::set_pose(const Polyhedron& polyhedron, const Pose& pose) {
  shape = &polyhedron;
  const Mat3 R = pose.orientation.toRotationMatrix();
  vertices.resize(polyhedron.vertices.size());
  for (size_t i = 0; i < vertices.size(); ++i)
    vertices[i] = R * polyhedron.vertices[i] + pose.position;
  normals.resize(polyhedron.faces.size());
  offsets.resize(polyhedron.faces.size());
  for (size_t f = 0; f < normals.size(); ++f) {
    normals[f] = R * polyhedron.faces[f].normal;
    offsets[f] = polyhedron.faces[f].offset + normals[f].dot(pose.position);
  }
  centroid = R * polyhedron.centroid + pose.position;
}

int PosedPolyhedron::min_vertex(const Vec3& direction) const {
  int best = shape->hull_vertices.front();
  double best_dot = direction.dot(vertices[best]);
  for (int v : shape->hull_vertices) {
    const double d = direction.dot(vertices[v]);
    if (d < best_dot) best = v, best_dot = d;
  }
  return best;
}

Vec3 closest_on_face(const PosedPolyhedron& poly, int f, const Vec3& p, FeatureType* type,
                     int* index) {
  const Polyhedron::Face& face = poly.shape->faces[f];
  const Vec3& n = poly.normals[f];
  const Vec3 q = p - (n.dot(p) - poly.offsets[f]) * n;
  double best = std::numeric_limits<double>::infinity();
  Vec3 closest = q;
  *type = FeatureType::Face;
  *index = f;
  for (int k = 0; k < face.count; ++k) {
    const int v0 = poly.shape->corner_ids[face.first + k];
    const int v1 = poly.shape->corner_ids[face.first + (k + 1) % face.count];
    const Vec3& r0 = poly.vertices[v0];
    const Vec3 u = poly.vertices[v1] - r0;
    if (u.cross(n).dot(q - r0) <= 0.0) continue;  // inside this edge's side plane
    const double t = std::clamp(u.dot(q - r0) / u.squaredNorm(), 0.0, 1.0);
    const Vec3 c = r0 + t * u;
    const double d = (q - c).squaredNorm();
    if (d < best) {
      best = d;
      closest = c;
      *type = t <= 0.0 || t >= 1.0 ? FeatureType::Vertex : FeatureType::Edge;
      *index = t <= 0.0 ? v0 : t >= 1.0 ? v1 : poly.shape->corner_edges[face.first + k];
    }
  }
  return closest;
}

PolyhedronPoint closest_point(const PosedPolyhedron& poly, const Vec3& p) {
  PolyhedronPoint out;
  out.max_plane_distance = -std::numeric_limits<double>::infinity();
  for (int f = 0; f < static_cast<int>(poly.normals.size()); ++f) {
    const double d = poly.normals[f].dot(p) - poly.offsets[f];
    if (d > out.max_plane_distance) out.max_plane_distance = d, out.plane_face = f;
  }
  if (out.max_plane_distance <= 0.0) {  // inside: the nearest face plane
    out.distance = out.max_plane_distance;
    out.closest = p - out.distance * poly.normals[out.plane_face];
    out.type = FeatureType::Face;
    out.index = out.plane_face;
    return out;
  }
  out.distance = std::numeric_limits<double>::infinity();
  for (int f = 0; f < static_cast<int>(poly.normals.size()); ++f) {
    if (poly.normals[f].dot(p) - poly.offsets[f] <= 0.0) continue;
    FeatureType type;
    int index;
    const Vec3 c = closest_on_face(poly, f, p, &type, &index);
    const double d = (p - c).norm();
    if (d < out.distance) {
      out.distance = d;
      out.closest = c;
      out.type = type;
      out.index = index;
    }
  }
  return out;
}

}  // namespace pivot
