// The standard Lemke method on a factorisation (issue 16, item 1): the same tableau path as
// the explicit inverse of lemke_standard.cpp, w = M z + c z0 + q, but each pivot solves the
// basis afresh from an LU of its basis block (Lloyd (14): the columns of the basic z and z0
// in the rows whose w is not basic), kept across pivots by BorderedLu, and decides every blocking
// row, degenerate value and tie on its own round-off bound from that solve, as Lloyd's fast
// methods do (lemke_fast.cpp). No value is set to zero and kept there: a degenerate row is
// one whose fresh value is within its bound. A pivot costs O(k^2) for the basis block's
// solves plus the border's update, and the basic w take the nonzero entries of the k basic
// columns of M (O(n k) for a dense M, far less on a pile), against O(n^2) for the updated
// inverse.
#pragma once

#include <cstdint>
#include <vector>

#include "bordered_lu.hpp"
#include "pivot/lcp.hpp"
#include "pivot/math.hpp"
#include "stop_request.hpp"

namespace pivot {

class FactoredLemke {
 public:
  // Keeps references to M, q and cover: a cover computed in the call (warm_cover) would
  // dangle, so a temporary one does not compile.
  FactoredLemke(const MatX& M, const VecX& q, const VecX& cover, const LemkeOptions& options);
  FactoredLemke(const MatX& M, const VecX& q, VecX&& cover, const LemkeOptions& options) = delete;

  // Pivots from Step 0 until z0 leaves or vanishes (Solved), a ray, the pivot limit, a
  // cycle or a singular basis (NumericalFailure), or a stop request.
  LcpStatus run();
  // Lemke's path from the complementary basis whose basic z are z_basic, with the covering
  // vector c = B e of that basis (formed by warm_path, lemke_standard.cpp): the basic values
  // B^-1 q + z0 e all rise with z0 at unit rate, so z0 enters at the most negative one,
  // which leaves, and its complement drives. Solved at once when the basis is feasible.
  LcpStatus run_from(const std::vector<char>& z_basic);

  int pivots() const { return pivots_; }
  // Which z are basic.
  std::vector<char> basic_z() const;
  // The basic z and the rows whose w is not basic.
  void basis_sets(std::vector<int>* alpha, std::vector<int>* rows) const;
  // z of the current basis, clamped at zero (the last solve's values).
  VecX current_z() const;
  // The end basis's answer as complementary_z solved it when z0 left (leave_if_answer), or
  // null when the path ended otherwise: the caller's own complementary_z would repeat it.
  const VecX* solved_z() const { return solved_z_valid_ ? &solved_z_ : nullptr; }

 private:
  enum class Pair : char { WBasic, ZBasic, Neither };
  // Which part of the tableau A = [I, -M, -c] a solve is for: q, the column of a variable
  // (w_j: j, z_j: n + j, z0: 2n), or unit column k (a column of B^-1, k in [0, n)).
  struct Rhs {
    enum Kind { Q, Column, Unit } kind;
    int index;
  };

  bool factor();
  double rhs_entry(const Rhs& in, int i) const;
  // The basic values of B y = v for v = in, and their round-off bounds in units of noise_:
  // *y and *mag by pair (the basic member's value, 0 for the pair with none), z0's as
  // entry n. Given `only`, the basic w are solved in those rows alone.
  void solve(const Rhs& in, VecX* y, VecX* mag, const std::vector<int>* only = nullptr);
  // Whether row j (pair j's basic member, z0 as row n) has a basic variable.
  bool basic(int j) const;
  bool z0_leaves() const;
  int leaving_row();
  int lexicographic_min(std::vector<int>* candidates);
  std::vector<char> start_z_;  // basic z of the basis the path started from; empty: Step 0
  void pivot(int leaving_row, int entering);
  LcpStatus follow(int entering);
  // z0 and every basic value's shortfall within slack: the basis with z0 dropped is an answer.
  bool z0_vanished(double slack) const;
  // z0 c_max within kCycleShare of the acceptance rule's tolerance.
  bool z0_droppable() const;
  // The basis's answer with z0 dropped passes the rule at kCycleShare of its tolerance.
  bool dropped_z0_answer() const;
  // z0 leaves as `entering` enters when the answer of the basis that gives, solved afresh as
  // at a path's end (complementary_z), passes the acceptance rule; else the basis stays as
  // it was and the path goes on (lemke_fast.cpp: z0's leaving judged by its answer).
  bool leave_if_answer(int entering);

  const MatX& M_;
  const VecX& q_;
  const VecX& c_;
  const int n_;
  const double tol_;
  const double slack_;  // how far below zero a step may leave a row that does not block
  const int max_pivots_;
  StopRequest stop_;
  std::vector<Pair> state_;  // per pair j: which member is basic
  // M's nonzero entries by column: a contact's column couples only the contacts that share
  // one of its bodies, so on a pile most of M is zero, and the basic w's solve sums only
  // the entries that are there. Column j's are entries [col_start_[j], col_start_[j + 1]).
  std::vector<int> col_start_, col_row_;
  std::vector<double> col_value_;
  bool z0_basic_ = false;
  BorderedLu lu_;
  double noise_ = 0.0;            // relative zero of the current basis's solves, >= tol_
  std::vector<int> rows_, cols_;  // the basis block's rows (w nonbasic), columns (z, z0)
  std::vector<std::uint64_t> row_keys_, col_keys_;
  std::vector<double> rhs_, scale_;
  VecX x_, xmag_, d_, dmag_, e_, emag_;  // values and bounds: q', the entering column, B^-1 e_k
  VecX acc_;
  // Per row, sum_b |Y-column b's entry of A| / scale_b: a basic w's bound per unit |y|_inf.
  VecX wmag_;
  bool wmag_valid_ = false;
  std::vector<int> ties_, keep_, blocking_, indeterminate_;
  std::uint64_t basis_keys_ = 0;
  int pivots_ = 0;
  int refused_leavings_ = 0;  // leave_if_answer's refusals so far
  VecX solved_z_;             // leave_if_answer's accepted answer
  bool solved_z_valid_ = false;
};

}  // namespace pivot
