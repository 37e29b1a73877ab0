#pragma once

#include <cstdint>
#include <vector>

#include "pivot/math.hpp"

namespace pivot {

// A reference to a callable double(int a, int b) that neither owns nor allocates: the
// entries of the current matrix by row and column position.
class EntryRef {
 public:
  template <class F>
  EntryRef(const F& f)  // NOLINT(google-explicit-constructor): passed as a lambda
      : object_(&f),
        call_([](const void* o, int a, int b) { return (*static_cast<const F*>(o))(a, b); }) {}
  double operator()(int a, int b) const { return call_(object_, a, b); }

 private:
  const void* object_;
  double (*call_)(const void*, int, int);
};

// The LU of the fast methods' reduced system (Lloyd (31), (42)/(44)/(47)), kept across
// pivots. A pivot changes that matrix by about one row and one column, so refactorising it
// (r^3/3 multiply-adds, r up to 6m + 2) costs what the pivot's other work costs r times
// over: 75 % of the time of a 39-body island (issue 21). Instead the LU of a base matrix
// B0 is kept and the current matrix A is solved through a border (the Schur-complement
// update of Bisschop & Meeraus 1977 and Gill, Murray, Saunders & Wright 1987):
//
//   [ B0   U ] [y0]   [b0]    U: the columns A has and B0 has not, and a unit column per
//   [ V'   W ] [y1] = [b1]       row of B0 that A has not (a free slack absorbs it);
//                              V': the rows A has and B0 has not, and a unit row per
//                              column of B0 that A has not (holds its unknown at zero).
//
// With Y = B0^-1 U (one solve per added column, kept while it stays) and the k x k Schur
// complement S = W - V' Y (its kept rows and columns reused), a pivot costs a solve with
// B0 per added row or column, O(k r) and a k x k factorisation: O(r^2 + k^3) instead of
// O(r^3). Rows and columns are named by 64-bit keys (what they
// are, not where they stand), so the caller lists them afresh at every pivot and the
// border follows. A fresh factorisation replaces the base when the border outgrows
// kMaxBorder, when S's pivots lose more than kMaxGrowth of the base's condition (the
// update's error bound), and whenever the caller asks (a path's final answer).
class BorderedLu {
 public:
  // Storage for matrices up to rmax square, reused from the last reset (no allocation for a
  // size met before); the next factor() is fresh. `border_small`: a base below
  // kMinBorderedSize is bordered too (with a border of at most a third of its size), for a
  // caller whose small matrices are not bound to the arithmetic they had (FactoredLemke).
  void reset(int rmax, bool border_small = false);

  // Factors the current r x r matrix with rows and columns row_keys[0..r), col_keys[0..r)
  // and entries entry(a, b): through the border on the base when allowed (the base at
  // least kMinBorderedSize, or kMinSmallBase when reset with border_small, and !fresh), else
  // afresh, which becomes the base (with the last base's entries taken again by key). Each column
  // is scaled to a largest entry of one. False: the matrix is singular to within tol.
  bool factor(int r, const std::uint64_t* row_keys, const std::uint64_t* col_keys, EntryRef entry,
              double tol, bool fresh);
  // The next factor() is fresh (every entry of the matrix may have changed).
  void invalidate() { r0_ = -1; }

  // Solves A y = b: b given in rhs[0..r) by current row, the scaled unknowns y = S x by
  // current column written back to rhs, and each column's scale S_bb to scale[0..r).
  void solve(double* rhs, double* scale);

  // The estimated condition of A: the spread of the pivots of its LU, B0's and S's (in
  // units of eps, the relative size of a solve's round-off).
  double condition() const { return condition_; }
  // Whether the last factor() was fresh (for statistics).
  bool last_fresh() const { return last_fresh_; }

 private:
  bool factor_fresh(int r, const std::uint64_t* row_keys, const std::uint64_t* col_keys,
                    EntryRef entry, double tol);
  bool factor_border(int r, const std::uint64_t* row_keys, const std::uint64_t* col_keys,
                     EntryRef entry, double tol);
  void solve_base(double* x) const;

  int rmax_ = 0;
  int min_bordered_ = 0;     // the smallest base a factor() borders (reset)
  bool borderable_ = false;  // the base's keys are distinct, so a lookup names one place
  // The base: B0 (column-scaled, LU in place with row interchanges perm0_), its scales,
  // and its keys sorted with their positions for lookup.
  int r0_ = -1;
  MatX B_;
  std::vector<int> perm0_;
  std::vector<double> scale0_;
  double condition0_ = 1.0, umin0_ = 1.0, umax0_ = 1.0;  // spread of B0's pivots
  std::vector<std::pair<std::uint64_t, int>> row_index_, col_index_;
  MatX raw_;  // B0 as formed, before scaling (factor_fresh)

  // The current matrix's rows and columns as slots: >= 0 a position in B0, else -1 - j
  // for the j-th added row (column).
  int r_ = 0;
  std::vector<int> row_slot_, col_slot_;
  std::vector<int> row_at_, col_at_;           // per position of B0: its current position, or -1
  int restored_rows_ = 0, restored_cols_ = 0;  // times a B0 row (column) came back

  // The border, in the order of S's columns (added columns, then a slack per absent B0
  // row) and rows (added rows, then a unit row per absent B0 column). Added columns and
  // rows are kept by key while they stay: column j's Y_j = B0^-1 (u_j / s_j) is
  // Y_.col(j), row i's V_i (over B0's scaled columns) is Vt_.col(i). The version says
  // whether a B0 row (column) has come back since: its entry was left out as absent then.
  // A slack's Y is a column of B0^-1, kept by its row.
  struct Border {
    std::uint64_t key;  // an added row's or column's key, or the absent B0 row or column
    int version;
    int position;  // in the current matrix (added), or -1 - p for B0's p (slack, unit row)
    double scale;  // s_j of an added column
    int from;      // its index in the border of the previous factor(), -1 if new
  };
  std::vector<Border> cols_, rows_, next_cols_, next_rows_;
  MatX Y_, Vt_, next_Y_, next_Vt_;
  int added_cols_ = 0, added_rows_ = 0;
  MatX S_, Sraw_, next_Sraw_;  // S factored, and as formed (kept entries are reused)
  std::vector<int> permS_;
  VecX x0_, t_, u_;

  double condition_ = 1.0;
  bool last_fresh_ = true;
};

}  // namespace pivot
