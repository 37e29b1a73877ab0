#include "bordered_lu.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace pivot {

namespace {

// Below this size every factorisation is fresh unless the caller asks otherwise (reset's
// border_small): it is cheap there (r^3/3 multiply-adds, 30 us at r = 60 on this machine),
// and the fast methods on the stacks and pegs of Lloyd's experiments (m <= 10 bodies,
// r <= 62) keep exactly the arithmetic they had.
constexpr int kMinBorderedSize = 64;

// The border's capacity. A pivot forms S's new rows and columns (O(k r)) and factors S
// (k^3/3); the base is refactorised (r^3/3) when k passes this. On the 39-body island of
// tests/lcp/soak/bin_pile_40_step345.contact (r about 215) a pivot took 160 us at 32 and
// 64 alike and 250 us at 128.
constexpr int kMaxBorder = 64;

// The most the border may raise the condition estimate over the base's (S's pivots beyond
// the spread of B0's), and so the round-off bound of every value of the pivot. Past it the
// current matrix is factorised afresh, whose pivoting may find a better-conditioned
// elimination, and whose own estimate then holds.
constexpr double kMaxGrowth = 1e2;

// Small bases, bordered for a caller that asks (reset's border_small): the smallest one
// bordered; the border's capacity, a third of the base, so that S's factorisation (k^3/3)
// costs at most a 27th of a fresh one; and the most the border may raise the condition
// estimate. A pivot of the standard method's factorised run changes about one row and one
// column of its basis block (r of 10 to 60 on Lloyd's single bodies); refactorised afresh
// at every pivot, the run took 1.3 times the updated inverse's time over his ten
// situations. The growth is held to 2, not kMaxGrowth: the factorised run decides its
// lexicographic ties on noise_, which follows the estimate, and with a growth of 10 it took
// 161 pivots on Siconos' lcp_tobenna (n = 40), where the exact rule takes 127.
constexpr int kMinSmallBase = 8;
constexpr double kMaxSmallGrowth = 2.0;
int border_capacity(int r0) { return r0 >= kMinBorderedSize ? kMaxBorder : std::max(4, r0 / 3); }
double max_growth(int r0) { return r0 >= kMinBorderedSize ? kMaxGrowth : kMaxSmallGrowth; }

// The triangular solves and the LU below walk their columns four at a time: with a block
// of columns c_0, c_1, ... (in elimination order), x[from, from + count) -= sum_t x_ct M_ct
// entry by entry as ((x_i - x_c0 M_i,c0) - x_c1 M_i,c1) - ..., the operations and order of
// one pass per column (and the same skip of a zero x_c), so the same bits, with x read and
// written once instead of once per column. On a pile's island (r about 215) the matrix
// does not fit the first-level cache and x's traffic was half of a solve's.
constexpr int kBlock = 4;

void subtract_columns(const MatX& M, const int* cols, int width, int from, int count, double* x) {
  int c[kBlock];
  double s[kBlock];
  int nonzero = 0;
  for (int t = 0; t < width; ++t) {
    if (x[cols[t]] == 0.0) continue;
    c[nonzero] = cols[t];
    s[nonzero++] = x[cols[t]];
  }
  Eigen::Map<VecX> part(x + from, count);
  auto col = [&](int t) { return M.col(c[t]).segment(from, count); };
  switch (nonzero) {
    case 4:
      part = (((part - s[0] * col(0)) - s[1] * col(1)) - s[2] * col(2)) - s[3] * col(3);
      break;
    case 3:
      part = ((part - s[0] * col(0)) - s[1] * col(1)) - s[2] * col(2);
      break;
    case 2:
      part = (part - s[0] * col(0)) - s[1] * col(1);
      break;
    case 1:
      part -= s[0] * col(0);
      break;
    default:
      break;
  }
}

// Forward elimination of x (length r) with the first `cols` columns of a unit lower factor
// L: for b = 0, 1, ..., cols - 1 in order, x below b -= x_b L_b below b. In each block the
// rows of the block itself take its earlier columns one by one first.
void eliminate_forward(const MatX& L, int cols, int r, double* x) {
  for (int b = 0; b < cols; b += kBlock) {
    const int width = std::min(kBlock, cols - b);
    const int block[kBlock] = {b, b + 1, b + 2, b + 3};
    for (int t = 1; t < width; ++t) {
      for (int u = 0; u < t; ++u) {
        if (x[b + u] != 0.0) x[b + t] -= x[b + u] * L(b + t, b + u);
      }
    }
    subtract_columns(L, block, width, b + width, r - b - width, x);
  }
}

// LU with partial pivoting in place on the leading r x r block of A, rows interchanged
// as recorded in perm. False when a pivot is not above tol. *umin and *umax are the
// smallest and largest |U_kk|.
//
// Left-looking: column k takes the eliminations of columns 0..k-1 when its turn comes
// (eliminate_forward), then its pivot. Each entry sees the operations of the right-looking
// elimination (A_ij -= L_ik U_kj for k = 0, 1, ... in order, none where U_kj is zero, rows
// interchanged whole), so the factors are the same to the bit; but the trailing block is
// not read and written at every step, only the column being finished, which stays in the
// first-level cache (on a pile's island, r about 215, the matrix is 370 KB).
bool lu_in_place(MatX& A, int r, double tol, std::vector<int>& perm, double* umin, double* umax) {
  *umin = std::numeric_limits<double>::infinity();
  *umax = 0.0;
  for (int k = 0; k < r; ++k) {
    eliminate_forward(A, k, r, A.col(k).data());
    int p = k;
    for (int a = k + 1; a < r; ++a) {
      if (std::abs(A(a, k)) > std::abs(A(p, k))) p = a;
    }
    if (!(std::abs(A(p, k)) > tol)) return false;
    perm[k] = p;
    if (p != k) A.row(k).head(r).swap(A.row(p).head(r));
    const double pivot = A(k, k);
    *umin = std::min(*umin, std::abs(pivot));
    *umax = std::max(*umax, std::abs(pivot));
    A.col(k).segment(k + 1, r - k - 1) /= pivot;
  }
  return true;
}

// Solves with the factors of lu_in_place: x is overwritten by A^-1 x. A matrix past
// kMinBorderedSize is walked column by column (x -= x_b L_b, then x -= x_b U_b), over
// contiguous memory, where row by row strides by the matrix's height: with the border, the
// 39-body island of tests/lcp/soak/bin_pile_40_step345.contact (r about 215) solved in
// 1.55 s row by row and 0.76 s column by column (`pivot lcp solve FILE --method reduced`,
// loaded machine). A smaller one fits in the first-level cache and keeps the row-by-row
// dot products it always had: the same answers to the bit, so the stacks' and pegs'
// trajectories and their saved regression problems stay as they were.
void lu_solve(const MatX& LU, int r, const std::vector<int>& perm, double* x) {
  for (int k = 0; k < r; ++k) std::swap(x[k], x[perm[k]]);
  if (r < kMinBorderedSize) {
    for (int a = 1; a < r; ++a) {
      double s = x[a];
      for (int b = 0; b < a; ++b) s -= LU(a, b) * x[b];
      x[a] = s;
    }
    for (int a = r - 1; a >= 0; --a) {
      double s = x[a];
      for (int b = a + 1; b < r; ++b) s -= LU(a, b) * x[b];
      x[a] = s / LU(a, a);
    }
    return;
  }
  eliminate_forward(LU, r - 1, r, x);
  // Back substitution, columns b, b - 1, ... in blocks: each row of the block takes the
  // block's later columns, then its division, before the rows above take the block.
  for (int b = r - 1; b >= 0; b -= kBlock) {
    const int width = std::min(kBlock, b + 1);
    const int block[kBlock] = {b, b - 1, b - 2, b - 3};
    for (int t = 0; t < width; ++t) {
      for (int u = 0; u < t; ++u) {
        if (x[b - u] != 0.0) x[b - t] -= x[b - u] * LU(b - t, b - u);
      }
      x[b - t] /= LU(b - t, b - t);
    }
    subtract_columns(LU, block, width, 0, b - width + 1, x);
  }
}

int lookup(const std::vector<std::pair<std::uint64_t, int>>& index, std::uint64_t key) {
  const auto it = std::lower_bound(index.begin(), index.end(), std::make_pair(key, 0));
  return it != index.end() && it->first == key ? it->second : -1;
}

// Sorted (key, position) pairs of keys[0..r); false when two keys are equal.
bool index_keys(const std::uint64_t* keys, int r, std::vector<std::pair<std::uint64_t, int>>* out) {
  out->clear();
  for (int a = 0; a < r; ++a) out->emplace_back(keys[a], a);
  std::sort(out->begin(), out->end());
  for (int a = 1; a < r; ++a) {
    if ((*out)[a].first == (*out)[a - 1].first) return false;
  }
  return true;
}

// Places the current rows (or columns) keys[0..r) against the base's: (*at)[p] becomes the
// current position of B0's p-th or -1, (*slot)[a] the B0 position of the a-th or -1 - j
// for the j-th added one. Counts the added ones, the absent B0 ones, and (in *restored)
// the B0 ones that were absent at the last call and are back.
void place(int r, int r0, const std::uint64_t* keys,
           const std::vector<std::pair<std::uint64_t, int>>& index, std::vector<int>* at,
           std::vector<int>* slot, int* restored, int* added, int* absent) {
  for (int p = 0; p < r0; ++p) (*at)[p] = (*at)[p] < 0 ? -2 : -1;  // -2: absent last time
  for (int a = 0; a < r; ++a) {
    const int p = lookup(index, keys[a]);
    if (p >= 0 && (*at)[p] < 0) {
      if ((*at)[p] == -2) ++*restored;
      (*at)[p] = a;
      (*slot)[a] = p;
    } else {
      (*slot)[a] = -1 - (*added)++;
    }
  }
  for (int p = 0; p < r0; ++p) {
    if ((*at)[p] >= 0) continue;
    (*at)[p] = -1;
    ++*absent;
  }
}

}  // namespace

void BorderedLu::reset(int rmax, bool border_small) {
  rmax_ = rmax;
  min_bordered_ = border_small ? kMinSmallBase : kMinBorderedSize;
  r0_ = -1;
  borderable_ = false;
  B_.resize(rmax, rmax);
  raw_.resize(rmax, rmax);
  perm0_.assign(rmax, 0);
  scale0_.assign(rmax, 1.0);
  row_slot_.assign(rmax, 0);
  col_slot_.assign(rmax, 0);
  row_at_.assign(rmax, -1);
  col_at_.assign(rmax, -1);
  x0_.resize(rmax);
  row_index_.reserve(rmax);
  col_index_.reserve(rmax);
  cols_.clear();
  rows_.clear();
}

bool BorderedLu::factor(int r, const std::uint64_t* row_keys, const std::uint64_t* col_keys,
                        EntryRef entry, double tol, bool fresh) {
  if (!fresh && borderable_ && r0_ >= min_bordered_ &&
      factor_border(r, row_keys, col_keys, entry, tol))
    return true;
  return factor_fresh(r, row_keys, col_keys, entry, tol);
}

// Forms the whole matrix, scales each column to a largest entry of one (the unknowns then
// have comparable sizes, so the solve's normwise error bound holds for each of them;
// unscaled, a sliding contact's column N + mu d_x with mu ~ 1000 made the bound of every
// unknown 1e3 times too large) and factors it: the new base.
//
// The entries of the last fresh matrix are kept as formed (raw_) and taken again by key:
// an entry is a function of the names of its row and column, as the border's reuse
// assumes, and invalidate() drops them with the base. Below kMinBorderedSize every pivot
// refactorises and changes about one row and one column, so forming the matrix costs O(r)
// column products instead of r^2 (Lloyd's five-block stacks: r about 30). Above it a fresh
// factorisation follows a run of bordered pivots (the border full, or its condition
// estimate grown), and most of its rows and columns are the base's: on the bin pile's
// island_ties (r about 215, 261 fresh factorisations in 2,963 pivots) forming every entry
// was a tenth of the solve's instructions.
bool BorderedLu::factor_fresh(int r, const std::uint64_t* row_keys, const std::uint64_t* col_keys,
                              EntryRef entry, double tol) {
  last_fresh_ = true;
  const bool reuse = r0_ >= 0 && borderable_;
  for (int a = 0; a < r; ++a) row_slot_[a] = reuse ? lookup(row_index_, row_keys[a]) : -1;
  for (int b = 0; b < r; ++b) col_slot_[b] = reuse ? lookup(col_index_, col_keys[b]) : -1;
  r0_ = -1;
  r_ = r;
  for (int b = 0; b < r; ++b) {
    for (int a = 0; a < r; ++a) {
      const bool kept = row_slot_[a] >= 0 && col_slot_[b] >= 0;
      B_(a, b) = kept ? raw_(row_slot_[a], col_slot_[b]) : entry(a, b);
    }
  }
  raw_.topLeftCorner(r, r) = B_.topLeftCorner(r, r);
  for (int b = 0; b < r; ++b) {
    double cmax = 0.0;
    for (int a = 0; a < r; ++a) cmax = std::max(cmax, std::abs(B_(a, b)));
    if (!(cmax > 0.0)) return false;
    scale0_[b] = cmax;
    for (int a = 0; a < r; ++a) B_(a, b) /= cmax;
  }
  double umin = 0.0, umax = 0.0;
  if (!lu_in_place(B_, r, tol, perm0_, &umin, &umax)) return false;
  // The spread of U's diagonal estimates the condition of the scaled matrix.
  condition0_ = r > 0 ? umax / umin : 1.0;
  umin0_ = r > 0 ? umin : 1.0;
  umax0_ = r > 0 ? umax : 1.0;
  condition_ = condition0_;
  r0_ = r;
  borderable_ = index_keys(row_keys, r, &row_index_) && index_keys(col_keys, r, &col_index_);
  for (int a = 0; a < r; ++a) {
    row_slot_[a] = col_slot_[a] = a;
    row_at_[a] = col_at_[a] = a;
  }
  cols_.clear();
  rows_.clear();
  added_cols_ = added_rows_ = 0;
  restored_rows_ = restored_cols_ = 0;
  return true;
}

bool BorderedLu::factor_border(int r, const std::uint64_t* row_keys, const std::uint64_t* col_keys,
                               EntryRef entry, double tol) {
  const int capacity = border_capacity(r0_);
  if (Y_.rows() != rmax_ || Y_.cols() < capacity) {
    // The border's storage, for bordered bases alone. A base grows only through a fresh
    // factorisation, which empties the border: nothing kept is lost here.
    Y_ = next_Y_ = Vt_ = next_Vt_ = MatX::Zero(rmax_, capacity);
    S_ = Sraw_ = next_Sraw_ = MatX::Zero(capacity, capacity);
    permS_.assign(capacity, 0);
    t_ = VecX::Zero(capacity);
    u_ = VecX::Zero(rmax_);
    cols_.reserve(capacity);
    rows_.reserve(capacity);
    next_cols_.reserve(capacity);
    next_rows_.reserve(capacity);
  }
  const int r0 = r0_;
  // Where each B0 row and column stands now; one that comes back has had its entries left
  // out of the kept border (they multiplied a held-zero unknown or a free slack's row).
  int new_rows = 0, absent_rows = 0, new_cols = 0, absent_cols = 0;
  place(r, r0, row_keys, row_index_, &row_at_, &row_slot_, &restored_rows_, &new_rows,
        &absent_rows);
  place(r, r0, col_keys, col_index_, &col_at_, &col_slot_, &restored_cols_, &new_cols,
        &absent_cols);
  const int k = new_cols + absent_rows;
  if (k != new_rows + absent_cols || k > capacity) return false;

  // S's columns: the added columns (kept, or Y_j = B0^-1 u_j / s_j) and the slacks.
  next_cols_.clear();
  for (int b = 0; b < r; ++b) {
    if (col_slot_[b] >= 0) continue;
    const int j = static_cast<int>(next_cols_.size());
    const auto kept = std::find_if(cols_.begin(), cols_.end(), [&](const Border& e) {
      return e.key == col_keys[b] && e.version == restored_rows_ && e.position >= 0;
    });
    if (kept != cols_.end()) {
      next_Y_.col(j).head(r0) = Y_.col(kept - cols_.begin()).head(r0);
      next_cols_.push_back(
          {col_keys[b], restored_rows_, b, kept->scale, static_cast<int>(kept - cols_.begin())});
      continue;
    }
    double scale = 0.0;
    for (int p = 0; p < r0; ++p) {
      u_[p] = row_at_[p] >= 0 ? entry(row_at_[p], b) : 0.0;
      scale = std::max(scale, std::abs(u_[p]));
    }
    for (int a = 0; a < r; ++a) {
      if (row_slot_[a] < 0) scale = std::max(scale, std::abs(entry(a, b)));
    }
    if (!(scale > 0.0)) return false;
    next_Y_.col(j).head(r0) = u_.head(r0) / scale;
    solve_base(next_Y_.col(j).data());
    next_cols_.push_back({col_keys[b], restored_rows_, b, scale, -1});
  }
  added_cols_ = static_cast<int>(next_cols_.size());
  for (int p = 0; p < r0; ++p) {
    if (row_at_[p] >= 0) continue;
    const int j = static_cast<int>(next_cols_.size());
    const auto kept = std::find_if(cols_.begin(), cols_.end(), [&](const Border& e) {
      return e.position < 0 && e.key == static_cast<std::uint64_t>(p);
    });
    const int from = kept != cols_.end() ? static_cast<int>(kept - cols_.begin()) : -1;
    if (from >= 0) {
      next_Y_.col(j).head(r0) = Y_.col(from).head(r0);
    } else {
      next_Y_.col(j).head(r0).setZero();
      next_Y_(p, j) = 1.0;
      solve_base(next_Y_.col(j).data());
    }
    next_cols_.push_back({static_cast<std::uint64_t>(p), 0, -1 - p, 1.0, from});
  }
  // S's rows: the added rows (kept, or V_i over B0's scaled columns) and the unit rows.
  next_rows_.clear();
  for (int a = 0; a < r; ++a) {
    if (row_slot_[a] >= 0) continue;
    const int i = static_cast<int>(next_rows_.size());
    const auto kept = std::find_if(rows_.begin(), rows_.end(), [&](const Border& e) {
      return e.key == row_keys[a] && e.version == restored_cols_ && e.position >= 0;
    });
    const int from = kept != rows_.end() ? static_cast<int>(kept - rows_.begin()) : -1;
    if (from >= 0) {
      next_Vt_.col(i).head(r0) = Vt_.col(from).head(r0);
    } else {
      for (int c = 0; c < r0; ++c) {
        next_Vt_(c, i) = col_at_[c] >= 0 ? entry(a, col_at_[c]) / scale0_[c] : 0.0;
      }
    }
    next_rows_.push_back({row_keys[a], restored_cols_, a, 1.0, from});
  }
  added_rows_ = static_cast<int>(next_rows_.size());
  for (int c = 0; c < r0; ++c) {
    if (col_at_[c] >= 0) continue;
    const auto kept = std::find_if(rows_.begin(), rows_.end(), [&](const Border& e) {
      return e.position < 0 && e.key == static_cast<std::uint64_t>(c);
    });
    const int from = kept != rows_.end() ? static_cast<int>(kept - rows_.begin()) : -1;
    next_rows_.push_back({static_cast<std::uint64_t>(c), 0, -1 - c, 1.0, from});
  }
  std::swap(cols_, next_cols_);
  std::swap(rows_, next_rows_);
  Y_.swap(next_Y_);
  Vt_.swap(next_Vt_);

  // S = W - V' Y: W holds the added rows' entries in the added columns (scaled), the unit
  // rows pick entries of Y. An entry whose row and column were both in the last border is
  // the same number: kept.
  for (int j = 0; j < k; ++j) {
    const Border& col = cols_[j];
    for (int i = 0; i < k; ++i) {
      const Border& row = rows_[i];
      if (row.from >= 0 && col.from >= 0) {
        next_Sraw_(i, j) = Sraw_(row.from, col.from);
      } else if (i < added_rows_) {
        const double w = j < added_cols_ ? entry(row.position, col.position) / col.scale : 0.0;
        next_Sraw_(i, j) = w - Vt_.col(i).head(r0).dot(Y_.col(j).head(r0));
      } else {
        next_Sraw_(i, j) = -Y_(static_cast<int>(row.key), j);
      }
    }
  }
  Sraw_.swap(next_Sraw_);
  S_.topLeftCorner(k, k) = Sraw_.topLeftCorner(k, k);
  double umin = umin0_, umax = umax0_;
  if (k > 0) {
    double smin = 0.0, smax = 0.0;
    if (!lu_in_place(S_, k, tol, permS_, &smin, &smax)) return false;
    umin = std::min(umin, smin);
    umax = std::max(umax, smax);
  }
  // [B0 U; V' W] = [L0 0; V' U0^-1 I] [U0 L0^-1 U; 0 S]: the pivots of the bordered matrix
  // are B0's and S's, and their spread estimates its condition as a fresh LU's does.
  condition_ = umax / umin;
  if (condition_ > max_growth(r0) * condition0_) return false;
  r_ = r;
  last_fresh_ = false;
  return true;
}

void BorderedLu::solve_base(double* x) const { lu_solve(B_, r0_, perm0_, x); }

void BorderedLu::solve(double* rhs, double* scale) {
  const int r0 = r0_;
  const int k = static_cast<int>(cols_.size());
  if (last_fresh_) {
    // The base is the current matrix, row for row and column for column.
    solve_base(rhs);
    for (int b = 0; b < r_; ++b) scale[b] = scale0_[b];
    return;
  }
  for (int p = 0; p < r0; ++p) x0_[p] = 0.0;
  for (int a = 0; a < r_; ++a) {
    if (row_slot_[a] >= 0)
      x0_[row_slot_[a]] = rhs[a];
    else
      t_[-1 - row_slot_[a]] = rhs[a];
  }
  solve_base(x0_.data());
  for (int i = 0; i < k; ++i) {
    t_[i] = i < added_rows_ ? t_[i] - Vt_.col(i).head(r0).dot(x0_.head(r0))
                            : -x0_[static_cast<int>(rows_[i].key)];
  }
  if (k > 0) lu_solve(S_, k, permS_, t_.data());
  for (int j = 0; j < k; ++j) x0_.head(r0) -= t_[j] * Y_.col(j).head(r0);
  for (int b = 0; b < r_; ++b) {
    const int c = col_slot_[b];
    rhs[b] = c >= 0 ? x0_[c] : t_[-1 - c];
    scale[b] = c >= 0 ? scale0_[c] : cols_[-1 - c].scale;
  }
}

}  // namespace pivot
