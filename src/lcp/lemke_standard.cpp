// The standard Lemke method (Lloyd 2005 Sec. 4, after Sargent 1978): covering vector of
// ones, explicit basis inverse updated by one rank-one (product-form) step per pivot, so a
// pivot costs O(n^2), and the lexicographic ratio test against cycling.
#include "lemke_standard.hpp"

#include <Eigen/LU>
#include <Eigen/QR>
#include <chrono>
#include <stdexcept>
#include <string>

#include "lcp_check.hpp"

namespace pivot {

int default_max_pivots(int n) { return 50 * (n + 1); }

int initial_leaving_row(const VecX& q_over_c, double tol, std::vector<int>* ties) {
  const double q_min = q_over_c.minCoeff();
  const double limit = q_min + tol * std::abs(q_min);
  ties->clear();
  for (int i = 0; i < static_cast<int>(q_over_c.size()); ++i) {
    if (q_over_c(i) <= limit) ties->push_back(i);
  }
  return ties->back();
}

bool min_ratio_rows(const VecX& x, const VecX& d, const VecX& row_scale, double column_scale,
                    double rhs_scale, double tol, std::vector<int>* ties, double* theta) {
  ties->clear();
  const int n = static_cast<int>(d.size());
  const double d_max = n > 0 ? d.cwiseAbs().maxCoeff() : 0.0;
  if (!(d_max > 0.0)) return false;
  const double x_max = x.cwiseAbs().maxCoeff();
  const auto blocks = [&](int i) {
    return d(i) > tol * std::max(d_max, row_scale(i) * column_scale);
  };
  const auto x_floor = [&](int i) { return degenerate_floor(x_max, row_scale(i), rhs_scale, tol); };
  const auto value = [&](int i) { return x(i) <= x_floor(i) ? 0.0 : x(i); };
  double theta_min = std::numeric_limits<double>::infinity();
  for (int i = 0; i < n; ++i) {
    if (blocks(i)) theta_min = std::min(theta_min, value(i) / d(i));
  }
  if (theta_min == std::numeric_limits<double>::infinity()) return false;
  // The round-off of d_i: tol * |row i of B^-1| |a|_inf.
  const auto d_floor = [&](int i) { return tol * row_scale(i) * column_scale; };
  // The step is uncertain by the round-off of the rows that set it: in exact arithmetic it
  // is at most min_i (x_i + round-off) / d_i over all blocking rows. Taking the round-off of
  // the row that attains theta_min instead divides by a pivot element that may be barely
  // above the blocking threshold: on Lloyd's peg (n = 28, seed 8) 228 rows then tied at a
  // step of zero, and the solve failed.
  double theta_max = std::numeric_limits<double>::infinity();
  for (int i = 0; i < n; ++i) {
    if (blocks(i)) {
      theta_max = std::min(theta_max, (value(i) + x_floor(i) + theta_min * d_floor(i)) / d(i));
    }
  }
  const double theta_error = theta_max - theta_min;
  // Row i ties when the step theta_min leaves it at zero within its round-off. A test
  // relative to the ratio alone misses exact ties at small ratios: two rows with equal
  // ratios of 7e-8 differ by rounding of 1e-8 relative, and z0 then fails to leave
  // (Siconos FrictionContactProblem00071 ray-terminates one pivot later). The round-off
  // of x_i - theta d_i is that of x_i plus that of theta d_i (first-order propagation:
  // theta_error d_i + theta d_floor(i)); bounding it by x_i's alone made the tie set
  // asymmetric. On a block sliding over the rim of a hole (8 contacts in pairs with equal
  // normals) 30 rows tied within 1e-10 relative; a row at 1.5e-13 past the step was taken
  // as a tie, z0 at 6.7e-13 was not, and the path ended on a ray with z0 = 6.7e-13
  // (regression test SolvesBlockSlidingOverTheRimOfAHole, step 456).
  for (int i = 0; i < n; ++i) {
    if (blocks(i) &&
        value(i) - theta_min * d(i) <= x_floor(i) + theta_min * d_floor(i) + theta_error * d(i)) {
      ties->push_back(i);
    }
  }
  *theta = theta_min;
  return true;
}

namespace {

using Clock = std::chrono::steady_clock;

// Refactorise B^-1 from the basis after this many rank-one updates, or max(this, n): the
// refactorisation costs O(n k^2) (k basic z variables, see refactor()), so a period of at
// least n keeps the amortised cost per pivot at O(n^2), the standard method's complexity
// (Lloyd Sec. 4), while bounding the error the updates accumulate.
constexpr int kRefactorPeriod = 50;
// An update with pivot element |d_r| below this times |d|_inf can amplify the error of
// B^-1 by more than 1e8 (the eta matrix has entries d_i / d_r); refactorise right after it.
constexpr double kSmallPivot = 1e-8;
// Refactorise when |B^-1|_inf has fallen below this times its largest value since the last
// refactorisation. The basic values are updated (x -= theta d), so they keep the absolute
// error eps |B^-1| |q| they took in the worst-conditioned basis on the way, while the
// ratio test judges them by the current, smaller row scales. Block over the rim of a hole
// (step 30): a pivot element of 7e-9 gave |B^-1| = 1e8 for two pivots, x kept an error of
// 1e-7 after |B^-1| fell back to 1, and z0 missed an exact tie (its value off by 9e-8
// against a degenerate floor of 3e-12) and the path ran into a secondary ray. A fresh
// B^-1 q restores the accuracy that the ratio test assumes (round-off accumulating in
// updates is what Lloyd Sec. 5.5 avoids by solving afresh).
constexpr double kConditionRecovered = 1e-4;

// Lemke's method on w = M z + e z0 + q in tableau form A x = q with A = [I, -M, -e] and
// x = (w, z, z0) >= 0. Variable numbering: w_i is i, z_j is n + j, z0 is 2n.
class StandardLemke {
 public:
  StandardLemke(const MatX& M, const VecX& q, const LemkeOptions& options)
      : M_(M),
        q_(q),
        n_(static_cast<int>(q.size())),
        z0_(2 * n_),
        tol_(options.relative_tolerance),
        max_pivots_(options.max_pivots > 0 ? options.max_pivots : default_max_pivots(n_)),
        period_(std::max(kRefactorPeriod, n_)),
        q_scale_(q.lpNorm<Eigen::Infinity>()),
        M_col_scale_(M.cwiseAbs().colwise().maxCoeff().transpose()),
        Binv_(MatX::Identity(n_, n_)),
        row_scale_(VecX::Ones(n_)),
        x_(q),
        x_fresh_(n_),
        d_(n_),
        row_(n_),
        basic_(n_),
        row_of_(2 * n_ + 1, -1) {
    for (int i = 0; i < n_; ++i) {
      basic_[i] = i;
      row_of_[i] = i;
    }
    ties_.reserve(n_);
    keep_.reserve(n_);
    z_rows_.reserve(n_);
    free_rows_.reserve(n_);
    w_rows_.reserve(n_);
  }

  // Pivots until z0 leaves (Solved), a ray, the pivot limit or a singular basis.
  LcpStatus run() {
    // Step 0: z0 enters and the most negative w leaves; after it x >= 0.
    const int r0 = initial_leaving_row(q_, tol_, &ties_);
    entering_column(z0_);
    pivot(r0, z0_, -q_(r0));
    int entering = n_ + r0;  // the complement of w_r0
    int since_refactor = 1;
    double worst_row_scale = row_scale_.maxCoeff();  // since the last refactorisation
    double theta = 0.0;
    while (true) {
      if (z0_vanished()) return LcpStatus::Solved;
      if (pivots_ >= max_pivots_) return LcpStatus::PivotLimit;
      entering_column(entering);
      if (!d_.allFinite()) return LcpStatus::NumericalFailure;
      if (!min_ratio_rows(x_, d_, row_scale_, column_scale(entering), q_scale_, tol_, &ties_,
                          &theta)) {
        return LcpStatus::SecondaryRay;
      }
      const int r = blocking_row();
      const int leaving = basic_[r];
      const bool small = std::abs(d_(r)) < kSmallPivot * d_.cwiseAbs().maxCoeff();
      // A small pivot element may be the update error of an exact zero (Lloyd's peg,
      // n = 28: 5e-12 against 3.2, then a singular basis): trust it only from a fresh
      // inverse, and choose again.
      if (small && since_refactor > 0) {
        if (!refactor()) return LcpStatus::NumericalFailure;
        since_refactor = 0;
        worst_row_scale = row_scale_.maxCoeff();
        continue;
      }
      pivot(r, entering, theta);
      if (leaving == z0_) return LcpStatus::Solved;
      entering = leaving < n_ ? leaving + n_ : leaving - n_;
      const double scale = row_scale_.maxCoeff();
      worst_row_scale = std::max(worst_row_scale, scale);
      if (++since_refactor >= period_ || small || scale < kConditionRecovered * worst_row_scale) {
        if (!refactor()) return LcpStatus::NumericalFailure;
        since_refactor = 0;
        worst_row_scale = row_scale_.maxCoeff();
      }
    }
  }

  int pivots() const { return pivots_; }

  // z0 basic at zero within its round-off. The basis is then a solution: every pair but
  // that of the entering variable, whose members are both nonbasic at zero, is
  // complementary. This is z0 leaving when it ties (Lloyd Step 2): at zero it ties with
  // any step, and if its row does not block it has reached zero between pivots through a
  // non-blocking residue. Waiting for it to block instead turns the path off into a false
  // ray on the degenerate peg-in-hole problems (Lloyd's peg, n = 12 and 28).
  bool z0_vanished() const {
    const int r = row_of_[z0_];
    const double x_max = x_.cwiseAbs().maxCoeff();
    return x_(r) <= degenerate_floor(x_max, row_scale_(r), q_scale_, tol_);
  }

  // z of the current (not complementary) basis, for the statuses other than Solved.
  VecX current_z() const {
    VecX z = VecX::Zero(n_);
    for (int j = 0; j < n_; ++j) {
      if (row_of_[n_ + j] >= 0) z(j) = std::max(0.0, x_(row_of_[n_ + j]));
    }
    return z;
  }

  // z of the final basis, solved directly from M_Ra z_a = -q_R (a = basic z indices, R =
  // rows whose w is nonbasic) with one step of iterative refinement, so the answer does not
  // carry the error of the updated inverse. R = a when z0 has left; when z0 vanished basic
  // (z0_vanished) R also holds the entering variable's row and the consistent system is
  // overdetermined. Returns false when M_Ra has numerically dependent columns.
  bool complementary_z(VecX* z) const {
    std::vector<int> alpha, rows;
    alpha.reserve(n_);
    rows.reserve(n_);
    for (int j = 0; j < n_; ++j) {
      if (row_of_[n_ + j] >= 0) alpha.push_back(j);
      if (row_of_[j] < 0) rows.push_back(j);
    }
    *z = VecX::Zero(n_);
    if (alpha.empty()) return true;
    const MatX M_ra = M_(rows, alpha);
    const VecX rhs = -q_(rows);
    const Eigen::ColPivHouseholderQR<MatX> qr(M_ra);
    if (qr.rank() < static_cast<Eigen::Index>(alpha.size())) return false;
    VecX z_a = qr.solve(rhs);
    z_a += qr.solve(rhs - M_ra * z_a);
    // Degenerate basic variables, zero in exact arithmetic, come out as +-ulp; the
    // returned z is nonnegative and it is that z the acceptance check judges.
    (*z)(alpha) = z_a.cwiseMax(0.0);
    return true;
  }

 private:
  // d = B^-1 a for the column a of `variable` in A = [I, -M, -e].
  void entering_column(int variable) {
    if (variable < n_) {
      d_ = Binv_.col(variable);
    } else if (variable < z0_) {
      d_.noalias() = Binv_ * M_.col(variable - n_);
      d_ = -d_;
    } else {
      d_.noalias() = Binv_.rowwise().sum();
      d_ = -d_;
    }
  }

  // z0 leaves whenever it ties (Lloyd Step 2): the basis is then complementary. Otherwise
  // the lexicographic rule on the rows of B^-1.
  int blocking_row() {
    const int z0_row = row_of_[z0_];
    if (std::find(ties_.begin(), ties_.end(), z0_row) != ties_.end()) return z0_row;
    if (ties_.size() == 1) return ties_.front();
    return break_tie_lexicographically(
        ties_, d_, n_, tol_, [this](int k) { return Binv_.col(k); }, row_scale_, &keep_);
  }

  // |a|_inf for the column a of `variable` in A = [I, -M, -e].
  double column_scale(int variable) const {
    return variable >= n_ && variable < z0_ ? M_col_scale_(variable - n_) : 1.0;
  }

  // Exchanges the variable basic in row r for `variable`, whose column is d_, with step
  // theta: the product-form update B^-1 <- E B^-1 with E the identity but for column r,
  // which is (-d_1, ..., 1, ..., -d_n) / d_r. O(n^2), one pass over B^-1 column by column
  // that also refreshes the row scales the ratio test needs. The rows tied with r are
  // degenerate after the step and are set to exactly zero; x >= 0 holds in exact
  // arithmetic, so negative residues are cut off.
  void pivot(int r, int variable, double theta) {
    row_ = Binv_.row(r) / d_(r);
    x_ -= theta * d_;
    for (const int i : ties_) x_(i) = 0.0;
    x_(r) = theta;
    x_ = x_.cwiseMax(0.0);
    row_scale_.setZero();
    for (int j = 0; j < n_; ++j) {
      auto column = Binv_.col(j);
      column -= row_(j) * d_;
      column(r) = row_(j);
      row_scale_ = row_scale_.cwiseMax(column.cwiseAbs());
    }
    row_of_[basic_[r]] = -1;
    basic_[r] = variable;
    row_of_[variable] = r;
    ++pivots_;
  }

  // Column of A for a z variable or z0, entry i.
  double a(int i, int variable) const { return variable < z0_ ? -M_(i, variable - n_) : -1.0; }

  // B^-1 from scratch, using its structure (Lloyd (14)): the rows R whose w is not basic
  // and the k basic z columns form a k x k block Y, and with X the remaining rows of those
  // columns, B^-1 is Y^-1 in the z rows and [e_j', -X Y^-1] in the row of each basic w_j.
  // O(k^3 + n k^2) instead of O(n^3).
  bool refactor() {
    z_rows_.clear();
    free_rows_.clear();
    for (int r = 0; r < n_; ++r) {
      if (basic_[r] >= n_) z_rows_.push_back(r);
      if (row_of_[r] < 0) free_rows_.push_back(r);
    }
    const int k = static_cast<int>(z_rows_.size());
    MatX Y(k, k);
    for (int b = 0; b < k; ++b) {
      for (int i = 0; i < k; ++i) Y(i, b) = a(free_rows_[i], basic_[z_rows_[b]]);
    }
    const Eigen::PartialPivLU<MatX> lu(Y);
    if (!(lu.rcond() > std::numeric_limits<double>::epsilon())) return false;
    const MatX Yinv = lu.inverse();
    Binv_.setZero();
    for (int b = 0; b < k; ++b) {
      for (int i = 0; i < k; ++i) Binv_(z_rows_[b], free_rows_[i]) = Yinv(b, i);
    }
    w_rows_.clear();
    for (int r = 0; r < n_; ++r) {
      if (basic_[r] < n_) w_rows_.push_back(r);
    }
    MatX X(static_cast<Eigen::Index>(w_rows_.size()), k);
    for (int m = 0; m < X.rows(); ++m) {
      for (int b = 0; b < k; ++b) X(m, b) = a(basic_[w_rows_[m]], basic_[z_rows_[b]]);
    }
    const MatX XY = X * Yinv;
    for (int m = 0; m < X.rows(); ++m) {
      for (int i = 0; i < k; ++i) Binv_(w_rows_[m], free_rows_[i]) = -XY(m, i);
      Binv_(w_rows_[m], basic_[w_rows_[m]]) = 1.0;
    }
    // Fresh basic values from the fresh inverse, except that degenerate rows stay exactly
    // zero: refactorisation does not change them in exact arithmetic.
    row_scale_ = Binv_.cwiseAbs().rowwise().maxCoeff();
    x_fresh_.noalias() = Binv_ * q_;
    for (int i = 0; i < n_; ++i) x_(i) = x_(i) == 0.0 ? 0.0 : std::max(0.0, x_fresh_(i));
    return x_.allFinite();
  }

  const MatX& M_;
  const VecX& q_;
  const int n_;
  const int z0_;
  const double tol_;
  const int max_pivots_;
  const int period_;
  const double q_scale_;    // |q|_inf
  const VecX M_col_scale_;  // |column j of M|_inf
  MatX Binv_;
  VecX row_scale_;  // |row i of B^-1|_inf
  VecX x_;          // basic values, row r holds variable basic_[r]
  VecX x_fresh_;    // B^-1 q after a refactorisation
  VecX d_;          // entering column in the current basis
  Eigen::RowVectorXd row_;
  std::vector<int> basic_;
  std::vector<int> row_of_;  // row of each variable, -1 when nonbasic
  std::vector<int> ties_, keep_, z_rows_, free_rows_, w_rows_;
  int pivots_ = 0;
};

void check_input(const MatX& M, const VecX& q) {
  if (M.rows() != q.size() || M.cols() != q.size()) {
    throw std::invalid_argument("solve_lemke: M is " + std::to_string(M.rows()) + "x" +
                                std::to_string(M.cols()) + " but q has " +
                                std::to_string(q.size()) + " entries");
  }
  if (!M.allFinite() || !q.allFinite()) {
    throw std::invalid_argument("solve_lemke: M or q has a non-finite entry");
  }
}

}  // namespace

LcpResult solve_lemke(const MatX& M, const VecX& q, const LemkeOptions& options) {
  const Clock::time_point start = Clock::now();
  check_input(M, q);
  LcpResult result;
  const int n = static_cast<int>(q.size());
  if (n == 0 || q.minCoeff() >= 0.0) {
    result.status = LcpStatus::Solved;
    result.z = VecX::Zero(n);
    result.w = q;
  } else {
    StandardLemke lemke(M, q, options);
    result.status = lemke.run();
    result.pivots = lemke.pivots();
    if (result.status == LcpStatus::Solved) {
      if (!lemke.complementary_z(&result.z)) {
        result.status = LcpStatus::NumericalFailure;
        result.z = lemke.current_z();
      }
    } else {
      result.z = lemke.current_z();
    }
    result.w = M * result.z + q;
    // Never report Solved for an answer the acceptance rule rejects.
    if (result.status == LcpStatus::Solved &&
        !check_complementarity(result.z, result.w, q.lpNorm<Eigen::Infinity>()).accepted) {
      result.status = LcpStatus::NumericalFailure;
    }
  }
  result.solve_time_us = std::chrono::duration<double, std::micro>(Clock::now() - start).count();
  return result;
}

}  // namespace pivot
