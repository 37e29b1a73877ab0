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

// Faces whose unit normals differ by less than ~1e-5 rad and whose planes are within
// 1e-9 of the size apart are one face: a triangulated hull's coplanar triangles agree to
// round-off, while the facets of a 100-gon prism differ by 0.06 rad.
constexpr double kCoplanarCos = 1.0 - 5e-11;
constexpr double kCoplanarOffset = 1e-9;
// A vertex further than this (relative to the size) in front of a face plane makes the
// mesh nonconvex; make_convex_mesh places hull points within 1e-6 of the size.
constexpr double kConvexityTolerance = 1e-5;

struct RawFace {
  Vec3 normal;
  double offset;
  std::vector<int> ids;
};

// Counter-clockwise hull (about normal) of the given vertices of one plane; collinear
// points are dropped so every corner is a true corner.
std::vector<int> plane_hull(const std::vector<Vec3>& vertices, std::vector<int> ids,
                            const Vec3& normal) {
  const Vec3 u = normal.unitOrthogonal();
  const Vec3 v = normal.cross(u);
  auto coords = [&](int id) { return Eigen::Vector2d(vertices[id].dot(u), vertices[id].dot(v)); };
  std::sort(ids.begin(), ids.end(), [&](int a, int b) {
    const Eigen::Vector2d pa = coords(a), pb = coords(b);
    return pa.x() < pb.x() || (pa.x() == pb.x() && pa.y() < pb.y());
  });
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  if (ids.size() < 3) return {};
  auto turn = [&](int o, int a, int b) {
    const Eigen::Vector2d po = coords(o), pa = coords(a) - po, pb = coords(b) - po;
    return pa.x() * pb.y() - pa.y() * pb.x();
  };
  // Andrew's monotone chain: lower chain left to right, then upper chain right to left.
  const int n = static_cast<int>(ids.size());
  std::vector<int> hull(2 * n);
  int k = 0;
  for (int i = 0; i < n; ++i) {
    while (k >= 2 && turn(hull[k - 2], hull[k - 1], ids[i]) <= 0) --k;
    hull[k++] = ids[i];
  }
  const int lower_size = k + 1;
  for (int i = n - 2; i >= 0; --i) {
    while (k >= lower_size && turn(hull[k - 2], hull[k - 1], ids[i]) <= 0) --k;
    hull[k++] = ids[i];
  }
  hull.resize(k - 1);
  return hull;
}

Polyhedron build(std::vector<Vec3> vertices, const std::vector<std::vector<int>>& faces) {
  for (const auto& face : faces) {
    for (int id : face) {
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

  // Plane of each input face (Newell's normal), merged with earlier coplanar faces.
  std::vector<RawFace> merged;
  for (const auto& face : faces) {
    Vec3 normal = Vec3::Zero();
    Vec3 mean = Vec3::Zero();
    for (size_t k = 0; k < face.size(); ++k) {
      const Vec3& a = vertices[face[k]];
      const Vec3& b = vertices[face[(k + 1) % face.size()]];
      normal += (a - centroid).cross(b - centroid);
      mean += a;
    }
    if (face.size() < 3 || normal.norm() <= 1e-12 * size * size) continue;  // a sliver
    mean /= static_cast<double>(face.size());
    normal.normalize();
    if (normal.dot(mean - centroid) < 0) normal = -normal;
    const double offset = normal.dot(mean);
    auto same = std::find_if(merged.begin(), merged.end(), [&](const RawFace& f) {
      return f.normal.dot(normal) > kCoplanarCos &&
             std::abs(f.offset - offset) <= kCoplanarOffset * size;
    });
    if (same == merged.end()) {
      merged.push_back({normal, offset, face});
    } else {
      same->ids.insert(same->ids.end(), face.begin(), face.end());
    }
  }

  Polyhedron p;
  p.vertices = std::move(vertices);
  std::map<std::pair<int, int>, int> edge_of;
  for (const RawFace& raw : merged) {
    const std::vector<int> corners = plane_hull(p.vertices, raw.ids, raw.normal);
    if (corners.size() < 3) continue;
    const int f = static_cast<int>(p.faces.size());
    p.faces.push_back({raw.normal, raw.offset, static_cast<int>(p.corner_ids.size()),
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
        Polyhedron::Edge& e = p.edges[it->second];
        if (e.face1 >= 0 || e.v0 != b) {
          throw std::invalid_argument("ConvexMesh faces do not close a convex polyhedron");
        }
        e.face1 = f;
        p.corner_edges.push_back(it->second);
      }
    }
  }
  if (p.faces.size() < 4) throw std::invalid_argument("ConvexMesh is flat");
  for (const Polyhedron::Edge& e : p.edges) {
    if (e.face1 < 0)
      throw std::invalid_argument("ConvexMesh faces do not close a convex polyhedron");
  }

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
  // other two bits (00, 10, 11, 01); build() orients them outward.
  std::vector<std::vector<int>> faces;
  for (int axis = 0; axis < 3; ++axis) {
    const int u = 1 << ((axis + 1) % 3), v = 1 << ((axis + 2) % 3);
    for (int set : {1, 0}) {
      const int base = set << axis;
      faces.push_back({base, base | u, base | u | v, base | v});
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
