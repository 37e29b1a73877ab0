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

// A substep's precession angle nu h / N at most this (rotation_substeps): a needle at
// h = 0.001 s (nu h about 0.6) fell and rolled as it should, at h = 0.003 s (2.7) it stood.
constexpr double kResolvedPrecession = 0.5;
// The rotation [rad] the held w may miss over a step before substeps are taken.
constexpr double kMissedRotation = 1e-3;
// [a]x: [a]x b = a x b.
Mat3 skew(const Vec3& a) {
  Mat3 s;
  s << 0, -a.z(), a.y(), a.z(), 0, -a.x(), -a.y(), a.x(), 0;
  return s;
}

// Angular velocity after h of torque-free motion, Euler's equation I dw/dt = -w x I w
// solved by one Newton step of its backward-Euler form in the body frame.
Vec3 gyroscopic_update(const Mat3& I, const Vec3& w_body, double h) {
  const Vec3 Iw = I * w_body;
  const Vec3 residual = h * w_body.cross(Iw);
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

int rotation_substeps(const Body& body, const BodyState& state, double h_s) {
  const Mat3& I = body.inertia_body_kgm2;
  // nu <= 2 |w| kappa(I) <= 2 |w| trace^3 / det: below one substep's worth (every body of a
  // resting or slowly turning scene) that is the answer, at the cost of a determinant.
  const double trace = I.trace();
  const double wh = state.twist.angular.norm() * h_s;
  if (2.0 * wh * trace * trace * trace <= kResolvedPrecession * I.determinant()) return 1;
  const Vec3 w = state.pose.orientation.toRotationMatrix().transpose() * state.twist.angular;
  const Vec3 Iw = I * w;
  const auto inverse = I.ldlt();
  const Vec3 drift = inverse.solve(w.cross(Iw));
  // The precession rate: the size of drift's Jacobian in w, I^-1 ([w]x I - [I w]x), whose
  // two non-zero eigenvalues of a symmetric top are +-i nu (Frobenius norm sqrt(2) nu).
  const double nu = inverse.solve(skew(w) * I - skew(Iw)).norm() / std::sqrt(2.0);
  // Missed over the step: 1/2 |drift| h^2 while nu h is small; once the held rotation
  // turns the drifting part round (nu h > 2), all of it, about |drift| h / nu.
  const double missed = drift.norm() * h_s * std::min(0.5 * h_s, 1.0 / std::max(nu, 1e-300));
  if (!(missed > kMissedRotation)) return 1;
  const double wanted = std::ceil(nu * h_s / kResolvedPrecession);
  if (!(wanted < kMaxSubsteps)) return kMaxSubsteps;
  return std::max(1, static_cast<int>(wanted));
}

StepMotion step_motion(const Body& body, const BodyState& state, const Vec6& k, double h_s,
                       double bounding_radius_m) {
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
