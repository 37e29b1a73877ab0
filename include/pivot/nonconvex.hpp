// Nonconvex contact groups (Egan, Berard & Trinkle): a group is one contact point with
// several sides (planes), valid when it is outside at least one of them. The plain
// Stewart-Trinkle LCP can only intersect half-spaces; the max formulation (Egan (13)-(22),
// appendix (32)-(33)) and the summation formulation (Egan (25)-(28), (30), (34)-(35))
// rewrite the contact LCP over all planes so that a group is a union. Plain Lemke
// ray-terminates on the max formulation; solve_lcp_with_max_groups solves it exactly
// (docs/nonconvex-max.md).
#pragma once

#include <vector>

#include "pivot/contact.hpp"
#include "pivot/lcp.hpp"

namespace pivot {

// Most sides a group may have: the max search holds a selection of sides as a 32-bit mask.
constexpr int kMaxGroupSides = 31;

// Block layout of a nonconvex LCP. Planes are ordered sides first, group after group (the
// paper's y sides), then the convex planes (x). The plane block z_p is the
// Stewart-Trinkle LCP over the planes in that order, (p_n [P], p_f [P d], s [P]) like
// Lloyd's (theta, phi, lambda), or p_n alone when d = 0 (frictionless). The artificial
// variables come first:
//   Max: z = (c [y], d [g], g [y], h [y], p [g], z_p)   Egan (33)
//   Sum: z = (c [y], z_p)                               Egan (35)
struct NonconvexLayout {
  // Max or Sum: Off has no nonconvex LCP (its sides are plain convex contacts).
  NonconvexFormulation form = NonconvexFormulation::Max;
  std::vector<int> group_sizes;  // sides per group, each in 1..kMaxGroupSides
  int num_convex = 0;            // x, planes in no group
  int d = 0;                     // friction directions per plane; 0: frictionless

  int num_groups() const { return static_cast<int>(group_sizes.size()); }
  int num_sides() const;
  int num_planes() const { return num_sides() + num_convex; }
  int plane_lcp_size() const { return num_planes() * (d > 0 ? 2 + d : 1); }
  // Index of the first plane variable: 3y + 2g (Max) or y (Sum). Throws
  // std::invalid_argument for Off, so no layout of Off is ever sized or read.
  int plane_offset() const;
  int size() const { return plane_offset() + plane_lcp_size(); }
};

// A nonconvex LCP and the plane order it uses: plane k of the layout is plane
// plane_order[k] of the input.
struct NonconvexLcp {
  DenseLcp lcp;
  NonconvexLayout layout;
  std::vector<int> plane_order;
};

// The sides of one group: indices of planes (contacts) of the plane LCP. A plane belongs
// to at most one group; planes in no group are convex constraints.
using NonconvexGroups = std::vector<std::vector<int>>;

// Builds the max formulation, Egan (32)-(33), from `planes`: the Stewart-Trinkle LCP over
// P planes ordered as above (assemble_contact_lcp's order when d >= 2; P x P normal rows
// when d = 0). gamma is Egan's large constant; the formulation needs gamma > 1 at the
// solution and, per Egan Sec. IV, gamma > |min(a_i, 0)| to keep d positive. Throws
// std::invalid_argument on inconsistent sizes or groups.
NonconvexLcp build_max_lcp(const DenseLcp& planes, int d, const NonconvexGroups& groups,
                           double gamma);
NonconvexLcp build_max_lcp(const ContactProblem& planes, const NonconvexGroups& groups,
                           double gamma);

// Builds the summation formulation, Egan (34)-(35), with epsilon_over_h = epsilon / h > 0.
// The rows complementary to p_y carry the offset of Egan (30), -epsilon/h for any group
// size; the appendix's -(epsilon/h)(D'D e - e) agrees only for two sides
// (docs/nonconvex-max.md).
NonconvexLcp build_summation_lcp(const DenseLcp& planes, int d, const NonconvexGroups& groups,
                                 double epsilon_over_h);
NonconvexLcp build_summation_lcp(const ContactProblem& planes, const NonconvexGroups& groups,
                                 double epsilon_over_h);

// w = M z + q of build_max_lcp(planes, groups, gamma) and of build_summation_lcp(planes,
// groups, epsilon_over_h) at their z, row by row from the planes' rows (contact_lcp_w), M
// never formed: the formulation's rows at any size (the dense LCP of a pile's island of
// 1,000 planes does not fit in memory). Throws std::invalid_argument as the builders do,
// and when z has not the formulation's size.
VecX max_lcp_w(const ContactProblem& planes, const NonconvexGroups& groups, double gamma,
               const VecX& z);
VecX summation_lcp_w(const ContactProblem& planes, const NonconvexGroups& groups,
                     double epsilon_over_h, const VecX& z);

// The plane variables of a solution z of `lcp`, back in the input's plane order: the z
// of the plane LCP (for contact_velocity when the planes came from a ContactProblem).
VecX plane_solution(const NonconvexLcp& lcp, const VecX& z);
VecX plane_solution(const NonconvexLayout& layout, const std::vector<int>& plane_order,
                    const VecX& z);

struct MaxGroupOptions {
  LemkeOptions lemke;  // for each reduced LCP
  // Most selections (one subset of sides per group) to try before giving up with
  // PivotLimit; each costs one Lemke solve of at most the plane LCP's size.
  int max_selections = 4096;
  // After the fallback chain has failed a selection, the search gives up the same way once
  // this many more selections in a row have failed numerically with the method alone:
  // the selections share most of one LCP, and it is that part which fails.
  int max_failed_in_a_row = 4;
};

// Solves a max-formulation LCP (M, q) laid out as `layout` (form Max) exactly: for a
// selection of active sides per group it solves the Stewart-Trinkle LCP of those sides
// and the convex planes with Lemke, completes the artificial variables in closed form,
// and accepts the first selection whose full (M, q) passes the acceptance check.
// Single sides are tried first, starting from each group's least-penetrated side and
// moving a group to the side its point ended up inside; then all selections by size.
// Complete for frictionless problems (docs/nonconvex-max.md). pivots sums all Lemke
// pivots. Without an accepted selection the status is PivotLimit (max_selections ran
// out), NumericalFailure (some selection's solve failed numerically: no proof of anything)
// or SecondaryRay (every selection ended on a ray). Throws std::invalid_argument when (M, q) is not
// the max formulation of the layout (it is rebuilt from its plane block and compared).
LcpResult solve_lcp_with_max_groups(const MatX& M, const VecX& q, const NonconvexLayout& layout,
                                    const MaxGroupOptions& options = {});

// A max-formulation solve of a contact problem over planes: z and w of Egan (33) in the
// layout order that build_max_lcp(planes, groups, gamma) uses, with that layout and plane
// order (plane_solution maps z back to the planes).
struct MaxGroupResult {
  LcpResult lcp;
  NonconvexLayout layout;
  std::vector<int> plane_order;
  int selections = 0;         // selections whose Stewart-Trinkle LCP was solved
  int failed_selections = 0;  // of those, solves that failed numerically or hit the limit
  // The search stopped at MaxGroupOptions::max_selections or ::max_failed_in_a_row (status
  // PivotLimit): untried selections remain, so this is no proof that none is a solution.
  bool budget_exhausted = false;
  // When Solved: the accepted selection's basis over the planes' LCP, in the planes' input
  // order (a dropped side's rows all w), the warm start of the next, similar problem.
  LcpBasis plane_basis;
};

// The same search as solve_lcp_with_max_groups without forming any dense matrix: each
// selection's Stewart-Trinkle LCP is a contact problem over the kept planes, solved by
// solve_contact(method) (Lloyd's fast Lemke for Structural and Reduced), and the rows of
// Egan (32)-(33) are evaluated from the planes' velocities. gamma > 1 as for build_max_lcp.
// warm: a basis over the planes' LCP (MaxGroupResult::plane_basis of the previous step,
// rows matched by contact). The search then tries first the selection whose sides carry
// force in it (a group with none: no side, which the repair mends if it must push), and
// each selection's solve starts from the last basis a solve ended on, as solve_contact's
// warm start. Without it every solve starts cold, as before. The acceptance is the same.
MaxGroupResult solve_contact_with_max_groups(const ContactProblem& planes,
                                             const NonconvexGroups& groups, double gamma,
                                             LcpMethod method, const MaxGroupOptions& options = {},
                                             const LcpBasis& warm = {});

// The nonconvex groups of a contact problem over planes with their formulation and its
// constant: what a grouped island's step solves, and what a grouped problem file
// (`pivot-contact 2`, docs/problem-files.md) holds beside the planes.
struct PlaneGroups {
  NonconvexFormulation form = NonconvexFormulation::Max;  // Max or Sum
  NonconvexGroups groups;
  double parameter = 0.0;  // Max: gamma > 1 (Egan Sec. IV); Sum: epsilon / h > 0 (Egan (24))
};

// A grouped solve: lcp.z holds the plane impulses (theta, phi, lambda in the planes' input
// order) when Solved, and for the max formulation lcp.basis their basis (plane_basis; empty
// for the summation formulation, whose LCP is another); formulation_z the z of the
// formulation's full LCP in its layout order (build_grouped_lcp), which the acceptance rule
// is applied to.
struct GroupedSolve {
  LcpResult lcp;
  VecX formulation_z;
  int selections = 0;  // max formulation: selections tried (MaxGroupResult)
  int failed_selections = 0;
  bool budget_exhausted = false;  // max formulation: MaxGroupResult::budget_exhausted
};

// Max: the selection search on the contact problem with `method` (Lloyd's fast Lemke per
// selection, no dense matrix). Sum: the group rows couple the planes densely, so the
// standard method on the dense LCP of Egan (34)-(35), whatever `method` says. Throws
// std::invalid_argument for Off or a parameter out of range. warm: the max formulation's
// (solve_contact_with_max_groups); the summation formulation starts cold.
GroupedSolve solve_grouped_contact(const ContactProblem& planes, const PlaneGroups& groups,
                                   LcpMethod method, const LemkeOptions& lemke = {},
                                   const LcpBasis& warm = {});

// The formulation's dense LCP (build_max_lcp or build_summation_lcp).
NonconvexLcp build_grouped_lcp(const ContactProblem& planes, const PlaneGroups& groups);

// The formulation's w = M z + q at z (max_lcp_w or summation_lcp_w), and the acceptance
// check of z on it (check_lcp_solution's rule, with |q|_inf from the rows at z = 0): a
// grouped answer judged on the formulation's full LCP without forming it.
VecX grouped_lcp_w(const ContactProblem& planes, const PlaneGroups& groups, const VecX& z);
LcpCheck check_grouped_solution(const ContactProblem& planes, const PlaneGroups& groups,
                                const VecX& z);

}  // namespace pivot
