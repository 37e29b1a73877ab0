// The contact-LCP entry point: the standard method on the dense matrix of Lloyd eq. (8),
// or Lloyd's structural and reduced fast Lemke, which never form it (Sec. 5.1-5.3).

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
    const bool warm_taken = warm_answer(lcp.M, lcp.q, warm, options, &result) &&
                            check_contact_solution(problem, result.z).accepted;
    if (!warm_taken) result = solve_lemke(lcp.M, lcp.q, options, RayMeaning::RoundOff);
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
