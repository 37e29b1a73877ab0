// Solver entry points for linear complementarity problems: the general dense LCP
// (w = M z + q) solved by the standard Lemke method, and the rigid-body contact LCP of
// Lloyd (2005) eq. (8), solved by the standard, structural or reduced fast Lemke method.
#pragma once

#include <atomic>
#include <chrono>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "pivot/math.hpp"

namespace pivot {

// How a solve ended. Never a silent zero vector: anything but Solved means z is not
// (known to be) a solution.
enum class LcpStatus {
  Solved,            // a complementary basis with z, w >= 0 was reached
  SecondaryRay,      // Lemke ray termination: no solution, or none Lemke can reach
  PivotLimit,        // gave up after LemkeOptions::max_pivots
  NumericalFailure,  // a singular basis or a result that fails the acceptance check
  NoSolution,        // proven: the complete search closed every branch (solve_lcp_complete)
  Cancelled,         // LemkeOptions::cancel or ::deadline stopped the solve: nothing proven
};
const char* to_string(LcpStatus status);

enum class LcpMethod { Standard, Structural, Reduced };
const char* to_string(LcpMethod method);
// Parses "standard" | "structural" | "reduced"; returns false on anything else.
bool parse_lcp_method(const std::string& text, LcpMethod* method);

struct LemkeOptions {
  // Pivot limit; 0 picks a default that grows with the problem size.
  int max_pivots = 0;
  // Relative thresholds: a pivot element or ratio difference counts as zero when it is
  // below this times the scale of the quantities it is compared with. Absolute
  // tolerances fail on degenerate peg-in-hole problems (n >= 20).
  double relative_tolerance = 1e-12;
  // Ends a running solve with LcpStatus::Cancelled once it reads true: a signal handler or
  // another thread sets it, the solvers look between pivots, so a solve that would pivot
  // for minutes stops within one pivot. Not owned; null: never.
  const std::atomic<bool>* cancel = nullptr;
  // Ends a solve with Cancelled once the steady clock passes it (a viewer's frame budget);
  // read every few pivots.
  std::optional<std::chrono::steady_clock::time_point> deadline;
  // When every path of the method has failed, its first path end that the acceptance rule
  // refused is made an answer by flips (principal pivots on the most negative pair) if it
  // can be: an answer the rule takes, but often at its edge. The fallback chain turns it
  // off for the method and its stages and tries it as its last stage (RepairedEnd).
  bool repair_refused_end = true;
};

// A complementary basis: z_basic[k] says whether z_k is basic, else w_k is. A method's
// answer carries the basis it ended on; handed back to solve_contact as a warm start for
// the next, similar problem (the next step's, rows matched by contact), the method solves
// that basis first and takes its answer when it is as feasible as the end of a path; the
// fast methods otherwise start Lemke's path from it.
struct LcpBasis {
  std::vector<char> z_basic;  // empty: no basis (a cold start)
};

// Result of one solve. Sizes: z and w have the LCP's size (for a contact problem
// n(2+d), ordered theta, phi, lambda and nu, sigma, gamma).
struct LcpResult {
  LcpStatus status = LcpStatus::NumericalFailure;
  VecX z;
  VecX w;
  int pivots = 0;
  double solve_time_us = 0.0;  // wall time of the solve [microseconds]
  LcpBasis basis;              // the final basis when Solved
  bool warm = false;           // the answer is the warm start's basis, without a pivot
  // The answer ends Lemke's path started at the warm basis (a moving island whose basis
  // was no answer; see solve_contact).
  bool warm_path = false;
};

// The acceptance rule of shared/formats/problem-files.md: with s = max(1, |q|_inf),
// every w and z entry >= -1e-9 s and every |w_i z_i| <= 1e-9 s max(1, |z|_inf).
struct LcpCheck {
  double min_entry = 0.0;            // min over all z_i and w_i
  double max_complementarity = 0.0;  // max |w_i z_i|
  double residual = 0.0;             // |w - (M z + q)|_inf, for the returned w
  bool accepted = false;
};

// ---- general LCP --------------------------------------------------------------------

// Standard Lemke with covering vector of ones and lexicographic ratio test.
LcpResult solve_lemke(const MatX& M, const VecX& q, const LemkeOptions& options = {});

// ---- complete search (small general LCPs) -------------------------------------------

// Lemke's secondary ray proves that no solution exists only when M is copositive-plus
// (Cottle-Pang-Stone Thm 4.4.13). For other small LCPs (the max formulation's matrices,
// bimatrix games) the programs go on with a complete search up to this size.
constexpr int kCompleteSearchMaxSize = 30;

struct CompleteSearchOptions {
  int max_nodes = 20000;  // branches examined before giving up with PivotLimit
};

struct CompleteSearchStats {
  int nodes = 0;             // branches whose feasibility LP was solved
  int infeasible_nodes = 0;  // branches closed by a Farkas certificate
  int undecided_nodes = 0;   // branches neither solved nor closed (round-off)
  // No solution has |z|_1 below this: the smallest radius of the certificates that closed
  // branches, carried from (z, w) to z (infinite when every one is exact). Meaningful
  // with NoSolution.
  double certified_radius = std::numeric_limits<double>::infinity();
};

// Branch and bound on the disjunctions z_i = 0 or w_i = 0, each branch decided by a
// phase-one LP. Solved: z passes the acceptance rule. NoSolution: every branch closed by a
// Farkas certificate that no solution has |z|_1 below 1e8 max(1, |q|_inf) or more
// (stats->certified_radius).
// NumericalFailure: some branch could be neither solved nor closed. PivotLimit: the node
// budget ran out. pivots counts the LPs' simplex pivots. Exponential in the worst case;
// meant for n <= kCompleteSearchMaxSize.
LcpResult solve_lcp_complete(const MatX& M, const VecX& q,
                             const CompleteSearchOptions& options = {},
                             CompleteSearchStats* stats = nullptr);

// Checks z against the LCP (M, q); w is recomputed as M z + q.
LcpCheck check_lcp_solution(const MatX& M, const VecX& q, const VecX& z);

// ---- contact LCP (Lloyd eq. 2-8) ----------------------------------------------------

// Friction directions per contact, d: the one range that scene and problem files, the
// writers, the CLI and the viewer accept, and the default. A contact adds 2 + d LCP
// variables; beyond 256 the cone is within 1 - cos(pi / 256) = 8e-5 of the circle.
constexpr int kMinFrictionDirections = 2;
constexpr int kMaxFrictionDirections = 256;
constexpr int kDefaultFrictionDirections = 4;
// Whether d is within [kMinFrictionDirections, kMaxFrictionDirections].
constexpr bool valid_friction_directions(long long d) {
  return d >= kMinFrictionDirections && d <= kMaxFrictionDirections;
}

// A Jacobian column touching at most two bodies (Lloyd Sec. 2: <= 12 non-zeros).
// body[k] < 0 marks an unused slot (a contact with a fixed body uses one slot).
struct ContactColumn {
  int body[2] = {-1, -1};
  Vec6 block[2] = {Vec6::Zero(), Vec6::Zero()};
};

struct ContactProblem {
  int d = kDefaultFrictionDirections;   // friction directions per contact
  std::vector<Mat6> mass;               // one SPD 6x6 spatial mass matrix per body
  VecX kx;                              // k~_x = f_x h + M v0, size 6m
  std::vector<double> mu;               // per contact, >= 0
  std::vector<double> b;                // per contact normal-row offset (gap/h) [m/s]
  std::vector<ContactColumn> normal;    // n~_i, one per contact
  std::vector<ContactColumn> friction;  // d~_ij, d per contact, contact-major

  int num_bodies() const { return static_cast<int>(mass.size()); }
  int num_contacts() const { return static_cast<int>(normal.size()); }
  int lcp_size() const { return num_contacts() * (2 + d); }
};

// Solves the contact LCP. Standard forms the dense matrix of (8); Structural and Reduced
// never form it (Lloyd Sec. 5.1-5.3). Every method tries `warm` first when it has the
// LCP's size (an answer only if it passes the same acceptance check). Short of an answer,
// Structural and Reduced start Lemke's path at that basis with a covering vector that
// makes it feasible, and when that path fails (and for Standard at once) Lemke's path runs
// from Step 0 as without it.
LcpResult solve_contact(const ContactProblem& problem, LcpMethod method,
                        const LemkeOptions& options = {}, const LcpBasis& warm = {});

// ---- fallback chain (contact LCP) ----------------------------------------------------

// What a contact solve falls back to when the requested method fails, in the order tried:
// it only climbs towards robustness, and a stage's answer is taken only when the original
// problem's acceptance check takes it.
enum class FallbackStage {
  Structural,        // Lloyd's structural method: the whole LCP, no restarts
  PerturbedCover,    // the structural method from covering vector 1 + 0.1 u_k, u_k in [0, 1)
  MergedDuplicates,  // exact duplicate contacts (same columns and mu) merged, structural
  Regularised,       // the standard method on M + alpha I, alpha = 1e-11 max(1, max M_ii)
  Standard,          // the standard method on M
  RepairedEnd,       // reduced, else structural, else standard, with repair_refused_end
};
constexpr int kFallbackStages = 6;
const char* to_string(FallbackStage stage);

// The dense stages (Regularised, Standard) apply up to this LCP size: they form the n x n
// matrix and its inverse and pivot at O(n^2), where a chain is reached by paths of
// thousands of pivots. Islands of the 40-body bin pile (n up to about 1,500) are answered
// there in seconds; a selection of the 80-box pile of issue 21 (1,075 planes, n = 6,450,
// two 330 MB matrices) was still in the Standard stage after 230 s, which held the step.
constexpr int kDenseFallbackMaxSize = 2048;

// One stage on its own, answer checked against `problem` (w is problem's). nullopt when
// the stage does not apply (MergedDuplicates on a problem without duplicates, the dense
// stages above kDenseFallbackMaxSize).
std::optional<LcpResult> solve_contact_stage(const ContactProblem& problem, FallbackStage stage,
                                             const LemkeOptions& options = {});

struct FallbackResult {
  LcpResult result;  // the answer, or the requested method's failure; pivots of every attempt
  int attempts = 0;  // stages tried after the requested method
  std::optional<FallbackStage> rescued_by;  // the stage that answered, if one did
};

// solve_contact with `method`, then the stages of FallbackStage in order (Structural
// skipped when it is the method, Standard likewise) until one answers. The method and the
// stages before RepairedEnd run without repair_refused_end; RepairedEnd runs only when
// options ask for the repair.
FallbackResult solve_contact_with_fallback(const ContactProblem& problem, LcpMethod method,
                                           const LemkeOptions& options = {},
                                           const LcpBasis& warm = {});

// The dense LCP (M, q) of eq. (8), for the standard method and for checking.
struct DenseLcp {
  MatX M;
  VecX q;
};
DenseLcp assemble_contact_lcp(const ContactProblem& problem);

// Body velocities after the step, v = M^-1 (N~ theta + D~ phi + k~_x), size 6m.
VecX contact_velocity(const ContactProblem& problem, const VecX& z);

// w = M z + q of eq. (8) without forming M; q itself for z = 0.
VecX contact_lcp_w(const ContactProblem& problem, const VecX& z);

// Acceptance check for a contact problem without forming M (w from the structure).
LcpCheck check_contact_solution(const ContactProblem& problem, const VecX& z);

}  // namespace pivot
