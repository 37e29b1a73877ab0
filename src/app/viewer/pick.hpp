// Picking a body under the mouse: the camera ray against the triangles the viewer draws,
// so what the user clicks is what they see.
#pragma once

#include <optional>
#include <vector>

#include "pivot/scene.hpp"
#include "pivot/world.hpp"
#include "shape_mesh.hpp"

namespace pivot::viewer {

struct PickHit {
  int body = -1;
  Vec3 point_m = Vec3::Zero();  // world frame
  double distance_m = 0.0;      // along the ray from its origin
};

// The nearest dynamic body hit by the ray origin + t direction (t > 0); meshes[k] is body
// k's mesh in its body frame. Fixed bodies are never picked.
std::optional<PickHit> pick_body(const Vec3& origin, const Vec3& direction, const Scene& scene,
                                 const WorldState& state, const std::vector<TriangleMesh>& meshes);

}  // namespace pivot::viewer
