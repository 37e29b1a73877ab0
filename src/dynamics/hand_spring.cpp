#include "pivot/hand_spring.hpp"

#include <cmath>

namespace pivot {

Vec6 hand_spring_wrench(const Body& body, const BodyState& state, const HandSpring& spring) {
  Vec6 wrench = Vec6::Zero();
  if (body.fixed) return wrench;
  const double omega = 2.0 * kPi * spring.frequency_hz;
  const Vec3 arm = state.pose.orientation * spring.anchor_body_m;
  const Vec3 point = state.pose.position + arm;
  const Vec3 point_velocity = state.twist.linear + state.twist.angular.cross(arm);
  const Vec3 force =
      body.mass_kg * (omega * omega * (spring.target_m - point) - 2.0 * omega * point_velocity);
  wrench.head<3>() = force;
  wrench.tail<3>() = arm.cross(force);
  return wrench;
}

}  // namespace pivot
