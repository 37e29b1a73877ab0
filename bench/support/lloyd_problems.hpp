// The contact problems of Lloyd (2005) Sec. 5.4, built from geometry: a builder that turns
// contact points and normals on rigid bodies into the columns of eq. (2), and the three
// experiments (peg-in-hole, ten single-body situations, block stacks), each with a
// seeded random applied wrench. Shared by bench/lcp_bench.cpp and the solver tests.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pivot/lcp.hpp"

namespace pivot::lloyd {

// Lloyd Sec. 2 columns from geometry. Body reference points are their centres; spatial
// quantities are in world axes, ordered (linear, angular).
class ContactProblemBuilder {
 public:
  explicit ContactProblemBuilder(int d);

  // A body with reference point `centre` [m] and 6x6 spatial mass about it; returns its index.
  int add_body(const Vec3& centre, const Mat6& mass);
  // Adds an impulse [N s, N m s] to the body's k~_x = f_x h + M v0.
  void add_impulse(int body, const Vec6& impulse);
  // A contact at world point p [m] whose unit normal points into body a, away from body b
  // (b = -1: fixed ground). Friction directions are d unit vectors evenly spread in the
  // tangent plane (Lloyd Fig. 3).
  void add_contact(int a, int b, const Vec3& p, const Vec3& normal, double mu);

  const ContactProblem& problem() const { return problem_; }

 private:
  ContactColumn column(int a, int b, const Vec3& p, const Vec3& direction) const;

  ContactProblem problem_;
  std::vector<Vec3> centre_;
};

// Spatial mass of a solid box [kg, m] about its centre, rotated by R into world axes.
Mat6 box_mass(double mass_kg, const Vec3& half_extents_m, const Mat3& R);
// Spatial mass of a solid sphere [kg, m] about its centre.
Mat6 sphere_mass(double mass_kg, double radius_m);

// Lloyd's settings: d = 8 friction directions, mu uniform in [0.2, 0.3], time step h.
constexpr int kDirections = 8;
constexpr double kStep_s = 0.01;
constexpr double kGravity_mps2 = 9.81;

// (a) A round peg through a round hole in a fixed block (Lloyd Fig. 4): n/2 contacts on
// the hole's top rim and n/2 on its bottom rim, normals pointing inward into the peg, and a
// random wrench at the peg's centre. n even, >= 4.
ContactProblem peg_in_hole(int contacts, std::uint64_t seed);

// (b) Ten single-body situations with 1 to 16 contacts (block in corner, face on face
// rotated, block in V-groove, ball in the rim of a hole, ...), under gravity plus a random
// wrench at the body's centre.
struct Situation {
  std::string name;
  int contacts;
};
std::vector<Situation> single_body_situations();
ContactProblem single_body_problem(int situation, std::uint64_t seed);

// (c) A stack of `blocks` unit cubes on the ground under gravity with a random wrench on
// the top block. Aligned interfaces give 4 contacts; `rotated` turns every block 45
// degrees about the vertical relative to the one below, giving 8 contacts per interface
// (the octagon of Lloyd Fig. 2).
ContactProblem block_stack(int blocks, bool rotated, std::uint64_t seed);

// The 8 vertices of two overlapping squares of half side a, one turned by 45 degrees.
std::vector<Vec3> rotated_square_overlap(double a);

}  // namespace pivot::lloyd
