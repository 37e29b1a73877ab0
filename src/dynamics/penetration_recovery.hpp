// Penetration recovery without energy (split impulse). Egan (5)'s offset b_i = f_i / h asks
// a penetrating contact (f_i < 0) to separate at -f_i / h: the body is out within one step
// and keeps that speed, so a body written 2 cm into the ground at h = 0.01 s leaves it at
// 2 m/s. Here the step's velocity LCP sees each penetration only down to a slop, and the
// depth beyond it is removed by a second, frictionless LCP over pseudo-velocities u that
// move the poses and are then dropped (Catto's split impulse; Box2D's push-out capped at a
// speed), at most recovery_speed_mps per step: no kinetic energy is added.
#pragma once

#include <vector>

#include "pivot/lcp.hpp"
#include "pivot/nonconvex.hpp"

namespace pivot {

// Penetration the velocity LCP still removes at once [m]: the speed it leaves, slop / h,
// is 1 mm/s at h = 0.01 s, whose energy (1e-6 m/2 J) is far below the integrator's own
// O(m g^2 h^2) per step; a pose 10 um deep is below anything a user sees.
constexpr double kRecoverySlop_m = 1e-5;

// (gaps f of the island's contact rows, groups of rows, slop) => per row the depth s >= 0
// beyond the slop of its unit, a contact alone or a group's sides together; a group's gap
// is the largest of its sides' (Egan (29): max_i f_i >= 0), so every side of a group
// shifts by the same depth and the max formulation stays as it was.
//   s_u = max(0, -max_{i in u} f_i - slop)
// Returns whether any s is positive. The step passes kRecoverySlop_m, and 0 when the
// velocity LCP with the slop's penetration in it has no solution (World::step_island).
bool recovery_depths(const std::vector<double>& gap_m, const NonconvexGroups& groups, double slop_m,
                     std::vector<double>* depth_m);

// The pseudo-velocity LCP (same bodies, contacts and groups as the step's, mu = 0): with
// v the step's solved velocities and s the depths,
//   k~_x = M v,  b'_i = b_i - min(recovery_speed, s_i / h),
// so a penetrating unit separates at up to recovery_speed more than v does, and no other
// contact is pushed closer than v already brings it. u = contact_velocity(z') - v.
// Into *pseudo, whose storage is reused: a pile's landing pushes an island out on many
// steps, and a fresh copy of its problem each time page-faulted.
void recovery_problem(const ContactProblem& step, const VecX& v, const std::vector<double>& depth_m,
                      double h_s, double recovery_speed_mps, ContactProblem* pseudo);

}  // namespace pivot
