#include "world_drawing.hpp"

#include <algorithm>
#include <cmath>
#include <variant>

namespace pivot::viewer {

namespace {

constexpr float kHiddenOverlayAlpha = 0.3f;
constexpr float kHalfSpaceAlpha = 0.85f;

Eigen::Vector3f body_colour(int index, bool fixed) {
  if (fixed) return {0.55f, 0.57f, 0.60f};
  static const float palette[][3] = {
      {0.90f, 0.45f, 0.20f}, {0.25f, 0.55f, 0.90f}, {0.35f, 0.75f, 0.35f}, {0.85f, 0.75f, 0.25f},
      {0.70f, 0.40f, 0.80f}, {0.25f, 0.75f, 0.75f}, {0.85f, 0.35f, 0.50f}, {0.60f, 0.60f, 0.30f}};
  const float* c = palette[index % 8];
  return {c[0], c[1], c[2]};
}

Eigen::Matrix4f model_matrix(const Pose& pose) {
  Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
  m.topLeftCorner<3, 3>() = pose.orientation.toRotationMatrix();
  m.topRightCorner<3, 1>() = pose.position;
  return m.cast<float>();
}

Eigen::Vector3f f(const Vec3& v) { return v.cast<float>(); }

}  // namespace

std::vector<ForceArrow> force_arrows(const std::vector<ContactView>& contacts,
                                     double newtons_per_metre) {
  std::vector<ForceArrow> arrows;
  for (size_t k = 0; k < contacts.size(); ++k) {
    const ContactView& c = contacts[k];
    if (c.normal_n > 0.0) {
      arrows.push_back({static_cast<int>(k), false, c.point,
                        c.point + c.normal_n / newtons_per_metre * c.normal});
    }
    if (c.friction_n.norm() > 0.0) {
      arrows.push_back(
          {static_cast<int>(k), true, c.point, c.point + c.friction_n / newtons_per_metre});
    }
  }
  return arrows;
}

double round_up_125(double x) {
  const double decade = std::pow(10.0, std::floor(std::log10(x)));
  for (const double m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * decade >= x * (1.0 - 1e-12)) return m * decade;
  }
  return 10.0 * decade;
}

double default_force_scale(const Scene& scene, double camera_distance_m) {
  double force = 0.0;
  for (const Body& body : scene.bodies) {
    if (!body.fixed) force = std::max(force, body.mass_kg * scene.settings.gravity_mps2.norm());
  }
  for (const ExternalWrench& w : scene.wrenches) force = std::max(force, w.force_n.norm());
  if (force <= 0.0) return 1.0;
  return round_up_125(force / (0.25 * camera_distance_m));
}

WorldDrawing::~WorldDrawing() {
  for (GpuMesh& mesh : meshes_) renderer_->release(&mesh);
}

void WorldDrawing::set_scene(const Scene& scene) {
  for (GpuMesh& mesh : meshes_) renderer_->release(&mesh);
  meshes_.clear();
  body_meshes_.clear();
  for (const Body& body : scene.bodies) {
    body_meshes_.push_back(tessellate(body.shape));
    meshes_.push_back(renderer_->upload(body_meshes_.back()));
  }
}

void WorldDrawing::begin_frame(const OrbitCamera& camera, int width_px, int height_px) const {
  const double aspect = height_px > 0 ? static_cast<double>(width_px) / height_px : 1.0;
  const Eigen::Matrix4f view_projection = camera.projection(aspect) * camera.view();
  renderer_->begin_frame(width_px, height_px, view_projection, f(camera.eye()), kSkyColour);
}

void WorldDrawing::draw(const World& world, const std::vector<ContactView>& contacts,
                        const OrbitCamera& camera, const Overlays& overlays,
                        const SeeThrough& see_through, double newtons_per_metre,
                        const std::function<void()>& more_lines) const {
  const Scene& scene = world.scene();
  const WorldState& state = world.state();
  const SeeThrough& st = see_through;
  renderer_->set_section_plane(st.section ? f(st.section_normal) : Eigen::Vector3f::Zero(),
                               static_cast<float>(st.section_offset_m));
  // Opaque bodies first. Translucent ones come after the grid and the overlays, farthest
  // first (by centre), so they hide neither one another nor the contacts behind them.
  std::vector<std::pair<double, int>> translucent;
  const Vec3 eye = camera.eye();
  for (size_t k = 0; k < scene.bodies.size(); ++k) {
    const bool plane = std::holds_alternative<HalfSpace>(scene.bodies[k].shape);
    const float alpha = plane ? kHalfSpaceAlpha : st.body_alpha(static_cast<int>(k));
    if (!plane && alpha < 1.0f) {
      translucent.emplace_back(-(state.bodies[k].pose.position - eye).squaredNorm(),
                               static_cast<int>(k));
      continue;
    }
    renderer_->draw_mesh(meshes_[k], model_matrix(state.bodies[k].pose),
                         body_colour(static_cast<int>(k), scene.bodies[k].fixed), alpha);
  }
  // Ground grid on z = 0, 10 cm lines over 4 m, metre lines darker.
  for (int i = -20; i <= 20; ++i) {
    const float s = 0.1f * static_cast<float>(i);
    const Eigen::Vector4f c = i % 10 == 0 ? Eigen::Vector4f(0.15f, 0.15f, 0.18f, 0.8f)
                                          : Eigen::Vector4f(0.3f, 0.3f, 0.33f, 0.5f);
    renderer_->add_line({s, -2.0f, 0.001f}, {s, 2.0f, 0.001f}, c);
    renderer_->add_line({-2.0f, s, 0.001f}, {2.0f, s, 0.001f}, c);
  }
  renderer_->flush_lines();
  add_overlays(world, contacts, camera, overlays, newtons_per_metre);
  if (more_lines) more_lines();
  // Overlays behind an opaque face show faintly, so a contact behind a face looks behind it.
  renderer_->flush_lines(kHiddenOverlayAlpha);
  std::sort(translucent.begin(), translucent.end());
  for (const auto& [key, k] : translucent) {
    renderer_->draw_mesh(meshes_[k], model_matrix(state.bodies[k].pose),
                         body_colour(k, scene.bodies[k].fixed), st.body_alpha(k));
  }
  renderer_->set_section_plane(Eigen::Vector3f::Zero(), 0.0f);
}

void WorldDrawing::add_overlays(const World& world, const std::vector<ContactView>& contacts,
                                const OrbitCamera& camera, const Overlays& overlays,
                                double newtons_per_metre) const {
  const CollisionResult& collision = world.collision();
  const double scale = 0.1 * camera.distance_m;  // overlay lengths follow the zoom
  const Eigen::Vector4f red(0.95f, 0.2f, 0.2f, 1.0f), blue(0.55f, 0.65f, 1.0f, 1.0f),
      magenta(0.9f, 0.3f, 0.9f, 1.0f), green(0.3f, 0.9f, 0.3f, 1.0f);
  if (overlays.contacts || overlays.normals) {
    for (const Contact& c : collision.contacts) {
      const float r = static_cast<float>(0.02 * scale);
      if (overlays.contacts) {
        for (int axis = 0; axis < 3; ++axis) {
          Vec3 e = Vec3::Zero();
          e[axis] = r;
          renderer_->add_line(f(c.point - e), f(c.point + e), red);
        }
      }
      if (overlays.normals)
        renderer_->add_line(f(c.point), f(c.point + 0.3 * scale * c.normal), blue);
    }
  }
  if (overlays.forces) {
    for (const ForceArrow& arrow : force_arrows(contacts, newtons_per_metre)) {
      renderer_->add_arrow(f(arrow.from), f(arrow.to),
                           arrow.friction ? kFrictionArrowColour : kNormalArrowColour);
    }
  }
  if (overlays.cones) {
    // The polyhedral cone the solver used: edges n + mu t_j (ContactView).
    for (const ContactView& c : contacts) {
      if (c.normal_n <= 0.0) continue;
      const Vec3 w = c.normal.cross(c.first_direction);
      for (int j = 0; j < c.d; ++j) {
        const double a = 2.0 * kPi * j / c.d;
        const Vec3 edge = c.normal + c.mu * (std::cos(a) * c.first_direction + std::sin(a) * w);
        renderer_->add_line(f(c.point), f(c.point + 0.3 * scale * edge), green);
      }
    }
  }
  if (overlays.groups) {
    for (const ContactGroup& g : collision.groups) {
      for (const ContactSide& side : g.sides) {
        renderer_->add_line(f(g.point), f(side.point), magenta);
        renderer_->add_line(f(side.point), f(side.point + 0.3 * scale * side.normal), magenta);
      }
    }
  }
  if (overlays.frames) {
    const WorldState& state = world.state();
    for (size_t k = 0; k < state.bodies.size(); ++k) {
      if (world.scene().bodies[k].fixed) continue;
      const Pose& p = state.bodies[k].pose;
      const Mat3 R = p.orientation.toRotationMatrix();
      for (int axis = 0; axis < 3; ++axis) {
        Eigen::Vector4f c(0, 0, 0, 1);
        c[axis] = 1.0f;
        renderer_->add_line(f(p.position), f(p.position + 0.3 * scale * R.col(axis)), c);
      }
    }
  }
  if (overlays.islands) {
    for (const ContactImpulse& i : world.impulses()) {
      const Contact& c = collision.contacts[i.contact];
      const Eigen::Vector3f tint = body_colour(i.island + 3, false);
      const Vec3 a = world.state().bodies[c.body_a].pose.position;
      renderer_->add_line(f(c.point), f(a), Eigen::Vector4f(tint.x(), tint.y(), tint.z(), 1.0f));
    }
  }
}

}  // namespace pivot::viewer
