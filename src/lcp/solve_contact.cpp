// The contact-LCP entry point: the standard method on the dense matrix of Lloyd eq. (8),
// or Lloyd's structural and reduced fast Lemke, which never form it (Sec. 5.1-5.3).

#include <algorithm>
#include <utility>
#include <vector>

#include "friction_at_rest.hpp"
#include "lcp_check.hpp"
#include "lemke_fast.hpp"
#include "lemke_standard.hpp"
#include "pivot/lcp.hpp"
#include "stopwatch.hpp"

namespace pivot {

LcpResult solve_contact(const ContactProblem& problem, LcpMethod method,
                        const LemkeOptions& options, const LcpBasis& warm) {
  if (method != LcpMethod::Standard) return solve_lemke_fast(problem, method, options, warm).lcp;
  // The fast methods' time includes their setup (normalize_contacts), so the standard
  // method's includes forming M.
  const auto start = Clock::now();
  const DenseLcp lcp = assemble_contact_lcp(problem);
  // Finite columns of size near 1e154 and above overflow in N'N and D'D; solve_lemke would
  // throw on the infinities, but a contact problem that is valid as given fails as a solve.
  LcpResult result;
  if (lcp.M.allFinite() && lcp.q.allFinite()) {
    // The warm start's answer, unless a loaded contact slides in it (friction_at_rest.hpp):
    // the fast methods engage such friction on their paths' answers (engage_friction), and
    // a basis the warm start then keeps holds still; the standard method's warm answer is
    // left to its path instead. Kept, it let block_stack_rotated_5 creep 7.8e-9 m in 60 s
    // (sliding by up to the slack, 1e-10 m/s), against 8e-12 m with a cold path every
    // step; engaging its friction as the fast methods do made that 1.0e-8 m and moved the
    // tower under a push.
    const double slack = kLeavingSlack * std::max(1.0, lcp.q.lpNorm<Eigen::Infinity>());
    const bool answered = warm_answer(lcp.M, lcp.q, warm, options, &result);
    bool done = answered && check_contact_solution(problem, result.z).accepted &&
                sliding_friction_row(result.z, result.w, result.basis.z_basic,
                                     problem.num_contacts(), problem.d, slack) < 0;
    // Else, when the basis is no answer and its answer moves or the problem is large
    // (path_from_warm_basis, as the fast methods decide), Lemke's path from it, and Step
    // 0's with what that left of the budget (docs/lemke-fast.md, "Warm start": 1,313
    // pivots against 1,615 on Lloyd's stacks under changed wrenches). The 40-body bin pile
    // at rest with d changed 4 -> 6 (step 120) settled through steps whose Step 0 paths
    // took 2,138 to 19,161 pivots, up to 21 s each.
    const bool path_from_warm =
        result.z.size() == lcp.q.size() &&
        path_from_warm_basis(at_rest(result.z, result.w, problem.num_contacts(), problem.d, slack),
                             static_cast<int>(lcp.q.size()));
    // The path's answer must also pass the contact check (the gate below), so that one it
    // refuses still leaves Step 0 its run; a stop request ends the solve.
    if (!answered && path_from_warm) {
      result = warm_path(lcp.M, lcp.q, warm, options);
      done = (result.status == LcpStatus::Solved &&
              check_contact_solution(problem, result.z).accepted) ||
             result.status == LcpStatus::Cancelled;
    }
    if (!done) {
      const int warm_pivots = result.pivots;
      LemkeOptions left = options;
      left.max_pivots =
          std::max(1, pivot_limit(options, static_cast<int>(lcp.q.size())) - warm_pivots);
      result = solve_lemke(lcp.M, lcp.q, left, RayMeaning::RoundOff);
      result.pivots += warm_pivots;
    }
  } else {
    result.status = LcpStatus::NumericalFailure;
  }
  // The contact problem's own acceptance check is the gate of every method (the fast ones
  // apply it too): M z + q and the check's column-wise w round differently, and with
  // friction entries of 1e10 (M up to 1e21) an answer the dense check took was 6e-8 below
  // zero by the contact check (fuzz input, tests/lcp/fuzz_regression_test.cpp).
  if (result.status == LcpStatus::Solved && !check_contact_solution(problem, result.z).accepted) {
    result.status = LcpStatus::NumericalFailure;
  }
  result.solve_time_us = microseconds_since(start);
  return result;
}

}  // namespace pivot
