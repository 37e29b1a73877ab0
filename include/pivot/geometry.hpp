// Geometry computed from shapes: convex hulls of point sets, mass properties from a
// density, and bounding radii. Everything is in the shape's own frame.
#pragma once

#include <vector>

#include "pivot/math.hpp"
#include "pivot/shape.hpp"

namespace pivot {

// Convex hull of points as a polyhedron: coplanar triangles are merged into one polygon
// per flat side, collinear vertices are dropped, faces are counter-clockwise seen from
// outside, and only hull vertices are kept. Points closer than 1e-6 of the point set's
// size to the hull count as on it (noise, duplicates and rounding are absorbed); which
// point is above which face is decided exactly, so the result is always a closed
// polyhedron with convex faces.
// Throws std::invalid_argument when the points enclose no volume (fewer than 4, all
// coincident, collinear or coplanar) or a coordinate is not finite.
ConvexMesh make_convex_mesh(const std::vector<Vec3>& points);

struct MassProperties {
  double mass_kg = 0.0;
  Vec3 center_of_mass_m = Vec3::Zero();  // in the shape's frame
  Mat3 inertia_kgm2 = Mat3::Zero();      // about the centre of mass, shape axes
};

// Mass, centre of mass and inertia of a solid of uniform density [kg/m^3]. Compound
// pieces add up: overlapping pieces count their shared volume twice. Throws
// std::invalid_argument for a half-space, a compound without pieces and a mesh whose faces
// enclose no volume (clockwise faces).
MassProperties compute_mass_properties(const Shape& shape, double density_kgpm3);

// Largest distance from the shape frame's origin to a point of the shape [m]; infinite
// for a half-space.
double bounding_radius_m(const Shape& shape);

}  // namespace pivot
