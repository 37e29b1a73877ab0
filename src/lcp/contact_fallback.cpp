// The fallback chain of a contact solve: when the requested method fails, stages that are
// each more robust or read the problem another way, tried in order until one gives an
// answer the original problem's acceptance check takes. It only climbs: Lloyd's structural
// method (the whole LCP, no restarts), the same from a perturbed covering vector, the same
// with exact duplicate contacts merged, the standard method on a regularised M, the
// standard method, and last a refused path end repaired by flips (RepairedEnd).
// The requested method and every stage before the last run without that repair: such an
// answer is at the acceptance rule's edge, and taken in the requested method's place where
// a later stage's path would have answered, it made the ten-block tower rock
// (docs/robustness.md, "Path ends repaired by flips").
#include <algorithm>
#include <cmath>
#include <vector>

#include "contact_solver.hpp"
#include "lemke_fast.hpp"
#include "lemke_standard.hpp"
#include "pivot/lcp.hpp"
#include "stopwatch.hpp"

namespace pivot {

namespace {

// PerturbedCover: covering entries spread over [1, 1.1).
constexpr double kCoverPerturbation = 0.1;
// Regularised: alpha = this times max(1, largest diagonal entry of M). Small enough that the
// answer of M + alpha I, w - alpha z, passes the original check (tolerance 1e-9 max(1,
// |q|_inf)) for impulses of ordinary size; large enough to lift the exact singularity of
// redundant contacts (N'N of four coplanar corners has rank three) far above round-off.
constexpr double kRegularisation = 1e-11;

constexpr FallbackStage kChain[] = {FallbackStage::Structural,       FallbackStage::PerturbedCover,
                                    FallbackStage::MergedDuplicates, FallbackStage::Regularised,
                                    FallbackStage::Standard,         FallbackStage::RepairedEnd};

bool same_column(const ContactColumn& a, const ContactColumn& b) {
  for (int s = 0; s < 2; ++s) {
    if (a.body[s] != b.body[s]) return false;
    if (a.body[s] >= 0 && a.block[s] != b.block[s]) return false;
  }
  return true;
}

bool same_contact(const ContactProblem& p, int i, int j) {
  if (p.mu[i] != p.mu[j] || !same_column(p.normal[i], p.normal[j])) return false;
  for (int k = 0; k < p.d; ++k) {
    if (!same_column(p.friction[i * p.d + k], p.friction[j * p.d + k])) return false;
  }
  return true;
}

// Contacts with identical columns and mu solve as one: the kept one has the smallest b (the
// tightest of the identical rows nu = n' v + b >= 0); the others get no impulse and the
// kept one's lambda, which keeps their sigma rows (d' v + lambda) equal to its own.
// nullopt when the problem has no duplicate.
std::optional<LcpResult> solve_merged(const ContactProblem& p, const LemkeOptions& options) {
  const int n = p.num_contacts();
  const int d = p.d;
  std::vector<std::vector<int>> classes;
  for (int i = 0; i < n; ++i) {
    auto same = std::find_if(classes.begin(), classes.end(),
                             [&](const std::vector<int>& c) { return same_contact(p, i, c[0]); });
    if (same == classes.end()) {
      classes.push_back({i});
    } else {
      same->push_back(i);
    }
  }
  if (static_cast<int>(classes.size()) == n) return std::nullopt;
  ContactProblem merged;
  merged.d = d;
  merged.mass = p.mass;
  merged.kx = p.kx;
  std::vector<int> kept;  // per class, its member with the smallest b
  for (const std::vector<int>& c : classes) {
    const int i =
        *std::min_element(c.begin(), c.end(), [&](int a, int b) { return p.b[a] < p.b[b]; });
    kept.push_back(i);
    merged.mu.push_back(p.mu[i]);
    merged.b.push_back(p.b[i]);
    merged.normal.push_back(p.normal[i]);
    for (int j = 0; j < d; ++j) merged.friction.push_back(p.friction[i * d + j]);
  }
  LcpResult result = solve_contact(merged, LcpMethod::Structural, options);
  if (result.status != LcpStatus::Solved) return result;
  const int m = merged.num_contacts();
  VecX z = VecX::Zero(p.lcp_size());
  for (int s = 0; s < m; ++s) {
    const int i = kept[s];
    z(i) = result.z(s);
    for (int j = 0; j < d; ++j) z(n + i * d + j) = result.z(m + s * d + j);
    for (const int member : classes[s]) z(n + n * d + member) = result.z(m + m * d + s);
  }
  result.z = std::move(z);
  return result;
}

// The standard method on M + alpha I of eq. (8). M is copositive (Stewart-Trinkle), so
// M + alpha I is strictly copositive and Lemke's method solves it for every q: a ray is the
// round-off's here too.
LcpResult solve_regularised(const ContactProblem& p, const LemkeOptions& options) {
  DenseLcp lcp = assemble_contact_lcp(p);
  if (!lcp.M.allFinite() || !lcp.q.allFinite()) return LcpResult{};
  const double alpha =
      kRegularisation * std::max(1.0, lcp.M.size() ? lcp.M.diagonal().maxCoeff() : 0.0);
  lcp.M.diagonal().array() += alpha;
  return solve_lemke(lcp.M, lcp.q, options, RayMeaning::RoundOff);
}

// The reduced method's last resorts (a cycle's answer at the rule's full tolerance, its
// first refused path end repaired), else the structural method's, else the standard
// method's where it repairs (n <= kDenseRepairMaxSize; beyond, its nine runs would be paid again
// for nothing).
LcpResult solve_repaired(const ContactProblem& p, const LemkeOptions& options) {
  LemkeOptions repair = options;
  repair.repair_refused_end = true;
  LcpResult result = solve_contact(p, LcpMethod::Reduced, repair);
  if (result.status == LcpStatus::Solved || result.status == LcpStatus::Cancelled) return result;
  // The structural method's last resorts: its paths are not the reduced method's, and on
  // islands of the 40-body bin pile (tests/lcp/soak/bin_pile_40_structural_cycles) only its
  // cycles had a basis whose answer the rule takes.
  LcpResult structural = solve_contact(p, LcpMethod::Structural, repair);
  structural.pivots += result.pivots;
  if (structural.status == LcpStatus::Solved || structural.status == LcpStatus::Cancelled ||
      p.lcp_size() > kDenseRepairMaxSize) {
    return structural;
  }
  LcpResult standard = solve_contact(p, LcpMethod::Standard, repair);
  standard.pivots += structural.pivots;
  return standard;
}

}  // namespace

LemkeOptions without_end_repair(const LemkeOptions& options) {
  LemkeOptions plain = options;
  plain.repair_refused_end = false;
  return plain;
}

std::optional<LcpResult> solve_contact_stage(const ContactProblem& problem, FallbackStage stage,
                                             const LemkeOptions& options) {
  const auto start = Clock::now();
  const bool dense = stage == FallbackStage::Regularised || stage == FallbackStage::Standard;
  if (dense && problem.lcp_size() > kDenseFallbackMaxSize) return std::nullopt;
  std::optional<LcpResult> result;
  switch (stage) {
    case FallbackStage::Structural:
      result = solve_contact(problem, LcpMethod::Structural, options);
      break;
    case FallbackStage::PerturbedCover:
      result =
          solve_lemke_fast(problem, LcpMethod::Structural, options, {}, kCoverPerturbation).lcp;
      break;
    case FallbackStage::MergedDuplicates:
      result = solve_merged(problem, options);
      break;
    case FallbackStage::Regularised:
      result = solve_regularised(problem, options);
      break;
    case FallbackStage::Standard:
      result = solve_contact(problem, LcpMethod::Standard, options);
      break;
    case FallbackStage::RepairedEnd:
      result = solve_repaired(problem, options);
      break;
  }
  if (!result) return result;
  // Whatever the stage solved, the answer is the original problem's only if its check says
  // so; w is that problem's too.
  if (result->status == LcpStatus::Solved) {
    if (result->z.size() != problem.lcp_size() ||
        !check_contact_solution(problem, result->z).accepted) {
      result->status = LcpStatus::NumericalFailure;
    }
  }
  if (result->z.size() == problem.lcp_size()) result->w = contact_lcp_w(problem, result->z);
  // A stage's basis is a warm start for the next step's problem like any method's (the warm
  // start takes it only through that problem's check), unless it is of another problem's
  // size (merged duplicates).
  if (static_cast<int>(result->basis.z_basic.size()) != problem.lcp_size())
    result->basis.z_basic.clear();
  result->solve_time_us = microseconds_since(start);
  return result;
}

FallbackResult solve_contact_with_fallback(const ContactProblem& problem, LcpMethod method,
                                           const LemkeOptions& options, const LcpBasis& warm) {
  FallbackResult out;
  out.result = solve_contact(problem, method, without_end_repair(options), warm);
  climb_fallback_chain(problem, method, options, &out);
  return out;
}

void climb_fallback_chain(const ContactProblem& problem, LcpMethod method,
                          const LemkeOptions& options, FallbackResult* out) {
  int pivots = out->result.pivots;
  double time_us = out->result.solve_time_us;
  const LemkeOptions plain = without_end_repair(options);
  for (const FallbackStage stage : kChain) {
    // A cancelled solve asked for nothing more.
    if (out->result.status == LcpStatus::Solved || out->result.status == LcpStatus::Cancelled)
      break;
    if ((stage == FallbackStage::Structural && method == LcpMethod::Structural) ||
        (stage == FallbackStage::Standard && method == LcpMethod::Standard)) {
      continue;
    }
    if (stage == FallbackStage::RepairedEnd && !options.repair_refused_end) continue;
    std::optional<LcpResult> attempt =
        solve_contact_stage(problem, stage, stage == FallbackStage::RepairedEnd ? options : plain);
    if (!attempt) continue;
    ++out->attempts;
    pivots += attempt->pivots;
    time_us += attempt->solve_time_us;
    if (attempt->status == LcpStatus::Solved) {
      out->result = std::move(*attempt);
      out->rescued_by = stage;
    } else if (attempt->status == LcpStatus::Cancelled) {
      out->result.status = LcpStatus::Cancelled;
    }
  }
  out->result.pivots = pivots;
  out->result.solve_time_us = time_us;
}

}  // namespace pivot
