// The drawing of a world's state, shared by the viewer's window and `pivot render`'s
// offscreen frames: the bodies (opaque, then translucent farthest first), the ground grid
// and the overlays of the last step. Knows GL through Renderer; no window, no ImGui.
#pragma once

#include <functional>
#include <vector>

#include "camera.hpp"
#include "contact_view.hpp"
#include "pivot/world.hpp"
#include "renderer.hpp"
#include "see_through.hpp"
#include "shape_mesh.hpp"

namespace pivot::viewer {

// Force arrows: the normal part yellow, the friction part cyan.
inline const Eigen::Vector4f kNormalArrowColour(1.0f, 0.85f, 0.1f, 1.0f);
inline const Eigen::Vector4f kFrictionArrowColour(0.1f, 0.85f, 0.95f, 1.0f);
// The sky every frame is cleared to.
inline const Eigen::Vector3f kSkyColour(0.78f, 0.82f, 0.88f);

struct Overlays {
  bool contacts = true;
  bool normals = false;
  bool forces = true;
  bool cones = false;
  bool groups = true;
  bool frames = false;
  bool islands = false;
};

// A force arrow: from a contact point, its normal or its friction force at a scale.
struct ForceArrow {
  int contact = -1;  // index into the contacts it was made from
  bool friction = false;
  Vec3 from = Vec3::Zero(), to = Vec3::Zero();
};
// (contacts, newtons per metre of arrow) => an arrow per non-zero normal and friction force
std::vector<ForceArrow> force_arrows(const std::vector<ContactView>& contacts,
                                     double newtons_per_metre);

// The smallest of 1, 2, 5 times a power of ten at or above x > 0.
double round_up_125(double x);
// The scene's largest weight or scripted force as an arrow about a quarter of the camera's
// distance long, rounded up to 1, 2 or 5 times a power of ten [N/m].
double default_force_scale(const Scene& scene, double camera_distance_m);

// A scene's bodies on the GPU, and the drawing of a state of that scene.
class WorldDrawing {
 public:
  explicit WorldDrawing(Renderer* renderer) : renderer_(renderer) {}
  WorldDrawing(const WorldDrawing&) = delete;
  WorldDrawing& operator=(const WorldDrawing&) = delete;
  ~WorldDrawing();

  // (scene) => a mesh per body, tessellated and uploaded
  void set_scene(const Scene& scene);
  // Body k's mesh in its body frame (for picking and bounds).
  const std::vector<TriangleMesh>& body_meshes() const { return body_meshes_; }

  // Clears a width x height frame to the sky and sets the camera's view.
  void begin_frame(const OrbitCamera& camera, int width_px, int height_px) const;
  // (state, last step's contacts, camera, choices) => opaque bodies, grid, overlays, then
  // translucent bodies farthest first. more_lines adds the caller's own overlay lines
  // (the viewer's hand and pinned contact); they are depth-tested like the others.
  void draw(const World& world, const std::vector<ContactView>& contacts, const OrbitCamera& camera,
            const Overlays& overlays, const SeeThrough& see_through, double newtons_per_metre,
            const std::function<void()>& more_lines = {}) const;

 private:
  void add_overlays(const World& world, const std::vector<ContactView>& contacts,
                    const OrbitCamera& camera, const Overlays& overlays,
                    double newtons_per_metre) const;

  Renderer* renderer_;
  std::vector<GpuMesh> meshes_;
  std::vector<TriangleMesh> body_meshes_;
};

}  // namespace pivot::viewer
