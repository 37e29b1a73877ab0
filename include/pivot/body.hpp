// Rigid bodies: the immutable description (Body) apart from the mutable state
// (BodyState), so recording, replay, reset and step-back copy only states.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pivot/math.hpp"
#include "pivot/shape.hpp"

namespace pivot {

struct Body {
  std::string name;
  Shape shape;
  bool fixed = false;      // fixed bodies never move and do not connect islands
  double mass_kg = 0.0;    // > 0 for dynamic bodies
  Mat3 inertia_body_kgm2 = Mat3::Zero();  // about the centre of mass, body axes; SPD
  int material = 0;        // index into the scene's materials (friction)
};

// The body frame's origin is the centre of mass.
struct BodyState {
  Pose pose;
  Twist twist;  // linear velocity of the centre of mass, angular velocity; world frame
};

// All of a simulation that changes (MuJoCo's mjData to the Scene's mjModel): reset,
// step-back and replay copy this one struct.
struct WorldState {
  double time_s = 0.0;
  std::int64_t step = 0;
  std::vector<BodyState> bodies;  // one per scene body
  // The substeps the next step starts in, at least (1 to 64): a retaken step's, one fewer a
  // step after it (World::step, docs/stewart-trinkle.md "Carried substeps").
  int carried_substeps = 1;
};

}  // namespace pivot
