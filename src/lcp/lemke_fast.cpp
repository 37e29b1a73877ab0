#include "lemke_fast.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "basis_flips.hpp"
#include "bordered_lu.hpp"
#include "friction_at_rest.hpp"
#include "lcp_check.hpp"
#include "lemke_standard.hpp"
#include "normalized_contacts.hpp"
#include "stop_request.hpp"
#include "stopwatch.hpp"

namespace pivot {

namespace {

// Which member of the complementary pair (w_k, z_k) is basic. Neither holds for the one
// index r of an almost complementary basis (Lloyd Sec. 4); Inactive marks the friction
// rows of a contact the reduced method has not added yet (Lloyd Sec. 5.3).
enum class Pair : unsigned char { ZBasic, WBasic, Neither, Inactive };

// The right-hand side q_in of one solve with the basis: the basic variables are set so
// that every non-basic row of w = M z + c z0 + q_in is zero. Q gives q' (19); Column the
// column m' of a driving z variable (20); Unit (scale -1) that of a driving w (21) and
// (scale +1) a column of B^-1 (14).
struct Rhs {
  enum Kind { Q, Column, Unit };
  Kind kind = Q;
  int index = -1;
  double scale = 1.0;
};

// True when two columns touch at most two bodies together, so a + s b is a column.
bool mergeable(const ContactColumn& a, const ContactColumn& b) {
  // A contact's own columns share their slots (contact_column), which settles nearly all.
  if (a.body[0] == b.body[0] && a.body[1] == b.body[1]) return true;
  int bodies[4];
  int count = 0;
  for (const ContactColumn* c : {&a, &b}) {
    for (int s = 0; s < 2; ++s) {
      if (c->body[s] < 0 || std::find(bodies, bodies + count, c->body[s]) != bodies + count)
        continue;
      bodies[count++] = c->body[s];
    }
  }
  return count <= 2;
}

// a + s b for two columns of one contact (checked by mergeable up front).
ContactColumn combine(const ContactColumn& a, double s, const ContactColumn& b) {
  ContactColumn out = a;
  for (int t = 0; t < 2; ++t) {
    if (b.body[t] < 0) continue;
    int slot = out.body[0] == b.body[t] ? 0 : out.body[1] == b.body[t] ? 1 : -1;
    if (slot < 0) {
      slot = out.body[0] < 0 ? 0 : 1;
      out.body[slot] = b.body[t];
      out.block[slot].setZero();
    }
    out.block[slot] += s * b.block[t];
  }
  return out;
}

// Reduced method: the largest covering entry (59) a contact is added with. The bound grows
// as 1/z0 along the path; entries of 1e5-1e6 (z0 near 1e-8) made the reduced matrices so
// ill-conditioned that the next bases were singular or the answer wrong (Lloyd's rotated
// stacks, about 1 in 1000 wrenches). Above this, the solve restarts with the contact active
// from Step 0, where its rows have covering entries of one.
constexpr double kMaxCover = 1e3;

// A blocking row is determinate when its m' is negative by more than this many of its
// round-off bounds. Those bounds are first order and the condition estimate behind them
// (U's diagonal) can be low by orders of magnitude in a near-singular basis, so a rounded
// zero can pass one bound: on the ten-block tower an m' that is exactly zero (a fourth
// coplanar contact) came out 2.4 bounds below zero and its pivot made the basis singular.
// Three orders of margin leave such rows to Harris's tolerance (pivot_to_solution) and
// still count every m' that the values resolve.
constexpr double kDeterminate = 1e3;

// How a basic row with m' < 0 takes part in the ratio test.
enum class Blocking { No, Indeterminate, Determinate };

class FastLemke {
 public:
  // (problem, method) => the tables of a fresh solve, in the storage of the previous one:
  // a solver kept between solves (FastLemkeSolver) allocates nothing for sizes it has met.
  // Every member a solve reads is set here or by start_basis.
  void reset(const ContactProblem& problem, bool reduced, const LemkeOptions& options,
             double cover_perturbation) {
    normalize_contacts(problem, &nc_);
    n_ = problem.num_contacts();
    d_ = problem.d;
    size_ = problem.lcp_size();
    reduced_ = reduced;
    cover_perturbation_ = cover_perturbation;
    cover_seed_ = 0;
    tol_ = options.relative_tolerance;
    noise_ = 0.0;
    slack_ = 0.0;
    max_pivots_ = pivot_limit(options, size_);
    stop_ = StopRequest(options);
    repair_ends_ = options.repair_refused_end;
    rmax_ = 6 * nc_.num_bodies + 2;
    r_ = -1;
    z0_basic_ = false;
    driving_is_z_ = true;
    rsize_ = 0;
    z0val_ = z0mag_ = 0.0;
    qz0_ = mz0_ = qz0mag_ = mz0mag_ = 0.0;
    vabs_max_ = lambda_mag_max_ = zmag_max_ = 0.0;
    drive_ = Rhs{};
    prow_ = ContactColumn{};
    stats_ = FastLemkeStats{};
    for (int g = 0; g < n_ * d_; ++g) {
      if (!mergeable(nc_.N[g / d_], nc_.D[g])) {
        throw std::invalid_argument("contact " + std::to_string(g / d_) +
                                    ": normal and friction columns touch more than two bodies");
      }
    }
    const int dim = 6 * nc_.num_bodies;
    contact_of_.resize(size_);
    for (int i = 0; i < n_; ++i) {
      contact_of_[i] = contact_of_[lambda_index(i)] = i;
      for (int j = 0; j < d_; ++j) contact_of_[phi_index(i, j)] = i;
    }
    active_.assign(n_, reduced_ ? 0 : 1);
    v_.setZero(dim);
    V_.setZero(dim);
    Vq_.setZero(dim);
    vabs_.setZero(dim);
    Vqabs_.setZero(dim);
    bstar_.setZero(dim);
    cstar_.setZero(dim);
    // Lloyd Sec. 5.2: the reduced matrix is a product through R^{6m}, plus the z0 column
    // and the w_r row, so a non-singular one has r <= 6m + 2. It is the only dense matrix
    // (lu_ holds it).
    lu_.reset(rmax_);
    rhs_.setZero(rmax_);
    rmag_.setZero(rmax_);
    colscale_.assign(rmax_, 1.0);
    row_keys_.assign(rmax_, 0);
    col_keys_.assign(rmax_, 0);
    stats_.largest_dense_entries = static_cast<long long>(rmax_) * rmax_;
    x_of_.assign(n_, -1);
    kappa_begin_.assign(n_, 0);
    kappa_end_.assign(n_, 0);
    for (std::vector<int>* rows : {&theta_rows_, &kappa_, &lambda_rows_, &negative_, &blocking_,
                                   &indeterminate_, &candidates_, &keep_, &rows_}) {
      rows->clear();
    }
    nstar_.clear();
    dstar_.clear();
    bgamma_.clear();
    bx_.clear();
    entries_.clear();
    warm_basic_.clear();
    theta_rows_.reserve(n_);
    kappa_.reserve(static_cast<size_t>(n_) * d_);
    lambda_rows_.reserve(n_);
    nstar_.reserve(n_);
    dstar_.reserve(static_cast<size_t>(n_) * d_);
    bgamma_.reserve(n_);
    bx_.reserve(n_);
    negative_.reserve(size_);
    blocking_.reserve(size_);
    rows_.reserve(size_);
    indeterminate_.reserve(size_);
    bounded_.assign(size_, 0);
    q_formed_.assign(size_, 0);
    row_l1_formed_ = false;
    candidates_.reserve(size_ + 1);
    keep_.reserve(size_ + 1);
    entries_.reserve(size_ + 1);
    path_.clear();
    if (reduced_) path_.reserve(static_cast<size_t>(64) * dim);
    // |q|_inf of (8), the acceptance rule's scale: the sums of contact_lcp_w's q_scale.
    qinf_ = 0.0;
    for (int k = 0; k < n_ + n_ * d_; ++k)
      qinf_ = std::max(qinf_, std::abs(input_row(Rhs{Rhs::Q, -1, 1.0}, k)));
  }

  FastLemke() : stop_(LemkeOptions{}) {}

  // (problem as reset, warm basis) => *out, its vectors' storage reused.
  void run(const ContactProblem& problem, const LcpBasis& warm, Clock::time_point start,
           FastLemkeResult* out);

  // The columns of reset's problem (normalize_contacts), which no pivot changes.
  const NormalizedContacts& normalized() const { return nc_; }

 private:
  // Outcome of adding a contact's friction rows in the reduced method.
  enum class Activation { Added, Restart, Failed };

  enum class Kind { Normal, Friction, Cone };  // rows nu/theta, sigma/phi, gamma/lambda
  Kind kind(int k) const {
    return k < n_ ? Kind::Normal : k < n_ + n_ * d_ ? Kind::Friction : Kind::Cone;
  }
  int contact_of(int k) const { return contact_of_[k]; }
  int phi_index(int i, int j) const { return n_ + i * d_ + j; }
  int lambda_index(int i) const { return n_ + n_ * d_ + i; }
  const ContactColumn& friction(int k) const { return nc_.D[k - n_]; }
  double z0() const { return z0_basic_ ? z0val_ : 0.0; }

  double input_extra(const Rhs& in, int k) const;
  double input_row(const Rhs& in, int k) const;
  template <class F>
  void for_each_input_row(const Rhs& in, F f) const;
  // How build_basis() factors the reduced system: through lu_'s border where it may, or
  // afresh (a path's final answer, the warm start).
  enum class Factor { Update, Fresh };
  bool build_basis(Factor how);
  // Whether solve() forms the round-off bounds of its values, which only the ratio test
  // reads: a column of B^-1 for the lexicographic rule and an answer's basis need none.
  enum class Bounds { Formed, Skipped };
  void solve(const Rhs& in, Bounds bounds = Bounds::Formed);
  double basic_w_value(const Rhs& in, int k, const VecX& V, const VecX& z, double z0) const;
  double normal_w_part(int k, const VecX& V) const;
  double friction_w_part(int k, const VecX& V, const VecX& z) const;
  double cone_w_part(int k, const VecX& z) const;
  double basic_w_magnitude(const Rhs& in, int k, const VecX& vabs, const VecX& zmag,
                           double z0mag) const;
  void store_basic_z(const Rhs& in, VecX* out, VecX* magnitude);
  void store_basic_values(const Rhs& in, VecX* out, VecX* magnitude);
  void form_q_row(int k);
  void form_q_rows();
  void list_rows();
  void start_basis();
  // warm_answer's outcome: whether the (repaired) warm basis answered, and whether its
  // answer before any flip was at_rest (run() takes Lemke's path from it only when not).
  struct WarmStart {
    bool answered = false;
    bool at_rest = true;
  };
  WarmStart warm_answer(const LcpBasis& warm, LcpResult* result);
  int flip_to_answer(double slack, int max_flips, LcpResult* result, bool* first_at_rest = nullptr);
  std::optional<LcpStatus> warm_path(const LcpBasis& warm, LcpResult* result);
  void warm_cover();
  bool repaired_end(LcpResult* result);
  void engage_friction(LcpResult* result);
  double answer_slack() const;
  void keep_refused_end();
  void keep_cycle_end(const LcpResult& answer, double min_entry);
  Activation activate(int contact);
  // The path's start: Step 0 from the all-w basis, or the warm basis in state_ with the
  // covering vector of warm_cover().
  enum class Start { Cold, Warm };
  std::optional<LcpStatus> pivot_to_solution(LcpResult* result, Start start = Start::Cold);
  bool another_cover();
  bool final_answer(LcpResult* result);
  void form_row_l1();
  void bound_row(int k);
  Blocking blocks(int k);
  enum class Z0Step { Blocked, Feasible, WithinNoise };
  Z0Step z0_step(int first);
  bool z0_vanished(double slack);
  double max_cover() const { return cmax_; }
  void cover_changed();
  bool indeterminate_rows_stay_feasible(double tmin, bool* spared_infeasible) const;
  int lexicographic_min(const VecX& divisor);
  void finish(LcpResult* result);
  // The acceptance rule on an answer finish() completed: its w is M z + q formed from z
  // through the columns, as check_contact_solution forms it, not the basis's values.
  bool accepted(const LcpResult& result) const {
    return check_complementarity(result.z, result.w, qinf_).accepted;
  }
  void impulse_velocity(const VecX& z, bool with_free, VecX* v) const;
  void lcp_rows(const VecX& z, const VecX& v, bool with_q, VecX* w) const;

  NormalizedContacts nc_;
  int n_, d_, size_;
  bool reduced_;
  double cover_perturbation_;  // c_k of Step 0 is 1 + this times u_k (start_basis)
  int cover_seed_ = 0;  // offset of the sequence u_k, changed at each restart by another_cover
  double tol_;
  double noise_ = 0.0;  // relative zero threshold of the current basis, >= tol_
  double slack_ = 0.0;  // how far below zero z0's last step may leave a row (pivot_to_solution)
  int max_pivots_;
  StopRequest stop_;
  bool repair_ends_ = true;  // LemkeOptions::repair_refused_end
  int rmax_;
  BorderedLu lu_;

  std::vector<int> contact_of_;  // contact of each index: a table, not a division per row
  std::vector<Pair> state_;
  std::vector<char> active_;
  VecX c_;      // covering vector, extended by Lloyd (59) in the reduced method
  double cmax_ = 0.0;  // its largest entry on a row taking part (cover_changed)
  int r_ = -1;  // index with neither w_r nor z_r basic; -1 for a complementary basis
  bool z0_basic_ = false;
  bool driving_is_z_ = true;  // the driving variable is z_r (else w_r)
  bool answered_ = false;     // pivot_to_solution() left its end's checked answer in *result

  // Partition of the current basis, Lloyd (25)-(28).
  std::vector<int> theta_rows_;               // contacts with basic theta
  std::vector<int> kappa_;                    // basic phi not used as phi_x
  std::vector<int> lambda_rows_;              // contacts with basic lambda
  std::vector<int> x_of_;                     // per contact: the phi index chosen as phi_x, or -1
  std::vector<int> kappa_begin_, kappa_end_;  // per active contact: its basic phi in kappa_
  std::vector<ContactColumn> nstar_, dstar_;  // N_*, D_* of (28)
  ContactColumn prow_;                        // n_r or d_* (45) for the w_r row
  VecX cstar_;                                // c_* of (39)
  int rsize_ = 0;
  // Names of the reduced system's rows and columns (what each is, for lu_'s border).
  std::vector<std::uint64_t> row_keys_, col_keys_;
  std::vector<double> colscale_;  // the largest entry of each column of (31) before scaling

  // One solve: basic z values, z0 and the velocity V = u + N_a theta + D_a phi.
  VecX zval_;
  double z0val_ = 0.0;
  VecX v_, V_, bstar_, rhs_, rmag_;
  std::vector<double> bgamma_, bx_;  // b of the gamma and sigma_x rows per basic lambda
  // Its round-off bounds, in units of noise_ (solve()): rmag_ of each reduced unknown, zmag_
  // of every basic z, z0mag_ of z0, vabs_ of the velocity V entrywise.
  double z0mag_ = 0.0;
  VecX zmag_, vabs_;

  VecX qval_, mval_;  // q' and m' of the basic variable at each index
  VecX ratio_;        // max(q', 0) / -m' of a row with m' < 0, this pivot's ratio test (18)
  std::vector<char> q_formed_;  // whether q' of a basic w is formed this pivot (form_q_row)
  std::vector<int> rows_;       // the rows taking part (not Inactive), ascending (list_rows)
  VecX qmag_, mmag_;  // their round-off bounds in units of noise_
  double qz0_ = 0.0, mz0_ = 0.0, qz0mag_ = 0.0, mz0mag_ = 0.0;
  VecX Vq_, Vqabs_;            // velocity of the current basic solution and its bound
  std::vector<double> path_;   // Reduced: v_c / z0 at every vertex so far, 6m values each
  VecX path_vertex_;           // activate(): one vertex of path_
  std::vector<int> negative_;  // basic rows with m' < 0, the only ones the ratio test reads
  std::vector<int> blocking_;  // the determinate ones, and the others when the step needs them
  std::vector<int> indeterminate_;  // rows negative beyond round-off by < kDeterminate bounds
  std::vector<char> bounded_;  // whether qmag_, mmag_ of such a row are formed this pivot
  VecX row_l1_;            // |column|_1 of each normal and friction row, mu + d of each cone row
  bool row_l1_formed_ = false;  // this problem's row_l1_ is formed (form_row_l1)
  double vabs_max_ = 0.0;  // largest entry of vabs_
  double lambda_mag_max_ = 0.0;  // largest bound of a basic lambda
  double zmag_max_ = 0.0;        // largest bound of a basic z
  Rhs drive_;                    // the driving variable's column of this pivot
  std::vector<int> candidates_, keep_;
  std::vector<double> entries_;
  std::vector<char> warm_basic_;  // the warm start's (or a refused end's) basis as it is repaired
  std::vector<char> first_refused_;  // the basic z of the first path end the rule refused
  // The answer of a cycle's or a crawling path's basis, z0 dropped, that the rule takes at
  // its full tolerance but not at the share asked (the one with the least negative entry
  // over every cover), its basic z, and that entry.
  LcpResult cycle_end_;
  std::vector<char> cycle_end_basic_;
  double cycle_end_min_ = -std::numeric_limits<double>::infinity();
  std::vector<char> cold_active_;  // active_ before a warm start, restored when it fails
  // The basic z of the basis the path started from (lexicographic_min's B0); empty: Step 0.
  std::vector<char> lex_start_z_;
  BasisFlips flips_;               // flip_to_answer's flips of warm_basic_
  VecX unit_rates_;                // the warm path's Step 0: B^-1 c, all ones (warm_cover)
  VecX basic_ones_, basic_rows_;   // warm_cover(): 1_Z (one for each basic z) and M 1_Z
  LcpResult engaged_;              // engage_friction(): the answer before its last flip
  std::vector<char> engaged_basic_;  // and its basis
  VecX vfinal_;                    // finish(): the normalised velocity of the answer
  double qinf_ = 0.0;              // |q|_inf (reset)
  FastLemkeStats stats_;
};

double FastLemke::input_extra(const Rhs& in, int k) const {
  switch (in.kind) {
    case Rhs::Q:
      return kind(k) == Kind::Normal ? in.scale * nc_.b[k] : 0.0;
    case Rhs::Column: {
      const int i = contact_of(in.index);
      switch (kind(in.index)) {
        case Kind::Normal:
          return k == lambda_index(i) ? in.scale * nc_.mu[i] : 0.0;
        case Kind::Friction:
          return k == lambda_index(i) ? -in.scale : 0.0;
        case Kind::Cone:
          return kind(k) == Kind::Friction && contact_of(k) == i ? in.scale : 0.0;
      }
      return 0.0;
    }
    case Rhs::Unit:
      return k == in.index ? in.scale : 0.0;
  }
  return 0.0;
}

// The rows where input_extra may be non-zero for a Column or Unit input (a Q input's are
// every normal row): f(k) for each.
template <class F>
void FastLemke::for_each_input_row(const Rhs& in, F f) const {
  if (in.kind == Rhs::Unit) {
    f(in.index);
  } else if (in.kind == Rhs::Column) {
    const int i = contact_of(in.index);
    if (kind(in.index) != Kind::Cone) {
      f(lambda_index(i));
    } else {
      for (int j = 0; j < d_; ++j) f(phi_index(i, j));
    }
  }
}

// q_in_k: the row's column dotted with the input's velocity part, plus the constant part.
double FastLemke::input_row(const Rhs& in, int k) const {
  double value = input_extra(in, k);
  if (kind(k) == Kind::Cone) return value;
  const ContactColumn& row = kind(k) == Kind::Normal ? nc_.N[k] : friction(k);
  if (in.kind == Rhs::Q) {
    value += in.scale * column_dot(row, nc_.k);
  } else if (in.kind == Rhs::Column && kind(in.index) != Kind::Cone) {
    const ContactColumn& col =
        kind(in.index) == Kind::Normal ? nc_.N[in.index] : friction(in.index);
    value += in.scale * column_dot(row, col);
  }
  return value;
}

// Lloyd (25)-(28), (39), (42)/(44)/(47): partitions the basic phi into phi_kappa and one
// phi_x per basic lambda, forms N_*, D_*, c_* and the reduced matrix, and factors it.
bool FastLemke::build_basis(Factor how) {
  theta_rows_.clear();
  kappa_.clear();
  lambda_rows_.clear();
  nstar_.clear();
  dstar_.clear();
  for (int i = 0; i < n_; ++i) {
    x_of_[i] = -1;
    if (!active_[i]) continue;
    if (state_[i] == Pair::ZBasic) theta_rows_.push_back(i);
    if (state_[lambda_index(i)] != Pair::ZBasic) continue;
    for (int j = 0; j < d_ && x_of_[i] < 0; ++j) {
      if (state_[phi_index(i, j)] == Pair::ZBasic) x_of_[i] = phi_index(i, j);
    }
    // Lloyd App. C: a basic lambda always has a basic phi, unless the basis is singular.
    if (x_of_[i] < 0) return false;
    lambda_rows_.push_back(i);
  }
  for (int i = 0; i < n_; ++i) {
    if (!active_[i]) continue;
    kappa_begin_[i] = static_cast<int>(kappa_.size());
    for (int j = 0; j < d_; ++j) {
      const int g = phi_index(i, j);
      if (state_[g] == Pair::ZBasic && g != x_of_[i]) kappa_.push_back(g);
    }
    kappa_end_[i] = static_cast<int>(kappa_.size());
  }
  const int nt = static_cast<int>(theta_rows_.size());
  const int nk = static_cast<int>(kappa_.size());
  const int r = nt + nk + (z0_basic_ ? 1 : 0);
  if (r > rmax_) return false;
  stats_.max_reduced_size = std::max(stats_.max_reduced_size, r);

  // Lloyd (28): N_* = N_a + D_x mu_aa, D_* = D_kappa - D_x E_kk'; (39): c_* = D_x c_gamma.
  for (int i : theta_rows_) {
    const int x = x_of_[i];
    nstar_.push_back(x < 0 ? nc_.N[i] : combine(nc_.N[i], nc_.mu[i], friction(x)));
  }
  for (int g : kappa_) {
    const int x = x_of_[contact_of(g)];
    dstar_.push_back(x < 0 ? friction(g) : combine(friction(g), -1.0, friction(x)));
  }
  cstar_.setZero();
  for (int i : lambda_rows_) add_scaled_column(friction(x_of_[i]), c_[lambda_index(i)], &cstar_);

  // Rows nu_a and sigma_kappa: (N_a, D_*)' (N_*, D_*, c_*) plus the covering column c'.
  auto row_column = [&](int a) -> const ContactColumn& {
    return a < nt ? nc_.N[theta_rows_[a]] : a < nt + nk ? dstar_[a - nt] : prow_;
  };
  auto col_column = [&](int b) -> const ContactColumn& {
    return b < nt ? nstar_[b] : dstar_[b - nt];
  };
  auto row_cover = [&](int a) {
    if (a < nt) return c_[theta_rows_[a]];
    const int g = a < nt + nk ? kappa_[a - nt] : r_;
    if (kind(g) != Kind::Friction) return c_[g];
    const int x = x_of_[contact_of(g)];
    return c_[g] - (x < 0 ? 0.0 : c_[x]);  // c'_kappa (42), c'_r (45)
  };
  const bool cone_row = r_ >= 0 && kind(r_) == Kind::Cone;
  if (r_ >= 0 && !cone_row) {
    const int x = kind(r_) == Kind::Friction ? x_of_[contact_of(r_)] : -1;
    const ContactColumn& own = kind(r_) == Kind::Normal ? nc_.N[r_] : friction(r_);
    prow_ = x < 0 ? own : combine(own, -1.0, friction(x));  // d_* of (45)
  }
  auto entry = [&](int a, int b) {
    if (cone_row && a == r - 1) {
      // Lloyd (47): the gamma_r row is (mu_r, -e_kr', c_r); lambda_r is non-basic, so every
      // basic phi of contact r is in phi_kappa.
      const int i = contact_of(r_);
      if (b == r - 1) return c_[r_];
      if (b < nt) return theta_rows_[b] == i ? nc_.mu[i] : 0.0;
      return contact_of(kappa_[b - nt]) == i ? -1.0 : 0.0;
    }
    const ContactColumn& pa = row_column(a);
    if (z0_basic_ && b == r - 1) return column_dot(pa, cstar_) + row_cover(a);
    return column_dot(pa, col_column(b));
  };
  // The names lu_ follows the rows and columns by: a row is theta_i's (the w_r row of a
  // normal r is the same row), phi_g's with its contact's phi_x (so is a friction r's), or
  // the cone row of r; a column is theta_i's or phi_g's with the phi_x it was combined
  // with, or z0's with the set of phi_x that make c_* (28).
  enum : std::uint64_t { kRowTheta = 1, kRowPhi, kRowCone, kColTheta, kColPhi, kColZ0 };
  auto key = [](std::uint64_t kind, int index, int x) {
    return kind << 58 | static_cast<std::uint64_t>(index) << 29 | static_cast<std::uint64_t>(x + 1);
  };
  for (int a = 0; a < nt; ++a) {
    row_keys_[a] = key(kRowTheta, theta_rows_[a], -1);
    col_keys_[a] = key(kColTheta, theta_rows_[a], x_of_[theta_rows_[a]]);
  }
  for (int b = 0; b < nk; ++b) {
    const int x = x_of_[contact_of(kappa_[b])];
    row_keys_[nt + b] = key(kRowPhi, kappa_[b], x);
    col_keys_[nt + b] = key(kColPhi, kappa_[b], x);
  }
  if (r_ >= 0) {
    row_keys_[r - 1] = cone_row                   ? key(kRowCone, r_, -1)
                       : kind(r_) == Kind::Normal ? key(kRowTheta, r_, -1)
                                                  : key(kRowPhi, r_, x_of_[contact_of(r_)]);
  }
  if (z0_basic_) {
    std::uint64_t xs = 0;
    for (int i : lambda_rows_) xs ^= signature_key(x_of_[i]);
    col_keys_[r - 1] = kColZ0 << 58 | (xs >> 6);
  }
  rsize_ = r;
  const bool ok =
      lu_.factor(r, row_keys_.data(), col_keys_.data(), entry, tol_, how == Factor::Fresh);
  ++(lu_.last_fresh() ? stats_.fresh_factorisations : stats_.bordered_factorisations);
  // A solve carries round-off of about eps times the condition of the reduced matrix
  // (estimated by lu_); values below that are noise, not pivots.
  noise_ = std::max(tol_, 64.0 * std::numeric_limits<double>::epsilon() * lu_.condition());
  return ok;
}

// Solves the basis system for q_in (Lloyd App. A): reduced system (42)/(44)/(47), or (31)
// for a complementary basis, then phi_x by (38), v_c by (40) and lambda by (41). The values
// are the same bits with the bounds skipped. On Lloyd's stacks half of the solves are
// columns of B^-1 for ties, and every resting island's step solves its warm basis once.
void FastLemke::solve(const Rhs& in, Bounds bounds) {
  const bool bound = bounds == Bounds::Formed;
  const int nt = static_cast<int>(theta_rows_.size());
  const int nk = static_cast<int>(kappa_.size());
  const int r = rsize_;
  // b = -q_in on the non-basic rows; b_* = D_x b_gamma (28).
  bstar_.setZero();
  bgamma_.clear();
  bx_.clear();
  for (int i : lambda_rows_) {
    bgamma_.push_back(-input_row(in, lambda_index(i)));
    bx_.push_back(-input_row(in, x_of_[i]));
    add_scaled_column(friction(x_of_[i]), bgamma_.back(), &bstar_);
  }
  auto bx_of = [&](int contact) {
    const auto it = std::lower_bound(lambda_rows_.begin(), lambda_rows_.end(), contact);
    return (it != lambda_rows_.end() && *it == contact) ? bx_[it - lambda_rows_.begin()] : 0.0;
  };
  for (int a = 0; a < nt; ++a) {
    const int i = theta_rows_[a];
    rhs_[a] = -input_row(in, i) + column_dot(nc_.N[i], bstar_);
  }
  for (int b = 0; b < nk; ++b) {
    const int g = kappa_[b];
    rhs_[nt + b] = -input_row(in, g) - bx_of(contact_of(g)) + column_dot(dstar_[b], bstar_);
  }
  if (r_ >= 0) {
    double br = -input_row(in, r_);
    if (kind(r_) == Kind::Friction) br -= bx_of(contact_of(r_));  // b'_r (45)
    if (kind(r_) != Kind::Cone) br += column_dot(prow_, bstar_);
    rhs_[r - 1] = br;
  }
  // The reduced system solved with the factors of build_basis().
  lu_.solve(rhs_.data(), colscale_.data());
  // rhs_ holds the scaled unknowns y = S x of lu_; their error is about noise_ |y|_inf.
  double ynorm = 0.0;
  if (bound) {
    for (int a = 0; a < r; ++a) ynorm = std::max(ynorm, std::abs(rhs_[a]));
  }
  for (int a = 0; a < r; ++a) {
    rhs_[a] /= colscale_[a];
    if (bound) rmag_[a] = ynorm / colscale_[a];
  }
  z0val_ = z0_basic_ ? rhs_[r - 1] : 0.0;
  // Lloyd (40): v_c = N_* theta + D_* phi_kappa - b_* + c_* z0.
  v_ = cstar_ * z0val_ - bstar_;
  for (int a = 0; a < nt; ++a) {
    zval_[theta_rows_[a]] = rhs_[a];
    add_scaled_column(nstar_[a], rhs_[a], &v_);
  }
  for (int b = 0; b < nk; ++b) {
    zval_[kappa_[b]] = rhs_[nt + b];
    add_scaled_column(dstar_[b], rhs_[nt + b], &v_);
  }
  if (bound) {
    // Round-off bounds (first order, in units of noise_): a value derived from the reduced
    // unknowns carries the sum over its terms of |coefficient| times their bounds. The
    // ratio test judges each row by its own bound: with mu ~ 1000 the cone rows' values
    // are 1e5 times z0's, and one scale for all rows hid z0's tie (it then went on below
    // zero).
    z0mag_ = z0_basic_ ? rmag_[r - 1] : 0.0;
    lambda_mag_max_ = 0.0;
    vabs_.setZero();
    for (size_t s = 0; s < lambda_rows_.size(); ++s) {
      const int x = x_of_[lambda_rows_[s]];
      add_abs_column(friction(x),
                     std::abs(c_[lambda_index(lambda_rows_[s])]) * z0mag_ + std::abs(bgamma_[s]),
                     &vabs_);
    }
    for (int a = 0; a < nt; ++a) {
      zmag_[theta_rows_[a]] = rmag_[a];
      add_abs_column(nstar_[a], rmag_[a], &vabs_);
    }
    for (int b = 0; b < nk; ++b) {
      zmag_[kappa_[b]] = rmag_[nt + b];
      add_abs_column(dstar_[b], rmag_[nt + b], &vabs_);
    }
  }
  for (size_t s = 0; s < lambda_rows_.size(); ++s) {
    const int i = lambda_rows_[s];
    const int x = x_of_[i];
    const int l = lambda_index(i);
    double phi_sum = 0.0;
    for (int b = kappa_begin_[i]; b < kappa_end_[i]; ++b) phi_sum += zval_[kappa_[b]];
    const bool theta_basic = state_[i] == Pair::ZBasic;
    const double theta = theta_basic ? zval_[i] : 0.0;
    // Lloyd (38): phi_x = mu theta - E' phi_kappa + c_gamma z0 - b_gamma.
    zval_[x] = nc_.mu[i] * theta - phi_sum + c_[l] * z0val_ - bgamma_[s];
    // Lloyd (41): lambda = -D_x' v_c + b_x - c_x z0.
    zval_[l] = bx_[s] - c_[x] * z0val_ - column_dot(friction(x), v_);
    if (!bound) continue;
    double phi_mag = 0.0;
    for (int b = kappa_begin_[i]; b < kappa_end_[i]; ++b) phi_mag += zmag_[kappa_[b]];
    zmag_[x] = (theta_basic ? nc_.mu[i] * zmag_[i] : 0.0) + phi_mag + std::abs(c_[l]) * z0mag_ +
               std::abs(bgamma_[s]);
    zmag_[l] = std::abs(bx_[s]) + std::abs(c_[x]) * z0mag_ + abs_column_dot(friction(x), vabs_);
    lambda_mag_max_ = std::max(lambda_mag_max_, zmag_[l]);
  }
  // Velocity part of every row: V = u + N_a theta + D_a phi.
  V_ = v_;
  if (in.kind == Rhs::Q) {
    V_ += in.scale * nc_.k;
    if (bound) vabs_ += std::abs(in.scale) * nc_.k.cwiseAbs();
  } else if (in.kind == Rhs::Column && kind(in.index) != Kind::Cone) {
    const ContactColumn& col =
        kind(in.index) == Kind::Normal ? nc_.N[in.index] : friction(in.index);
    add_scaled_column(col, in.scale, &V_);
    if (bound) add_abs_column(col, std::abs(in.scale), &vabs_);
  }
  if (!bound) return;
  vabs_max_ = vabs_.maxCoeff();
  zmag_max_ = lambda_mag_max_;
  for (int a = 0; a < r; ++a) zmag_max_ = std::max(zmag_max_, rmag_[a]);
  for (int i : lambda_rows_) zmag_max_ = std::max(zmag_max_, zmag_[x_of_[i]]);
}

// A basic w row of a solve: Lloyd (36), M_ba x + q_in_b, from its velocity V (v_c), its
// basic z values z (the E, mu terms) and its z0: its kind's part and the covering and
// constant terms.
inline double FastLemke::basic_w_value(const Rhs& in, int k, const VecX& V, const VecX& z,
                                       double z0) const {
  const double cover = c_[k] * z0 + input_extra(in, k);
  switch (kind(k)) {
    case Kind::Normal:
      return normal_w_part(k, V) + cover;
    case Kind::Friction:
      return friction_w_part(k, V, z) + cover;
    case Kind::Cone:
      return cone_w_part(k, z) + cover;
  }
  return cover;
}

// The parts of Lloyd (36) that depend on the row's kind: n_k' V, d_k' V + lambda_i and
// mu_i theta_i - sum_j phi_ij, over the basic z.
inline double FastLemke::normal_w_part(int k, const VecX& V) const {
  return column_dot(nc_.N[k], V);
}

inline double FastLemke::friction_w_part(int k, const VecX& V, const VecX& z) const {
  const int l = lambda_index(contact_of(k));
  return column_dot(friction(k), V) + (state_[l] == Pair::ZBasic ? z[l] : 0.0);
}

inline double FastLemke::cone_w_part(int k, const VecX& z) const {
  const int i = contact_of(k);
  double value = state_[i] == Pair::ZBasic ? nc_.mu[i] * z[i] : 0.0;
  for (int j = 0; j < d_; ++j) {
    const int g = phi_index(i, j);
    if (state_[g] == Pair::ZBasic) value -= z[g];
  }
  return value;
}

// The round-off bound of basic_w_value, term by term, in units of noise_, from the bounds
// of a solve: vabs of its velocity, zmag of its basic z, z0mag of its z0.
double FastLemke::basic_w_magnitude(const Rhs& in, int k, const VecX& vabs, const VecX& zmag,
                                    double z0mag) const {
  const double cover = std::abs(c_[k]) * z0mag + std::abs(input_extra(in, k));
  const int i = contact_of(k);
  switch (kind(k)) {
    case Kind::Normal:
      return abs_column_dot(nc_.N[k], vabs) + cover;
    case Kind::Friction: {
      const int l = lambda_index(i);
      return abs_column_dot(friction(k), vabs) + (state_[l] == Pair::ZBasic ? zmag[l] : 0.0) +
             cover;
    }
    case Kind::Cone: {
      double mag = state_[i] == Pair::ZBasic ? nc_.mu[i] * zmag[i] : 0.0;
      for (int j = 0; j < d_; ++j) {
        const int g = phi_index(i, j);
        if (state_[g] == Pair::ZBasic) mag += zmag[g];
      }
      return mag + cover;
    }
  }
  return cover;
}

// The basic z values of a solve and their round-off bounds (those of the basic w are formed
// only where the ratio test reads them, by basic_w_magnitude): the ones solve() forms, the
// basic theta, phi_kappa, phi_x and lambda of build_basis's lists, not a pass over every row.
void FastLemke::store_basic_z(const Rhs& in, VecX* out, VecX* magnitude) {
  solve(in);
  auto store = [&](int k) {
    (*out)[k] = zval_[k];
    (*magnitude)[k] = zmag_[k];
  };
  for (int i : theta_rows_) store(i);
  for (int g : kappa_) store(g);
  for (int i : lambda_rows_) {
    store(x_of_[i]);
    store(lambda_index(i));
  }
}

// All the basic values of a solve: its basic z and every basic w. A driving column or a
// unit column has a constant part on a few rows only (input_extra), so the pass over the
// basic w rows (one per kind of row: rows_ ascends through normal, friction and cone rows)
// adds none, as basic_w_value adds zero there, and those few rows are formed again whole.
// The values are basic_w_value's to the bit. Lloyd's peg (n = 32, d = 8, reduced method):
// the general form per row was a fifth of a solve's instructions.
void FastLemke::store_basic_values(const Rhs& in, VecX* out, VecX* magnitude) {
  store_basic_z(in, out, magnitude);
  const double z0v = z0();
  if (in.kind == Rhs::Q) {
    for (int k : rows_) {
      if (state_[k] == Pair::WBasic) (*out)[k] = basic_w_value(in, k, V_, zval_, z0v);
    }
    return;
  }
  // c_k z0 + 0.0: basic_w_value adds input_extra's zero, which turns a -0.0 into +0.0.
  const auto friction_begin = std::lower_bound(rows_.begin(), rows_.end(), n_);
  const auto cone_begin = std::lower_bound(friction_begin, rows_.end(), n_ + n_ * d_);
  for (auto it = rows_.begin(); it != friction_begin; ++it) {
    if (state_[*it] == Pair::WBasic) (*out)[*it] = normal_w_part(*it, V_) + (c_[*it] * z0v + 0.0);
  }
  for (auto it = friction_begin; it != cone_begin; ++it) {
    if (state_[*it] == Pair::WBasic)
      (*out)[*it] = friction_w_part(*it, V_, zval_) + (c_[*it] * z0v + 0.0);
  }
  for (auto it = cone_begin; it != rows_.end(); ++it) {
    if (state_[*it] == Pair::WBasic) (*out)[*it] = cone_w_part(*it, zval_) + (c_[*it] * z0v + 0.0);
  }
  for_each_input_row(in, [&](int k) {
    if (state_[k] == Pair::WBasic) (*out)[k] = basic_w_value(in, k, V_, zval_, z0v);
  });
}

// q' of a basic w row, formed from the q solve's velocity Vq_ and basic z only when first
// read: a pivot reads q' on the rows with m' < 0 alone (the ratio test), and on every row
// only when z0 is small enough to have vanished. Lloyd's peg (n = 32, d = 8, reduced
// method): 7 % of a solve's instructions.
void FastLemke::form_q_row(int k) {
  if (q_formed_[k] || state_[k] != Pair::WBasic) return;
  qval_[k] = basic_w_value(Rhs{Rhs::Q, -1, 1.0}, k, Vq_, qval_, qz0_);
  q_formed_[k] = 1;
}

void FastLemke::form_q_rows() {
  for (int k : rows_) form_q_row(k);
}

// The rows taking part, in index order (the order every pass over them keeps, ties
// included): all of them for Structural, the normal rows and the active contacts' for
// Reduced. Only start_basis and activate change which rows take part. On Lloyd's peg
// (n = 32, d = 8) a reduced solve ends with 10 contacts active on average, 122 of the 320
// rows: passing over those alone took 10 % of its instructions off. Their covering
// entries are set by then, so their largest is taken here too (cover_changed).
void FastLemke::list_rows() {
  rows_.clear();
  for (int k = 0; k < size_; ++k) {
    if (state_[k] != Pair::Inactive) rows_.push_back(k);
  }
  cover_changed();
}

// The largest covering entry of a row taking part (Reduced: of the active contacts), kept
// for max_cover(): every pivot reads it, and it changes only with the rows or the cover
// (list_rows, warm_cover). Formed per pivot it was 3 % of the reduced peg's time (n = 32)
// under perf in a RelWithDebInfo build; in Release the difference is below the noise.
void FastLemke::cover_changed() {
  cmax_ = 0.0;
  for (int k : rows_) cmax_ = std::max(cmax_, std::abs(c_[k]));
}

// Lloyd Sec. 5.3 and App. D: adds contact i's phi, lambda (non-basic) and sigma, gamma
// (basic) when theta_i is about to enter. (59) makes the new rows feasible at the current
// basis only; that can leave the basis on a closed loop of Lemke paths of the expanded LCP
// (we saw random problems cycle without a degenerate pivot). Taking the bound over every
// vertex visited so far makes the whole path so far a Lemke path of the expanded LCP from
// its primary ray, which cannot close on itself. On that path lambda_i = theta_i = 0, so
// sigma_ij = d_ij' v_c + c z0 and gamma_i = c z0: c >= 1 + max(0, -d_ij' v_c / z0) keeps
// every new row >= z0 > 0 there, strictly inside as the lexicographic rule needs.
FastLemke::Activation FastLemke::activate(int i) {
  if (!(qz0_ > 0.0)) return Activation::Failed;
  active_[i] = 1;
  ++stats_.activated_contacts;
  const int dim = 6 * nc_.num_bodies;
  double worst = 0.0;  // max over vertices and directions of -d_ij' v_c / z0
  for (size_t h = 0; h < path_.size(); h += dim) {
    // Copied into kept storage: a Map handed to column_dot's const VecX& was a new vector.
    path_vertex_ = Eigen::Map<const VecX>(path_.data() + h, dim);
    for (int j = 0; j < d_; ++j) {
      worst = std::max(worst, -column_dot(friction(phi_index(i, j)), path_vertex_));
    }
  }
  const double cover = 1.0 + worst;
  if (cover > kMaxCover) return Activation::Restart;
  for (int j = 0; j <= d_; ++j) {
    const int k = j < d_ ? phi_index(i, j) : lambda_index(i);
    state_[k] = Pair::WBasic;
    c_[k] = cover;
    qval_[k] = (j < d_ ? column_dot(friction(k), Vq_) : 0.0) + cover * qz0_;
    q_formed_[k] = 1;
  }
  list_rows();
  return Activation::Added;
}

// Whether z0 leaves: Feasible when the step that takes z0 to zero leaves every basic row
// at or above zero to within tol_ times its round-off bound, or to within slack_, a tenth
// of the acceptance tolerance. The complementary basis z0's leaving gives is then an
// accepted solution. This covers z0's ties and more: problems with physical gaps of 1e-11
// beside values of 0.1 (a block over a hole) have rows whose ratios differ from z0's by
// 1e-10 relative, beyond round-off but below what the answer resolves, and taking such a
// row instead of z0 goes on through bases too degenerate to compute. It is not a test of
// z0 alone: a z0 below its own round-off bound may still be far from a solution's basis.
// WithinNoise when some row is below that but within noise_ times its bound: whether it is
// round-off there is for the answer to say (pivot_to_solution), as noise_, from the reduced
// matrix's condition estimate, overstates a value's error by up to 1e4 on a pile's island.
// Row `first` is tested first: the row of the smallest ratio, it is the one z0's step most
// often takes below zero, which spares the pass over the others on nearly every pivot.
FastLemke::Z0Step FastLemke::z0_step(int first) {
  if (!(mz0_ < 0.0)) return Z0Step::Blocked;
  const double t = std::max(qz0_, 0.0) / -mz0_;
  auto judge = [&](int k) {
    const double value = qval_[k] + t * mval_[k];
    if (value >= -slack_) return Z0Step::Feasible;
    bound_row(k);
    const double bound = qmag_[k] + t * mmag_[k];
    if (value >= -tol_ * bound) return Z0Step::Feasible;
    return value >= -noise_ * bound ? Z0Step::WithinNoise : Z0Step::Blocked;
  };
  Z0Step step = first >= 0 ? judge(first) : Z0Step::Feasible;
  if (step == Z0Step::Blocked) return step;
  for (int k : negative_) {
    const Z0Step row = judge(k);
    if (row == Z0Step::Blocked) return row;
    if (row == Z0Step::WithinNoise) step = row;
  }
  return step;
}

// Whether z0 is zero to within slack on every row: dropping it moves row k of
// w = M z + q + c z0 by c_k z0 <= slack, so the current basis with z0 dropped is an answer
// the acceptance rule takes, its only non-complementary pair (the driving one) being both
// zero (Lloyd Step 2, z0 at zero ties with every step). Going on would pivot among values
// of z0's size, which are noise there: on the ten-block tower after 130 s at rest (gaps of
// 1e-12 m, speeds of 5e-11 m/s) z0 came down to 7e-11 and six degenerate pivots cycled
// to the pivot limit.
bool FastLemke::z0_vanished(double slack) {
  if (!z0_basic_ || std::max(qz0_, 0.0) * max_cover() > slack) return false;
  // A basis whose values are not feasible is no answer, whatever z0.
  form_q_rows();
  for (int k : rows_) {
    if ((state_[k] == Pair::ZBasic || state_[k] == Pair::WBasic) && qval_[k] < -slack) return false;
  }
  return true;
}

// row_l1_ for the ratio test (blocks), formed by the first path of a solve: a warm start
// that answers reads none of it.
void FastLemke::form_row_l1() {
  if (row_l1_formed_) return;
  row_l1_.setZero(size_);
  for (int k = 0; k < n_ + n_ * d_; ++k) {
    const ContactColumn& col = k < n_ ? nc_.N[k] : nc_.D[k - n_];
    for (int t = 0; t < 2; ++t) {
      if (col.body[t] >= 0) row_l1_[k] += col.block[t].lpNorm<1>();
    }
  }
  for (int i = 0; i < n_; ++i) row_l1_[lambda_index(i)] = nc_.mu[i] + d_;
  row_l1_formed_ = true;
}

// The round-off bounds of a row with m' < 0 for this pivot (those of a basic w are formed
// here, once, when the ratio test first needs them).
void FastLemke::bound_row(int k) {
  if (bounded_[k]) return;
  qmag_[k] = basic_w_magnitude(Rhs{Rhs::Q, -1, 1.0}, k, Vqabs_, qmag_, qz0mag_);
  mmag_[k] = basic_w_magnitude(drive_, k, vabs_, mmag_, mz0mag_);
  bounded_[k] = 1;
}

// Whether a row with m' < 0 blocks: its m' is negative beyond round-off, and by more than
// kDeterminate bounds for a determinate row. An upper bound of a basic w row's bound
// decides nearly every row at the cost of a multiply: |row|_1 times the largest bound of
// what it sums (|vabs|_inf for a normal or friction row's dot product, the largest basic z
// bound for a cone row's mu theta - sum phi), the largest lambda bound for a friction row's
// lambda, and one for the driving column's own entry (a unit or a cone column). The bound
// itself is formed only for an m' near zero.
Blocking FastLemke::blocks(int k) {
  if (!bounded_[k]) {
    const bool cone = k >= n_ + n_ * d_;
    const double upper = row_l1_[k] * (cone ? zmag_max_ : vabs_max_) +
                         (k < n_ || cone ? 0.0 : lambda_mag_max_) + std::abs(c_[k]) * mz0mag_ + 1.0;
    if (mval_[k] < -kDeterminate * noise_ * upper) return Blocking::Determinate;
  }
  bound_row(k);
  if (mval_[k] < -kDeterminate * noise_ * mmag_[k]) return Blocking::Determinate;
  return mval_[k] < -noise_ * mmag_[k] ? Blocking::Indeterminate : Blocking::No;
}

// Harris's ratio test (1973) for the indeterminate rows, with the leaving slack as its
// feasibility tolerance. Four contacts with one normal between two bodies have normal
// columns of rank three, so with three of them basic the fourth row's m' is exactly zero
// and its computed value is round-off of either sign: taking it as blocking puts a pivot
// element of round-off into the basis. The indeterminate rows are left out of the ratio
// test when the step to the first determinate row or to z0's leaving (tmin) leaves each
// of them at or above -slack_: the answer the path ends on is then one the acceptance rule
// takes, and every pivot element is a resolved one. When one of them would go further
// below zero, it is needed to stop the step: returns false, and they all block as before.
// A row already below -slack_ goes further below only by what the step adds: judged by
// its value after the step alone it blocked at any step, tmin = 0 included, and at ratio 0
// the lexicographic rule could take it whatever its m'. On the ten-block tower at d = 8
// (step 54159 of an hour) a basic z at -3.25e-8 with m' = -6.8e-12, 1.3 of its bounds, was
// taken so, the next basis was singular, and so was every cover restart's. Such a row
// left out sets *spared_infeasible (the path's end may then be a ray of that round-off).
bool FastLemke::indeterminate_rows_stay_feasible(double tmin, bool* spared_infeasible) const {
  for (int k : indeterminate_) {
    const double after = qval_[k] + tmin * mval_[k];
    if (!(after >= std::min(qval_[k], 0.0) - slack_)) return false;
    if (after < -slack_) *spared_infeasible = true;
  }
  return true;
}

// Lexicographic ratio test (Cottle-Pang-Stone Sec. 4.9): among the tied candidates keep
// those minimising (B^-1 B0)_{k,j} / divisor_k for j = 1, 2, ... until one is left, B0
// being the basis the path started from. Its guarantee against cycling is that the rows
// of [q', B^-1 B0] are lexicographically positive after z0 enters, as they are when q is
// perturbed along B0's columns (e, e^2, ...): B^-1 B0 is the identity at the start. From
// Step 0, B0 = I and these are the columns of B^-1. From a warm basis, B^-1's own columns
// (the identity's order) gave no such start, and paths cycled: on the bin pile's settling
// island (scenes/bin_pile_40.json, step 91, 166 contacts) the reduced method's warm path
// went round a cycle twice and failed after 990 pivots, and Step 0 then took 885 more.
// Columns are computed only here, on demand (Lloyd Sec. 4: a column costs a solve).
int FastLemke::lexicographic_min(const VecX& divisor) {
  for (int j = 0; j < size_ && candidates_.size() > 1; ++j) {
    if (state_[j] == Pair::Inactive) continue;
    // B0's column j: e_j for a basic w_j, -M_j for a basic z_j.
    const bool b0_z = !lex_start_z_.empty() && lex_start_z_[j];
    if ((state_[j] == Pair::WBasic && !b0_z) || (state_[j] == Pair::ZBasic && b0_z)) {
      // B0's column j is the column of pair j's basic variable in B as well, so column j of
      // B^-1 B0 is that variable's unit vector: only its row has a (positive) entry, so it
      // is the one dropped.
      const auto it = std::find(candidates_.begin(), candidates_.end(), j);
      if (it != candidates_.end()) candidates_.erase(it);
      continue;
    }
    ++stats_.inverse_columns;
    const Rhs unit = b0_z ? Rhs{Rhs::Column, j, -1.0} : Rhs{Rhs::Unit, j, 1.0};
    solve(unit, Bounds::Skipped);
    double best = std::numeric_limits<double>::infinity();
    double scale = 0.0;
    entries_.clear();
    for (int k : candidates_) {
      entries_.push_back(
          (state_[k] == Pair::ZBasic ? zval_[k] : basic_w_value(unit, k, V_, zval_, z0())) /
          divisor[k]);
      best = std::min(best, entries_.back());
      scale = std::max(scale, std::abs(entries_.back()));
    }
    keep_.clear();
    for (size_t s = 0; s < candidates_.size(); ++s) {
      if (entries_[s] <= best + noise_ * scale) keep_.push_back(candidates_[s]);
    }
    candidates_.swap(keep_);
  }
  return candidates_.front();
}

// Final complementary basis: Lloyd (31) gives theta_a, phi_kappa; (27), (30) the rest.
void FastLemke::finish(LcpResult* result) {
  result->z = VecX::Zero(size_);
  for (int k = 0; k < size_; ++k) {
    if (state_[k] == Pair::ZBasic) result->z[k] = zval_[k];
  }
  VecX& V = vfinal_;
  impulse_velocity(result->z, true, &V);
  // A contact never added has theta = phi = 0, so gamma = 0 and any lambda >= 0 is
  // complementary to it; the smallest one with sigma = D'v + lambda >= 0 completes z.
  for (int i = 0; i < n_; ++i) {
    if (active_[i]) continue;
    double lambda = 0.0;
    for (int j = 0; j < d_; ++j) lambda = std::max(lambda, -column_dot(nc_.D[i * d_ + j], V));
    result->z[lambda_index(i)] = lambda;
  }
  lcp_rows(result->z, V, true, &result->w);
}

// v = k + N theta + D phi (with_free), or without k: the normalised velocity that the
// impulses z give, Lloyd (27), through which M z is formed without forming M.
void FastLemke::impulse_velocity(const VecX& z, bool with_free, VecX* v) const {
  if (with_free) {
    *v = nc_.k;
  } else {
    v->setZero(6 * nc_.num_bodies);
  }
  for (int i = 0; i < n_; ++i) add_scaled_column(nc_.N[i], z[i], v);
  for (int g = 0; g < n_ * d_; ++g) add_scaled_column(nc_.D[g], z[n_ + g], v);
}

// The rows of M z (+ q with with_q) from z and its velocity v (impulse_velocity with the
// same with_free): nu = N'v (+ b), sigma = D'v + lambda, gamma = mu theta - sum phi.
void FastLemke::lcp_rows(const VecX& z, const VecX& v, bool with_q, VecX* w) const {
  w->setZero(size_);
  for (int i = 0; i < n_; ++i) {
    (*w)[i] = column_dot(nc_.N[i], v) + (with_q ? nc_.b[i] : 0.0);
    double cone = nc_.mu[i] * z[i];
    for (int j = 0; j < d_; ++j) {
      const int g = phi_index(i, j);
      (*w)[g] = column_dot(friction(g), v) + z[lambda_index(i)];
      cone -= z[g];
    }
    (*w)[lambda_index(i)] = cone;
  }
}

// Warm start: the given complementary basis solved, Lloyd (31) as for a path's final
// basis. A resting stack keeps its basis from step to step, so this is the whole solve;
// re-finding it from Step 0 took 31 pivots a step on the ten-block tower, and among the
// exactly tied corners of a face the path could take another one than the step before,
// through rows whose m' and values are the data's noise (docs/robustness.md). The answer
// is taken when every z and w is at or above -slack (as feasible as the end of a path) and
// it passes the acceptance rule. Short of that, the most negative entry's pair is flipped
// (a basic z below zero leaves, a w below zero brings its z in: a principal pivot, Murty's
// method with the most negative entry) and the basis solved again, up to kFlipRepairs
// times: a basic value of a face's fourth, unloaded contact drifts below -slack over
// minutes at rest, and one flip restores a feasible basis. Else the solver is left as it
// was, for Step 0.
FastLemke::WarmStart FastLemke::warm_answer(const LcpBasis& warm, LcpResult* result) {
  WarmStart out;
  if (static_cast<int>(warm.z_basic.size()) != size_) return out;
  warm_basic_ = warm.z_basic;
  const int flips = flip_to_answer(answer_slack(), kFlipRepairs, result, &out.at_rest);
  if (flips < 0) return out;
  stats_.warm_repairs = flips;
  out.answered = true;
  return out;
}

// How far below zero an entry of an answer found by flips may be: the leaving slack of a
// path (pivot_to_solution) on this problem's q.
double FastLemke::answer_slack() const { return kLeavingSlack * std::max(1.0, qinf_); }

// The flips of warm_answer from the basis in warm_basic_, at most max_flips: the number of
// flips that made it an answer with every entry at or above -slack that the acceptance rule
// takes, or -1 (the solver's active contacts then as they were). A stop request is heard
// between flips. first_at_rest, when given, is set to whether the basis's answer before any
// flip is at_rest within slack (left as it is when that basis cannot be solved).
//
// A flip that makes the basis singular is undone, and that pair is neither flipped again
// nor held to the slack, only to the acceptance rule as the whole answer is: its variable's
// column depends on the basic ones (a face's coplanar corners), so its value follows from
// theirs, and what it lacks of zero is their round-off. The next most negative pair is
// flipped instead (each try counts as a flip). Given up at the first such flip, the 40-body
// bin pile went to Step 0 at rest (scenes/bin_pile_40.json, steps 97 to 127 on one
// trajectory): one normal row of its last basis at -1.5e-9 (the rule takes 1e-9 |q|), that
// contact's theta brought in made the reduced system singular, and Step 0's paths took
// 3,800 to 8,200 pivots a step.
int FastLemke::flip_to_answer(double slack, int max_flips, LcpResult* result, bool* first_at_rest) {
  cold_active_ = active_;
  flips_.clear();
  for (int repair = 0; repair <= max_flips && !stop_(); ++repair) {
    for (int k = 0; k < size_; ++k) {
      if (warm_basic_[k]) active_[contact_of(k)] = 1;  // Reduced: its friction rows take part
    }
    start_basis();
    for (int k = 0; k < size_; ++k) {
      if (warm_basic_[k]) state_[k] = Pair::ZBasic;
    }
    const auto t0 = Clock::now();
    const bool ok = build_basis(Factor::Fresh);
    stats_.factor_time_us += microseconds_since(t0);
    if (!ok) {
      if (!flips_.undo_singular(&warm_basic_)) break;  // the basis as given
      continue;
    }
    solve(Rhs{Rhs::Q, -1, 1.0}, Bounds::Skipped);
    finish(result);
    if (repair == 0 && first_at_rest) *first_at_rest = at_rest(result->z, result->w, n_, d_, slack);
    auto entry = [&](int k) { return std::min(result->z[k], result->w[k]); };
    const int worst = flips_.most_negative(size_, entry);
    if ((worst < 0 || entry(worst) >= -slack) && accepted(*result)) return repair;
    if (worst < 0) break;
    flips_.flip(worst, &warm_basic_);
  }
  active_ = cold_active_;
  return -1;
}

// The covering vector of a path from the complementary basis B in state_: c = B e, so that
// the basic values B^-1 (q + c z0) = B^-1 q + z0 e all rise with z0 at unit rate and z0's
// entering makes B feasible, as Step 0 does for the all-w basis (the ray B e of Fackler and
// Miranda's lemke, CompEcon). With w = M z + q + c z0 and z_Z basic, B's columns are e_k
// for the basic w and -M_k for the basic z, so c = e_W - M 1_Z: M 1_Z formed as finish()
// forms M z, through the bodies' velocities. Its entries have either sign, which is why
// the round-off bounds take |c_k|.
void FastLemke::warm_cover() {
  basic_ones_.setZero(size_);
  for (int k = 0; k < size_; ++k) {
    if (state_[k] == Pair::ZBasic) basic_ones_[k] = 1.0;
  }
  VecX& V = vfinal_;
  impulse_velocity(basic_ones_, false, &V);
  lcp_rows(basic_ones_, V, false, &basic_rows_);
  for (int k = 0; k < size_; ++k) {
    if (state_[k] != Pair::Inactive)
      c_[k] = (state_[k] == Pair::WBasic ? 1.0 : 0.0) - basic_rows_[k];
  }
  cover_changed();
  lu_.invalidate();  // the covering entries are in the reduced matrix's z0 column
}

// Lemke's path from the warm basis (issue 15, item 1), started there with the covering
// vector of warm_cover, when the flips have not made the basis an answer and the island
// moves (run()). A path from a basis that is nearly the answer is short where Step 0's may
// be long: on the 40-body bin pile under the structural method a sliding contact reverses
// between steps, the flip that would follow it is singular, and Step 0's paths take 2,700
// to 15,800 pivots a step (docs/lemke-fast.md, "Warm start"). Within kWarmPathPivots per
// variable, with no other cover; on any failure the solver is left for Step 0 with its
// active contacts as they were. Solved (an answer the rule takes) or Cancelled, else
// nothing.
//
// The reduced method's path asks for a restart when it activates a contact whose covering
// entry would be too large (activate()); that contact stays active and the path starts
// again from the basis, as Step 0's paths do (each restart activates one more contact, all
// within the one budget). Given up instead, each such step went back to Step 0: on a
// 40-box pile (`bench/pile_scene.py 40 40`, first 300 steps) 42 of 246 warm paths ended so,
// and the Step 0 paths after them took 20,100 of the run's 42,317 pivots.
std::optional<LcpStatus> FastLemke::warm_path(const LcpBasis& warm, LcpResult* result) {
  if (static_cast<int>(warm.z_basic.size()) != size_) return std::nullopt;
  // Every contact separating (q >= 0 on Step 0's rows): z = 0, which Step 0 sees at once.
  const Rhs q_rhs{Rhs::Q, -1, 1.0};
  bool separating = true;
  for (int k = 0; k < size_ && separating; ++k) {
    if (kind(k) == Kind::Normal || active_[contact_of(k)]) separating = input_row(q_rhs, k) >= 0.0;
  }
  if (separating) return std::nullopt;
  cold_active_ = active_;
  for (int k = 0; k < size_; ++k) {
    if (warm.z_basic[k]) active_[contact_of(k)] = 1;
  }
  const int limit = max_pivots_;
  max_pivots_ = std::min(limit, result->pivots + kWarmPathPivots * size_);
  std::optional<LcpStatus> status;
  lex_start_z_ = warm.z_basic;
  while (!status) {
    start_basis();
    for (int k = 0; k < size_; ++k) {
      if (warm.z_basic[k]) state_[k] = Pair::ZBasic;
    }
    warm_cover();
    status = pivot_to_solution(result, Start::Warm);
  }
  lex_start_z_.clear();
  max_pivots_ = limit;
  if (status == LcpStatus::Cancelled) return status;
  if (status == LcpStatus::Solved && (answered_ || final_answer(result))) {
    ++stats_.warm_paths;
    return status;
  }
  active_ = cold_active_;
  return std::nullopt;
}

// The last resort after every covering vector's path has failed: the first path end the
// acceptance rule refused, made an answer by the flips of a warm start (up to kEndFlips),
// judged by the rule alone, not the warm start's tenfold stricter slack. On the ten-block
// tower at d = 8 (tests/lcp/soak/block_tower_10_d8_step91937.contact) the first path ends
// 4.3e-9 below zero in a basic z and every cover restart fails as well; seven flips, each
// of a friction row whose w is the data's noise (-1e-9 m/s at rest, eight directions
// tied), bring it to -7.4e-10, inside the rule's 1e-9. Last, not first: taken before the
// cover restarts, such answers at the rule's edge made the tower rock (the hour at d = 8:
// 1 failed step, 94 fallbacks and 0.98 mm of drift, against 0, 12 and 1.1e-7 m without
// the repair; docs/robustness.md, "Path ends repaired by flips"). In a World step the
// fallback chain defers it further, behind all its other stages (contact_fallback.cpp).
bool FastLemke::repaired_end(LcpResult* result) {
  warm_basic_ = first_refused_;
  const int flips = flip_to_answer(std::numeric_limits<double>::infinity(), kEndFlips, result);
  if (flips < 0) return false;
  stats_.end_repairs += flips;
  return true;
}

// An answer in which a loaded contact slides by less than the leaving slack, its friction
// unused (phi = 0, sigma = D'v + lambda below zero within the slack), is a solution the
// rule takes but not the one the data asks for: at rest that sliding is momentum no step
// removes. On the ten-block tower (d = 4, an hour's step 70000) every method ended on such
// an answer, each interface sliding by 7e-11 and the top block by 7.3e-10 m/s; the warm
// start took it again at every step and the tower crept 2.5e-6 m in the hour. So the most
// negative such sigma has its phi brought in (a principal pivot) and the basis is solved
// again, up to kFlipRepairs times, while each answer passes the rule with every entry at
// or above -slack (as the warm start's): there twelve flips gave 5.2e-13 m/s and the
// hour's drift fell to 2.5e-8 m. An answer a flip makes worse is not taken: the one before
// it stays. Only an answer at rest (at_rest) is polished: a moving island's sliding is
// gone in a step, and polishing the bin pile's landing (each flip a fresh solve of the
// reduced system) took its 10 s test from 25 s to 4.5 minutes. Only a path's answer is
// polished, as its basis is the next step's warm start: a warm start's polished too, the
// warm start's repairs and these flips moved the same rows back and forth every step on
// block_stack_5 (3.3 times the CPU). The basis ends in warm_basic_.
void FastLemke::engage_friction(LcpResult* result) {
  warm_basic_.assign(size_, 0);
  for (int k = 0; k < size_; ++k) warm_basic_[k] = state_[k] == Pair::ZBasic;
  const double slack = answer_slack();
  if (!at_rest(result->z, result->w, n_, d_, slack)) return;
  for (int flip = 0; flip < kFlipRepairs && !stop_(); ++flip) {
    const int worst = sliding_friction_row(result->z, result->w, warm_basic_, n_, d_, slack);
    if (worst < 0) return;
    engaged_ = *result;
    engaged_basic_ = warm_basic_;
    warm_basic_[worst] = 1;
    if (flip_to_answer(slack, kFlipRepairs, result) < 0) {
      warm_basic_.swap(engaged_basic_);
      *result = engaged_;
      return;
    }
    ++stats_.friction_flips;
  }
}

// The basis of Step 0 with the active contacts' rows (all of them for Structural).
void FastLemke::start_basis() {
  state_.assign(size_, Pair::Inactive);
  for (int i = 0; i < n_; ++i) {
    state_[i] = Pair::WBasic;
    if (!active_[i]) continue;
    for (int j = 0; j < d_; ++j) state_[phi_index(i, j)] = Pair::WBasic;
    state_[lambda_index(i)] = Pair::WBasic;
  }
  // Ones, or spread (the fallback chain's PerturbedCover stage, another_cover): another way
  // through the degenerate vertices.
  spread_cover(size_, cover_perturbation_, cover_seed_, &c_);
  list_rows();
  lu_.invalidate();  // the covering entries are in the reduced matrix's z0 column
  zval_ = VecX::Zero(size_);
  zmag_ = VecX::Zero(size_);
  qval_ = VecX::Zero(size_);
  mval_ = VecX::Zero(size_);
  ratio_ = VecX::Zero(size_);
  qmag_ = VecX::Zero(size_);
  mmag_ = VecX::Zero(size_);
  r_ = -1;
  z0_basic_ = false;
  driving_is_z_ = true;
  path_.clear();
}

// Prepares a restart from Step 0 with covering entries spread another way (the reduced
// method keeps its active contacts), which orders the degenerate vertices' ties anew. For
// every numerical failure of a path: one that cycled, met a singular basis, ended on a ray
// (on the ten-block tower at d = 16, step 30766 of an hour, the reduced method's first
// path did, its second solves), or ended on a basis whose answer the acceptance check
// refuses (values off by 2e-7 on an ill-conditioned final basis of a 28-box pile's island,
// issue 21, solved in 944 pivots after one restart where the structural method took
// 19,493). False after kCoverRestarts: the solve fails, for the fallback chain.
bool FastLemke::another_cover() {
  if (stats_.cover_restarts == kCoverRestarts) return false;
  ++stats_.cover_restarts;
  cover_perturbation_ = std::max(cover_perturbation_, kRestartCoverSpread);
  cover_seed_ += kCoverSeedStep;
  return true;
}

// A cycle's or crawling path's answer the rule takes at its full tolerance, kept when its
// most negative entry is above that of the one kept so far (with its basis, the current
// basic z).
void FastLemke::keep_cycle_end(const LcpResult& answer, double min_entry) {
  if (!(min_entry > cycle_end_min_)) return;
  cycle_end_min_ = min_entry;
  cycle_end_.z = answer.z;
  cycle_end_.w = answer.w;
  cycle_end_basic_.resize(size_);
  for (int k = 0; k < size_; ++k) cycle_end_basic_[k] = state_[k] == Pair::ZBasic;
}

// The current complementary basis, whose answer the acceptance check refused, as the first
// such end for repaired_end() unless one is kept.
void FastLemke::keep_refused_end() {
  if (!first_refused_.empty()) return;
  first_refused_.resize(size_);
  for (int k = 0; k < size_; ++k) first_refused_[k] = state_[k] == Pair::ZBasic;
}

// Lemke's method from Step 0 to a complementary basis or another end; nullopt asks for a
// restart: a contact could only be added with a covering entry above kMaxCover, and it is
// now marked active. Counts the pivots into result->pivots. An end whose answer was judged
// on the way (z0's leaving within noise) leaves that answer in *result and sets answered_.
std::optional<LcpStatus> FastLemke::pivot_to_solution(LcpResult* result, Start start) {
  int* pivots = &result->pivots;
  answered_ = false;
  form_row_l1();
  const Rhs q_rhs{Rhs::Q, -1, 1.0};
  double qinf = 0.0;
  for (int k = 0; k < size_; ++k) {
    qval_[k] = input_row(q_rhs, k);
    qinf = std::max(qinf, std::abs(qval_[k]));
  }
  const double qscale = std::max(1.0, qinf);
  slack_ = kLeavingSlack * qscale;
  std::uint64_t z_keys = 0;  // XOR of the keys of the basic z
  double lowest = 0.0;
  candidates_.clear();
  if (start == Start::Cold) {
    // Step 0 (Lloyd Sec. 4): z = 0 if q >= 0, else z0 enters and the row with the smallest
    // q_i / c_i (lexicographically) leaves.
    for (int k = 0; k < size_; ++k) {
      if (state_[k] != Pair::Inactive) lowest = std::min(lowest, qval_[k] / c_[k]);
    }
    if (lowest >= 0.0) return LcpStatus::Solved;
    for (int k = 0; k < size_; ++k) {
      if (state_[k] != Pair::Inactive && qval_[k] / c_[k] <= lowest * (1.0 - tol_))
        candidates_.push_back(k);
    }
    r_ = lexicographic_min(c_);
    driving_is_z_ = true;
  } else {
    // From the warm basis B, whose covering vector B e (warm_cover) raises every basic
    // value at unit rate with z0: z0 enters at the most negative one, which leaves, and its
    // complement drives.
    const auto t0 = Clock::now();
    const bool ok = build_basis(Factor::Fresh);
    stats_.factor_time_us += microseconds_since(t0);
    if (!ok) return LcpStatus::NumericalFailure;
    store_basic_values(q_rhs, &qval_, &qmag_);
    for (int k = 0; k < size_; ++k) {
      if (state_[k] == Pair::ZBasic || state_[k] == Pair::WBasic)
        lowest = std::min(lowest, qval_[k]);
    }
    if (lowest >= 0.0) return LcpStatus::Solved;
    for (int k = 0; k < size_; ++k) {
      if ((state_[k] == Pair::ZBasic || state_[k] == Pair::WBasic) &&
          qval_[k] <= lowest * (1.0 - tol_))
        candidates_.push_back(k);
    }
    unit_rates_.setOnes(size_);
    r_ = lexicographic_min(unit_rates_);
    driving_is_z_ = state_[r_] == Pair::WBasic;
    for (int k = 0; k < size_; ++k) {
      if (state_[k] == Pair::ZBasic && k != r_) z_keys ^= signature_key(k);
    }
  }
  state_[r_] = Pair::Neither;
  z0_basic_ = true;
  ++*pivots;
  // Cycle detection (CycleWatch, lemke_standard.hpp). On a 20-box pile (issue 21) a
  // friction row of one of a face's four coplanar corners left at a degenerate vertex where
  // the rows' values were -5e-12 (inside the leaving slack), and the path retraced its last
  // 130 pivots, then turned again at the other end: a period of 262 pivots, repeated to the
  // pivot limit (186,650 pivots, 14 s).
  CycleWatch cycle;
  bool cycled = false;           // the watch saw a cycle: one more round of it, then a failure
  bool z0_refused = false;       // this basis's answer with z0 left was refused: z0 stays
  bool refused_on_path = false;  // some basis's was: a ray at the end is another failure
  bool spared_on_path = false;   // an infeasible indeterminate row was left out: the same
  int next_drop_try = 0;         // the first pivot a crawling path's z0 may be dropped again
  while (true) {
    if (*pivots >= max_pivots_) return LcpStatus::PivotLimit;
    if (stop_()) return LcpStatus::Cancelled;
    // The basis, its driving variable and the reduced method's active set decide every
    // later pivot, so a repeated signature is a cycle (up to a 2^-64 collision, which only
    // costs a restart). A basis solved again after its refused answer is not one.
    const std::uint64_t signature = z_keys ^ signature_key(size_ + r_) ^
                                    (driving_is_z_ ? signature_key(2 * size_) : 0) ^
                                    signature_key(3 * size_ + stats_.activated_contacts);
    if (!z0_refused && cycle.repeats(signature)) {
      if (cycled) return LcpStatus::NumericalFailure;
      cycled = true;  // once more round the cycle, for an answer with z0 dropped
    }
    const auto t0 = Clock::now();
    const bool ok = build_basis(Factor::Update);
    stats_.factor_time_us += microseconds_since(t0);
    if (!ok) return LcpStatus::NumericalFailure;
    store_basic_z(q_rhs, &qval_, &qmag_);
    std::fill(q_formed_.begin(), q_formed_.end(), 0);
    qz0_ = z0val_;
    qz0mag_ = z0mag_;
    Vq_ = V_;
    Vqabs_ = vabs_;
    if (z0_vanished(slack_)) return LcpStatus::Solved;
    // A path that cycles at a z0 well inside the acceptance rule's tolerance goes round the
    // cycle once more, and the first of its bases whose answer (solved afresh, z0's value
    // dropped) passes the rule at a quarter of its tolerance ends it. Dropping z0 moves row k
    // by c_k z0 only, so such a basis is an answer as a ray's is, and the cycle the
    // round-off of values of z0's size. The quarter: it replaces a failure, and the fallback
    // chain's next stage often has a sound answer. On the ten-block tower at d = 8 (step
    // 25399) the reduced method's last cycle had a basis passing at -5e-10, 4e-10 being
    // that z0's own share; the chain's structural stage answers at -2e-14 there. On an
    // island of the 40-body bin pile (39 bodies, n = 1,044, step 130 with grouped warm
    // starts) covers 2-4 of the structural method cycled at z0 of 1.4e-10 to 7e-10 with
    // every basic value above -1e-11, while every complementary basis z0's leaving gave was
    // infeasible by 1.2e-8 to 5e-7 (so in long double: properties of those bases, not
    // round-off); the basis at the second cover's cycle with z0 dropped passes at -1.6e-10.
    // A basis whose answer the rule takes at its full tolerance only (z0 c_max within it as
    // well) is kept: when every cover fails, run() takes the best such answer as a last
    // resort, deferred as a refused end's flips are (repair_refused_end). On five islands of
    // the 40-body bin pile under the structural method (steps 227 to 707 at 0b09cd9, 37-40
    // bodies, n = 1,008 to 1,080) every cover of both fast methods failed: cycles at z0 of
    // 1.2e-10 to 3e-9 (c_max 1.1, against a leaving slack of 1e-10) or at 1e-5 on the first
    // cover, singular bases, and bases at z0's leaving infeasible by 7e-9 to 1e-6 (the same
    // in long double). Their cycles' bases with z0 dropped pass at -2.3e-10 to -5.4e-10.
    //
    // A path need not cycle to crawl there: on an island of the 40-body bin pile under the
    // structural method (step 971, n = 1,656, a box dragged by the hand spring) z0 fell to
    // 4e-10..7e-10 (qscale 2.9) at pivot 9,971 and stayed in that band, the bases of its last
    // 220 pivots each an answer the rule takes at a quarter of its tolerance with z0 dropped,
    // until the path cycled at pivot 10,490 at 1.07e-9, just outside; two more covers took
    // 21,000 pivots. So while z0 c_max is within the quarter the same answer is tried every
    // kDropZ0Interval pivots (one fresh factorisation each, which the pivots then build on).
    const double z0_share = qz0_ >= 0.0 ? qz0_ * max_cover() / (kAcceptanceTolerance * qscale)
                                        : std::numeric_limits<double>::infinity();
    // At rest, though, that answer is the next steps' warm start, and one sliding by up to
    // the quarter crept: block_stack_rotated_5 moved 8.1e-7 m in an hour (1.1e-11 m before),
    // each step's slip within the rule. There a crawling path's answer must be as close as
    // a path's end at z0's leaving (z0_vanished): every entry at or above -slack.
    //
    // On a moving island a cycle's answer is taken at the rule's whole tolerance: what the
    // quarter's refusal costs there is another path from Step 0, not a sounder answer. On the
    // bin pile with box3 dragged out under the structural method (d = 6, mu = 0.9, step 972
    // of the drag sequence in docs/robustness.md) the first path cycled at pivot 9,064 at
    // z0 = 1.6e-9 (qscale 2.9, share 0.56), each basis of the cycle with z0 dropped an answer
    // at -1.6e-9; refused, three more covers took the step to 36,496 pivots, and steps 970
    // to 999 took 992,160 (10,642 to 126,379 each). Taken, the step ends there: the 30 steps
    // take 69,425 pivots, each from 975 on under 500.
    const bool crawling = !cycled && z0_share <= kCycleShare && *pivots >= next_drop_try;
    if ((cycled && z0_share <= 1.0) || crawling) {
      if (crawling) next_drop_try = *pivots + kDropZ0Interval;
      if (final_answer(result)) {
        const bool rest = at_rest(result->z, result->w, n_, d_, answer_slack());
        const double share_wanted =
            cycled ? (rest ? kCycleShare : 1.0)
                   : (rest ? kLeavingSlack / kAcceptanceTolerance : kCycleShare);
        const LcpCheck share =
            check_complementarity(result->z, result->w, qinf, share_wanted * kAcceptanceTolerance);
        answered_ = share.accepted && z0_share <= share_wanted;
        if (answered_) {
          ++(cycled ? stats_.cycle_answers : stats_.small_z0_answers);
          return LcpStatus::Solved;
        }
        keep_cycle_end(*result, share.min_entry);
      }
    }
    if (reduced_ && !z0_refused) {
      for (Eigen::Index e = 0; e < Vq_.size(); ++e) path_.push_back(Vq_[e] / qz0_);
    }
    if (reduced_ && driving_is_z_ && kind(r_) == Kind::Normal && !active_[r_]) {
      switch (activate(r_)) {
        case Activation::Added:
          break;
        case Activation::Restart:
          ++stats_.restarts;
          return std::nullopt;
        case Activation::Failed:
          return LcpStatus::NumericalFailure;
      }
    }
    drive_ = driving_is_z_ ? Rhs{Rhs::Column, r_, 1.0} : Rhs{Rhs::Unit, r_, -1.0};
    store_basic_values(drive_, &mval_, &mmag_);
    mz0_ = z0val_;
    mz0mag_ = z0mag_;
    // The ratio test reads only the rows with m' < 0, and the blocking ones among them.
    negative_.clear();
    blocking_.clear();
    indeterminate_.clear();
    for (int k : rows_) {
      if (!(mval_[k] < 0.0) || (state_[k] != Pair::ZBasic && state_[k] != Pair::WBasic)) continue;
      negative_.push_back(k);
      form_q_row(k);
      ratio_[k] = std::max(qval_[k], 0.0) / -mval_[k];
      bounded_[k] = state_[k] == Pair::ZBasic;  // store_basic_z bounded the basic z
      const Blocking b = blocks(k);
      if (b == Blocking::Determinate) blocking_.push_back(k);
      if (b == Blocking::Indeterminate) indeterminate_.push_back(k);
    }

    // Ratio test (18), each row against its own round-off bound; the indeterminate rows
    // only when the step needs them (indeterminate_rows_stay_feasible).
    auto ratio = [&](int k) { return ratio_[k]; };
    double tmin = std::numeric_limits<double>::infinity();
    int tmin_row = -1;
    auto smallest_ratio = [&] {
      tmin = std::numeric_limits<double>::infinity();
      if (mz0_ < -noise_ * mz0mag_) tmin = std::max(qz0_, 0.0) / -mz0_;
      tmin_row = -1;
      for (int k : blocking_) {
        if (ratio(k) < tmin) {
          tmin = ratio(k);
          tmin_row = k;
        }
      }
    };
    smallest_ratio();
    if (!indeterminate_rows_stay_feasible(tmin, &spared_on_path)) {
      keep_.clear();
      std::merge(blocking_.begin(), blocking_.end(), indeterminate_.begin(), indeterminate_.end(),
                 std::back_inserter(keep_));
      blocking_.swap(keep_);
      smallest_ratio();
    }
    if (tmin == std::numeric_limits<double>::infinity()) {
      // A ray ends the path, so there is no later pivot to keep a margin for: a basis whose z0
      // is within half the acceptance tolerance is an answer, and the ray the round-off's
      // (ten-block tower at 129.65 s: z0 = 1.2e-10 on every row, all of w and z within it).
      // run() checks the answer with the acceptance rule as it does every other.
      constexpr double kRaySlack = 0.5 * kAcceptanceTolerance / kLeavingSlack;
      // A path that went on past a refused answer, or past an infeasible row it left out of
      // the ratio test, may end on a ray the round-off made: it is a numerical failure, for
      // another cover (the tower's step 13122 ended on such a ray after 46 pivots).
      if (z0_vanished(kRaySlack * slack_)) return LcpStatus::Solved;
      // Else its basis solved afresh (z0 among the unknowns, its value then dropped from
      // the answer) may still be an answer: the acceptance rule decides, as it does for
      // z0's leaving within noise. On the ten-block tower at
      // d = 16 (an hour's step 30766, the top block at rest to 3e-9 m/s) the structural
      // method's second path ended on a ray with z0 above that slack and a row at
      // -8.4e-10, and that answer passes the rule; every stage of the fallback chain had
      // ended on a ray.
      answered_ = final_answer(result);
      if (answered_) {
        ++stats_.ray_answers;
        return LcpStatus::Solved;
      }
      return refused_on_path || spared_on_path ? LcpStatus::NumericalFailure
                                               : LcpStatus::SecondaryRay;
    }
    const Z0Step step = z0_refused ? Z0Step::Blocked : z0_step(tmin_row);
    if (step != Z0Step::Blocked) {
      // z0 leaves: the entering driving variable completes a complementary basis. Within
      // noise only, the answer decides; when it is refused z0 stays and a blocking row
      // leaves instead, after this basis is solved again (the answer's fresh factors
      // replaced lu_'s, and its values those of the path). On an island of the 40-body bin
      // pile (step 99, 37 bodies, n = 1,032) z0 = 3.96e-10 left with w_769 entering at a
      // step 85 times the ratio of the blocking w_822, whose value -8.1e-9 was within
      // noise_ times its bound; the answer was refused, and so were those of every other
      // cover, though every basis on the path is feasible to 4e-15 (long double). Judged on
      // tol_ alone, z0 was kept from leaving on bases of the ten-block tower whose answers
      // are sound, and those paths went on into degenerate vertices.
      const int driving = r_;
      state_[r_] = driving_is_z_ ? Pair::ZBasic : Pair::WBasic;
      r_ = -1;
      z0_basic_ = false;
      answered_ = step == Z0Step::WithinNoise && final_answer(result);
      if (step == Z0Step::Feasible || answered_) {
        ++*pivots;
        return LcpStatus::Solved;
      }
      keep_refused_end();
      z0_basic_ = true;
      r_ = driving;
      state_[r_] = Pair::Neither;
      z0_refused = refused_on_path = true;
      continue;
    }
    z0_refused = false;
    ++*pivots;
    // Ties: the rows that the step tmin brings to zero within their own round-off, and whose
    // own ratio is within tmax, the longest step that leaves no blocking row below zero by
    // more than its round-off (Harris's bound). Both are needed when round-off bounds differ
    // by 1e4, as they do with mu ~ 1000: a friction row with a large bound may not leave at a
    // longer step that takes a well-known row below zero, and a well-known row may not leave
    // at a step that leaves the friction row's error at -1e-6, to come back next pivot as an
    // entering value 1e4 times its own bound below zero.
    // Only rows whose ratio is below tmax so far can lower it: their bounds alone are formed.
    // The bounds here are tol (1e-12) times the rows' magnitudes, not noise_: the condition
    // estimate behind noise_ overstates a value's error by up to 1e4 on a pile's island, and
    // the tie set it admitted held rows that are not tied, of which the lexicographic rule
    // took one. On an island of the 40-body bin pile (39 bodies, n = 1,098), with z_1047
    // entering, w_290 blocks at 1.777e-7 and z_996 at 1.933e-7 (4.04449e-7 / 2.276 and
    // 3.86691e-7 / 2.000, the same to six digits in a long-double solve of the basis); with
    // noise_ = 2e-9 both were ties, z_996 left, w_290 went 3.6e-8 below zero, and every path
    // failed. Judged on tol the fast methods solve it and three more of the six islands the
    // chain's standard stage answered in that run (tests/lcp/soak/bin_pile_40_island_ties).
    auto zero = [&](int k) {
      bound_row(k);
      return tol_ * (qmag_[k] + tmin * mmag_[k]);
    };
    double tmax = std::numeric_limits<double>::infinity();
    for (int k : blocking_) {
      if (ratio(k) < tmax) tmax = std::min(tmax, (std::max(qval_[k], 0.0) + zero(k)) / -mval_[k]);
    }
    candidates_.clear();
    for (int k : blocking_) {
      if (ratio(k) <= tmax && qval_[k] + tmin * mval_[k] <= zero(k)) candidates_.push_back(k);
    }
    // Only z0 blocks, yet its step leaves a row below its bound: the values are not sound.
    if (candidates_.empty()) return LcpStatus::NumericalFailure;
    int leaving = candidates_.front();
    if (candidates_.size() > 1) {
      ++stats_.tie_breaks;
      mval_ *= -1.0;  // the divisors of the lexicographic test are -m'_k > 0
      leaving = lexicographic_min(mval_);
    }
    // Pivot: the driving variable enters, the blocking one leaves and its complement drives.
    if (driving_is_z_) z_keys ^= signature_key(r_);
    if (state_[leaving] == Pair::ZBasic) z_keys ^= signature_key(leaving);
    state_[r_] = driving_is_z_ ? Pair::ZBasic : Pair::WBasic;
    driving_is_z_ = state_[leaving] == Pair::WBasic;
    state_[leaving] = Pair::Neither;
    r_ = leaving;
  }
}

// The answer of the basis a path ended on (complementary, or with z0 vanished): Lloyd (31)
// solved afresh, completed by finish(). True when the acceptance check takes it.
bool FastLemke::final_answer(LcpResult* result) {
  const auto t0 = Clock::now();
  const bool ok = build_basis(Factor::Fresh);
  stats_.factor_time_us += microseconds_since(t0);
  if (!ok) return false;
  solve(Rhs{Rhs::Q, -1, 1.0}, Bounds::Skipped);
  finish(result);
  return accepted(*result);
}

void FastLemke::run(const ContactProblem& problem, const LcpBasis& warm, Clock::time_point start,
                    FastLemkeResult* out) {
  LcpResult& result = out->lcp;
  result.pivots = 0;
  result.warm = false;
  result.warm_path = false;
  result.basis.z_basic.clear();
  const WarmStart warm_start = warm_answer(warm, &result);
  if (warm_start.answered) {
    result.status = LcpStatus::Solved;
    result.warm = true;
    result.basis.z_basic = warm_basic_;  // as repaired
    result.solve_time_us = microseconds_since(start);
    out->stats = stats_;
    return;
  }
  first_refused_.clear();
  cycle_end_basic_.clear();
  cycle_end_min_ = -std::numeric_limits<double>::infinity();
  // When the warm basis is no answer and the island moves (the basis's answer, before any
  // flip, not at_rest) or is large, Lemke's path from that basis (warm_path); when that
  // fails, or at rest on a small island, Step 0's (path_from_warm_basis says why).
  const std::optional<LcpStatus> warm_end =
      path_from_warm_basis(warm_start.at_rest, size_) ? warm_path(warm, &result) : std::nullopt;
  LcpStatus status = warm_end.value_or(LcpStatus::NumericalFailure);
  result.warm_path = status == LcpStatus::Solved;
  bool refused = false;  // the path ended, but on an answer the acceptance check refuses
  // Reduced: each restart for a large covering entry adds at least one contact to the
  // starting set, so there are at most n; another_cover() allows kCoverRestarts more. The
  // pivots of every attempt count.
  while (!warm_end) {
    start_basis();
    const std::optional<LcpStatus> end = pivot_to_solution(&result);
    if (!end) continue;
    status = *end;
    refused = status == LcpStatus::Solved && !answered_ && !final_answer(&result);
    if (refused) {
      status = LcpStatus::NumericalFailure;  // result holds that answer
      keep_refused_end();
    }
    // A ray too: a contact LCP of (8) has a solution Lemke's method reaches (Lloyd Sec. 2),
    // so its rays are the round-off's, as its other failures are.
    const bool failed = status == LcpStatus::NumericalFailure || status == LcpStatus::SecondaryRay;
    if (failed && another_cover()) continue;
    break;
  }
  result.status = status;
  if (result.status != LcpStatus::Solved && !refused) {
    // Not a solution: report the last basic z values (z0 dropped) for diagnosis, with their
    // w = M z + q as the standard method does, so that what fails to hold is the sign or
    // complementarity conditions, not an apparent residual of 1 (`pivot lcp solve` printed
    // one for w = 0 on the ten-block tower's step 1545).
    result.z = VecX::Zero(size_);
    for (int k = 0; k < size_; ++k) {
      if (state_[k] == Pair::ZBasic) result.z[k] = qval_[k];
    }
    result.w = contact_lcp_w(problem, result.z);
  }
  if (result.status != LcpStatus::Solved && repair_ends_ && !first_refused_.empty()) {
    // The report above stays when the repair fails (a failure path: the copies may allocate).
    const VecX z = result.z, w = result.w;
    if (repaired_end(&result)) {
      result.status = LcpStatus::Solved;
    } else {
      result.z = z;
      result.w = w;
    }
  }
  if (result.status != LcpStatus::Solved && repair_ends_ && !cycle_end_basic_.empty()) {
    // Every cover failed, and so did a refused end's flips (or there was none), and some
    // cycle's basis has an answer the rule takes at its full tolerance: the very last
    // resort, deferred as the flips are in a World step (the fallback chain's RepairedEnd
    // stage). After the flips: on the ten-block tower at d = 8 (step 25399) the reduced
    // method's cycle answer passes at -5e-10 and the flips of its first refused end answer.
    result.z = cycle_end_.z;
    result.w = cycle_end_.w;
    result.status = LcpStatus::Solved;
    ++stats_.cycle_answers;
    for (int k = 0; k < size_; ++k) {
      if (cycle_end_basic_[k]) {
        state_[k] = Pair::ZBasic;
      } else if (state_[k] == Pair::ZBasic || state_[k] == Pair::Neither) {
        state_[k] = Pair::WBasic;
      }
    }
  }
  if (result.status == LcpStatus::Solved) {
    engage_friction(&result);
    result.basis.z_basic = warm_basic_;
  }
  result.solve_time_us = microseconds_since(start);
  out->stats = stats_;
}

}  // namespace

FastLemkeResult solve_lemke_fast(const ContactProblem& problem, LcpMethod method,
                                 const LemkeOptions& options, const LcpBasis& warm,
                                 double cover_perturbation) {
  FastLemkeSolver solver;
  return solver.solve(problem, method, options, warm, cover_perturbation);
}

struct FastLemkeSolver::Tables {
  FastLemke solver;
};

FastLemkeSolver::FastLemkeSolver() : tables_(std::make_unique<Tables>()) {}
FastLemkeSolver::~FastLemkeSolver() = default;
FastLemkeSolver::FastLemkeSolver(FastLemkeSolver&&) noexcept = default;
FastLemkeSolver& FastLemkeSolver::operator=(FastLemkeSolver&&) noexcept = default;

const FastLemkeResult& FastLemkeSolver::solve(const ContactProblem& problem, LcpMethod method,
                                              const LemkeOptions& options, const LcpBasis& warm,
                                              double cover_perturbation) {
  normalized_ = false;
  if (method != LcpMethod::Structural && method != LcpMethod::Reduced) {
    throw std::invalid_argument(
        std::string("solve_lemke_fast: method must be structural or reduced, got ") +
        to_string(method));
  }
  const auto start = Clock::now();
  // No contact, no LCP: nothing to pivot on (the solver's tables would be empty; a
  // problem file with `contacts 0 d` crashed it, fuzz input, lcp_solve at 338fdd2).
  if (problem.num_contacts() == 0) {
    result_ = FastLemkeResult{};
    result_.lcp.status = LcpStatus::Solved;
    result_.lcp.solve_time_us = microseconds_since(start);
    return result_;
  }
  tables_->solver.reset(problem, method == LcpMethod::Reduced, options, cover_perturbation);
  normalized_ = true;
  tables_->solver.run(problem, warm, start, &result_);
  return result_;
}

const NormalizedContacts* FastLemkeSolver::normalized() const {
  return normalized_ ? &tables_->solver.normalized() : nullptr;
}

}  // namespace pivot
