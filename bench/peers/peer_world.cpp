// The checks every peer shares: which Pivot scenes a peer can model.
#include "peers/peer_world.hpp"

#include <stdexcept>
#include <variant>

namespace pivot::peers {

double single_friction(const Scene& scene) {
  if (scene.settings.friction_override) return *scene.settings.friction_override;
  if (scene.materials.size() != 1) {
    throw std::invalid_argument(
        "a peer engine takes one material (or a friction override), the scene has " +
        std::to_string(scene.materials.size()));
  }
  return scene.materials.front().friction;
}

void check_boxes_on_ground(const Scene& scene) {
  if (!scene.wrenches.empty())
    throw std::invalid_argument("a peer engine takes no scripted wrenches");
  for (const Body& body : scene.bodies) {
    if (std::holds_alternative<Box>(body.shape)) continue;
    const auto* ground = std::get_if<HalfSpace>(&body.shape);
    if (ground && body.fixed && ground->normal.isApprox(Vec3::UnitZ()) && ground->offset_m == 0.0) {
      continue;
    }
    throw std::invalid_argument("a peer engine takes boxes and the ground z >= 0; body '" +
                                body.name + "' is neither");
  }
}

}  // namespace pivot::peers
