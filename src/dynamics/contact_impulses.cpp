#include "dynamics/contact_impulses.hpp"

#include <algorithm>

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
    // t_j as assemble_stewart_trinkle put it in the friction column: the first block's
    // linear part, +t_j for body a, -t_j for body b when a is fixed (negation is exact, so
    // these are FrictionDirections' bits without forming them again: a second pass over
    // every contact's directions was 3 % of a resting grid's step).
    const bool a_first = std::binary_search(in.island_bodies.begin(), in.island_bodies.end(),
                                            in.contacts[i]->body_a);
    auto direction = [&](int j) -> Vec3 {
      const Vec3 t = problem.friction[i * d + j].block[0].head<3>();
      return a_first ? t : Vec3(-t);
    };
    impulse.first_direction = direction(0);
    for (int j = 0; j < d; ++j) impulse.friction_ns += z(n + i * d + j) * direction(j);
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
