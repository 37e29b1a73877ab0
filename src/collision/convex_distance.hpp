// Signed distance between two convex pieces from their support mappings, for the pairs
// the exact closed forms and the polyhedral SAT do not cover (cylinders, capsules against
// polyhedra). Pivot's own code, not FCL's GJK/EPA: libccd's EPA in FCL 0.7 aborts the
// process on configurations a pile reaches (issue 21, docs/robustness.md).
#pragma once

#include <limits>
#include <optional>

#include "collision/narrowphase.hpp"

namespace pivot {

// How far A lies beyond B along the unit direction n (from B toward A): a lower bound of
// the signed distance for every n, equal to it at the best n (the separating axis theorem
// for separated pieces, the minimum translation for overlapping ones) [m].
double axis_separation(const PosedPiece& a, const PosedPiece& b, const Vec3& n);

// Direction i of n spread evenly over the unit sphere (a Fibonacci sphere: spacing about
// sqrt(4 pi / n) rad).
Vec3 spread_direction(int i, int n);

// The best axis among the face normals and curved axes of the pair and their cross
// products with edges (and the two axes' cross product): exact when the closest features
// are flat.
struct AxisQuery {
  Vec3 axis = Vec3::UnitZ();  // unit, from B toward A
  double separation = -std::numeric_limits<double>::infinity();
};
AxisQuery best_support_axis(const PosedPiece& a, const PosedPiece& b);

struct ConvexDistance {
  double gap_m = 0.0;           // signed distance (< 0: penetration depth) [m]
  Vec3 normal = Vec3::UnitZ();  // unit, from B toward A
  Vec3 point_b = Vec3::Zero();  // on B; A's witness is point_b + gap_m * normal
  bool closest_points = false;  // from GJK: point_b and its witness are closest points
  // best_support_axis(a, b), when the search formed it (the cores overlap or touch, or GJK
  // stalled), so that a caller that needs it too does not form it again.
  std::optional<AxisQuery> flat;
};

// (two posed pieces, not half-spaces; polyhedra posed) => their signed distance. Once the
// distance is proven to exceed max_gap_m the search stops and returns that lower bound.
ConvexDistance convex_distance(const PosedPiece& a, const PosedPiece& b, double max_gap_m);

}  // namespace pivot
