// Solving one island's contact LCP: the scene's method, then the fallbacks, with what each
// attempt cost, as a value the step adds to its StepStats.
#pragma once

#include <optional>

#include "lcp/contact_solver.hpp"
#include "pivot/lcp.hpp"
#include "pivot/nonconvex.hpp"
#include "pivot/scene.hpp"

namespace pivot {

struct IslandSolve {
  LcpResult result;        // Solved, or the last attempt's status (Cancelled ends the step)
  int pivots = 0;          // summed over the attempts
  bool fell_back = false;  // the scene's method failed; fallbacks were tried
  std::optional<FallbackStage> rescued_by;  // the fallback that answered, if one did
  int selections = 0;         // max groups: selections tried, summed over the attempts
  int budgets_exhausted = 0;  // max groups: attempts that spent the selection budget
  // The problem's mass-normalised columns, which the island's solver formed
  // (ContactSolver::columns, or ContactSolver::normalize for a grouped island), for its
  // velocity; null when the standard method solved an island without groups.
  const NormalizedContacts* columns = nullptr;
};

// (contact LCP, groups over its planes, settings, warm basis) => impulses by the scene's
// method, else (OnFailure::FallBack) by the fallback chain (solve_contact_with_fallback). A
// grouped island's only
// fallback is its search with the standard method; the summation formulation is always
// standard: nothing to fall back to. Sets the groups' formulation and its constant
// (PlaneGroups::parameter) for this problem, so a failed problem is written as solved.
// An island without groups is solved by `solver`, the island's own, and the answer copied
// into *out: both keep their storage from the last step's solve.
void solve_island(const ContactProblem& problem, PlaneGroups* groups, const SceneSettings& settings,
                  const LemkeOptions& lemke, const LcpBasis& warm, OnFailure on_failure,
                  ContactSolver* solver, IslandSolve* out);

}  // namespace pivot
