// The wrench of a user's hand on a body: a critically damped spring from a point fixed on
// the body to a target point in the world (the viewer's mouse drag), as MuJoCo's
// simulate perturbs a body. The world applies it through World::set_applied_wrench.
#pragma once

#include "pivot/body.hpp"

namespace pivot {

struct HandSpring {
  Vec3 anchor_body_m = Vec3::Zero();  // grabbed point, body frame (from the centre of mass)
  Vec3 target_m = Vec3::Zero();       // where the hand holds it, world frame
  // Natural frequency of the spring on the body's mass [Hz]: the pull feels equally
  // stiff on light and heavy bodies. 2 Hz follows a mouse without ringing at h = 0.01 s.
  double frequency_hz = 2.0;
};

// Force through the centre of mass and torque about it, world axes [N, N m]:
// F = m (w^2 (target - p) - 2 w v_p), the critically damped spring on the anchor point p
// moving at v_p, and tau = (p - x) x F. Zero for a fixed body.
Vec6 hand_spring_wrench(const Body& body, const BodyState& state, const HandSpring& spring);

}  // namespace pivot
