// A contact problem over planes with nonconvex groups solved by its formulation: the one
// entry the stepper's grouped islands and `pivot lcp solve` on a grouped file share, so a
// failed step's file replays the step's own solve.
#include "grouped_contact.hpp"

#include <stdexcept>
#include <utility>

#include "lcp_check.hpp"
#include "pivot/nonconvex.hpp"

namespace pivot {

namespace {

void check_parameter(const PlaneGroups& groups) {
  if (groups.form == NonconvexFormulation::Max && !(groups.parameter > 1.0)) {
    throw std::invalid_argument("max formulation: gamma must be > 1, got " +
                                std::to_string(groups.parameter));
  }
  if (groups.form == NonconvexFormulation::Sum && !(groups.parameter > 0.0)) {
    throw std::invalid_argument("summation formulation: epsilon/h must be > 0, got " +
                                std::to_string(groups.parameter));
  }
  if (groups.form == NonconvexFormulation::Off) {
    throw std::invalid_argument("grouped contact: the formulation must be max or sum, got off");
  }
}

}  // namespace

NonconvexLcp build_grouped_lcp(const ContactProblem& planes, const PlaneGroups& groups) {
  check_parameter(groups);
  return groups.form == NonconvexFormulation::Max
             ? build_max_lcp(planes, groups.groups, groups.parameter)
             : build_summation_lcp(planes, groups.groups, groups.parameter);
}

VecX grouped_lcp_w(const ContactProblem& planes, const PlaneGroups& groups, const VecX& z) {
  check_parameter(groups);
  return groups.form == NonconvexFormulation::Max
             ? max_lcp_w(planes, groups.groups, groups.parameter, z)
             : summation_lcp_w(planes, groups.groups, groups.parameter, z);
}

LcpCheck check_grouped_solution(const ContactProblem& planes, const PlaneGroups& groups,
                                const VecX& z) {
  const VecX w = grouped_lcp_w(planes, groups, z);
  const VecX q = grouped_lcp_w(planes, groups, VecX::Zero(z.size()));
  return check_complementarity(z, w, q.size() > 0 ? q.lpNorm<Eigen::Infinity>() : 0.0);
}

GroupedSolve solve_grouped_contact(const ContactProblem& planes, const PlaneGroups& groups,
                                   LcpMethod method, const LemkeOptions& lemke,
                                   const LcpBasis& warm) {
  return solve_grouped_contact(planes, nullptr, nullptr, groups, method, lemke, warm);
}

GroupedSolve solve_grouped_contact(const ContactProblem& planes, const NormalizedContacts* columns,
                                   PlanesInLayout* storage, const PlaneGroups& groups,
                                   LcpMethod method, const LemkeOptions& lemke,
                                   const LcpBasis& warm) {
  check_parameter(groups);
  GroupedSolve out;
  if (groups.form == NonconvexFormulation::Max) {
    MaxGroupOptions options;
    options.lemke = lemke;
    MaxGroupResult max = solve_contact_with_max_groups(planes, columns, storage, groups.groups,
                                                       groups.parameter, method, options, warm);
    out.formulation_z = max.lcp.z;
    out.selections = max.selections;
    out.failed_selections = max.failed_selections;
    out.budget_exhausted = max.budget_exhausted;
    out.lcp = std::move(max.lcp);
    if (out.lcp.status == LcpStatus::Solved) {
      out.lcp.z = plane_solution(max.layout, max.plane_order, out.formulation_z);
      out.lcp.basis = std::move(max.plane_basis);
    }
    return out;
  }
  const NonconvexLcp lcp = build_summation_lcp(planes, groups.groups, groups.parameter);
  out.lcp = solve_lemke(lcp.lcp.M, lcp.lcp.q, lemke);
  out.formulation_z = out.lcp.z;
  out.lcp.basis.z_basic.clear();  // the summation formulation's, not the planes'
  if (out.lcp.status == LcpStatus::Solved) out.lcp.z = plane_solution(lcp, out.formulation_z);
  return out;
}

}  // namespace pivot
