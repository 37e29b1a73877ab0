// The standard Lemke method on a factorisation of the basis block (lemke_factored.hpp).
#include "lemke_factored.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "lcp_check.hpp"
#include "lemke_standard.hpp"

namespace pivot {

namespace {
// A row whose entry of the entering column is positive by more than this many round-off
// bounds blocks; one by less only when Harris's rule needs it (lemke_fast.cpp).
constexpr double kDeterminate = 1e3;
// z0's leavings judged by their answer in one run (leave_if_answer), each a dense solve of
// the basis, O(k^3); past them z0 leaves unjudged and the path's end is judged as before.
constexpr int kJudgedLeavings = 16;
}  // namespace

FactoredLemke::FactoredLemke(const MatX& M, const VecX& q, const VecX& cover,
                             const LemkeOptions& options)
    : M_(M),
      q_(q),
      c_(cover),
      n_(static_cast<int>(q.size())),
      tol_(options.relative_tolerance),
      slack_(kLeavingSlack * std::max(1.0, q.lpNorm<Eigen::Infinity>())),
      max_pivots_(pivot_limit(options, n_)),
      stop_(options),
      state_(n_, Pair::WBasic),
      x_(n_ + 1),
      xmag_(n_ + 1),
      d_(n_ + 1),
      dmag_(n_ + 1),
      e_(n_ + 1),
      emag_(n_ + 1),
      acc_(n_),
      wmag_(n_) {
  const auto nonzeros = (M.array() != 0.0).count();
  col_row_.reserve(nonzeros);
  col_value_.reserve(nonzeros);
  col_start_.reserve(n_ + 1);
  col_start_.push_back(0);
  for (int j = 0; j < n_; ++j) {
    for (int i = 0; i < n_; ++i) {
      if (M(i, j) == 0.0) continue;
      col_row_.push_back(i);
      col_value_.push_back(M(i, j));
    }
    col_start_.push_back(static_cast<int>(col_row_.size()));
  }
  lu_.reset(n_ + 1, true);
  rows_.reserve(n_ + 1);
  cols_.reserve(n_ + 1);
  row_keys_.resize(n_ + 1);
  col_keys_.resize(n_ + 1);
  rhs_.resize(n_ + 1);
  scale_.resize(n_ + 1);
  for (int i = 0; i < n_; ++i) basis_keys_ ^= signature_key(i);
}

std::vector<char> FactoredLemke::basic_z() const {
  std::vector<char> basic(n_);
  for (int j = 0; j < n_; ++j) basic[j] = state_[j] == Pair::ZBasic;
  return basic;
}

void FactoredLemke::basis_sets(std::vector<int>* alpha, std::vector<int>* rows) const {
  alpha->clear();
  rows->clear();
  for (int j = 0; j < n_; ++j) {
    if (state_[j] == Pair::ZBasic) alpha->push_back(j);
    if (state_[j] != Pair::WBasic) rows->push_back(j);
  }
}

VecX FactoredLemke::current_z() const {
  VecX z = VecX::Zero(n_);
  for (int j = 0; j < n_; ++j) {
    if (state_[j] == Pair::ZBasic) z(j) = std::max(0.0, x_(j));
  }
  return z;
}

// Lloyd (14): the basis block Y, rows R whose w is not basic, columns the basic z and z0,
// entries those of A = [I, -M, -c]. Named by row and variable, so BorderedLu follows a pivot
// (one row and one column in, one out) with an update of its border.
bool FactoredLemke::factor() {
  rows_.clear();
  cols_.clear();
  for (int j = 0; j < n_; ++j) {
    if (state_[j] != Pair::WBasic) rows_.push_back(j);
    if (state_[j] == Pair::ZBasic) cols_.push_back(j);
  }
  if (z0_basic_) cols_.push_back(n_);
  const int k = static_cast<int>(rows_.size());
  if (static_cast<int>(cols_.size()) != k) return false;
  noise_ = tol_;
  wmag_valid_ = false;
  if (k == 0) return true;
  for (int a = 0; a < k; ++a) {
    row_keys_[a] = static_cast<std::uint64_t>(rows_[a]);
    col_keys_[a] = static_cast<std::uint64_t>(cols_[a]);
  }
  const auto entry = [&](int a, int b) {
    const int j = cols_[b];
    return j < n_ ? -M_(rows_[a], j) : -c_(rows_[a]);
  };
  if (!lu_.factor(k, row_keys_.data(), col_keys_.data(), entry, tol_, false)) return false;
  // A solve carries round-off of about eps times the condition of Y (lemke_fast.cpp).
  noise_ = std::max(tol_, 64.0 * std::numeric_limits<double>::epsilon() * lu_.condition());
  return true;
}

double FactoredLemke::rhs_entry(const Rhs& in, int i) const {
  switch (in.kind) {
    case Rhs::Q:
      return q_(i);
    case Rhs::Unit:
      return i == in.index ? 1.0 : 0.0;
    case Rhs::Column:
      if (in.index < n_) return i == in.index ? 1.0 : 0.0;
      if (in.index < 2 * n_) return -M_(i, in.index - n_);
      return -c_(i);
  }
  return 0.0;
}

// B y = v: Y y_Z = v_R gives the basic z and z0; each basic w_i is then
// v_i + sum_j M_ij y_zj + c_i y_z0. Bounds (first order, units of noise_): a reduced
// unknown's is |y|_inf over its column scale (BorderedLu's solves are normwise accurate in
// the scaled unknowns), a w row's the sum of |coefficient| times the bounds it adds, which
// is |v_i| + |y|_inf times the basis's own sum (wmag_, formed once a factorisation).
void FactoredLemke::solve(const Rhs& in, VecX* y, VecX* mag, const std::vector<int>* only) {
  const int k = static_cast<int>(rows_.size());
  for (int a = 0; a < k; ++a) rhs_[a] = rhs_entry(in, rows_[a]);
  if (k > 0) lu_.solve(rhs_.data(), scale_.data());
  if (!wmag_valid_) {
    wmag_.setZero();
    for (int b = 0; b < k; ++b) {
      const int j = cols_[b];
      const double unit = 1.0 / scale_[b];
      if (j == n_) {
        wmag_.noalias() += unit * c_.cwiseAbs();
        continue;
      }
      for (int e = col_start_[j]; e < col_start_[j + 1]; ++e) {
        wmag_(col_row_[e]) += unit * std::abs(col_value_[e]);
      }
    }
    wmag_valid_ = true;
  }
  double ynorm = 0.0;
  for (int a = 0; a < k; ++a) ynorm = std::max(ynorm, std::abs(rhs_[a]));
  y->setZero();
  mag->setZero();
  for (int b = 0; b < k; ++b) {
    (*y)(cols_[b]) = rhs_[b] / scale_[b];
    (*mag)(cols_[b]) = ynorm / scale_[b];
  }
  // Each basic w_i sums its row's entries in the basic columns' order, by column over M's
  // nonzero entries for every row, or along the row for a few (`only`: the lexicographic
  // rule's candidates), to the same bits.
  if (only) {
    for (const int i : *only) {
      if (i == n_ || state_[i] != Pair::WBasic) continue;
      double sum = 0.0;
      for (int b = 0; b < k; ++b) {
        const int j = cols_[b];
        const double entry = j < n_ ? M_(i, j) : c_(i);
        if (entry != 0.0) sum += (*y)(j)*entry;
      }
      const double v = rhs_entry(in, i);
      (*y)(i) = v + sum;
      (*mag)(i) = std::abs(v) + ynorm * wmag_(i);
    }
    return;
  }
  acc_.setZero();
  for (int b = 0; b < k; ++b) {
    const int j = cols_[b];
    const double value = (*y)(j);
    if (j < n_) {
      for (int e = col_start_[j]; e < col_start_[j + 1]; ++e) {
        acc_(col_row_[e]) += value * col_value_[e];
      }
    } else {
      acc_.noalias() += value * c_;
    }
  }
  for (int i = 0; i < n_; ++i) {
    if (state_[i] != Pair::WBasic) continue;
    const double v = rhs_entry(in, i);
    (*y)(i) = v + acc_(i);
    (*mag)(i) = std::abs(v) + ynorm * wmag_(i);
  }
}

bool FactoredLemke::basic(int j) const { return j < n_ ? state_[j] != Pair::Neither : z0_basic_; }

// z0 is zero to within slack on every row (c_k z0 <= slack) and every basic value is at or
// above -slack: the basis with z0 dropped is an answer the acceptance rule takes
// (lemke_fast.cpp, z0_vanished).
bool FactoredLemke::z0_vanished(double slack) const {
  if (!z0_basic_ || std::max(x_(n_), 0.0) * c_.cwiseAbs().maxCoeff() > slack) return false;
  for (int j = 0; j < n_; ++j) {
    if (basic(j) && x_(j) < -slack) return false;
  }
  return true;
}

bool FactoredLemke::z0_droppable() const {
  const double qscale = std::max(1.0, q_.lpNorm<Eigen::Infinity>());
  return z0_basic_ && std::max(x_(n_), 0.0) * c_.cwiseAbs().maxCoeff() <=
                          kCycleShare * kAcceptanceTolerance * qscale;
}

bool FactoredLemke::dropped_z0_answer() const {
  const VecX z = current_z();
  return check_complementarity(z, M_ * z + q_, q_.lpNorm<Eigen::Infinity>(),
                               kCycleShare * kAcceptanceTolerance)
      .accepted;
}

// Whether z0's step (to zero) leaves every row at or above -slack, or within tol of its
// bound: z0 then leaves, whether or not it is the smallest ratio (lemke_fast.cpp, z0_step).
bool FactoredLemke::z0_leaves() const {
  if (!z0_basic_ || !(d_(n_) > noise_ * dmag_(n_))) return false;
  const double t = std::max(x_(n_), 0.0) / d_(n_);
  for (int j = 0; j < n_; ++j) {
    if (!basic(j) || !(d_(j) > 0.0)) continue;
    const double value = x_(j) - t * d_(j);
    if (value < -slack_ && value < -tol_ * (xmag_(j) + t * dmag_(j))) return false;
  }
  return true;
}

// The minimum-ratio test (Lloyd (18)) on each row's own round-off bound, as the fast
// methods take it (lemke_fast.cpp, pivot_to_solution). A row blocks when its entry of the
// entering column is positive beyond kDeterminate bounds; one within that (four coplanar
// contacts have normal columns of rank three: the fourth row's entry is round-off of zero)
// only when the step would otherwise leave it below -slack (Harris 1973). Ties: the rows
// the step brings to zero within tol of their bounds and whose ratio is within Harris's
// longest step. Returns the leaving row, -1 on a ray, -2 when the values are not sound
// (no tie survives).
int FactoredLemke::leaving_row() {
  const auto ratio = [&](int j) { return std::max(x_(j), 0.0) / d_(j); };
  blocking_.clear();
  indeterminate_.clear();
  for (int j = 0; j < n_; ++j) {
    if (!basic(j) || !(d_(j) > noise_ * dmag_(j))) continue;
    (d_(j) > kDeterminate * noise_ * dmag_(j) ? blocking_ : indeterminate_).push_back(j);
  }
  const bool z0_blocks = z0_basic_ && d_(n_) > noise_ * dmag_(n_);
  double tmin = 0.0;
  const auto smallest_ratio = [&] {
    tmin = z0_blocks ? ratio(n_) : std::numeric_limits<double>::infinity();
    for (const int j : blocking_) tmin = std::min(tmin, ratio(j));
  };
  smallest_ratio();
  for (const int j : indeterminate_) {
    if (x_(j) - tmin * d_(j) < std::min(x_(j), 0.0) - slack_) {
      blocking_.insert(blocking_.end(), indeterminate_.begin(), indeterminate_.end());
      smallest_ratio();
      break;
    }
  }
  if (tmin == std::numeric_limits<double>::infinity()) return -1;
  const auto zero = [&](int j) { return tol_ * (xmag_(j) + tmin * dmag_(j)); };
  double tmax = std::numeric_limits<double>::infinity();
  for (const int j : blocking_) {
    if (ratio(j) < tmax) tmax = std::min(tmax, (std::max(x_(j), 0.0) + zero(j)) / d_(j));
  }
  ties_.clear();
  for (const int j : blocking_) {
    if (ratio(j) <= tmax && x_(j) - tmin * d_(j) <= zero(j)) ties_.push_back(j);
  }
  if (ties_.empty()) return -2;
  return ties_.size() == 1 ? ties_.front() : lexicographic_min(&ties_);
}

// The lexicographic rule (Cottle-Pang-Stone 4.9) with columns of B^-1 B0 solved on demand,
// B0 the basis the path started from (the identity from Step 0, the warm basis for
// run_from), as the fast methods do (lemke_fast.cpp, lexicographic_min, which says why B0):
// column k is the unit vector of pair k's basic variable when it is the one basic in B0,
// which drops it from the candidates. An entry within its
// own round-off bound is zero, and two entries tie when they agree to noise_ relative to
// their size. A window scaled by the largest entry among the candidates kept rows whose
// entries differ, and the first of them left: on Siconos' lcp_tobenna (degenerate, n = 40)
// the path cycled at pivot 186, where the rule ends in 127 (testdata/external/EXPECTED.md).
// Ties judged by each row's bound alone (noise_ emag / d, as break_tie_lexicographically
// judges the updated inverse's) end the tower's block_tower_10_d8_step91937 on a ray.
int FactoredLemke::lexicographic_min(std::vector<int>* candidates) {
  for (int k = 0; k < n_ && candidates->size() > 1; ++k) {
    // B0's column k: e_k for a basic w_k, -M_k for a basic z_k (A = [I, -M, -c]).
    const bool b0_z = !start_z_.empty() && start_z_[k];
    if ((state_[k] == Pair::WBasic && !b0_z) || (state_[k] == Pair::ZBasic && b0_z)) {
      const auto it = std::find(candidates->begin(), candidates->end(), k);
      if (it != candidates->end()) candidates->erase(it);
      continue;
    }
    solve(b0_z ? Rhs{Rhs::Column, n_ + k} : Rhs{Rhs::Unit, k}, &e_, &emag_, candidates);
    const auto entry = [&](int j) {
      return std::abs(e_(j)) <= noise_ * emag_(j) ? 0.0 : e_(j) / d_(j);
    };
    const auto width = [&](int j) { return noise_ * std::abs(entry(j)); };
    int m = candidates->front();
    for (const int j : *candidates) {
      if (entry(j) < entry(m)) m = j;
    }
    keep_.clear();
    for (const int j : *candidates) {
      if (entry(j) - entry(m) <= width(j) + width(m)) keep_.push_back(j);
    }
    candidates->swap(keep_);
  }
  return candidates->front();
}

// Variables: w_j is j, z_j is n + j, z0 is 2n; row j of x_ and d_ is pair j's basic member,
// row n is z0.
void FactoredLemke::pivot(int leaving_row, int entering) {
  int leaving;
  if (leaving_row == n_) {
    leaving = 2 * n_;
    z0_basic_ = false;
  } else {
    leaving = state_[leaving_row] == Pair::WBasic ? leaving_row : n_ + leaving_row;
    state_[leaving_row] = Pair::Neither;
  }
  if (entering == 2 * n_) {
    z0_basic_ = true;
  } else {
    state_[entering % n_] = entering < n_ ? Pair::WBasic : Pair::ZBasic;
  }
  basis_keys_ ^= signature_key(leaving) ^ signature_key(entering);
  ++pivots_;
}

// The leaving test reads the values of the path's own solve, whose round-off bound comes
// from the condition estimate of the LU's pivots; on an island of the 40-body bin pile
// (n = 1,038, step 75 of scenes/bin_pile_40.json with the standard method) every
// factorised run let z0 leave at a basis whose answer, solved afresh, is 2.9e-9 to 7e-9
// below zero, past the rule; judged by that answer, z0 stays once and the first run
// ends two pivots later on an answer the rule takes.
bool FactoredLemke::leave_if_answer(int entering) {
  const std::vector<Pair> state = state_;
  const std::uint64_t keys = basis_keys_;
  pivot(n_, entering);
  if (refused_leavings_ >= kJudgedLeavings) return true;
  std::vector<int> alpha, rows;
  basis_sets(&alpha, &rows);
  if (complementary_z(M_, q_, alpha, rows, &solved_z_) &&
      check_complementarity(solved_z_, M_ * solved_z_ + q_, q_.lpNorm<Eigen::Infinity>())
          .accepted) {
    solved_z_valid_ = true;
    return true;
  }
  ++refused_leavings_;
  state_ = state;
  basis_keys_ = keys;
  z0_basic_ = true;
  --pivots_;
  return false;
}

LcpStatus FactoredLemke::run() {
  // Step 0: z0 enters and the most negative w leaves.
  const int r0 = initial_leaving_row(q_.cwiseQuotient(c_), tol_, &ties_);
  pivot(r0, 2 * n_);
  return follow(n_ + r0);
}

LcpStatus FactoredLemke::run_from(const std::vector<char>& z_basic) {
  start_z_ = z_basic;
  for (int j = 0; j < n_; ++j) {
    if (!z_basic[j]) continue;
    state_[j] = Pair::ZBasic;
    basis_keys_ ^= signature_key(j) ^ signature_key(n_ + j);
  }
  if (!factor()) return LcpStatus::NumericalFailure;
  solve(Rhs{Rhs::Q, -1}, &x_, &xmag_);
  const int r0 = initial_leaving_row(x_.head(n_), tol_, &ties_);
  if (x_(r0) >= 0.0) return LcpStatus::Solved;
  const int leaving = state_[r0] == Pair::WBasic ? r0 : n_ + r0;
  pivot(r0, 2 * n_);
  return follow(leaving < n_ ? leaving + n_ : leaving - n_);
}

LcpStatus FactoredLemke::follow(int entering) {
  CycleWatch cycle;
  // The watch saw a cycle: one more round of it, for a basis whose answer with z0 dropped
  // the rule takes (lemke_fast.cpp, pivot_to_solution), then a failure. On an island of
  // the 40-body bin pile (tests/lcp/soak/bin_pile_40_step130_cycle.contact, n = 1,044) all
  // four covers' paths cycled at z0 of 1.2e-10 to 1.8e-10, above the leaving slack.
  bool cycled = false;
  // A path that stays at such a z0 without cycling tries the same every kDropZ0Interval
  // pivots (lemke_fast.cpp): the 40-body bin pile's step 971 with a box dragged out
  // (tests/lcp/soak/bin_pile_40_drag_step971.contact, n = 1,656) took 65,148 pivots.
  int next_drop_try = 0;
  while (true) {
    if (pivots_ >= max_pivots_) return LcpStatus::PivotLimit;
    if (stop_()) return LcpStatus::Cancelled;
    if (!factor()) return LcpStatus::NumericalFailure;
    solve(Rhs{Rhs::Q, -1}, &x_, &xmag_);
    if (z0_vanished(slack_)) return LcpStatus::Solved;
    if (z0_droppable() && (cycled || pivots_ >= next_drop_try)) {
      if (!cycled) next_drop_try = pivots_ + kDropZ0Interval;
      if (dropped_z0_answer()) return LcpStatus::Solved;
    }
    // The column of A for the entering variable is -m': a row blocks when d = B^-1 a > 0.
    solve(Rhs{Rhs::Column, entering}, &d_, &dmag_);
    if (z0_leaves() && leave_if_answer(entering)) return LcpStatus::Solved;
    const int r = leaving_row();
    // A ray ends the path, so there is no later pivot to keep a margin for: z0 within half
    // the acceptance tolerance is an answer, the ray the round-off's (lemke_fast.cpp).
    if (r == -1) {
      return z0_vanished(0.5 * kAcceptanceTolerance * std::max(1.0, q_.lpNorm<Eigen::Infinity>()))
                 ? LcpStatus::Solved
                 : LcpStatus::SecondaryRay;
    }
    if (r < 0) return LcpStatus::NumericalFailure;
    const int leaving = state_[r] == Pair::WBasic ? r : n_ + r;
    pivot(r, entering);
    entering = leaving < n_ ? leaving + n_ : leaving - n_;
    if (cycle.repeats(basis_keys_ ^ signature_key(2 * n_ + 1 + entering))) {
      if (cycled) return LcpStatus::NumericalFailure;
      cycled = true;
    }
  }
}

}  // namespace pivot
