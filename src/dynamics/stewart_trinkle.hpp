// Stewart–Trinkle assembly (Egan (3)-(7), Lloyd (2)-(8)): turns the contacts of one island
// into the contact LCP that Lloyd's fast Lemke solves, and turns its solution back into
// body velocities.
#pragma once

#include <vector>

#include "pivot/body.hpp"
#include "pivot/contact.hpp"
#include "pivot/lcp.hpp"

namespace pivot {

// d unit friction directions evenly spaced in the plane perpendicular to normal, at angles
// 2 pi j / d from a first direction u. u is the world x axis projected onto the tangent
// plane (the y axis when the normal is within 45 degrees of x), so the polyhedral cone's
// orientation is predictable: on an incline its threshold depends on the slope direction
// relative to these directions (docs/stewart-trinkle.md). Each t_j is computed when asked,
// so the step allocates nothing for them; its angle's cosine and sine come from a table
// made once for every d up to kTabulatedDirections (every contact of every step asked
// libm for them twice, assembly and impulses: 7 % of a resting stack's step).
class FrictionDirections {
 public:
  FrictionDirections(const Vec3& normal, int d);
  int size() const { return d_; }
  Vec3 operator[](int j) const;  // t_j, 0 <= j < d

 private:
  int d_;
  const double* cos_sin_;  // (cos, sin) of 2 pi j / d for j < d, or null beyond the table
  Vec3 u_, w_;             // t_0 and n x t_0
};

// Body velocity coupling of one contact direction: the column of N~ (or D~) for a unit
// impulse along direction at point, acting +direction on body_a and -direction on body_b.
// local_a/local_b are the island-local indices of the bodies, -1 for a fixed body.
ContactColumn contact_column(const Vec3& point, const Vec3& direction, int local_a,
                             const Vec3& com_a, int local_b, const Vec3& com_b);

struct StewartTrinkleInput {
  const std::vector<Body>* bodies = nullptr;
  const std::vector<BodyState>* states = nullptr;
  std::vector<int> island_bodies;  // global indices of the island's dynamic bodies, ascending
  std::vector<const Contact*> contacts;
  std::vector<double> mu;            // per contact
  // Per contact, the penetration left to the recovery pass (recovery_depths in
  // penetration_recovery.hpp) [m]; empty: none.
  std::vector<double> recovery_depth_m;
  // Per island body: k~_x = f_x h + M v0 (Lloyd (2), free_motion_impulse), formed once a
  // (sub)step by the World for the contact margins too.
  std::vector<Vec6> free_impulse;
  double h_s = 0.01;
  int d = kDefaultFrictionDirections;
};

// (island bodies and states, free-motion impulses, contacts, mu, h, d) => contact LCP. The
// normal-row offset is the gap stabilisation f/h of Egan (5): the gap at the end of the step stays
// >= 0 and a potential contact (f > 0) lets the bodies approach by at most f. A penetration deeper
// than the recovery slop enters as (f + s)/h: the velocity step removes only the slop.
// problem's storage is reused: the step assembles every island into the same one.
void assemble_stewart_trinkle(const StewartTrinkleInput& input, ContactProblem* problem);

}  // namespace pivot
