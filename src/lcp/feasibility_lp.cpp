// Phase one of the simplex method on a dense tableau (Chvatal, Linear Programming, ch. 8),
// with the Farkas vector read off the final reduced costs of the artificial columns.
#include "feasibility_lp.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace pivot {

namespace {

// An entry of the tableau below this times its column's scale is a residue of zero: never
// a pivot element, and a reduced cost that small does not make a column enter.
constexpr double kZeroEntry = 1e-11;
// The phase's value (sum of artificials) and the residual |A x - b|_inf that count as
// feasible, relative to max(1, |b|_inf): the acceptance rule's tolerance (lcp_check.hpp).
constexpr double kFeasible = 1e-9;
// A pivot element below this times the largest entry of its column would amplify the
// tableau's round-off by more than 1e9 in one step.
constexpr double kPivotElement = 1e-9;

}  // namespace

Feasibility find_feasible_point(const MatX& A, const VecX& b) {
  const int m = static_cast<int>(A.rows());
  const int k = static_cast<int>(A.cols());
  const int rhs = k + m;
  Feasibility result;
  // The signed system F x = sign b with F = [sign A, I] (artificials last), whose right-hand
  // side is >= 0. Row i of the tableau T is row i of B^-1 (F, sign b) for the basis B;
  // row m holds the reduced costs of min sum(artificials) and minus the phase's value.
  VecX sign(m);
  MatX F = MatX::Zero(m, k + m);
  VecX b_signed(m);
  for (int i = 0; i < m; ++i) {
    sign(i) = b(i) < 0.0 ? -1.0 : 1.0;
    F.row(i).head(k) = sign(i) * A.row(i);
    F(i, k + i) = 1.0;
    b_signed(i) = sign(i) * b(i);
  }
  VecX cost = VecX::Zero(k + m);
  cost.tail(m).setOnes();
  VecX column_scale = VecX::Ones(k + m);
  for (int j = 0; j < k; ++j) {
    column_scale(j) = std::max(1.0, m > 0 ? A.col(j).cwiseAbs().maxCoeff() : 0.0);
  }
  std::vector<int> basic(m);
  for (int i = 0; i < m; ++i) basic[i] = k + i;
  MatX T(m + 1, k + m + 1);
  VecX y(m);  // the multipliers of the signed rows: B' y = cost_B

  // The tableau afresh from the basis by an LU of B: rank-one updates of a dense tableau lose
  // accuracy on degenerate problems (Siconos' lcp_tobenna, n = 40: a residual of 3e8 after
  // 229 pivots), so every decision that ends the phase is taken on a fresh one.
  const auto rebuild = [&] {
    MatX B(m, m);
    VecX cost_basic(m);
    for (int i = 0; i < m; ++i) {
      B.col(i) = F.col(basic[i]);
      cost_basic(i) = cost(basic[i]);
    }
    const Eigen::PartialPivLU<MatX> lu(B);
    if (!(lu.rcond() > std::numeric_limits<double>::epsilon())) return false;
    T.topLeftCorner(m, k + m) = lu.solve(F);
    T.col(k + m).head(m) = lu.solve(b_signed);
    y = lu.transpose().solve(cost_basic);
    T.row(m).head(k + m) = cost.transpose() - y.transpose() * F;
    T(m, k + m) = -y.dot(b_signed);
    return T.allFinite();
  };
  if (!rebuild()) return result;

  const double b_scale = std::max(1.0, m > 0 ? b.cwiseAbs().maxCoeff() : 0.0);
  const int max_pivots = 100 * (k + m + 1);
  // Bland's leaving rule: the minimum ratio, ties (within round-off of the ratio) to the
  // smallest basic variable. -1 when no entry of the column is a pivot element: above
  // kZeroEntry times the column's scale and kPivotElement times its largest entry.
  const auto leaving_row = [&](int entering) {
    const double floor = std::max(kZeroEntry * column_scale(entering),
                                  kPivotElement * T.col(entering).head(m).cwiseAbs().maxCoeff());
    int leaving = -1;
    double best = std::numeric_limits<double>::infinity();
    for (int i = 0; i < m; ++i) {
      const double a = T(i, entering);
      if (a <= floor) continue;
      const double ratio = std::max(T(i, rhs), 0.0) / a;
      if (leaving < 0) {
        best = ratio;
        leaving = i;
        continue;
      }
      const double window = kZeroEntry * std::max(1.0, best);
      if (ratio < best - window || (ratio <= best + window && basic[i] < basic[leaving])) {
        best = std::min(best, ratio);
        leaving = i;
      }
    }
    return leaving;
  };
  int since_rebuild = 0;
  while (result.pivots < max_pivots) {
    // Bland: the smallest index with a negative reduced cost enters. A column whose entries
    // are all residues of zero cannot decrease the sum of artificials (bounded below by 0):
    // its reduced cost is round-off too, and the next column is tried.
    int entering = -1, leaving = -1;
    for (int j = 0; j < k + m && leaving < 0; ++j) {
      if (T(m, j) < -kZeroEntry * column_scale(j)) {
        entering = j;
        leaving = leaving_row(j);
      }
    }
    if (leaving < 0) {
      if (since_rebuild == 0) break;  // optimal on a fresh tableau
      if (!rebuild()) return result;
      since_rebuild = 0;
      continue;
    }
    T.row(leaving) /= T(leaving, entering);
    for (int i = 0; i <= m; ++i) {
      if (i != leaving && T(i, entering) != 0.0) T.row(i) -= T(i, entering) * T.row(leaving);
    }
    basic[leaving] = entering;
    ++result.pivots;
    if (++since_rebuild >= std::max(m, 1)) {
      if (!rebuild()) return result;
      since_rebuild = 0;
    }
  }
  if (result.pivots >= max_pivots) return result;

  double value = 0.0;
  VecX x = VecX::Zero(k);
  for (int i = 0; i < m; ++i) {
    if (basic[i] >= k) value += std::max(T(i, rhs), 0.0);
    if (basic[i] < k) x(basic[i]) = std::max(T(i, rhs), 0.0);
  }
  if (value <= kFeasible * b_scale) {
    if (m == 0 || (A * x - b).cwiseAbs().maxCoeff() <= kFeasible * b_scale) {
      result.outcome = Feasibility::Outcome::Feasible;
      result.x = std::move(x);
    }
    return result;
  }

  // At the optimum every real column has reduced cost -(sign A)'_j y >= 0 and the value is
  // (sign b)' y > 0: with the signs moved onto y, a Farkas vector for A and b, checked here
  // against the caller's A and b, not the tableau.
  y = y.cwiseProduct(sign);
  constexpr long double kUnit = std::numeric_limits<long double>::epsilon();
  long double beta = 0.0L, beta_magnitude = 0.0L;
  for (int i = 0; i < m; ++i) {
    beta += static_cast<long double>(b(i)) * static_cast<long double>(y(i));
    beta_magnitude += std::abs(static_cast<long double>(b(i)) * static_cast<long double>(y(i)));
  }
  beta -= (m + 2) * kUnit * beta_magnitude;
  if (!(beta > 0.0L)) return result;
  long double worst = 0.0L;  // max_j (A' y)_j^+ with its rounding bound
  for (int j = 0; j < k; ++j) {
    long double s = 0.0L, magnitude = 0.0L;
    for (int i = 0; i < m; ++i) {
      s += static_cast<long double>(A(i, j)) * static_cast<long double>(y(i));
      magnitude += std::abs(static_cast<long double>(A(i, j)) * static_cast<long double>(y(i)));
    }
    s += (m + 2) * kUnit * magnitude;
    worst = std::max(worst, s);
  }
  result.outcome = Feasibility::Outcome::Infeasible;
  result.y = std::move(y);
  result.radius =
      worst > 0.0L ? static_cast<double>(beta / worst) : std::numeric_limits<double>::infinity();
  return result;
}

}  // namespace pivot
