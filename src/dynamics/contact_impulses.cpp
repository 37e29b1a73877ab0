#include "dynamics/contact_impulses.hpp"

namespace pivot {

void set_island_velocities(const Island& island, const VecX& v, std::vector<BodyState>* states) {
  for (size_t k = 0; k < island.bodies.size(); ++k) {
    BodyState& s = (*states)[island.bodies[k]];
    s.twist.linear = v.segment<3>(6 * k);
    s.twist.angular = v.segment<3>(6 * k + 3);
  }
}

void decode_impulses(const ContactProblem& problem, const VecX& z, const IslandInput& input,
                     const Island& island, int island_index, const CollisionResult& collision,
                     std::vector<ContactImpulse>* impulses,
                     std::vector<ContactImpulse>* side_impulses) {
  const StewartTrinkleInput& in = input.stepper;
  const int n = problem.num_contacts();
  const int d = problem.d;
  // Contact i of the LCP: its impulse and the friction cone it was solved with.
  const auto decode = [&](int i) {
    ContactImpulse impulse;
    impulse.island = island_index;
    impulse.normal_ns = z(i);
    impulse.mu = in.mu[i];
    impulse.d = d;
    const FrictionDirections t(in.contacts[i]->normal, d);
    impulse.first_direction = t[0];
    for (int j = 0; j < d; ++j) impulse.friction_ns += z(n + i * d + j) * t[j];
    return impulse;
  };
  int i = 0;  // the group sides come first (build_island_input), in group order
  for (int g : island.groups) {
    for (size_t k = 0; k < collision.groups[g].sides.size(); ++k, ++i) {
      ContactImpulse impulse = decode(i);
      impulse.group = g;
      impulse.side = static_cast<int>(k);
      side_impulses->push_back(impulse);
    }
  }
  for (; i < n; ++i) {
    ContactImpulse impulse = decode(i);
    impulse.contact = island.contacts[i - static_cast<int>(input.sides.size())];
    impulses->push_back(impulse);
  }
}

}  // namespace pivot
