// Orbit / pan / zoom camera around a target point, world z up.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>

#include "pivot/scene.hpp"

namespace pivot::viewer {

struct OrbitCamera {
  Eigen::Vector3d target = Eigen::Vector3d::Zero();
  double distance_m = 3.0;
  double yaw_rad = 0.8;     // about world z, from the x axis
  double pitch_rad = 0.45;  // above the horizontal plane
  double fov_y_rad = 0.8;

  Eigen::Vector3d eye() const;
  Eigen::Matrix4f view() const;
  Eigen::Matrix4f projection(double aspect) const;

  // Unit world direction from the eye through the pixel (x right, y down from the top
  // left) of a window of the given size: the ray a mouse click picks along.
  Eigen::Vector3d ray_direction(double x_px, double y_px, double width_px, double height_px) const;

  // The pixel (x right, y down from the top left) where the world point p is seen in a
  // window of the given size; the inverse of ray_direction. behind is set when p is not in
  // front of the eye.
  Eigen::Vector2d to_screen(const Eigen::Vector3d& p, double width_px, double height_px,
                            bool* behind = nullptr) const;
  // Metres per pixel in the plane through the target facing the camera.
  double metres_per_pixel(double height_px) const;

  // Mouse drags in pixels of a window of the given height.
  void orbit(double dx_px, double dy_px);
  void pan(double dx_px, double dy_px, double window_height_px);
  void zoom(double wheel_steps);
  // Places the eye at eye_m looking at target_m (kept off the poles like orbit()).
  void look_at(const Eigen::Vector3d& eye_m, const Eigen::Vector3d& target_m);
  // Places the camera so a sphere (centre, radius) fills the view.
  void frame(const Eigen::Vector3d& centre, double radius_m);
};

// The view a scene opens with: its camera hint, else the bounding sphere of its bodies
// other than half-spaces at the given states framed.
OrbitCamera camera_for_scene(const Scene& scene, const std::vector<BodyState>& states);

}  // namespace pivot::viewer
