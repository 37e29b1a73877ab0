#include "contact_solver.hpp"

namespace pivot {

const FallbackResult& ContactSolver::solve_with_fallback(const ContactProblem& problem,
                                                         LcpMethod method,
                                                         const LemkeOptions& options,
                                                         const LcpBasis& warm,
                                                         OnFailure on_failure) {
  out_.attempts = 0;
  out_.rescued_by.reset();
  // solve_contact's dispatch, the fast methods' answer copied into storage kept from the
  // last solve.
  const LemkeOptions plain = without_end_repair(options);  // as the chain's first attempt
  columns_ = nullptr;  // none lent until this solve has formed them
  if (method == LcpMethod::Standard) {
    out_.result = solve_contact(problem, method, plain, warm);
  } else {
    out_.result = fast_.solve(problem, method, plain, warm).lcp;
    columns_ = fast_.normalized();
  }
  if (on_failure == OnFailure::FallBack) climb_fallback_chain(problem, method, options, &out_);
  return out_;
}

const NormalizedContacts& ContactSolver::normalize(const ContactProblem& problem) {
  normalize_contacts(problem, &nc_);
  return nc_;
}

const VecX& ContactSolver::velocity(const ContactProblem& problem, const VecX& z,
                                    const NormalizedContacts* columns) {
  if (columns) {
    normalized_contact_velocity(problem, z, *columns, &v_c_, &v_);
  } else {
    contact_velocity(problem, z, &nc_, &v_c_, &v_);
  }
  return v_;
}

}  // namespace pivot
