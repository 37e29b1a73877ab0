// Collision and inertia geometry of a body, in the body's own frame. Every shape but the
// half-space is convex or a compound of convex pieces (how a block with a hole, a groove
// or a corner is built).
#pragma once

#include <variant>
#include <vector>

#include "pivot/math.hpp"

namespace pivot {

struct Box {
  Vec3 half_extents_m = Vec3::Constant(0.5);
};
struct Sphere {
  double radius_m = 0.5;
};
// Cylinder and capsule axes are the body-frame z axis.
struct Cylinder {
  double radius_m = 0.5;
  double half_length_m = 0.5;
};
struct Capsule {
  double radius_m = 0.5;
  double half_length_m = 0.5;  // of the straight segment between the cap centres
};
// Convex polyhedron: the hull of the given points. faces lists vertex indices counter-
// clockwise seen from outside; filled by make_convex_mesh (src/geometry/convex_hull).
struct ConvexMesh {
  std::vector<Vec3> vertices;
  std::vector<std::vector<int>> faces;
};
// Solid half-space {x : normal . x <= offset}, for static ground planes.
struct HalfSpace {
  Vec3 normal = Vec3::UnitZ();
  double offset_m = 0.0;
};

using ConvexShape = std::variant<Box, Sphere, Cylinder, Capsule, ConvexMesh>;

struct CompoundPiece {
  ConvexShape shape;
  Pose local;  // piece frame relative to the body frame
};
struct Compound {
  std::vector<CompoundPiece> pieces;
};

using Shape = std::variant<Box, Sphere, Cylinder, Capsule, ConvexMesh, HalfSpace, Compound>;

}  // namespace pivot
