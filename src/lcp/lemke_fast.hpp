// Lloyd's fast Lemke for the contact LCP (Lloyd 2005, Sec. 5 and appendices A-D): the
// almost-complementary basis system is solved through a reduced system of size r <= 6m
// built from the sparse mass-normalised columns, so the n(2+d) matrix M of eq. (8) is
// never formed. Structural works on the whole LCP; Reduced starts frictionless and adds a
// contact's friction variables when its theta first enters the basis (Sec. 5.3).
#pragma once

#include <memory>

#include "normalized_contacts.hpp"
#include "pivot/lcp.hpp"

namespace pivot {

// What one fast solve did, for tests and benchmarks.
struct FastLemkeStats {
  int max_reduced_size = 0;             // largest reduced system solved, Lloyd (31)/(42)/(44)/(47)
  long long largest_dense_entries = 0;  // rows*cols of the largest dense matrix allocated
  int activated_contacts = 0;           // Reduced: contacts whose friction rows were added
  int restarts = 0;                     // Reduced: restarts with more contacts active from Step 0
  int cover_restarts = 0;  // restarts from another covering vector: a cycle, an answer refused
  int tie_breaks = 0;                   // ratio-test ties resolved lexicographically
  int inverse_columns = 0;              // columns of B^-1 computed for those ties
  int warm_repairs = 0;                 // flips that made the warm start's basis an answer
  int end_repairs = 0;  // flips that made a path's refused end an answer (repaired_end)
  int ray_answers = 0;  // rays whose basis solved afresh, z0's value dropped, the rule took
  int cycle_answers = 0;   // cycles at a small z0 ended by a basis's answer, z0 dropped
  int small_z0_answers = 0;  // paths crawling at a small z0 ended so, without a cycle
  int friction_flips = 0;  // flips that engaged a loaded contact's friction (engage_friction)
  int warm_paths = 0;      // answers of Lemke's path started at the warm basis (warm_path)
  double factor_time_us = 0.0;          // part of the solve spent forming and factoring (31) [us]
  int fresh_factorisations = 0;     // of the reduced system, whole (BorderedLu)
  int bordered_factorisations = 0;  // through the border on an earlier one
};

struct FastLemkeResult {
  LcpResult lcp;  // z, w of size n(2+d) ordered (theta, phi, lambda), (nu, sigma, gamma)
  FastLemkeStats stats;
};

// method must be Structural or Reduced (throws std::invalid_argument otherwise, and for a
// malformed problem). A result that fails check_contact_solution is NumericalFailure.
// warm: see solve_contact. cover_perturbation > 0 starts from the covering vector
// 1 + cover_perturbation u_k (u_k fixed in [0, 1)) instead of ones: the fallback chain's
// PerturbedCover stage.
FastLemkeResult solve_lemke_fast(const ContactProblem& problem, LcpMethod method,
                                 const LemkeOptions& options = {}, const LcpBasis& warm = {},
                                 double cover_perturbation = 0.0);

// solve_lemke_fast for a caller that solves again and again (a World's island, step after
// step): the solver's tables and the answer keep their storage between solves, so a solve
// of sizes met before allocates nothing when its warm start is the answer.
class FastLemkeSolver {
 public:
  FastLemkeSolver();
  ~FastLemkeSolver();
  FastLemkeSolver(FastLemkeSolver&&) noexcept;
  FastLemkeSolver& operator=(FastLemkeSolver&&) noexcept;

  // As solve_lemke_fast; the answer stays valid until the next call.
  const FastLemkeResult& solve(const ContactProblem& problem, LcpMethod method,
                               const LemkeOptions& options = {}, const LcpBasis& warm = {},
                               double cover_perturbation = 0.0);

  // The mass-normalised columns of the last solve's problem, as normalize_contacts forms
  // them; null when that solve had no contact or threw before forming them.
  const NormalizedContacts* normalized() const;

 private:
  struct Tables;
  std::unique_ptr<Tables> tables_;
  FastLemkeResult result_;
  bool normalized_ = false;
};

}  // namespace pivot
