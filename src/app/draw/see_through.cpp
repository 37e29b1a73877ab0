#include "see_through.hpp"

#include <variant>

#include "pivot/geometry.hpp"

namespace pivot::viewer {

Box3 mesh_bounds(const TriangleMesh& mesh, const Pose& pose) {
  Box3 box;
  for (const MeshVertex& v : mesh.vertices) {
    const Vec3 p = pose.to_world(Vec3(v.position[0], v.position[1], v.position[2]));
    box.lo = box.lo.cwiseMin(p);
    box.hi = box.hi.cwiseMax(p);
  }
  return box;
}

std::vector<float> default_alphas(const Scene& scene, const std::vector<BodyState>& states,
                                  const std::vector<TriangleMesh>& meshes) {
  std::vector<float> alpha(scene.bodies.size(), 1.0f);
  for (size_t k = 0; k < scene.bodies.size(); ++k) {
    if (!std::holds_alternative<Compound>(scene.bodies[k].shape)) continue;
    const Box3 box = mesh_bounds(meshes[k], states[k].pose);
    const double radius = bounding_radius_m(scene.bodies[k].shape);
    for (size_t other = 0; other < scene.bodies.size(); ++other) {
      if (other == k || bounding_radius_m(scene.bodies[other].shape) >= radius) continue;
      const Vec3 c = states[other].pose.position;
      if (c.x() >= box.lo.x() && c.x() <= box.hi.x() && c.y() >= box.lo.y() &&
          c.y() <= box.hi.y()) {
        alpha[k] = kContainerAlpha;
      }
    }
  }
  return alpha;
}

}  // namespace pivot::viewer
