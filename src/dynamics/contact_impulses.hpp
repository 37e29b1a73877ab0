// A solved island's LCP solution turned back into what the bodies and the viewer use: body
// velocities (Lloyd (2)) and, per contact, the impulse with the friction cone it was solved
// with.
#pragma once

#include <vector>

#include "contact/islands.hpp"
#include "dynamics/island_input.hpp"
#include "pivot/lcp.hpp"

namespace pivot {

// (island, v) => the twists of the island's bodies; v holds 6 rows per body, in
// Island::bodies order (contact_velocity's layout).
void set_island_velocities(const Island& island, const VecX& v, std::vector<BodyState>* states);

// (problem, z, input) => one ContactImpulse per LCP contact: the group sides' into
// side_impulses (in input's order: group, then side), the convex contacts' into impulses.
// z is (theta, phi, ...) as solve_contact returns it; all zeros for an unsolved island.
void decode_impulses(const ContactProblem& problem, const VecX& z, const IslandInput& input,
                     const Island& island, int island_index, const CollisionResult& collision,
                     std::vector<ContactImpulse>* impulses,
                     std::vector<ContactImpulse>* side_impulses);

}  // namespace pivot
