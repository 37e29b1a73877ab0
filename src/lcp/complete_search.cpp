// A complete method for small general LCPs: branch and bound on the complementarity
// disjunctions (z_i = 0 or w_i = 0), each branch decided by the feasibility LP of its
// polyhedron (feasibility_lp.hpp). Lemke's secondary ray proves that no solution exists only
// for copositive-plus M (Cottle-Pang-Stone Thm 4.4.13); the max formulation's matrices
// (Egan-Berard-Trinkle Sec. IV, docs/nonconvex-max.md) and bimatrix games are not, and
// ray-terminate with solutions present. The search either finds a solution the acceptance
// rule takes or closes every branch with a Farkas certificate.
#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "feasibility_lp.hpp"
#include "lcp_check.hpp"
#include "pivot/lcp.hpp"
#include "stopwatch.hpp"

namespace pivot {

namespace {

// A branch's state of pair i: both free, or one member fixed at zero.
enum Fix : signed char { kFree = 0, kZeroZ = 1, kZeroW = 2 };

// A certificate closes a branch when no point of it has a z smaller than this times
// max(1, |q|_inf) in the 1-norm (z_radius): a solution that large is beyond what the
// acceptance rule can judge anyway (w's round-off alone, 1e-16 |M| |z|, would then exceed
// its 1e-9 max(1, |q|_inf)).
constexpr double kClosingRadius = 1e8;

// What an LP certificate of radius R (no x = (z, w) of the branch with |x|_1 < R,
// feasibility_lp.hpp) proves of z alone. w = M z + q gives |x|_1 <= (1 + |M|_1) |z|_1 +
// |q|_1, so |z|_1 >= (R - |q|_1) / (1 + |M|_1). The radius of x alone proved nothing
// about a solution whose w is large: a fuzz input with an entry of 1e12 in M had the
// solution z = (0, 1, 0), w_3 = 999999999991, and its branch was closed as infeasible
// below |x|_1 ~ 1e12, so the search claimed no solution where Lemke found one.
double z_radius(double radius, double M_norm1, double q_norm1) {
  return std::max(0.0, radius - q_norm1) / (1.0 + M_norm1);
}

// The feasibility LP of a branch: x = (z_j : z_j not fixed, w_i : w_i not fixed) >= 0 with
// M z - w = -q; *z_columns lists the z of the first columns of x, in order.
Feasibility branch_lp(const MatX& M, const VecX& q, const std::vector<signed char>& fix,
                      std::vector<int>* z_columns) {
  const int n = static_cast<int>(q.size());
  z_columns->clear();
  std::vector<int> w_columns;
  for (int i = 0; i < n; ++i) {
    if (fix[i] != kZeroZ) z_columns->push_back(i);
    if (fix[i] != kZeroW) w_columns.push_back(i);
  }
  const int nz = static_cast<int>(z_columns->size());
  MatX A = MatX::Zero(n, nz + static_cast<int>(w_columns.size()));
  for (int c = 0; c < nz; ++c) A.col(c) = M.col((*z_columns)[c]);
  for (std::size_t c = 0; c < w_columns.size(); ++c) A(w_columns[c], nz + c) = -1.0;
  return find_feasible_point(A, -q);
}

// z solved on the support alpha (z_i > 0 allowed, w_i = 0 there) as M_aa z_a = -q_a, for a
// branch's point that is complementary only to the LP's tolerance.
VecX polish_on_support(const MatX& M, const VecX& q, const std::vector<int>& alpha) {
  VecX z = VecX::Zero(q.size());
  if (alpha.empty()) return z;
  const MatX M_aa = M(alpha, alpha);
  const VecX rhs = -q(alpha);
  const Eigen::ColPivHouseholderQR<MatX> qr(M_aa);
  VecX z_a = qr.solve(rhs);
  z_a += qr.solve(rhs - M_aa * z_a);
  z(alpha) = z_a.cwiseMax(0.0);
  return z;
}

}  // namespace

LcpResult solve_lcp_complete(const MatX& M, const VecX& q, const CompleteSearchOptions& options,
                             CompleteSearchStats* stats) {
  const auto start = Clock::now();
  const int n = static_cast<int>(q.size());
  if (M.rows() != n || M.cols() != n) {
    throw std::invalid_argument("solve_lcp_complete: M is " + std::to_string(M.rows()) + "x" +
                                std::to_string(M.cols()) + " but q has " + std::to_string(n) +
                                " entries");
  }
  if (!M.allFinite() || !q.allFinite()) {
    throw std::invalid_argument("solve_lcp_complete: M or q has a non-finite entry");
  }
  CompleteSearchStats local;
  CompleteSearchStats& s = stats ? *stats : local;
  s = CompleteSearchStats{};
  const double q_scale = n > 0 ? q.lpNorm<Eigen::Infinity>() : 0.0;
  const double closing_radius = kClosingRadius * std::max(1.0, q_scale);
  const double M_norm1 = n > 0 ? M.cwiseAbs().colwise().sum().maxCoeff() : 0.0;
  const double q_norm1 = n > 0 ? q.lpNorm<1>() : 0.0;

  LcpResult result;
  result.z = VecX::Zero(n);
  result.status = LcpStatus::NoSolution;
  bool out_of_budget = false;
  // Depth-first over branches; a branch is the fix of every pair.
  std::vector<std::vector<signed char>> open{std::vector<signed char>(n, kFree)};
  std::vector<int> z_columns, alpha;
  while (!open.empty()) {
    if (s.nodes >= options.max_nodes) {
      out_of_budget = true;
      break;
    }
    const std::vector<signed char> fix = std::move(open.back());
    open.pop_back();
    ++s.nodes;
    const Feasibility lp = branch_lp(M, q, fix, &z_columns);
    result.pivots += lp.pivots;
    const double radius = z_radius(lp.radius, M_norm1, q_norm1);
    if (lp.outcome == Feasibility::Outcome::Infeasible && radius >= closing_radius) {
      ++s.infeasible_nodes;
      s.certified_radius = std::min(s.certified_radius, radius);
      continue;
    }
    if (lp.outcome != Feasibility::Outcome::Feasible) {
      ++s.undecided_nodes;
      continue;
    }
    VecX z = VecX::Zero(n);
    for (std::size_t c = 0; c < z_columns.size(); ++c) z(z_columns[c]) = lp.x(c);
    const VecX w = M * z + q;
    // The free pair farthest from complementarity, relative to its own size.
    int branch = -1;
    double worst = 0.0;
    alpha.clear();
    for (int i = 0; i < n; ++i) {
      if (fix[i] == kZeroW || (fix[i] == kFree && z(i) > w(i))) alpha.push_back(i);
      if (fix[i] != kFree) continue;
      const double violation = std::min(z(i), w(i));
      if (branch < 0 || violation > worst) {
        branch = i;
        worst = violation;
      }
    }
    for (const VecX& candidate : {z, polish_on_support(M, q, alpha)}) {
      if (check_complementarity(candidate, M * candidate + q, q_scale).accepted) {
        result.status = LcpStatus::Solved;
        result.z = candidate;
        break;
      }
    }
    if (result.status == LcpStatus::Solved) break;
    if (branch < 0) {  // every pair fixed, and still no answer: round-off
      ++s.undecided_nodes;
      continue;
    }
    // The child that keeps the larger member of the pair is searched first.
    std::vector<signed char> keep_z = fix, keep_w = fix;
    keep_z[branch] = kZeroW;
    keep_w[branch] = kZeroZ;
    const bool z_first = z(branch) >= w(branch);
    open.push_back(z_first ? keep_w : keep_z);
    open.push_back(z_first ? keep_z : keep_w);
  }
  if (result.status != LcpStatus::Solved) {
    result.status = out_of_budget           ? LcpStatus::PivotLimit
                    : s.undecided_nodes > 0 ? LcpStatus::NumericalFailure
                                            : LcpStatus::NoSolution;
  }
  result.w = M * result.z + q;
  result.solve_time_us = microseconds_since(start);
  return result;
}

}  // namespace pivot
