// Small fixed-size types used everywhere in Pivot, thin over Eigen.
// Spatial vectors are ordered (linear x y z, angular x y z), as in Lloyd (2005) Sec. 2.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace pivot {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using Quat = Eigen::Quaterniond;
using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat6 = Eigen::Matrix<double, 6, 6>;
using VecX = Eigen::VectorXd;
using MatX = Eigen::MatrixXd;

constexpr double kPi = 3.14159265358979323846;

// Rigid transform from a body frame to the world frame.
struct Pose {
  Vec3 position = Vec3::Zero();
  Quat orientation = Quat::Identity();

  Vec3 to_world(const Vec3& p_body) const { return orientation * p_body + position; }
  Vec3 to_body(const Vec3& p_world) const { return orientation.conjugate() * (p_world - position); }
};

// Spatial velocity of a body: linear velocity of its reference point and angular velocity,
// both in world coordinates. [m/s, rad/s]
struct Twist {
  Vec3 linear = Vec3::Zero();
  Vec3 angular = Vec3::Zero();

  Vec6 stacked() const {
    Vec6 v;
    v << linear, angular;
    return v;
  }
};

}  // namespace pivot
