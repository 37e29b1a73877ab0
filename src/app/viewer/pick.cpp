#include "pick.hpp"

#include <cmath>
#include <limits>

namespace pivot::viewer {

namespace {

// Moller-Trumbore: the ray parameter t of the hit with triangle (a, b, c), both faces.
std::optional<double> ray_triangle(const Vec3& o, const Vec3& d, const Vec3& a, const Vec3& b,
                                   const Vec3& c) {
  const Vec3 e1 = b - a, e2 = c - a;
  const Vec3 p = d.cross(e2);
  const double det = e1.dot(p);
  if (std::abs(det) < 1e-14) return std::nullopt;
  const Vec3 s = o - a;
  const double u = s.dot(p) / det;
  if (u < 0.0 || u > 1.0) return std::nullopt;
  const Vec3 q = s.cross(e1);
  const double v = d.dot(q) / det;
  if (v < 0.0 || u + v > 1.0) return std::nullopt;
  const double t = e2.dot(q) / det;
  if (t <= 0.0) return std::nullopt;
  return t;
}

Vec3 vertex(const MeshVertex& v) { return Vec3(v.position[0], v.position[1], v.position[2]); }

}  // namespace

std::optional<PickHit> pick_body(const Vec3& origin, const Vec3& direction, const Scene& scene,
                                 const WorldState& state, const std::vector<TriangleMesh>& meshes) {
  std::optional<PickHit> best;
  for (size_t k = 0; k < scene.bodies.size() && k < meshes.size(); ++k) {
    if (scene.bodies[k].fixed) continue;
    // The ray in the body frame, where the mesh is.
    const Pose& pose = state.bodies[k].pose;
    const Quat to_body = pose.orientation.conjugate();
    const Vec3 o = to_body * (origin - pose.position);
    const Vec3 d = to_body * direction;
    const std::vector<MeshVertex>& v = meshes[k].vertices;
    for (size_t i = 0; i + 2 < v.size(); i += 3) {
      const std::optional<double> t =
          ray_triangle(o, d, vertex(v[i]), vertex(v[i + 1]), vertex(v[i + 2]));
      if (!t || (best && *t >= best->distance_m)) continue;
      best = PickHit{static_cast<int>(k), origin + *t * direction, *t};
    }
  }
  return best;
}

}  // namespace pivot::viewer
