// Grouped solves given the planes' mass-normalised columns (normalize_contacts of the
// planes) instead of forming them, and storage kept between solves: a World step
// normalises a grouped island's planes once, for the max formulation's gamma, the
// selection search's rows and the island's velocity, and a step of the sizes of an earlier
// one allocates no planes or columns. On the 40-box pile's landing the three
// normalisations were about 13 % of the run under perf, the page faults of their fresh
// storage included; the search's own, of every plane, was most of it.
#pragma once

#include "normalized_contacts.hpp"
#include "pivot/nonconvex.hpp"

namespace pivot {

// The max formulation's planes in its layout's order (plane_order), and their normalised
// columns: what its search reads. Kept by a caller that solves the same island step after
// step (ContactSolver).
struct PlanesInLayout {
  ContactProblem problem;
  NormalizedContacts columns;
};

// solve_contact_with_max_groups, and solve_grouped_contact, with columns = the planes'
// normalised columns (null: formed here) and storage for the planes in layout order (null:
// a local).
MaxGroupResult solve_contact_with_max_groups(const ContactProblem& planes,
                                             const NormalizedContacts* columns,
                                             PlanesInLayout* storage, const NonconvexGroups& groups,
                                             double gamma, LcpMethod method,
                                             const MaxGroupOptions& options, const LcpBasis& warm);
GroupedSolve solve_grouped_contact(const ContactProblem& planes, const NormalizedContacts* columns,
                                   PlanesInLayout* storage, const PlaneGroups& groups,
                                   LcpMethod method, const LemkeOptions& lemke,
                                   const LcpBasis& warm);

}  // namespace pivot
