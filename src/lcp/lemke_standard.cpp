// The standard Lemke method (Lloyd 2005 Sec. 4, after Sargent 1978): covering vector of
// ones and the lexicographic ratio test against cycling, on a factorisation of the basis
// (lemke_factored.hpp); when that run fails, runs on an explicit basis inverse updated by
// one rank-one (product-form) step per pivot, O(n^2) a pivot, read in other ways.
#include "lemke_standard.hpp"

#include <Eigen/LU>
#include <Eigen/QR>
#include <algorithm>
#include <cstdint>
#include <iterator>
#include <stdexcept>
#include <string>
#include <utility>

#include "basis_flips.hpp"
#include "lcp_check.hpp"
#include "lemke_factored.hpp"
#include "stop_request.hpp"
#include "stopwatch.hpp"

namespace pivot {

int default_max_pivots(int n) { return 50 * (n + 1); }

int pivot_limit(const LemkeOptions& options, int n) {
  return options.max_pivots > 0 ? options.max_pivots : default_max_pivots(n);
}

VecX spread_cover(int n, double spread, int seed) {
  VecX c;
  spread_cover(n, spread, seed, &c);
  return c;
}

void spread_cover(int n, double spread, int seed, VecX* c) {
  c->setOnes(n);
  for (int k = 0; k < n && spread > 0.0; ++k) {
    (*c)[k] += spread * std::fmod(0.5 + 0.6180339887498949 * (k + seed), 1.0);
  }
}

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
  int i_min = -1;
  for (int i = 0; i < n; ++i) {
    if (blocks(i) && value(i) / d(i) < theta_min) {
      theta_min = value(i) / d(i);
      i_min = i;
    }
  }
  if (i_min < 0) return false;
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
  // The row that sets the step ties by definition, whatever its rounding: with subnormal
  // values (a fuzzed q of -1e-321) x_i - (x_i / d_i) d_i came out above every floor, the
  // tie set was empty and the pivot read row -1 (lcp_solve fuzz, 974,730 runs).
  for (int i = 0; i < n; ++i) {
    if (blocks(i) && (i == i_min || value(i) - theta_min * d(i) <=
                                        x_floor(i) + theta_min * d_floor(i) + theta_error * d(i))) {
      ties->push_back(i);
    }
  }
  *theta = theta_min;
  return true;
}

namespace {

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

// How the ratio test decides ties among the rows its first stage finds within the window
// (min_ratio_rows). Window: every such row ties, and is zeroed after the pivot; near-ties
// below the tolerance count as degeneracy, which is what they are when they come from
// noise in the data (a block pyramid resting on its contacts: gaps of 1.6e-12 from the
// collision geometry, where treating them as exact leads through ill-conditioned bases
// that amplify the residues of zeroed rows past them). Confirmed: a tie is confirmed on
// refined values against each row's own round-off (confirm_ties), which keeps physical gaps
// as small as the window (a block tipping into a hole, gap/h ~ 1e-11). Neither reading of
// the data is right on every problem, so solve_lemke tries the second when the first fails.
enum class TieRule { Window, Confirmed };

// The rounding scale by which the ratio test judges row i of B^-1 (the row_scale of
// lemke_standard.hpp). Own: the row's own largest entry. Whole: the largest entry of B^-1,
// for every row. Own is the sharper reading, and the one that keeps genuine small pivot
// elements: on a slider-crank (Siconos FC2D_SliderCrankLagrangian00001) a pivot element of
// 3.2e-9 gives |B^-1|_max = 2e11, and judged against that every entry of the next column
// (|a|_inf = 465) is noise and the path ends on a ray. But the error of an entry of B^-1 is
// relative to the whole matrix, not to its row (the update adds d_i / d_r times the pivot
// row to row i; the inverse of refactor() is accurate normwise), and in the ill-conditioned
// bases of redundant contacts the rows' own scales understate it: stacked blocks, four
// coplanar contacts a face with gaps of 1e-12 from the collision geometry, take exact pivot
// elements of 4e-12 to |B^-1|_max = 2e11, where a row whose own scale was 1.2 had d_i off by
// 2e-4 (eps |B^-1|_max |a|_inf). That noise was taken for ties and degenerate values and the
// path ended at a false solution or a ray (tests/lcp/standard/block_stack_5_step114.contact,
// block_stack_5_step138.contact). On a tower of ten blocks (block_tower_10_step42.contact,
// |B^-1|_max ~ 1e2) a step that tied 24 rows left z0 at 3.6e-12, above its row's own
// degenerate floor but within the whole basis's, and the path went on to a ray.
// solve_lemke tries Whole when Own has failed with both tie rules.
enum class RowScale { Own, Whole };

// How the basis is followed. Updated: B^-1 kept explicitly, one rank-one (product-form)
// step per pivot, refactorised every max(kRefactorPeriod, n) pivots and after small pivot
// elements, O(n^2) a pivot. Factored: no inverse; each pivot solves the basis afresh from
// an LU of its basis block and judges every row by its own round-off bound (FactoredLemke,
// lemke_factored.hpp). The updates' error grows with |B^-1|, and in the near-singular bases
// of stacked blocks (four coplanar contacts a face, |B^-1| up to 1e11 after exact pivot
// elements of 1e-12) it is what the updated run's ratio test judges; zeroing tied rows
// (pivot()) then keeps values that are not zero at zero with no bound on the error (on an
// island of the bin pile a row at 1e-3, zeroed as a tie, took the path to a refused end).
// tests/lcp/soak/block_tower_10_step12941.contact ends every Updated run at an answer the
// acceptance check refuses; the first Factored run solves it.
enum class Inverse { Updated, Factored };
// One way of reading the data, a run of the method.
struct Reading {
  TieRule ties;
  RowScale scale;
  Inverse inverse;
};
// The factorised runs' reading: FactoredLemke takes its decisions on its own bounds, so the
// tie rule and row scale are the first run's, unread.
constexpr Reading kFactored{TieRule::Window, RowScale::Own, Inverse::Factored};
// The updated inverse's first reading.
constexpr Reading kUpdated{TieRule::Window, RowScale::Own, Inverse::Updated};

// Steps of iterative refinement in solve_refined, each with its residual in long double.
// With the residual in double, one step leaves z_a off by about eps cond(M_ra) |z_a|: on
// the ten-block tower at rest (four coplanar contacts a face) the answer of the previous
// step's basis came out with normal impulses 1e-10 to 4e-10 below zero, past the warm
// start's slack of 1e-10, and in 10 s 341 of 1,000 steps' warm starts flipped rows on that
// noise until they gave up (3 steps then fell back). Refinement with a residual computed in
// higher precision converges to z_a accurate to working precision while eps cond < 1
// (Higham, Accuracy and Stability, Sec. 12.1); measured on the tower's 60 s with the
// standard method, one step left 608 cold solves and 2 fallbacks, two steps 13 and none.
constexpr int kRefinements = 2;

// x of A x = rhs, refined kRefinements times from a first solve by `factors`.
template <class Factors>
bool refine(const Factors& factors, const MatX& A, const VecX& rhs, VecX* x) {
  using MatL = Eigen::Matrix<long double, Eigen::Dynamic, Eigen::Dynamic>;
  using VecL = Eigen::Matrix<long double, Eigen::Dynamic, 1>;
  *x = factors.solve(rhs);
  const MatL A_long = A.cast<long double>();
  const VecL rhs_long = rhs.cast<long double>();
  for (int step = 0; step < kRefinements; ++step) {
    const VecL residual = rhs_long - A_long * x->cast<long double>();
    *x += factors.solve(VecX(residual.cast<double>()));
  }
  return x->allFinite();
}

// Below this reciprocal condition estimate a square system counts as numerically singular:
// the refinement no longer converges once eps cond(A) reaches one (Higham, Sec. 12.1), and
// the floor keeps a hundredfold margin from there.
constexpr double kMinSquareRcond = 100.0 * std::numeric_limits<double>::epsilon();

// From this size on a square system is factorised by LU (solve_refined). Below it the QR
// costs at most a few milliseconds, and the stacks' and pegs' systems (k up to 131 in
// LongRunStack) keep the answers their measured runs had: with LU at every size the rotated
// five-block stack under the standard method turned 2.4e-9 rad in 60 s instead of under
// 1e-9, its warm starts following other round-off of the same degenerate LCP.
constexpr int kMinLuSize = 256;

// x of A x = rhs (A with at least as many rows as columns, consistent), solved directly
// with kRefinements steps of iterative refinement. False when A has numerically dependent
// columns.
//
// A large square A (every complementary basis: the warm start's flips, a path's end) is
// factorised by LU with partial pivoting, blocked into matrix products, and judged by its
// condition estimate; the column-pivoted QR is not blocked, and on the 40-body bin pile
// under the standard method (the saved islands of tests/lcp/soak reach 452 basic z) it was
// 55 % of the first 110 steps (perf over a driver stepping the library, 235 s), with up to
// 17 factorisations a step in the warm start's flips.
bool solve_refined(const MatX& A, const VecX& rhs, VecX* x) {
  if (A.rows() == A.cols() && A.rows() >= kMinLuSize) {
    const Eigen::PartialPivLU<MatX> lu(A);
    if (!(lu.rcond() > kMinSquareRcond)) return false;
    return refine(lu, A, rhs, x);
  }
  const Eigen::ColPivHouseholderQR<MatX> qr(A);
  if (qr.rank() < A.cols()) return false;
  return refine(qr, A, rhs, x);
}

// z_a of M_ra z_a = -q_r (r = rows, a = alpha), solve_refined.
bool solve_refined(const MatX& M, const VecX& q, const std::vector<int>& rows,
                   const std::vector<int>& alpha, VecX* z_a) {
  return solve_refined(MatX(M(rows, alpha)), VecX(-q(rows)), z_a);
}

// z of the basis a ray ended on (basic z alpha, rows R whose w is nonbasic), solved afresh
// with z0 among the unknowns and its value then dropped: M_Ra z_a + c_R z0 = -q_R, square at
// a ray (both members of the entering pair are nonbasic), solve_refined. The path may have
// kept z0 above zero by round-off alone; the acceptance rule decides whether this z is an
// answer (the fast methods' ray answer, lemke_fast.cpp). False when the system is
// numerically singular.
bool ray_z(const MatX& M, const VecX& q, const VecX& c, const std::vector<int>& alpha,
           const std::vector<int>& rows, VecX* z) {
  const int k = static_cast<int>(alpha.size());
  if (static_cast<int>(rows.size()) != k + 1) return false;
  MatX A(k + 1, k + 1);
  A.leftCols(k) = M(rows, alpha);
  A.col(k) = c(rows);
  VecX v;
  if (!solve_refined(A, VecX(-q(rows)), &v)) return false;
  *z = VecX::Zero(q.size());
  (*z)(alpha) = v.head(k);
  return true;
}

// Lemke's method on w = M z + c z0 + q in tableau form A x = q with A = [I, -M, -c] and
// x = (w, z, z0) >= 0. Variable numbering: w_i is i, z_j is n + j, z0 is 2n.
class StandardLemke {
 public:
  StandardLemke(const MatX& M, const VecX& q, const VecX& cover, const LemkeOptions& options,
                Reading reading)
      : M_(M),
        q_(q),
        c_(cover),
        n_(static_cast<int>(q.size())),
        z0_(2 * n_),
        tol_(options.relative_tolerance),
        rule_(reading.ties),
        scale_rule_(reading.scale),
        max_pivots_(pivot_limit(options, n_)),
        stop_(options),
        period_(std::max(kRefactorPeriod, n_)),
        q_scale_(q.lpNorm<Eigen::Infinity>()),
        M_col_scale_(M.cwiseAbs().colwise().maxCoeff().transpose()),
        Binv_(MatX::Identity(n_, n_)),
        round_off_scale_(VecX::Ones(n_)),
        x_(q),
        x_fresh_(n_),
        d_(n_),
        row_(n_),
        basic_(n_),
        row_of_(2 * n_ + 1, -1) {
    for (int i = 0; i < n_; ++i) {
      basic_[i] = i;
      row_of_[i] = i;
      basis_keys_ ^= signature_key(i);
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
    const int r0 = initial_leaving_row(q_.cwiseQuotient(c_), tol_, &ties_);
    entering_column(z0_);
    pivot(r0, z0_, -q_(r0) / c_(r0));
    return follow(n_ + r0);  // the complement of w_r0 enters
  }

  // Lemke's path from the complementary basis whose basic z are z_basic, with the covering
  // vector c = B e of that basis (formed by warm_path below): the basic values B^-1 (q + c z0) =
  // B^-1 q + z0 e all rise with z0 at unit rate, so z0 enters at the most negative one, which
  // leaves, and its complement drives (the fast methods' warm path, lemke_fast.cpp;
  // Fackler and Miranda's ray B e). Solved at once when the basis is feasible.
  LcpStatus run_from(const std::vector<char>& z_basic) {
    bool any_z = false;
    for (int j = 0; j < n_; ++j) {
      if (!z_basic[j]) continue;
      // z_j takes w_j's row.
      basis_keys_ ^= signature_key(j) ^ signature_key(n_ + j);
      basic_[j] = n_ + j;
      row_of_[j] = -1;
      row_of_[n_ + j] = j;
      any_z = true;
    }
    // The all-w basis is where the constructor left B^-1 = I and x = q (Step 0's, with c = e).
    if (any_z) {
      if (!refactor()) return LcpStatus::NumericalFailure;
      x_ = x_fresh_;  // B^-1 q with its negative entries: refactor() clamps them, as on a path
    }
    const int r0 = initial_leaving_row(x_, tol_, &ties_);
    if (x_(r0) >= 0.0) return LcpStatus::Solved;
    entering_column(z0_);  // -B^-1 c = -e, up to round-off
    if (!(d_(r0) < 0.0)) return LcpStatus::NumericalFailure;
    const int leaving = basic_[r0];
    pivot(r0, z0_, x_(r0) / d_(r0));
    return follow(leaving < n_ ? leaving + n_ : leaving - n_);
  }

  // The path from the first pivot on, `entering` the variable that drives.
  LcpStatus follow(int entering) {
    int since_refactor = 1;
    double worst_scale = round_off_scale_.maxCoeff();  // since the last refactorisation
    double theta = 0.0;
    CycleWatch cycle;
    while (true) {
      if (z0_vanished()) return LcpStatus::Solved;
      if (pivots_ >= max_pivots_) return LcpStatus::PivotLimit;
      if (stop_()) return LcpStatus::Cancelled;
      entering_column(entering);
      if (!d_.allFinite()) return LcpStatus::NumericalFailure;
      if (!min_ratio_rows(x_, d_, round_off_scale_, column_scale(entering), q_scale_, tol_, &ties_,
                          &theta)) {
        return LcpStatus::SecondaryRay;
      }
      if (rule_ == TieRule::Confirmed && ties_are_uncertain(theta) &&
          !confirm_ties(entering, &theta)) {
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
        worst_scale = round_off_scale_.maxCoeff();
        continue;
      }
      pivot(r, entering, theta);
      if (leaving == z0_) return LcpStatus::Solved;
      entering = leaving < n_ ? leaving + n_ : leaving - n_;
      // The basis and the entering variable decide the next pivot (CycleWatch).
      if (cycle.repeats(basis_keys_ ^ signature_key(2 * n_ + 1 + entering)))
        return LcpStatus::NumericalFailure;
      const double scale = round_off_scale_.maxCoeff();
      worst_scale = std::max(worst_scale, scale);
      if (++since_refactor >= period_ || small || scale < kConditionRecovered * worst_scale) {
        if (!refactor()) return LcpStatus::NumericalFailure;
        since_refactor = 0;
        worst_scale = round_off_scale_.maxCoeff();
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
    return x_(r) <= degenerate_floor(x_max, round_off_scale_(r), q_scale_, tol_);
  }

  // Which z are basic: the complementary basis a Solved run ended on.
  std::vector<char> basic_z() const {
    std::vector<char> basic(n_);
    for (int j = 0; j < n_; ++j) basic[j] = row_of_[n_ + j] >= 0;
    return basic;
  }

  // The end's answer when the run solved it already (FactoredLemke::solved_z): never here.
  const VecX* solved_z() const { return nullptr; }

  // z of the current (not complementary) basis, for the statuses other than Solved.
  VecX current_z() const {
    VecX z = VecX::Zero(n_);
    for (int j = 0; j < n_; ++j) {
      if (row_of_[n_ + j] >= 0) z(j) = std::max(0.0, x_(row_of_[n_ + j]));
    }
    return z;
  }

  // The basis's index sets: *alpha the basic z, *rows the rows whose w is nonbasic.
  void basis_sets(std::vector<int>* alpha, std::vector<int>* rows) const {
    alpha->clear();
    rows->clear();
    for (int j = 0; j < n_; ++j) {
      if (row_of_[n_ + j] >= 0) alpha->push_back(j);
      if (row_of_[j] < 0) rows->push_back(j);
    }
  }

 private:
  // d = B^-1 a for the column a of `variable` in A = [I, -M, -c].
  void entering_column(int variable) {
    if (variable < n_) {
      d_ = Binv_.col(variable);
    } else if (variable < z0_) {
      d_.noalias() = Binv_ * M_.col(variable - n_);
      d_ = -d_;
    } else {
      d_.noalias() = Binv_ * c_;
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
        ties_, d_, n_, tol_, [this](int k) { return Binv_.col(k); }, round_off_scale_, &keep_);
  }

  // Whether the first stage's step could rest on a value its window took for zero (a basic
  // value at most degenerate_floor counts as zero there) or its tie set hold a row that is
  // not degenerate: some tied row is not left exactly at zero by the step. Rows tied at a
  // step of zero whose values are exactly zero, the usual degenerate case, are ties by
  // construction (see pivot()) and need no confirmation. When z0 ties and its leaving is feasible
  // (z0_step_feasible) it leaves (Lloyd Step 2) without confirmation: confirming would go
  // on from a solution the acceptance rule takes; on a ball resting in a rim (16 contacts)
  // z0 lay 5e-12 past the step, beyond round-off, and the path went on into an
  // ill-conditioned basis and a ray.
  bool ties_are_uncertain(double theta) const {
    if (std::find(ties_.begin(), ties_.end(), row_of_[z0_]) != ties_.end() && z0_step_feasible()) {
      return false;
    }
    for (const int i : ties_) {
      if (x_(i) - theta * d_(i) != 0.0) return true;
    }
    return false;
  }

  // Whether the step that takes z0 to zero leaves every blocking row at or above
  // -kLeavingSlack max(1, |q|_inf): the complementary basis z0's leaving gives is then an
  // answer the acceptance rule takes (the same test as Lloyd's fast methods,
  // lemke_fast.cpp). A window tie of z0 that fails it (a block tipping into a hole, gaps of
  // 1e-11 taken 1e-9 below zero) must be confirmed instead.
  bool z0_step_feasible() const {
    const int r = row_of_[z0_];
    const double step = std::max(x_(r), 0.0) / d_(r);
    const double slack = kLeavingSlack * std::max(1.0, q_scale_);
    for (int i = 0; i < n_; ++i) {
      if (d_(i) > 0.0 && x_(i) - step * d_(i) < -slack) return false;
    }
    return true;
  }

  // The first-stage window is tol (1e-12) times the problem's scale, thousands of times the
  // round-off of x and d. On contact problems with physical gaps near that window (a block
  // tipping into a hole: gap/h ~ 1e-11 against |q| ~ 0.5, tests/lcp/soak/
  // block_into_hole_step41.contact) it ties rows that are not degenerate; zeroing them
  // (pivot()) then throws their gaps away and the path ends on a secondary ray. So a tie
  // found in that window is only a candidate, confirmed on refined values: one step of
  // iterative refinement, v + B^-1 (rhs - B v), leaves each entry of x and d an error
  // bounded by the rounding of its residual, gamma (|B^-1| (|B| |v| + |rhs|))_i (Higham,
  // Accuracy and Stability, Sec. 12.1). The ratio test is rerun on the refined values, and
  // a row stays tied only when its ratio and the smallest differ by at most the sum of their
  // error bounds: the tie exact arithmetic would see, decided on each row's own round-off
  // rather than a global window. Returns false when no refined row blocks (a ray).
  // In an ill-conditioned basis a row's bound can exceed the round-off the first stage
  // assumes for it (|B^-1| ~ 1e8 after a pivot element of 7e-9, tests/lcp/standard/
  // block_over_rim_step30.contact: refinement with the updated inverse moved an exact zero
  // of d to O(1)); the refined value is then no better, and the row keeps its value and the
  // first stage's round-off (degenerate_floor, tol row_scale |a|_inf) as its bound.
  bool confirm_ties(int entering, double* theta) {
    entering_rhs(entering, &rhs_);
    refine(rhs_, d_, &d_refined_, &d_error_);
    refine(q_, x_, &x_refined_, &x_error_);
    const double x_max = x_.cwiseAbs().maxCoeff();
    const double column = column_scale(entering);
    for (int i = 0; i < n_; ++i) {
      const double d_floor = tol_ * round_off_scale_(i) * column;
      if (d_error_(i) <= d_floor) {
        d_(i) = d_refined_(i);
      } else {
        d_error_(i) = d_floor;
      }
      const double x_floor = degenerate_floor(x_max, round_off_scale_(i), q_scale_, tol_);
      if (x_error_(i) <= x_floor) {
        x_(i) = x_refined_(i);
      } else {
        x_error_(i) = x_floor;
      }
    }
    if (!min_ratio_rows(x_, d_, round_off_scale_, column, q_scale_, tol_, &ties_, theta))
      return false;
    const auto ratio = [&](int i) { return std::max(x_(i), 0.0) / d_(i); };
    const auto error = [&](int i) { return (x_error_(i) + ratio(i) * d_error_(i)) / d_(i); };
    int m = ties_.front();
    for (const int i : ties_) {
      if (ratio(i) < ratio(m)) m = i;
    }
    const double ratio_m = ratio(m);
    const double error_m = error(m);
    ties_.erase(std::remove_if(ties_.begin(), ties_.end(),
                               [&](int i) { return ratio(i) - ratio_m > error(i) + error_m; }),
                ties_.end());
    *theta = ratio_m;
    return true;
  }

  // *refined = v + B^-1 (rhs - B v), one step of iterative refinement of v ~ B^-1 rhs, and
  // *error the bound on its entries. Degenerate basic values, exactly zero, stay so with no
  // error: refinement does not change them in exact arithmetic (as in refactor()).
  void refine(const VecX& rhs, const VecX& v, VecX* refined, VecX* error) {
    basis_product(v, &residual_, &magnitude_);
    residual_ = rhs - residual_;
    magnitude_ += rhs.cwiseAbs();
    refined->noalias() = Binv_ * residual_;
    *refined += v;
    error->noalias() = Binv_.cwiseAbs() * magnitude_;
    *error *= (n_ + 1) * std::numeric_limits<double>::epsilon();
    if (&v == &x_) {
      for (int i = 0; i < n_; ++i) {
        if (v(i) == 0.0) (*refined)(i) = (*error)(i) = 0.0;
      }
    }
  }

  // *product = B v and *magnitude = |B| |v| for the basis B, whose column r is the column
  // of basic_[r] in A = [I, -M, -c].
  void basis_product(const VecX& v, VecX* product, VecX* magnitude) const {
    product->setZero(n_);
    magnitude->setZero(n_);
    for (int r = 0; r < n_; ++r) {
      const int variable = basic_[r];
      if (variable < n_) {
        (*product)(variable) += v(r);
        (*magnitude)(variable) += std::abs(v(r));
      } else if (variable < z0_) {
        *product -= v(r) * M_.col(variable - n_);
        *magnitude += std::abs(v(r)) * M_.col(variable - n_).cwiseAbs();
      } else {
        *product -= v(r) * c_;
        *magnitude += std::abs(v(r)) * c_.cwiseAbs();
      }
    }
  }

  // *rhs = the column a of `variable` in A = [I, -M, -c].
  void entering_rhs(int variable, VecX* rhs) const {
    if (variable < n_) {
      *rhs = VecX::Unit(n_, variable);
    } else if (variable < z0_) {
      *rhs = -M_.col(variable - n_);
    } else {
      *rhs = -c_;
    }
  }

  // |a|_inf for the column a of `variable` in A = [I, -M, -c].
  double column_scale(int variable) const {
    return variable >= n_ && variable < z0_ ? M_col_scale_(variable - n_)
           : variable == z0_                ? c_.lpNorm<Eigen::Infinity>()
                                            : 1.0;
  }

  // Exchanges the variable basic in row r for `variable`, whose column is d_, with step
  // theta: the product-form update B^-1 <- E B^-1 with E the identity but for column r,
  // which is (-d_1, ..., 1, ..., -d_n) / d_r. O(n^2), one pass over B^-1 column by column
  // that also refreshes the rounding scale the ratio test needs. The rows tied with r are
  // degenerate after the step and are set to exactly zero; x >= 0 holds in exact
  // arithmetic, so negative residues are cut off.
  void pivot(int r, int variable, double theta) {
    row_ = Binv_.row(r) / d_(r);
    x_ -= theta * d_;
    for (const int i : ties_) x_(i) = 0.0;
    x_(r) = theta;
    x_ = x_.cwiseMax(0.0);
    round_off_scale_.setZero();
    for (int j = 0; j < n_; ++j) {
      auto column = Binv_.col(j);
      column -= row_(j) * d_;
      column(r) = row_(j);
      round_off_scale_ = round_off_scale_.cwiseMax(column.cwiseAbs());
    }
    if (scale_rule_ == RowScale::Whole) round_off_scale_.setConstant(round_off_scale_.maxCoeff());
    row_of_[basic_[r]] = -1;
    basis_keys_ ^= signature_key(basic_[r]) ^ signature_key(variable);
    basic_[r] = variable;
    row_of_[variable] = r;
    ++pivots_;
  }

  // Column of A for a z variable or z0, entry i.
  double a(int i, int variable) const { return variable < z0_ ? -M_(i, variable - n_) : -c_(i); }

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
    round_off_scale_ = Binv_.cwiseAbs().rowwise().maxCoeff();
    if (scale_rule_ == RowScale::Whole) round_off_scale_.setConstant(round_off_scale_.maxCoeff());
    x_fresh_.noalias() = Binv_ * q_;
    for (int i = 0; i < n_; ++i) x_(i) = x_(i) == 0.0 ? 0.0 : std::max(0.0, x_fresh_(i));
    return x_.allFinite();
  }

  const MatX& M_;
  const VecX& q_;
  const VecX& c_;  // covering vector: the column of z0 in A is -c
  const int n_;
  const int z0_;
  const double tol_;
  const TieRule rule_;
  const RowScale scale_rule_;
  const int max_pivots_;
  StopRequest stop_;
  const int period_;
  const double q_scale_;    // |q|_inf
  const VecX M_col_scale_;  // |column j of M|_inf
  MatX Binv_;
  VecX round_off_scale_;  // row_scale of the ratio tests, per scale_rule_ (RowScale)
  VecX x_;                // basic values, row r holds variable basic_[r]
  VecX x_fresh_;          // B^-1 q after a refactorisation
  VecX d_;                // entering column in the current basis
  // Scratch of confirm_ties(): refined x and d, their error bounds, and the refinement's.
  VecX x_refined_, d_refined_, x_error_, d_error_, rhs_, residual_, magnitude_;
  Eigen::RowVectorXd row_;
  std::vector<int> basic_;
  std::uint64_t basis_keys_ = 0;  // XOR of the signature keys of the basic variables
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

int flip_to_answer(const MatX& M, const VecX& q, int max_flips, double slack,
                   const LemkeOptions& options, std::vector<char>* basic, VecX* z, VecX* w) {
  const int n = static_cast<int>(q.size());
  StopRequest stop(options);
  std::vector<int> alpha;
  alpha.reserve(n);
  VecX z_flipped, w_flipped;
  // As the fast methods' flips (lemke_fast.cpp, flip_to_answer): a flip that makes M_aa
  // singular is undone, and its pair is neither flipped again nor held to the slack.
  BasisFlips flipper;
  for (int flips = 0; flips <= max_flips && !stop(); ++flips) {
    alpha.clear();
    for (int j = 0; j < n; ++j) {
      if ((*basic)[j]) alpha.push_back(j);
    }
    VecX exact = VecX::Zero(n);
    if (!alpha.empty()) {
      VecX z_a;
      if (!solve_refined(M, q, alpha, alpha, &z_a)) {
        if (!flipper.undo_singular(basic)) return -1;  // the basis as given
        continue;
      }
      exact(alpha) = z_a;
    }
    const VecX w_exact = M * exact + q;
    const auto entry = [&](int j) { return (*basic)[j] ? exact(j) : w_exact(j); };
    const int worst = flipper.most_negative(n, entry);
    const double lowest = worst < 0 ? std::numeric_limits<double>::infinity() : entry(worst);
    // The basis as given keeps its answer in *z, *w; a flipped one's goes there if taken.
    VecX& answer_z = flips == 0 ? *z : z_flipped;
    VecX& answer_w = flips == 0 ? *w : w_flipped;
    answer_z = exact;
    answer_w = w_exact;
    if (lowest >= -slack &&
        check_complementarity(answer_z, answer_w, q.lpNorm<Eigen::Infinity>()).accepted) {
      if (flips > 0) {
        *z = std::move(z_flipped);
        *w = std::move(w_flipped);
      }
      return flips;
    }
    if (worst < 0) return -1;
    flipper.flip(worst, basic);
  }
  return -1;
}

bool warm_answer(const MatX& M, const VecX& q, const LcpBasis& warm, const LemkeOptions& options,
                 LcpResult* result) {
  const int n = static_cast<int>(q.size());
  if (static_cast<int>(warm.z_basic.size()) != n) return false;
  std::vector<char> basic = warm.z_basic;
  const double slack = kLeavingSlack * std::max(1.0, q.lpNorm<Eigen::Infinity>());
  if (flip_to_answer(M, q, kFlipRepairs, slack, options, &basic, &result->z, &result->w) < 0)
    return false;
  result->status = LcpStatus::Solved;
  result->pivots = 0;
  result->warm = true;
  result->basis.z_basic = std::move(basic);
  return true;
}

namespace {

// The result of a run that ended with `status`: its answer solved afresh from the end's
// basis and checked.
template <class Path>
LcpResult path_result(const Path& lemke, LcpStatus status, const MatX& M, const VecX& q,
                      const VecX& cover, std::vector<char>* refused_end) {
  LcpResult result;
  result.status = status;
  result.pivots = lemke.pivots();
  std::vector<int> alpha, rows;
  lemke.basis_sets(&alpha, &rows);
  const bool ended = result.status == LcpStatus::Solved;  // on a complementary basis
  if (ended) {
    if (const VecX* z = lemke.solved_z()) {
      result.z = *z;
    } else if (!complementary_z(M, q, alpha, rows, &result.z)) {
      result.status = LcpStatus::NumericalFailure;
      result.z = lemke.current_z();
    }
  } else if (result.status == LcpStatus::SecondaryRay &&
             ray_z(M, q, cover, alpha, rows, &result.z) &&
             check_complementarity(result.z, M * result.z + q, q.lpNorm<Eigen::Infinity>())
                 .accepted) {
    // A ray whose basis is an answer: whatever the ray would prove, the answer is checked.
    // On the ten-block tower (`pivot run scenes/block_tower_10.json --method standard
    // --duration 60`) 39 of the 48 steps handed to the fallback chain ended the first path
    // on such a ray.
    result.status = LcpStatus::Solved;
  } else {
    result.z = lemke.current_z();
  }
  result.w = M * result.z + q;
  // An end with z0 still basic (vanished, or a cycle's basis) whose overdetermined answer
  // is refused: its square system with z0 among the unknowns, z0 then dropped, as a ray's
  // (ray_z). The factorised run's cycle on tests/lcp/soak/bin_pile_40_step130_cycle.contact
  // ends on a basis whose answer so passes at -1.6e-10 and by least squares is refused.
  VecX z_square;
  if (ended && !check_complementarity(result.z, result.w, q.lpNorm<Eigen::Infinity>()).accepted &&
      ray_z(M, q, cover, alpha, rows, &z_square)) {
    VecX w_square = M * z_square + q;
    if (check_complementarity(z_square, w_square, q.lpNorm<Eigen::Infinity>()).accepted) {
      result.z = std::move(z_square);
      result.w = std::move(w_square);
    }
  }
  // Never report Solved for an answer the acceptance rule rejects.
  if (ended && !check_complementarity(result.z, result.w, q.lpNorm<Eigen::Infinity>()).accepted) {
    result.status = LcpStatus::NumericalFailure;
    if (refused_end->empty()) *refused_end = lemke.basic_z();
  }
  if (result.status == LcpStatus::Solved) result.basis.z_basic = lemke.basic_z();
  return result;
}

// One run of the method with the given reading and covering vector, from Step 0 or, given
// `warm`, from that complementary basis (whose covering vector `cover` must then be);
// solve_time_us is left to the caller. A run that ends on a complementary basis the
// acceptance rule refuses writes its basic z to *refused_end when that is still empty.
LcpResult solve_with(const MatX& M, const VecX& q, const VecX& cover, const LemkeOptions& options,
                     Reading reading, std::vector<char>* refused_end,
                     const std::vector<char>* warm = nullptr) {
  if (reading.inverse == Inverse::Factored) {
    FactoredLemke lemke(M, q, cover, options);
    const LcpStatus status = warm ? lemke.run_from(*warm) : lemke.run();
    return path_result(lemke, status, M, q, cover, refused_end);
  }
  StandardLemke lemke(M, q, cover, options, reading);
  const LcpStatus status = warm ? lemke.run_from(*warm) : lemke.run();
  return path_result(lemke, status, M, q, cover, refused_end);
}

}  // namespace

VecX warm_cover(const MatX& M, const std::vector<char>& z_basic) {
  // B's columns are e_k for the basic w and -M_k for the basic z.
  const int n = static_cast<int>(z_basic.size());
  VecX basic_ones = VecX::Zero(n);
  for (int j = 0; j < n; ++j) basic_ones(j) = z_basic[j] ? 1.0 : 0.0;
  return VecX::Ones(n) - basic_ones - M * basic_ones;
}

bool complementary_z(const MatX& M, const VecX& q, const std::vector<int>& alpha,
                     const std::vector<int>& rows, VecX* z) {
  *z = VecX::Zero(q.size());
  if (alpha.empty()) return true;
  VecX z_a;
  if (!solve_refined(M, q, rows, alpha, &z_a)) return false;
  (*z)(alpha) = z_a;  // as solved, not clamped (lemke_standard.hpp)
  return true;
}

LcpResult warm_path(const MatX& M, const VecX& q, const LcpBasis& warm,
                    const LemkeOptions& options) {
  const Clock::time_point start = Clock::now();
  check_input(M, q);
  const int n = static_cast<int>(q.size());
  LcpResult result;
  if (static_cast<int>(warm.z_basic.size()) != n || n == 0 || q.minCoeff() >= 0.0) return result;
  const VecX cover = warm_cover(M, warm.z_basic);
  LemkeOptions limited = options;
  limited.max_pivots = std::min(pivot_limit(options, n), kWarmPathPivots * n);
  std::vector<char> refused_end;
  result = solve_with(M, q, cover, limited, kFactored, &refused_end, &warm.z_basic);
  result.warm_path = result.status == LcpStatus::Solved;
  result.solve_time_us = microseconds_since(start);
  return result;
}

LcpResult factored_run(const MatX& M, const VecX& q, const LemkeOptions& options) {
  check_input(M, q);
  const int n = static_cast<int>(q.size());
  if (n == 0 || q.minCoeff() >= 0.0) return solve_lemke(M, q, options);
  const Clock::time_point start = Clock::now();
  std::vector<char> refused_end;
  LcpResult result = solve_with(M, q, VecX::Ones(n), options, kFactored, &refused_end);
  result.solve_time_us = microseconds_since(start);
  return result;
}

LcpResult solve_lemke(const MatX& M, const VecX& q, const LemkeOptions& options) {
  return solve_lemke(M, q, options, RayMeaning::Proof);
}

LcpResult solve_lemke(const MatX& M, const VecX& q, const LemkeOptions& options, RayMeaning rays) {
  const Clock::time_point start = Clock::now();
  check_input(M, q);
  LcpResult result;
  const int n = static_cast<int>(q.size());
  if (n == 0 || q.minCoeff() >= 0.0) {
    result.status = LcpStatus::Solved;
    result.z = VecX::Zero(n);
    result.w = q;
  } else {
    // First a run on a factorisation whose every decision is taken on the round-off bound
    // of a fresh solve (Inverse::Factored): on the stacks' near-singular bases, where the
    // updated inverse misleads the ratio test, it is the sounder reading, and on a pile's
    // island (n over 1,000) the cheaper, O(k^2) plus M's nonzero entries a pivot against
    // O(n^2). Then the updated inverse: the window rule (no refinement), which solves the
    // problems whose near-ties are noise; a failure is solved again with confirmed ties, and
    // then with every row judged by the scale of the whole inverse (RowScale). Then, after a
    // numerical failure, as the fast methods do (another_cover, lemke_fast.cpp), from
    // covering vectors spread another way, which order the degenerate vertices' ties anew,
    // on the updated inverse and last on the factorisation. Of the 42 saved problems of
    // tests/lcp/soak and tests/lcp/standard, a Factored run from ones alone solved 33 and the
    // whole chain 39 (scratch driver over solve_lemke at 2026-11-29; at 2026-12-06, of the
    // 43 up to n = 1,200, the Factored run alone 39, and solve_contact, whose chain retries
    // rays too, 42). The factorised run led only from n = 1,000 until its
    // lexicographic rule was mended (lemke_factored.cpp) and its answers were returned as solved
    // (complementary_z): before, the resting stacks it answered tipped by round-off and lost
    // their warm starts (block_stack_rotated_5: 28 of 6,000 steps warm when first tried).
    // The result is that of the run that solved, with the pivots of every run so far (the
    // work done), else the first run's (status, z and pivots as without the retries, so the
    // pivot limit still bounds what a failure reports). The retries share what the first
    // run left of the pivot limit. With a limit of their own, nine runs could each go to
    // it: step 78 of the 40-body bin pile (n about 1,200) took 11 minutes at a0a16db,
    // every backtrace sampled in this method inside the fallback chain.
    // Each run: its reading and covering vector (0: ones, k > 0: the k-th spread cover).
    struct Attempt {
      Reading reading;
      int cover;
    };
    constexpr Attempt attempts[] = {{kFactored, 0},
                                    {kUpdated, 0},
                                    {{TieRule::Confirmed, RowScale::Own, Inverse::Updated}, 0},
                                    {{TieRule::Window, RowScale::Whole, Inverse::Updated}, 0},
                                    {kUpdated, 1},
                                    {kUpdated, 2},
                                    {kUpdated, 3},
                                    {kFactored, 1},
                                    {kFactored, 2},
                                    {kFactored, 3}};
    static_assert(kCoverRestarts == 3, "attempts lists the spread covers");
    const VecX ones = VecX::Ones(n);
    std::vector<char> refused_end;
    result = solve_with(M, q, ones, options, attempts[0].reading, &refused_end);
    int pivots = result.pivots;
    const int limit = pivot_limit(options, n);
    LemkeOptions left = options;
    const auto retry_wanted = [&] {
      return result.status != LcpStatus::Solved && result.status != LcpStatus::Cancelled;
    };
    for (int k = 1; k < static_cast<int>(std::size(attempts)) && retry_wanted(); ++k) {
      const Attempt& a = attempts[k];
      // Only a numerical failure is the path's, not the problem's (and a ray, where rays are
      // the round-off's): another cover is also a shorter path through Murty's 2^n problem,
      // which must still end at the pivot limit.
      const bool path_failed =
          result.status == LcpStatus::NumericalFailure ||
          (rays == RayMeaning::RoundOff && result.status == LcpStatus::SecondaryRay);
      if (a.cover > 0 && !path_failed) break;
      left.max_pivots = limit - pivots;
      if (left.max_pivots <= 0) break;
      LcpResult retry =
          a.cover > 0
              ? solve_with(M, q, spread_cover(n, kRestartCoverSpread, a.cover * kCoverSeedStep),
                           left, a.reading, &refused_end)
              : solve_with(M, q, ones, left, a.reading, &refused_end);
      pivots += retry.pivots;
      if (retry.status == LcpStatus::Solved) {
        result = std::move(retry);
        result.pivots = pivots;
      }
    }
    // Last, the first refused end made an answer by flips.
    VecX z, w;
    if (retry_wanted() && options.repair_refused_end && !refused_end.empty() &&
        n <= kDenseRepairMaxSize &&
        flip_to_answer(M, q, kEndFlips, std::numeric_limits<double>::infinity(), options,
                       &refused_end, &z, &w) >= 0) {
      result.status = LcpStatus::Solved;
      result.pivots = pivots;
      result.z = std::move(z);
      result.w = std::move(w);
      result.basis.z_basic = std::move(refused_end);
    }
  }
  result.solve_time_us = microseconds_since(start);
  return result;
}

}  // namespace pivot
