// The user's hand on the simulation: Ctrl + left drag pulls the body under the mouse with
// a critically damped spring (libpivot's HandSpring), and I/K, J/L, U/O nudge the grabbed
// body (or the peg) with a force of its own weight, so an insertion can be done by hand.
#include <imgui.h>

#include <cmath>

#include "pick.hpp"
#include "viewer_app.hpp"

namespace pivot::viewer {

namespace {

Eigen::Vector3f f(const Vec3& v) { return v.cast<float>(); }

}  // namespace

int ViewerApp::body_named(const std::string& name) const {
  const std::vector<Body>& bodies = world_->scene().bodies;
  for (size_t k = 0; k < bodies.size(); ++k) {
    if (bodies[k].name == name) return static_cast<int>(k);
  }
  return -1;
}

// The body the keys push: the last one grabbed, else one named "peg", else the first
// dynamic body.
int ViewerApp::default_nudge_body() const {
  const std::vector<Body>& bodies = world_->scene().bodies;
  if (nudge_body_ >= 0 && nudge_body_ < static_cast<int>(bodies.size())) return nudge_body_;
  const int peg = body_named("peg");
  if (peg >= 0) return peg;
  for (size_t k = 0; k < bodies.size(); ++k) {
    if (!bodies[k].fixed) return static_cast<int>(k);
  }
  return -1;
}

void ViewerApp::grab(int body, const Vec3& point_m, const Vec3& hand_m, bool by_mouse) {
  Grab g;
  g.body = body;
  g.by_mouse = by_mouse;
  g.spring.anchor_body_m = world_->state().bodies[body].pose.to_body(point_m);
  g.spring.target_m = hand_m;
  g.depth_m = (point_m - camera_.eye()).dot((camera_.target - camera_.eye()).normalized());
  grab_ = g;
  nudge_body_ = body;
}

void ViewerApp::release() { grab_.reset(); }

void ViewerApp::handle_hand_input(double x_px, double y_px, int width_px, int height_px) {
  const ImGuiIO& io = ImGui::GetIO();
  const bool dragging = io.KeyCtrl && !io.WantCaptureMouse &&
                        glfwGetMouseButton(window_, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS;
  const Vec3 eye = camera_.eye();
  const Vec3 ray = camera_.ray_direction(x_px, y_px, width_px, height_px);
  if (grab_ && grab_->by_mouse) {
    if (!dragging) {
      release();
    } else {
      // The hand moves in the plane facing the camera through the grabbed point.
      const Vec3 forward = (camera_.target - eye).normalized();
      grab_->spring.target_m = eye + ray * (grab_->depth_m / ray.dot(forward));
    }
  } else if (dragging && !grab_) {
    if (const std::optional<PickHit> hit =
            pick_body(eye, ray, world_->scene(), world_->state(), drawing_.body_meshes())) {
      grab(hit->body, hit->point_m, hit->point_m, true);
    }
  }

  key_nudge_ = Vec3::Zero();
  if (io.WantCaptureKeyboard) return;
  // Horizontal nudges follow the view: I pushes away from the camera, L to its right.
  const Vec3 forward = (camera_.target - eye).normalized();
  const Vec3 ahead = Vec3(forward.x(), forward.y(), 0.0).normalized();
  const Vec3 right = ahead.cross(Vec3::UnitZ());
  const auto held = [&](int key) { return glfwGetKey(window_, key) == GLFW_PRESS ? 1.0 : 0.0; };
  key_nudge_ = (held(GLFW_KEY_I) - held(GLFW_KEY_K)) * ahead +
               (held(GLFW_KEY_L) - held(GLFW_KEY_J)) * right +
               (held(GLFW_KEY_U) - held(GLFW_KEY_O)) * Vec3::UnitZ();
}

void ViewerApp::apply_hand_wrenches() {
  const Scene& scene = world_->scene();
  for (size_t k = 0; k < scene.bodies.size(); ++k)
    world_->set_applied_wrench(static_cast<int>(k), Vec6::Zero());
  if (grab_) {
    world_->set_applied_wrench(
        grab_->body, hand_spring_wrench(scene.bodies[grab_->body],
                                        world_->state().bodies[grab_->body], grab_->spring));
  }
  const Vec3 push = nudge_ + key_nudge_;
  const int body = default_nudge_body();
  if (push.isZero() || body < 0) return;
  // A push of the body's own weight (9.81 m/s^2 of acceleration when gravity is off):
  // enough to overcome friction at mu < 1, gentle enough to steer.
  const double g = std::max(9.81, world_->settings().gravity_mps2.norm());
  Vec6 wrench = world_->applied_wrenches()[body];
  wrench.head<3>() += scene.bodies[body].mass_kg * g * push;
  world_->set_applied_wrench(body, wrench);
}

void ViewerApp::draw_hand() {
  if (!grab_) return;
  const Pose& pose = world_->state().bodies[grab_->body].pose;
  const Vec3 anchor = pose.to_world(grab_->spring.anchor_body_m);
  const Vec3 hand = grab_->spring.target_m;
  const Eigen::Vector4f orange(1.0f, 0.55f, 0.1f, 1.0f);
  renderer_->add_line(f(anchor), f(hand), orange);
  const double r = 0.02 * camera_.distance_m;
  for (int axis = 0; axis < 3; ++axis) {
    Vec3 e = Vec3::Zero();
    e[axis] = r;
    renderer_->add_line(f(hand - e), f(hand + e), orange);
  }
}

}  // namespace pivot::viewer
