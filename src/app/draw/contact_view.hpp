// What the viewer shows of each contact of the last step, taken from what the solver used
// (World::impulses, World::side_impulses): forces in newtons, the friction cone, whether
// the contact sticks or slides. Knows the world, not GL or ImGui.
#pragma once

#include <string>
#include <vector>

#include "pivot/world.hpp"

namespace pivot::viewer {

struct ContactView {
  int body_a = -1;
  int body_b = -1;
  bool group_side = false;      // a side of a nonconvex group (Egan Sec. IV)
  Vec3 point = Vec3::Zero();    // on B's surface, world frame [m]
  Vec3 normal = Vec3::UnitZ();  // unit, from B toward A
  double gap_m = 0.0;
  // The mean force over the step: impulse / h [N]. On A; B feels the opposite.
  double normal_n = 0.0;
  Vec3 friction_n = Vec3::Zero();
  double mu = 0.0;                       // as used by the solver
  int d = 0;                             // its friction directions: first_direction turned about
  Vec3 first_direction = Vec3::UnitX();  // the normal by 2 pi j / d
  // Slides when the bodies' relative velocity at the point after the step has a tangential
  // part above kSlipSpeed_mps; else sticks (Stewart-Trinkle: slip only on the cone's edge).
  bool slides = false;
  double slip_speed_mps = 0.0;
};

// Below this tangential speed a contact counts as sticking: the solver's round-off on a
// resting box is ~1e-12 m/s; a visible slide at the viewer's scales is mm/s.
constexpr double kSlipSpeed_mps = 1e-6;

// The contacts and group sides of the world's last step; empty before the first step.
std::vector<ContactView> contact_views(const World& world);

// "sticks" or "slides"; "no force" when the contact pushes nothing this step.
const char* state(const ContactView& contact);

// "box on ground: gap 1.2e-09 m, normal 13.7 N, friction 0.0 N, mu 0.50, sticks": the
// upper body first and "on" when the normal is within 45 degrees of the world's vertical,
// else "against".
std::string describe(const ContactView& contact, const World& world);

}  // namespace pivot::viewer
