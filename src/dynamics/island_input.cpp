#include "dynamics/island_input.hpp"

#include <cmath>

namespace pivot {

double mixed_friction(double mu_a, double mu_b) { return std::sqrt(mu_a * mu_b); }

void build_island_input(const Island& island, const CollisionResult& collision, const Scene& scene,
                        const std::vector<BodyState>& states,
                        const std::vector<Vec6>& free_impulses, IslandInput* input) {
  const SceneSettings& settings = scene.settings;
  StewartTrinkleInput& in = input->stepper;
  in.bodies = &scene.bodies;
  in.states = &states;
  in.island_bodies = island.bodies;
  in.h_s = settings.time_step_s;
  in.d = settings.friction_directions;
  in.contacts.clear();
  in.mu.clear();
  input->gaps_m.clear();
  input->sides.clear();
  // The groups' member lists are resized, not rebuilt, so their storage is reused.
  input->groups.groups.resize(island.groups.size());
  for (size_t gi = 0; gi < island.groups.size(); ++gi) {
    const ContactGroup& group = collision.groups[island.groups[gi]];
    std::vector<int>& members = input->groups.groups[gi];
    members.clear();
    for (size_t k = 0; k < group.sides.size(); ++k) {
      members.push_back(static_cast<int>(input->sides.size()));
      input->sides.push_back(group.side_contact(static_cast<int>(k)));
    }
  }
  const auto add = [&](const Contact& contact) {
    const double mu_a = scene.materials[scene.bodies[contact.body_a].material].friction;
    const double mu_b = scene.materials[scene.bodies[contact.body_b].material].friction;
    in.contacts.push_back(&contact);
    in.mu.push_back(settings.friction_override ? *settings.friction_override
                                               : mixed_friction(mu_a, mu_b));
    input->gaps_m.push_back(contact.gap_m);
  };
  for (const Contact& plane : input->sides) add(plane);
  for (int c : island.contacts) add(collision.contacts[c]);
  in.free_impulse.clear();
  for (int b : island.bodies) in.free_impulse.push_back(free_impulses[b]);
}

}  // namespace pivot
