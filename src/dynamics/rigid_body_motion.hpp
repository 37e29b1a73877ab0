// Per-body pieces of the Stewart–Trinkle step that do not involve contact: the spatial
// mass matrix, the free-motion impulse k~_x = f_x h + M v0 (Lloyd (2)), and the position
// update with the new velocities (Egan (7)).
#pragma once

#include "pivot/body.hpp"

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

// x += h v; q <- exp(h w / 2) q, renormalised (a unit quaternion keeps R a rotation).
void integrate_pose(BodyState* state, double h_s);

}  // namespace pivot
