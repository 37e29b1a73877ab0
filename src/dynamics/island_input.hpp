// The stepper's input for one island: its group sides turned into plane contacts (Egan
// Sec. IV-V: one plane per side), its convex contacts, each with the friction it is solved
// with, and its bodies' free-motion impulses. The storage is reused from step to step.
#pragma once

#include <vector>

#include "contact/islands.hpp"
#include "dynamics/stewart_trinkle.hpp"
#include "pivot/nonconvex.hpp"
#include "pivot/scene.hpp"

namespace pivot {

struct IslandInput {
  StewartTrinkleInput stepper;
  std::vector<Contact> sides;  // the island's group sides as plane contacts, in group order
  PlaneGroups groups;          // groups of sides (indices in stepper.contacts)
  std::vector<double> gaps_m;  // per contact row of stepper
};

// Box2D's default friction mixing: a slippery material makes the contact slippery and
// mixing is symmetric in the two bodies.
double mixed_friction(double mu_a, double mu_b);

// (island, collision, scene, states, every body's free-motion impulse) => input: the group sides
// first, in group order, then the convex contacts, each with its mixed friction (or the scene's
// friction override) and gap. input keeps pointers into scene, states and collision.
void build_island_input(const Island& island, const CollisionResult& collision, const Scene& scene,
                        const std::vector<BodyState>& states,
                        const std::vector<Vec6>& free_impulses, IslandInput* input);

}  // namespace pivot
