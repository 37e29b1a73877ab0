// Seeing the contact inside a body: how opaque each body is drawn, and a section plane
// that cuts the bodies open. Knows the scene's shapes, not GL.
#pragma once

#include <vector>

#include "pivot/scene.hpp"
#include "shape_mesh.hpp"

namespace pivot::viewer {

struct SeeThrough {
  bool on = true;                       // T toggles; off draws every body opaque
  std::vector<float> alpha;             // per scene body: 1 opaque, less is translucent
  bool section = false;                 // X toggles the section plane
  Vec3 section_normal = Vec3::UnitY();  // a signed world axis; the side it points to is cut
  double section_offset_m = 0.0;        // the plane: section_normal . x = offset

  // The opacity body k is drawn with: its alpha, or 1 with translucency off.
  float body_alpha(int body) const { return on ? alpha[static_cast<size_t>(body)] : 1.0f; }
};

// How translucent a container is drawn by default.
constexpr float kContainerAlpha = 0.3f;

// The viewer's rule for what starts translucent: a container, that is a compound body (the
// one shape with holes and hollows) over whose footprint (its world x-y bounding box at the
// given states; z is up in the viewer) lies the centre of another, smaller body. Such a
// body hides the contact it makes with that body: the peg in the peg-in-hole block, the
// peg over block_with_hole, the ball in its rim. A viewer rule rather than a scene key, so
// that it holds for every scene, shipped or not, and the scene format stays physics only.
// meshes[k] is body k's mesh in its body frame.
std::vector<float> default_alphas(const Scene& scene, const std::vector<BodyState>& states,
                                  const std::vector<TriangleMesh>& meshes);

// An axis-aligned box in the world frame [m]; empty (lo > hi) as constructed.
struct Box3 {
  Vec3 lo = Vec3::Constant(1e300);
  Vec3 hi = Vec3::Constant(-1e300);
};
// The world bounding box of a body-frame mesh at the given pose.
Box3 mesh_bounds(const TriangleMesh& mesh, const Pose& pose);

}  // namespace pivot::viewer
