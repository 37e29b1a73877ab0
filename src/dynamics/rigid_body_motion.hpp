// Per-body pieces of the Stewart–Trinkle step that do not involve contact: the spatial
// mass matrix, the free-motion impulse k~_x = f_x h + M v0 (Lloyd (2)), how far a body can
// move in a step (the speculative contact margin), and the position update with the new
// velocities (Egan (4)).
#pragma once

#include "pivot/body.hpp"
#include "pivot/contact.hpp"

namespace pivot {

// World-frame 6x6 mass matrix about the centre of mass: diag(m I, R I_body R').
Mat6 spatial_mass(const Body& body, const Quat& orientation);

// k~_x = M v0 + h f_x for one body, with f_x = gravity + applied wrench + the gyroscopic
// torque. The gyroscopic part is integrated implicitly in the body frame (one Newton step
// of Euler's equation, as in Catto's "Numerical Methods", GDC 2015), so a free tumbling
// body keeps its angular momentum and never gains energy (tests/dynamics).
// force_n and torque_nm act at the centre of mass, world frame.
Vec6 free_motion_impulse(const Body& body, const BodyState& state, const Vec3& gravity_mps2,
                         const Vec3& force_n, const Vec3& torque_nm, double h_s);

// How the body can move in one step without contact impulses: translations h v0 and h v1
// and rotation reach h max(|w0|, |w1|) r, with (v0, w0) the state's velocities, (v1, w1) =
// M^-1 k~_x the free-motion velocities at the step's end (k~_x = free_motion_impulse:
// gravity, applied wrench, gyroscopic torque) and r the bounding radius about the centre
// of mass. Egan (5) lets a contact close by at most its gap f in a step, so a pair further
// apart than they can close (closing_m) cannot touch before the next step.
StepMotion step_motion(const Body& body, const BodyState& state, const Vec6& free_impulse,
                       double h_s, double bounding_radius_m);

// A step takes at most this many substeps: a body spinning faster than that resolves, or a
// contact that strays further (contact_linearization.hpp), is stepped less resolved, not at
// any cost.
constexpr int kMaxSubsteps = 64;

// The substeps (1 to kMaxSubsteps) a step of h needs for the body's rotation to be resolved. A step
// turns the body by exp(h w) with w held (integrate_pose), where torque-free motion holds
// the angular momentum: its body-frame w drifts at I^-1 (w x I w), precessing at a rate nu
// (Euler's equations). Where nu h is large the held rotation misses the drifting part: a
// needle spinning about its axis at 573 rad/s while it tumbled stood up on its tip at
// h = 0.01 s instead of falling over (docs/stewart-trinkle.md). Substeps of h / N with
// nu h / N <= kResolvedPrecession when the rotation the held w misses over the step
// exceeds kMissedRotation; a body spinning steadily about a principal axis (a needle
// rolling on its side) has no drift and needs none.
int rotation_substeps(const Body& body, const BodyState& state, double h_s);

// x += h (v + u); q <- exp(h (w + u_w) / 2) q, renormalised (a unit quaternion keeps R a
// rotation). u = (u, u_w) is the penetration-recovery pseudo-velocity of the step
// (src/dynamics/penetration_recovery.hpp): it moves the pose and is not kept.
void integrate_pose(BodyState* state, double h_s, const Vec6& recovery = Vec6::Zero());

}  // namespace pivot
