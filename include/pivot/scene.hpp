// A scene: everything that starts a simulation (materials, bodies with their initial
// states, settings, scripted wrenches, a camera hint), and its JSON file format
// (docs/scene-format.md, scenes/scene.schema.json).
#pragma once

#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "pivot/body.hpp"
#include "pivot/contact.hpp"
#include "pivot/lcp.hpp"
#include "pivot/math.hpp"

namespace pivot {

struct Material {
  std::string name;
  double friction = 0.5;  // Coulomb coefficient mu [-], >= 0
};

struct SceneSettings {
  // Uniform acceleration of every dynamic body, world frame [m/s^2].
  Vec3 gravity_mps2 = Vec3(0.0, 0.0, -9.81);
  // Time step h [s]. Stewart–Trinkle is first order: halving h halves the position error
  // of a sliding or falling body and doubles the number of LCPs solved.
  double time_step_s = 0.01;
  // Directions d of the polyhedral friction cone per contact [-], >= 2. The friction
  // force is exact along these directions and up to 1 - cos(pi/d) too weak between them;
  // each contact adds 2 + d LCP variables.
  int friction_directions = kDefaultFrictionDirections;
  // Lemke method for the contact LCP (Lloyd 2005): standard forms the dense matrix,
  // structural and reduced exploit its structure; all give the same impulses.
  LcpMethod solver = LcpMethod::Reduced;
  // How nonconvex contact groups (a corner sliding over the rim of a hole) are modelled.
  NonconvexFormulation nonconvex = NonconvexFormulation::Max;
  // One Coulomb coefficient mu [-] (>= 0) for every contact in place of the mix of the two
  // bodies' materials (`pivot run --mu`, the viewer's "global mu"). Absent: the materials'.
  std::optional<double> friction_override;
  // The least distance at which feature pairs become contacts (with their positive gap)
  // [m]. Every step each pair is also searched as far as the two bodies can move in that
  // step (from their current velocities, gravity and wrenches), so falling and thrown
  // bodies are seen before they touch; this floor only adds rows. Absent: |g| h^2, see
  // contact_margin_m(const Scene&).
  std::optional<double> contact_margin_m;
  // Largest speed at which a penetration (a body written or dragged into another) is
  // pushed out [m/s]. The push moves the poses only and leaves no velocity behind
  // (src/dynamics/penetration_recovery.hpp): a body d deep is out in d / (speed h) steps.
  double penetration_recovery_speed_mps = 0.5;
};

// A scripted push: force and torque on one body while t0 <= t < t1.
struct ExternalWrench {
  int body = 0;                   // index into Scene::bodies
  Vec3 force_n = Vec3::Zero();    // world frame [N]
  Vec3 torque_nm = Vec3::Zero();  // world frame [N m], on top of the moment of the force
  // Where the force acts, body frame (origin = centre of mass) [m]: the body feels the
  // torque (R point) x force in addition to torque_nm.
  Vec3 point_m = Vec3::Zero();
  double t0_s = 0.0;                                      // [s]
  double t1_s = std::numeric_limits<double>::infinity();  // [s]
};

// Where the viewer starts looking from; world frame [m].
struct CameraHint {
  Vec3 eye_m = Vec3(3.0, 3.0, 2.0);
  Vec3 target_m = Vec3::Zero();
  Vec3 up = Vec3::UnitZ();  // unit
};

struct Scene {
  std::string description;
  SceneSettings settings;
  std::vector<Material> materials;        // Body::material indexes these
  std::vector<Body> bodies;               // unique names
  std::vector<BodyState> initial_states;  // one per body, same order
  std::vector<ExternalWrench> wrenches;
  std::optional<CameraHint> camera;  // absent: the viewer frames the whole scene
};

// The floor of the contact margin [m]: the settings' value, or if absent |g| h^2, how far a
// body at rest falls in one step (0.98 mm at h = 0.01 s). The stepper searches each pair
// further when the bodies can move further in the step (World::step).
double contact_margin_m(const Scene& scene);

// ---- files (src/io/scene_file.cpp) ------------------------------------------------------

struct LoadedScene {
  Scene scene;
  // Problems fixed while loading (a quaternion that was not unit length, a key that a
  // fixed body ignores), each "file:line:column: message".
  std::vector<std::string> warnings;
};

// Reads a scene file; throws InputError "file:line:column: message" for syntax errors,
// unknown keys, wrong types, values out of range and inconsistent bodies. Where mass
// properties are computed from shapes, the body frame is moved to the centre of mass
// (shapes shifted, pose adjusted) so that the world placement stays as written.
LoadedScene read_scene_file(const std::string& path);
// The same from text; file_name only labels the errors.
LoadedScene parse_scene(const std::string& json_text, const std::string& file_name);

// The scene as JSON text that parse_scene reads back to the same scene: mass and
// inertia explicit, shapes about the centre of mass.
std::string scene_to_json(const Scene& scene);
// Writes to a temporary file renamed over path at the end, so a reader never sees half a
// file; throws std::runtime_error when the file cannot be written.
void write_scene_file(const Scene& scene, const std::string& path);

}  // namespace pivot
