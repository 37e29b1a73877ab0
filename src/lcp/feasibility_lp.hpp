// Feasibility of a polyhedron {x >= 0 : A x = b} by phase one of the simplex method, with
// a Farkas certificate when it is empty: what the complete search for small LCPs
// (complete_search.cpp) decides each branch with. Dense tableau and Bland's rule, for the
// small systems (tens of rows) that search works on.
#pragma once

#include "pivot/math.hpp"

namespace pivot {

struct Feasibility {
  enum class Outcome {
    Feasible,    // x >= 0 with |A x - b|_inf within the phase's tolerance
    Infeasible,  // y certifies it (Farkas): b' y > 0 while A' y <= 0 up to `radius`
    Undecided,   // the phase ended without a point or a certificate (round-off, cycling)
  };
  Outcome outcome = Outcome::Undecided;
  VecX x;  // Feasible: a basic feasible point
  VecX y;  // Infeasible: the Farkas vector
  // Infeasible: every x >= 0 with A x = b has |x|_1 >= radius. For such x, b' y = (A' y)' x
  // <= max_j (A' y)_j^+ |x|_1, so radius = b' y / max_j (A' y)_j^+, evaluated in long double
  // with its rounding bound added to each (A' y)_j; infinite when every (A' y)_j <= 0.
  double radius = 0.0;
  int pivots = 0;
};

// Phase one from the all-artificial basis (rows of negative b negated first), minimising the
// sum of artificials; Bland's rule (smallest index enters, smallest basic index leaves on
// ties) cannot cycle. The phase's value at most 1e-9 max(1, |b|_inf) counts as feasible.
Feasibility find_feasible_point(const MatX& A, const VecX& b);

}  // namespace pivot
