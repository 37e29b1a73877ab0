#include "rigid_body_motion.hpp"

#include <algorithm>
#include <cmath>

namespace pivot {

Mat6 spatial_mass(const Body& body, const Quat& orientation) {
  const Mat3 R = orientation.toRotationMatrix();
  Mat6 M = Mat6::Zero();
  M.topLeftCorner<3, 3>() = body.mass_kg * Mat3::Identity();
  M.bottomRightCorner<3, 3>() = R * body.inertia_body_kgm2 * R.transpose();
  return M;
}

namespace {

// Angular velocity after h of torque-free motion, Euler's equation I dw/dt = -w x I w
// solved by one Newton step of its backward-Euler form in the body frame.
Vec3 gyroscopic_update(const Mat3& I, const Vec3& w_body, double h) {
  const Vec3 Iw = I * w_body;
  const Vec3 residual = h * w_body.cross(Iw);
  auto skew = [](const Vec3& a) {
    Mat3 s;
    s << 0, -a.z(), a.y(), a.z(), 0, -a.x(), -a.y(), a.x(), 0;
    return s;
  };
  const Mat3 jacobian = I + h * (skew(w_body) * I - skew(Iw));
  return w_body - jacobian.lu().solve(residual);
}

}  // namespace

Vec6 free_motion_impulse(const Body& body, const BodyState& state, const Vec3& gravity_mps2,
                         const Vec3& force_n, const Vec3& torque_nm, double h_s) {
  const Mat3 R = state.pose.orientation.toRotationMatrix();
  const Mat3 I_world = R * body.inertia_body_kgm2 * R.transpose();
  const Vec3 w_body = R.transpose() * state.twist.angular;
  const Vec3 w_gyro = R * gyroscopic_update(body.inertia_body_kgm2, w_body, h_s);
  Vec6 k;
  k.head<3>() = body.mass_kg * state.twist.linear + h_s * (body.mass_kg * gravity_mps2 + force_n);
  k.tail<3>() = I_world * w_gyro + h_s * torque_nm;
  return k;
}

StepMotion step_motion(const Body& body, const BodyState& state, const Vec3& gravity_mps2,
                       const Vec6& wrench, double h_s, double bounding_radius_m) {
  const Vec6 k =
      free_motion_impulse(body, state, gravity_mps2, wrench.head<3>(), wrench.tail<3>(), h_s);
  const Mat3 R = state.pose.orientation.toRotationMatrix();
  const Vec3 v1 = k.head<3>() / body.mass_kg;
  const Vec3 w1 = R * body.inertia_body_kgm2.ldlt().solve(R.transpose() * k.tail<3>());
  StepMotion motion;
  motion.translation_now_m = h_s * state.twist.linear;
  motion.translation_free_m = h_s * v1;
  motion.rotation_m = h_s * std::max(state.twist.angular.norm(), w1.norm()) * bounding_radius_m;
  return motion;
}

void integrate_pose(BodyState* state, double h_s, const Vec6& recovery) {
  state->pose.position += h_s * (state->twist.linear + recovery.head<3>());
  const Vec3 w = state->twist.angular + recovery.tail<3>();
  const double angle = w.norm() * h_s;
  if (angle > 0.0) {
    const Quat dq(Eigen::AngleAxisd(angle, w.normalized()));
    state->pose.orientation = dq * state->pose.orientation;
  }
  state->pose.orientation.normalize();
}

}  // namespace pivot
