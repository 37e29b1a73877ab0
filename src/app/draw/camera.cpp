#include "camera.hpp"

#include <algorithm>
#include <cmath>

#include "pivot/geometry.hpp"
#include "pivot/math.hpp"

namespace pivot::viewer {

namespace {
constexpr double kMaxPitch = 0.49 * kPi;  // stay off the pole so the up vector stays valid
}  // namespace

Eigen::Vector3d OrbitCamera::eye() const {
  const Eigen::Vector3d offset(std::cos(pitch_rad) * std::cos(yaw_rad),
                               std::cos(pitch_rad) * std::sin(yaw_rad), std::sin(pitch_rad));
  return target + distance_m * offset;
}

Eigen::Matrix4f OrbitCamera::view() const {
  const Eigen::Vector3d e = eye();
  const Eigen::Vector3d f = (target - e).normalized();
  const Eigen::Vector3d s = f.cross(Eigen::Vector3d::UnitZ()).normalized();
  const Eigen::Vector3d u = s.cross(f);
  Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
  m.block<1, 3>(0, 0) = s.transpose();
  m.block<1, 3>(1, 0) = u.transpose();
  m.block<1, 3>(2, 0) = -f.transpose();
  m(0, 3) = -s.dot(e);
  m(1, 3) = -u.dot(e);
  m(2, 3) = f.dot(e);
  return m.cast<float>();
}

Eigen::Matrix4f OrbitCamera::projection(double aspect) const {
  // Near and far follow the distance so both close-ups and whole scenes keep depth precision.
  const double near_m = std::max(1e-3, 0.01 * distance_m);
  const double far_m = 200.0 * distance_m + 100.0;
  const double f = 1.0 / std::tan(0.5 * fov_y_rad);
  Eigen::Matrix4d p = Eigen::Matrix4d::Zero();
  p(0, 0) = f / aspect;
  p(1, 1) = f;
  p(2, 2) = (far_m + near_m) / (near_m - far_m);
  p(2, 3) = 2.0 * far_m * near_m / (near_m - far_m);
  p(3, 2) = -1.0;
  return p.cast<float>();
}

Eigen::Vector3d OrbitCamera::ray_direction(double x_px, double y_px, double width_px,
                                           double height_px) const {
  const Eigen::Vector3d f = (target - eye()).normalized();
  const Eigen::Vector3d s = f.cross(Eigen::Vector3d::UnitZ()).normalized();
  const Eigen::Vector3d u = s.cross(f);
  // Normalised device coordinates scaled by the half extents of the view at unit depth.
  const double half_h = std::tan(0.5 * fov_y_rad);
  const double half_w = half_h * width_px / std::max(1.0, height_px);
  const double nx = 2.0 * x_px / std::max(1.0, width_px) - 1.0;
  const double ny = 1.0 - 2.0 * y_px / std::max(1.0, height_px);
  return (f + nx * half_w * s + ny * half_h * u).normalized();
}

Eigen::Vector2d OrbitCamera::to_screen(const Eigen::Vector3d& p, double width_px, double height_px,
                                       bool* behind) const {
  const Eigen::Vector3d f = (target - eye()).normalized();
  const Eigen::Vector3d s = f.cross(Eigen::Vector3d::UnitZ()).normalized();
  const Eigen::Vector3d u = s.cross(f);
  const Eigen::Vector3d r = p - eye();
  const double depth = r.dot(f);
  if (behind != nullptr) *behind = depth <= 0.0;
  const double half_h = std::tan(0.5 * fov_y_rad);
  const double half_w = half_h * width_px / std::max(1.0, height_px);
  const double nx = r.dot(s) / (std::max(depth, 1e-12) * half_w);
  const double ny = r.dot(u) / (std::max(depth, 1e-12) * half_h);
  return {0.5 * (nx + 1.0) * width_px, 0.5 * (1.0 - ny) * height_px};
}

double OrbitCamera::metres_per_pixel(double height_px) const {
  return 2.0 * distance_m * std::tan(0.5 * fov_y_rad) / std::max(1.0, height_px);
}

void OrbitCamera::orbit(double dx_px, double dy_px) {
  yaw_rad -= 0.005 * dx_px;
  pitch_rad = std::clamp(pitch_rad + 0.005 * dy_px, -kMaxPitch, kMaxPitch);
}

void OrbitCamera::pan(double dx_px, double dy_px, double window_height_px) {
  const Eigen::Vector3d f = (target - eye()).normalized();
  const Eigen::Vector3d s = f.cross(Eigen::Vector3d::UnitZ()).normalized();
  const Eigen::Vector3d u = s.cross(f);
  // One window height of drag moves the target by the visible height at the target.
  const double metres_per_px = metres_per_pixel(window_height_px);
  target += metres_per_px * (-dx_px * s + dy_px * u);
}

void OrbitCamera::zoom(double wheel_steps) {
  distance_m = std::clamp(distance_m * std::pow(0.9, wheel_steps), 1e-3, 1e4);
}

void OrbitCamera::look_at(const Eigen::Vector3d& eye_m, const Eigen::Vector3d& target_m) {
  target = target_m;
  const Eigen::Vector3d offset = eye_m - target_m;
  distance_m = std::max(1e-2, offset.norm());
  yaw_rad = std::atan2(offset.y(), offset.x());
  pitch_rad = std::asin(std::clamp(offset.z() / distance_m, -0.99, 0.99));
}

void OrbitCamera::frame(const Eigen::Vector3d& centre, double radius_m) {
  target = centre;
  distance_m = std::max(1e-2, 1.2 * radius_m / std::sin(0.5 * fov_y_rad));
}

OrbitCamera camera_for_scene(const Scene& scene, const std::vector<BodyState>& states) {
  OrbitCamera camera;
  if (scene.camera) {
    camera.look_at(scene.camera->eye_m, scene.camera->target_m);
    return camera;
  }
  // Frame the bounding sphere of the dynamic bodies (planes are infinite).
  Vec3 lo = Vec3::Constant(1e30), hi = Vec3::Constant(-1e30);
  for (size_t k = 0; k < scene.bodies.size(); ++k) {
    const double r = bounding_radius_m(scene.bodies[k].shape);
    if (!std::isfinite(r)) continue;
    const Vec3 p = states[k].pose.position;
    lo = lo.cwiseMin(p - Vec3::Constant(r));
    hi = hi.cwiseMax(p + Vec3::Constant(r));
  }
  if (lo.x() <= hi.x()) camera.frame(0.5 * (lo + hi), 0.5 * (hi - lo).norm());
  return camera;
}

}  // namespace pivot::viewer
