// Pieces of Lemke's method (Lloyd 2005 Sec. 4; Cottle-Pang-Stone 4.4 and 4.9; Murty 2.2.7)
// shared by the standard solver and Lloyd's fast solvers: the pivot-limit default, the
// first pivot, and the lexicographic minimum-ratio test. The ratio test is written on
// abstract columns of B^-1 so that a solver that never forms B^-1 can supply the
// columns it computes (Lloyd Sec. 4: "determining one of its columns is at worst
// equivalent to computing a column of M'").
//
// Conventions: x holds the basic values (Lloyd's q', >= 0 after the first pivot) and d the
// entering column expressed in the current basis, d = B^-1 a (Lloyd's m' with its sign
// flipped, d = -m'): a row i blocks when d_i > 0, at step x_i / d_i.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "pivot/lcp.hpp"
#include "pivot/math.hpp"

namespace pivot {

// Pivot limit used when LemkeOptions::max_pivots is 0: 50 (n + 1). Lemke typically
// needs O(n) pivots (Lloyd Sec. 4) and a pivot costs O(n^2), so the limit lets every
// ordinary problem finish while capping a stalled or cycling solve at O(n^3), a constant
// multiple of an ordinary one. Murty's exponential family needs
// 2^n pivots and exceeds it from n = 9 on (2^9 = 512 > 500): a problem that needs more
// asks for it through max_pivots.
int default_max_pivots(int n);
// The pivot limit of a solve of size n: options.max_pivots, or default_max_pivots(n) when
// that is 0.
int pivot_limit(const LemkeOptions& options, int n);

// A covering vector c_k = 1 + spread u_k, u_k = frac(0.5 + phi (k + seed)) the golden-ratio
// sequence in [0, 1): any positive c starts a valid path (Cottle-Pang-Stone 4.4.5); spread
// ones break the exact ties of coplanar contacts another way for each seed. spread 0: ones.
VecX spread_cover(int n, double spread, int seed);
// The same into *c, its storage reused.
void spread_cover(int n, double spread, int seed, VecX* c);

// After a path that failed numerically (cycled, met a singular basis, or ended on an answer
// the acceptance check refuses), both methods start again from Step 0 with
// spread_cover(n, kRestartCoverSpread, k kCoverSeedStep), k = 1 .. kCoverRestarts, before
// the solve fails. The spread is the fallback chain's PerturbedCover stage's: enough to
// order every tie of coplanar corners differently.
constexpr int kCoverRestarts = 3;
constexpr double kRestartCoverSpread = 0.1;
constexpr int kCoverSeedStep = 7919;

// What a secondary ray of the standard method means. Proof: for a general LCP a ray can
// certify that no solution exists (Cottle-Pang-Stone Sec. 4.4, for copositive-plus M), so
// it ends the solve. RoundOff: the LCP is known to have a solution Lemke's method reaches (a
// contact LCP of Lloyd (8), Sec. 2), so a ray is the round-off's, and the spread-cover runs
// follow it as they follow a numerical failure. On the ten-block tower's 60 s with the
// standard method that left 13 of its 6,000 steps to the fallback chain, against 69 with
// rays read as proofs.
enum class RayMeaning { Proof, RoundOff };

// solve_lemke of pivot/lcp.hpp (which reads rays as RayMeaning::Proof).
LcpResult solve_lemke(const MatX& M, const VecX& q, const LemkeOptions& options, RayMeaning rays);

// A pseudo-random 64-bit key per integer (splitmix64's finaliser): the XOR of the keys of a
// basis's members is its signature (Zobrist hashing), updated in O(1) per pivot.
inline std::uint64_t signature_key(std::uint64_t k) {
  k += 0x9e3779b97f4a7c15ULL;
  k = (k ^ (k >> 30)) * 0xbf58476d1ce4e5b9ULL;
  k = (k ^ (k >> 27)) * 0x94d049bb133111ebULL;
  return k ^ (k >> 31);
}

// Lemke's path cannot meet a basis twice in exact arithmetic, but ties decided within
// round-off can lead it back, and then round and round to the pivot limit. Both methods
// end such a path as a numerical failure, and try another cover. Two watches on the
// signatures of the path's bases (with whatever else decides the next pivot), in O(1)
// memory: the last kRecent signatures, which find a cycle of period p <= kRecent within p
// pivots of its start, and Brent's method (1980), which finds one of any period p entered
// after t pivots within about 2 max(t, p). Brent's alone let the cycles met on the piles,
// short ones entered late, run for as long as the path before them: on an island of the
// 40-body bin pile (step 96, n = 930) the reduced method's first path entered a cycle of 12
// pivots at pivot 1,493 and Brent's mark saw it at 2,059.
class CycleWatch {
 public:
  static constexpr int kRecent = 64;

  // Whether `signature`, the path's state after a pivot, repeats an earlier one. After a
  // repeat, the next is reported when the path is back at that state: one period later.
  bool repeats(std::uint64_t signature) {
    bool seen = signature == mark_;
    const int held = std::min(count_, kRecent);
    for (int k = 0; k < held && !seen; ++k) seen = recent_[k] == signature;
    if (seen) {
      // The ring holds the cycle from here on, so this state is seen again after one period.
      count_ = 0;
      mark_ = signature;
    }
    recent_[count_ % kRecent] = signature;
    ++count_;
    if (seen) return true;
    if (++since_mark_ == window_) {
      mark_ = signature;
      window_ *= 2;
      since_mark_ = 0;
    }
    return false;
  }

 private:
  std::array<std::uint64_t, kRecent> recent_{};  // the last signatures, a ring
  int count_ = 0;                                // signatures seen
  std::uint64_t mark_ = 0;                       // Brent's: the signature compared with
  long long window_ = 1;
  long long since_mark_ = 0;
};

// Flips (principal pivots on the most negative pair) tried on a complementary basis before
// it is given up: the fast methods' warm start, and every method's path end that the
// acceptance rule refuses (the fast methods' and, for the standard method, flip_to_answer
// below). A flip costs one solve of the basis, a path from Step 0 on a
// stack 30 to 100 pivots. On block_stack_rotated_5's hour (d = 4) four warm-start flips
// left 11 fallbacks and a failed step, sixteen none: a drift in one face can move the
// unloaded corner of each face above it.
constexpr int kFlipRepairs = 16;
constexpr int kEndFlips = 64;

// The standard method repairs a refused path end by flips (flip_to_answer: a dense solve
// of the basis, O(k^3), per flip) only up to this LCP size. Beyond it nearly every solve
// that reaches the repair is an island of a pile, where dense refactorisations held the
// fallback chain for minutes: its regularised stage on an island of the 40-body bin pile
// (scenes/bin_pile_40.json at d36f693, step 88: 189 contacts, n = 1,134) took 84.5 s with
// the refactorised runs that preceded the factorised ones, and 6.8 s without them. The
// stacks' near-singular bases the repair is for have n <= 460 (tests/lcp/soak: the d = 8
// tower's steps, duplicated seed 79).
constexpr int kDenseRepairMaxSize = 512;

// Flips (principal pivots on the pair of the most negative entry: Murty's method with the
// most negative entry) of the complementary basis *basic, given by its basic z, until its
// answer has every entry at or above -slack and the acceptance rule takes it: the basis
// is solved directly each time, M_aa z_a = -q_a with iterative refinement, O(|a|^3), and
// a stop request is heard between flips. Returns the flips made, with *basic the basis
// and *z, *w its answer (z as solved, w = M z + q), or -1 after max_flips flips or
// at a singular M_aa of the basis as given, with *z, *w the answer of the basis as given
// when it could be solved (else left as they were). A flip that makes M_aa singular is
// undone, and its pair is neither flipped again nor held to the slack, only to the rule
// (its column depends on the basic ones, so its value follows from theirs). The standard
// method's repair of a refused path end (slack infinite: the rule alone judges) and its
// warm start.
int flip_to_answer(const MatX& M, const VecX& q, int max_flips, double slack,
                   const LemkeOptions& options, std::vector<char>* basic, VecX* z, VecX* w);

// The standard method's warm start (the fast methods': lemke_fast.cpp, warm_answer): the
// basis `warm` (the previous step's answer, rows matched by contact) made an answer by at
// most kFlipRepairs flips, held to a path's leaving slack (kLeavingSlack max(1, |q|_inf)).
// True with *result Solved, warm and its basis set, and no pivots; false when it is no
// answer, with result->z and w the answer of `warm` as given if it could be solved (else
// as they were: the caller judges by it whether a path from that basis is wanted). At any
// n: its at most kFlipRepairs + 1 dense solves of the basis, O(|a|^3) each, cost less than
// a path whose pivots cost O(n^2) each and number about |a| or more. The ten-block tower
// at d = 16 (n = 720, |a| about 70) ran its 60 s in 4.5 s with it against 62 s of cold
// paths; on the bin pile at rest (n = 1,014, |a| = 428) a refused warm start and forming
// M took 24 to 53 ms, where the cold path took seconds.
bool warm_answer(const MatX& M, const VecX& q, const LcpBasis& warm, const LemkeOptions& options,
                 LcpResult* result);

// A path from the warm basis gets this many pivots per LCP variable (the default budget is
// 50 per variable, default_max_pivots): a start near the answer needs a few, and one that
// wanders further leaves the rest of the budget to Step 0's path. Every method's.
constexpr int kWarmPathPivots = 2;

// The LCP size from which a problem at rest whose warm basis is no answer takes the warm
// path instead of Step 0's: below it Step 0's answer is the one warm starts keep (the
// ten-block tower, size 240), above it Step 0's path is long (the 40-body bin pile's main
// island, size 930 to 1,240: thousands of pivots a step); 512 lies between the two.
constexpr int kRestWarmPathSize = 512;

// Whether a warm basis that is no answer starts Lemke's path (warm_path) before Step 0's:
// where its answer moves, or the problem is large. At rest on a small island a path from
// the last basis ends on another of the many answers of coplanar contacts, which the next
// steps' warm starts keep less often than Step 0's: the ten-block tower's 600 s with the
// warm path wherever the flips fail had 8,171 of 60,000 solves not warm, against 249
// without it and 84 with it for a moving island only (remeasured at 447e90f: 1,131
// against 84, 18.5 s against 7.3 s). On a large island Step 0's path is what costs: the
// 40-body bin pile at rest after d changed 4 -> 6 (step 150; LCP size 1,240) creeps into
// the new cone at velocities within the slack, and its Step 0 paths took 2,700 to 9,400
// pivots a step, each answer refused by the next step's flips, for 7 steps (0.5 to 1.6 s
// each, past the viewer's step budget); the warm path answers the first of them in 41
// pivots, and the pile is warm from then on. Every method's (lemke_fast.cpp run(),
// solve_contact).
inline bool path_from_warm_basis(bool answer_at_rest, int lcp_size) {
  return !answer_at_rest || lcp_size >= kRestWarmPathSize;
}

// The standard method's warm path (the fast methods': lemke_fast.cpp, warm_path), for a
// warm basis that warm_answer could not make an answer: Lemke's path started at that
// complementary basis with the covering vector B e, within kWarmPathPivots per variable
// (and options.max_pivots), one run with no restart, on a factorisation (FactoredLemke).
// Its result as solve_lemke's, warm_path set when Solved (an answer the acceptance rule takes);
// a failure's pivots are the work done, for the caller's budget. NumericalFailure with
// no pivot when there is nothing to start from (no basis of this size, or q >= 0).
LcpResult warm_path(const MatX& M, const VecX& q, const LcpBasis& warm,
                    const LemkeOptions& options);

// The warm path's covering vector c = B e = e_W - M 1_Z for the complementary basis whose
// basic z are z_basic: B^-1 c = e, so every basic value rises with z0 at unit rate.
VecX warm_cover(const MatX& M, const std::vector<char>& z_basic);

// z of a path's final basis, solved directly from M_Ra z_a = -q_R (a = basic z indices, R =
// rows whose w is nonbasic) with iterative refinement (solve_refined), so the answer does not
// carry the error of the path's arithmetic. R = a when z0 has left; when z0 vanished basic
// (z0_vanished) R also holds the entering variable's row and the consistent system is
// overdetermined. Returns false when M_Ra has numerically dependent columns.
//
// The basic values are returned as solved, as the fast methods return theirs (the acceptance
// rule judges them), not clamped at zero: a degenerate basic z, zero in exact arithmetic,
// holds its contact's constraint, and the trajectory may need it a round-off below zero.
// Clamped, the constraint lets go by that much. On the ten-block tower at rest with every
// face loaded on one diagonal (as the fast methods load it, and the factorised run did
// before its lexicographic rule was mended, lemke_factored.cpp), the top block turned about
// that diagonal at 1.7e-18 rad/s from the first steps; at d = 4 the degenerate corners'
// impulses went from -5.7e-15 at step 53 to -4e-11 at step 77 and past the warm start's
// slack (1e-10) at about step 90, and at d = 8 only 78 of 1,000 steps kept their warm
// start; unclamped, 999.
bool complementary_z(const MatX& M, const VecX& q, const std::vector<int>& alpha,
                     const std::vector<int>& rows, VecX* z);

// One run of the standard method on a factorisation (Inverse::Factored, FactoredLemke of
// lemke_factored.hpp) from Step 0 with the covering vector of ones, its answer solved and
// checked as every run's: the chain's first factorised run on its own, for tests and
// measurements. Rays read as RayMeaning::Proof; no retry, no end repair.
LcpResult factored_run(const MatX& M, const VecX& q, const LemkeOptions& options = {});

// Step 0 (Lloyd Sec. 4): the row whose w leaves when z0 enters, the minimum of
// q_over_c = q_i / c_i. Ties (relative to |min|) go to the largest index: that is the
// lexicographic minimum of the rows of [q, I] / c_i, which keeps every row of the new
// tableau lexicographically positive (Cottle-Pang-Stone 4.9). Fills *ties with the tied
// rows, which are degenerate after the pivot. q_over_c has a negative entry.
int initial_leaving_row(const VecX& q_over_c, double tol, std::vector<int>* ties);

// Rounding scales (all relative thresholds below are tol times one of these): row_scale(i)
// is |row i of B^-1|_inf (an overestimate makes the tests stricter and can reject small
// genuine pivots: compute it, do not bound it); d = B^-1 a and x = B^-1 q then carry
// rounding residues of about 1e-16 row_scale(i) |a|_inf and 1e-16 row_scale(i) |q|_inf,
// which on degenerate problems (ratio zero in every row) would otherwise decide.

// The round-off of basic value x_i: tol * max(|x|_inf, row_scale(i) rhs_scale). A basic
// value at or below it is degenerate and counts as exactly zero.
inline double degenerate_floor(double x_max, double row_scale_i, double rhs_scale, double tol) {
  return tol * std::max(x_max, row_scale_i * rhs_scale);
}

// Minimum-ratio test, first stage (Lloyd (18)). Row i blocks when d_i > tol * max(|d|_inf,
// row_scale(i) column_scale): the pivot-element test is relative to the column's scale
// and to the size of the terms summed into d_i (column_scale = |a|_inf). Basic values
// x_i <= degenerate_floor (rhs_scale = |q|_inf) count as exactly zero. *theta is the
// minimum ratio (the step), and *ties every blocking row that the step brings to zero
// within the round-off of x_i - theta d_i: its degenerate_floor, plus theta times the
// round-off of d_i (tol row_scale(i) column_scale), plus d_i times the uncertainty of the
// step (how far the smallest ratio can grow when every x_i and d_i is off by its
// round-off). This includes every ratio within tol of the minimum relative to its own
// size; the list is in increasing row order. Returns false, with *ties empty,
// when no row blocks: ray termination. After the pivot every tied row is degenerate: set
// its basic value to exactly zero, so that residues do not grow into spurious nonzero
// ratios.
bool min_ratio_rows(const VecX& x, const VecX& d, const VecX& row_scale, double column_scale,
                    double rhs_scale, double tol, std::vector<int>* ties, double* theta);

// Minimum-ratio test, second stage: the lexicographic rule (Cottle-Pang-Stone 4.9, Murty
// 2.2.7). Among the tied rows keeps those minimising B^-1(i, k) / d_i for k = 0, 1, ...
// until one is left; the rows of B^-1 are independent, so in exact arithmetic one is.
// inverse_column(k) returns column k of B^-1 as anything indexable by row, column(i); it
// is called only while a tie remains. An entry below tol * row_scale(i) is a residue of
// zero and reads as zero; entry i ties with the smallest, entry m, when they differ by at
// most tol (row_scale(i) / d_i + row_scale(m) / d_m), the sum of their rounding scales.
// *keep is scratch space, reused across calls so the hot path does not allocate.
template <class InverseColumn>
int break_tie_lexicographically(const std::vector<int>& ties, const VecX& d, int n, double tol,
                                InverseColumn&& inverse_column, const VecX& row_scale,
                                std::vector<int>* keep) {
  *keep = ties;
  for (int k = 0; k < n && keep->size() > 1; ++k) {
    const auto column = inverse_column(k);
    const auto entry = [&](int i) {
      const double b = column(i);
      return std::abs(b) <= tol * row_scale(i) ? 0.0 : b / d(i);
    };
    const auto width = [&](int i) { return tol * row_scale(i) / d(i); };
    int m = keep->front();
    for (const int i : *keep) {
      if (entry(i) < entry(m)) m = i;
    }
    const double v_min = entry(m);
    const double width_m = width(m);
    keep->erase(std::remove_if(keep->begin(), keep->end(),
                               [&](int i) { return entry(i) - v_min > width(i) + width_m; }),
                keep->end());
  }
  return keep->front();
}

}  // namespace pivot
