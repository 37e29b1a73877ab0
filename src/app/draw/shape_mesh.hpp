// Triangle meshes for drawing shapes, in the body frame. Polyhedra are flat-shaded (one
// normal per face); curved surfaces carry smooth normals.
#pragma once

#include <vector>

#include "pivot/shape.hpp"

namespace pivot::viewer {

struct MeshVertex {
  float position[3];
  float normal[3];
};

struct TriangleMesh {
  std::vector<MeshVertex> vertices;  // three per triangle, counter-clockwise from outside
};

// half_space_extent_m: half the side of the square drawn for an (infinite) half-space.
TriangleMesh tessellate(const Shape& shape, double half_space_extent_m = 10.0);

}  // namespace pivot::viewer
