#include "world/solve_island.hpp"

#include <utility>

#include "lcp/grouped_contact.hpp"

namespace pivot {

namespace {

// Egan Sec. IV asks gamma > |min(a_i, 0)| at the solution, a_i being the sides' rows
// (velocities, f/h included). Twice the largest approach speed any side sees without
// impulses, |q|_inf of the plane LCP, plus one, is the paper's "twice the distance the
// fastest point can travel" per unit time.
double max_formulation_gamma(const NormalizedContacts& planes) {
  double q_scale = 0.0;
  const VecX q = contact_lcp_w(
      planes, VecX::Zero(static_cast<Eigen::Index>(planes.N.size()) * (planes.d + 2)), &q_scale);
  return 1.0 + 2.0 * q.cwiseAbs().maxCoeff();
}

// Egan (24): epsilon caps each corner by a plane; a tenth of a millimetre is below what
// a viewer shows and far above round-off.
constexpr double kSummationEpsilon_m = 1e-4;

// The constant of the scene's formulation for an island's planes (PlaneGroups::parameter),
// from their normalised columns.
double formulation_parameter(NonconvexFormulation form, const NormalizedContacts& planes,
                             double h_s) {
  return form == NonconvexFormulation::Max ? max_formulation_gamma(planes)
                                           : kSummationEpsilon_m / h_s;
}

}  // namespace

void solve_island(const ContactProblem& problem, PlaneGroups* groups, const SceneSettings& settings,
                  const LemkeOptions& lemke, const LcpBasis& warm, OnFailure on_failure,
                  ContactSolver* solver, IslandSolve* solved) {
  IslandSolve& out = *solved;
  if (groups->groups.empty()) {
    const FallbackResult& chain =
        solver->solve_with_fallback(problem, settings.solver, lemke, warm, on_failure);
    out.pivots = chain.result.pivots;
    out.fell_back = chain.attempts > 0;
    out.rescued_by = chain.rescued_by;
    out.result = chain.result;
    out.selections = 0;
    out.budgets_exhausted = 0;
    out.columns = solver->columns();
    return;
  }
  // The planes normalised once, for gamma, every selection's rows and the velocity.
  const NormalizedContacts& columns = solver->normalize(problem);
  out.columns = &columns;
  out.fell_back = false;
  out.rescued_by.reset();
  out.selections = 0;
  out.budgets_exhausted = 0;
  groups->form = settings.nonconvex;
  groups->parameter = formulation_parameter(groups->form, columns, settings.time_step_s);
  const auto solve = [&](LcpMethod method) {
    GroupedSolve grouped = solve_grouped_contact(problem, &columns, solver->planes_in_layout(),
                                                 *groups, method, lemke, warm);
    out.selections += grouped.selections;
    out.budgets_exhausted += grouped.budget_exhausted;
    return std::move(grouped.lcp);
  };
  out.result = solve(settings.solver);
  out.pivots = out.result.pivots;
  const bool standard_already =
      settings.solver == LcpMethod::Standard || settings.nonconvex == NonconvexFormulation::Sum;
  // The standard method's search, as the chain's dense stages, only where it can finish.
  const bool standard_applies = problem.lcp_size() <= kDenseFallbackMaxSize;
  const LcpStatus status = out.result.status;
  if (status != LcpStatus::Solved && status != LcpStatus::Cancelled &&
      on_failure == OnFailure::FallBack && !standard_already && standard_applies) {
    out.fell_back = true;
    out.result = solve(LcpMethod::Standard);
    out.pivots += out.result.pivots;
    if (out.result.status == LcpStatus::Solved) out.rescued_by = FallbackStage::Standard;
  }
}

}  // namespace pivot
