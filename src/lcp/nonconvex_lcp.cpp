// Nonconvex contact groups of Egan, Berard & Trinkle: the max and summation LCPs built
// from the Stewart-Trinkle LCP over all planes, and an exact solver for the max
// formulation by selection of active sides (docs/nonconvex-max.md).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <set>
#include <stdexcept>
#include <string>

#include "contact_solver.hpp"
#include "grouped_contact.hpp"
#include "lcp_check.hpp"
#include "normalized_contacts.hpp"
#include "pivot/nonconvex.hpp"
#include "screened_contact.hpp"
#include "stopwatch.hpp"

namespace pivot {

int NonconvexLayout::num_sides() const {
  return std::accumulate(group_sizes.begin(), group_sizes.end(), 0);
}

int NonconvexLayout::plane_offset() const {
  switch (form) {
    case NonconvexFormulation::Max:
      return 3 * num_sides() + 2 * num_groups();
    case NonconvexFormulation::Sum:
      return num_sides();
    case NonconvexFormulation::Off:
      break;
  }
  throw std::invalid_argument("NonconvexLayout: form must be Max or Sum, got Off");
}

namespace {

// Indices of the max-formulation variables, Egan (33).
struct MaxIndex {
  int y;       // sides
  int groups;  // g
  int c(int side) const { return side; }
  int d(int group) const { return y + group; }
  int g(int side) const { return y + groups + side; }
  int h(int side) const { return 2 * y + groups + side; }
  int p(int group) const { return 3 * y + groups + group; }
  int plane() const { return 3 * y + 2 * groups; }
};

std::vector<int> group_of_side(const NonconvexLayout& layout) {
  std::vector<int> group;
  for (int k = 0; k < layout.num_groups(); ++k) group.insert(group.end(), layout.group_sizes[k], k);
  return group;
}

// Number of planes P of a plane LCP of the given size.
int count_planes(const DenseLcp& planes, int d) {
  const int n = static_cast<int>(planes.q.size());
  if (planes.M.rows() != n || planes.M.cols() != n) {
    throw std::invalid_argument("nonconvex: the plane LCP's M and q sizes disagree");
  }
  if (d < 0 || (d > 0 && n % (2 + d) != 0)) {
    throw std::invalid_argument("nonconvex: a plane LCP of size " + std::to_string(n) +
                                " does not have d = " + std::to_string(d));
  }
  return d > 0 ? n / (2 + d) : n;
}

// The layout's plane order of P planes: sides group by group, then the convex planes in
// increasing index. Fills the layout's group sizes and convex count. Throws
// std::invalid_argument for an empty or oversized group, or a plane out of range or in two
// groups.
std::vector<int> plane_order(int P, const NonconvexGroups& groups, NonconvexLayout* layout) {
  std::vector<int> order;
  std::vector<bool> used(P, false);
  layout->group_sizes.clear();
  for (const std::vector<int>& group : groups) {
    if (group.empty() || static_cast<int>(group.size()) > kMaxGroupSides) {
      throw std::invalid_argument("nonconvex: a group has " + std::to_string(group.size()) +
                                  " sides; 1 to " + std::to_string(kMaxGroupSides) +
                                  " are allowed");
    }
    for (const int plane : group) {
      if (plane < 0 || plane >= P || used[plane]) {
        throw std::invalid_argument("nonconvex: plane " + std::to_string(plane) +
                                    " is out of range or in two groups");
      }
      used[plane] = true;
      order.push_back(plane);
    }
    layout->group_sizes.push_back(static_cast<int>(group.size()));
  }
  for (int plane = 0; plane < P; ++plane) {
    if (!used[plane]) order.push_back(plane);
  }
  layout->num_convex = P - layout->num_sides();
  return order;
}

// The plane-LCP variables in the layout's order: variable t of the layout's plane LCP is
// variable index[t] of the input's. Plane k's variables: normal k, friction P + k d + j,
// s P + P d + k.
std::vector<int> plane_variables(const std::vector<int>& plane_order, int d) {
  const int P = static_cast<int>(plane_order.size());
  std::vector<int> index;
  for (int k = 0; k < P; ++k) index.push_back(plane_order[k]);
  if (d > 0) {
    for (int k = 0; k < P; ++k) {
      for (int j = 0; j < d; ++j) index.push_back(P + plane_order[k] * d + j);
    }
    for (int k = 0; k < P; ++k) index.push_back(P + P * d + plane_order[k]);
  }
  return index;
}

// w = M z + q of the max formulation, Egan (32)-(33) as build_max_lcp lays it out, from z
// and the rows of the plane LCP at z's plane block, w_p = M_p z_p + q_p in the layout's
// order (a_i = w_p(i) for side i): the formulation's rows without its dense M.
void max_formulation_w(const NonconvexLayout& L, double gamma, const VecX& z, const VecX& w_p,
                       VecX* w) {
  const MaxIndex at{L.num_sides(), L.num_groups()};
  const int o = at.plane();
  w->resize(L.size());
  w->segment(o, L.plane_lcp_size()) = w_p;
  int i = 0;
  for (int G = 0; G < L.num_groups(); ++G) {
    const double dG = z(at.d(G));
    double g_sum = 0.0;
    for (const int end = i + L.group_sizes[G]; i < end; ++i) {
      const double a = w_p(i);
      g_sum += z(at.g(i));
      (*w)(at.c(i)) = z(at.c(i)) + a - 1.0;         // (13)-(14)
      (*w)(at.g(i)) = z(at.c(i)) + dG - gamma;      // (16)-(17)
      (*w)(at.h(i)) = z(at.h(i)) + a;               // (18)-(19)
      (*w)(o + i) = z(at.h(i)) + dG - gamma + 1.0;  // (21)-(22)
    }
    (*w)(at.d(G)) = g_sum - 1.0;       // (15)
    (*w)(at.p(G)) = dG - gamma + 1.0;  // (20)
  }
}

// The plane LCP permuted to the layout's plane order (sides group by group, then convex
// planes in increasing index), the layout, and that order.
struct PermutedPlanes {
  MatX M;
  VecX q;
  NonconvexLayout layout;
  std::vector<int> order;
};

PermutedPlanes permute_planes(const DenseLcp& planes, int d, const NonconvexGroups& groups,
                              NonconvexFormulation form) {
  const int P = count_planes(planes, d);
  PermutedPlanes out;
  out.order = plane_order(P, groups, &out.layout);
  out.layout.form = form;
  out.layout.d = d;
  const std::vector<int> index = plane_variables(out.order, d);
  out.M = planes.M(index, index);
  out.q = planes.q(index);
  return out;
}

NonconvexLcp start_lcp(const PermutedPlanes& p) {
  NonconvexLcp out;
  out.layout = p.layout;
  out.plane_order = p.order;
  const int n = out.layout.size();
  const int o = out.layout.plane_offset();
  const int size = out.layout.plane_lcp_size();
  out.lcp.M = MatX::Zero(n, n);
  out.lcp.q = VecX::Zero(n);
  // The convex, friction and s rows are those of the plane LCP (Egan (32) rows 7-9).
  const int y = out.layout.num_sides();
  out.lcp.M.block(o + y, o, size - y, size) = p.M.bottomRows(size - y);
  out.lcp.q.segment(o + y, size - y) = p.q.tail(size - y);
  return out;
}

}  // namespace

NonconvexLcp build_max_lcp(const DenseLcp& planes, int d, const NonconvexGroups& groups,
                           double gamma) {
  if (!std::isfinite(gamma)) throw std::invalid_argument("build_max_lcp: gamma is not finite");
  const PermutedPlanes p = permute_planes(planes, d, groups, NonconvexFormulation::Max);
  NonconvexLcp out = start_lcp(p);
  const int y = out.layout.num_sides();
  const MaxIndex at{y, out.layout.num_groups()};
  const int o = at.plane();
  const int size = out.layout.plane_lcp_size();
  MatX& M = out.lcp.M;
  VecX& q = out.lcp.q;
  const std::vector<int> group = group_of_side(out.layout);
  for (int i = 0; i < y; ++i) {
    const int G = group[i];
    // Row i of the plane LCP, side i's normal row, is a_i as a function of z_p (Egan
    // (10)-(11)). (13)-(14): 0 <= c_i + a_i - 1 _|_ c_i.
    M(at.c(i), at.c(i)) = 1.0;
    M.block(at.c(i), o, 1, size) = p.M.row(i);
    q(at.c(i)) = p.q(i) - 1.0;
    // (15): 0 <= sum_i g_i - 1 _|_ d, one row per group.
    M(at.d(G), at.g(i)) = 1.0;
    q(at.d(G)) = -1.0;
    // (16)-(17): 0 <= c_i + d - gamma _|_ g_i.
    M(at.g(i), at.c(i)) = 1.0;
    M(at.g(i), at.d(G)) = 1.0;
    q(at.g(i)) = -gamma;
    // (18)-(19): 0 <= h_i + a_i _|_ h_i.
    M(at.h(i), at.h(i)) = 1.0;
    M.block(at.h(i), o, 1, size) = p.M.row(i);
    q(at.h(i)) = p.q(i);
    // (20): 0 <= d - gamma + 1 _|_ p, one row per group.
    M(at.p(G), at.d(G)) = 1.0;
    q(at.p(G)) = 1.0 - gamma;
    // (21)-(22): 0 <= h_i + d - gamma + 1 _|_ p_in.
    M(o + i, at.h(i)) = 1.0;
    M(o + i, at.d(G)) = 1.0;
    q(o + i) = 1.0 - gamma;
  }
  return out;
}

NonconvexLcp build_summation_lcp(const DenseLcp& planes, int d, const NonconvexGroups& groups,
                                 double epsilon_over_h) {
  if (!(epsilon_over_h > 0.0 && std::isfinite(epsilon_over_h))) {
    throw std::invalid_argument("build_summation_lcp: epsilon / h must be positive");
  }
  const PermutedPlanes p = permute_planes(planes, d, groups, NonconvexFormulation::Sum);
  NonconvexLcp out = start_lcp(p);
  const int y = out.layout.num_sides();
  const int o = y;
  const int size = out.layout.plane_lcp_size();
  MatX& M = out.lcp.M;
  VecX& q = out.lcp.q;
  const std::vector<int> group = group_of_side(out.layout);
  for (int i = 0; i < y; ++i) {
    // (25)-(26): 0 <= c_i - a_i - eps/h _|_ c_i, so c_i = max(-eps/h, a_i) + eps/h.
    M(i, i) = 1.0;
    M.block(i, o, 1, size) = -p.M.row(i);
    q(i) = -p.q(i) - epsilon_over_h;
    // (27)-(28) generalised by (30): sum_j max(-eps/h, a_j) + (n - 1) eps/h >= 0 is
    // sum_j c_j - eps/h >= 0 over the sides j of side i's group (the D'D block of (34)).
    for (int j = 0; j < y; ++j) {
      if (group[j] == group[i]) M(o + i, j) = 1.0;
    }
    q(o + i) = -epsilon_over_h;
  }
  return out;
}

NonconvexLcp build_max_lcp(const ContactProblem& planes, const NonconvexGroups& groups,
                           double gamma) {
  return build_max_lcp(assemble_contact_lcp(planes), planes.d, groups, gamma);
}

NonconvexLcp build_summation_lcp(const ContactProblem& planes, const NonconvexGroups& groups,
                                 double epsilon_over_h) {
  return build_summation_lcp(assemble_contact_lcp(planes), planes.d, groups, epsilon_over_h);
}

namespace {

// The layout of `planes` with `groups` in `form`, its plane order, and the plane LCP's rows
// at z's plane block in the layout's order (contact_lcp_w: M is never formed).
struct PlaneRows {
  NonconvexLayout layout;
  std::vector<int> order;
  VecX w_p;
};

PlaneRows plane_rows(const ContactProblem& planes, const NonconvexGroups& groups,
                     NonconvexFormulation form, const VecX& z) {
  PlaneRows out;
  out.order = plane_order(planes.num_contacts(), groups, &out.layout);
  out.layout.form = form;
  out.layout.d = planes.d;
  const VecX w = contact_lcp_w(planes, plane_solution(out.layout, out.order, z));
  out.w_p = w(plane_variables(out.order, planes.d));
  return out;
}

}  // namespace

VecX max_lcp_w(const ContactProblem& planes, const NonconvexGroups& groups, double gamma,
               const VecX& z) {
  if (!std::isfinite(gamma)) throw std::invalid_argument("max_lcp_w: gamma is not finite");
  const PlaneRows rows = plane_rows(planes, groups, NonconvexFormulation::Max, z);
  VecX w;
  max_formulation_w(rows.layout, gamma, z, rows.w_p, &w);
  return w;
}

VecX summation_lcp_w(const ContactProblem& planes, const NonconvexGroups& groups,
                     double epsilon_over_h, const VecX& z) {
  if (!(epsilon_over_h > 0.0 && std::isfinite(epsilon_over_h))) {
    throw std::invalid_argument("summation_lcp_w: epsilon / h must be positive");
  }
  const PlaneRows rows = plane_rows(planes, groups, NonconvexFormulation::Sum, z);
  const NonconvexLayout& L = rows.layout;
  const int o = L.plane_offset();  // y: the c block comes first
  VecX w(L.size());
  w.segment(o, L.plane_lcp_size()) = rows.w_p;
  int i = 0;
  for (const int count : L.group_sizes) {
    const double c_sum = z.segment(i, count).sum();
    for (const int end = i + count; i < end; ++i) {
      w(i) = z(i) - rows.w_p(i) - epsilon_over_h;  // (25)-(26)
      w(o + i) = c_sum - epsilon_over_h;           // (27)-(28) with the offset of (30)
    }
  }
  return w;
}

VecX plane_solution(const NonconvexLcp& lcp, const VecX& z) {
  return plane_solution(lcp.layout, lcp.plane_order, z);
}

VecX plane_solution(const NonconvexLayout& L, const std::vector<int>& plane_order, const VecX& z) {
  if (z.size() != L.size()) {
    throw std::invalid_argument("plane_solution: z has " + std::to_string(z.size()) +
                                " entries, the nonconvex LCP has " + std::to_string(L.size()));
  }
  const int P = L.num_planes();
  if (static_cast<int>(plane_order.size()) != P) {
    throw std::invalid_argument("plane_solution: the plane order has " +
                                std::to_string(plane_order.size()) + " planes, the layout " +
                                std::to_string(P));
  }
  const int o = L.plane_offset();
  const std::vector<int> index = plane_variables(plane_order, L.d);
  VecX out(L.plane_lcp_size());
  for (size_t t = 0; t < index.size(); ++t) out(index[t]) = z(o + static_cast<int>(t));
  return out;
}

namespace {

int popcount(std::uint32_t mask) {
  int count = 0;
  for (; mask != 0; mask &= mask - 1) ++count;
  return count;
}

// One subset of sides per group, as a bit mask over the group's sides.
using Selection = std::vector<std::uint32_t>;

// The plane LCP inside a max-formulation (M, q), in the layout's plane order: the h rows
// hold a_i (Egan (18)-(19)), the rows after the sides are the convex, friction and s
// rows. gamma is read from the g rows (Egan (16)). The structure is checked by rebuilding
// (M, q) from these and comparing.
DenseLcp read_plane_lcp(const MatX& M, const VecX& q, const NonconvexLayout& layout,
                        double* gamma) {
  if (layout.form != NonconvexFormulation::Max) {
    throw std::invalid_argument("solve_lcp_with_max_groups: the layout is not the max form");
  }
  if (M.rows() != layout.size() || M.cols() != layout.size() || q.size() != layout.size()) {
    throw std::invalid_argument("solve_lcp_with_max_groups: M and q must have the layout's size " +
                                std::to_string(layout.size()));
  }
  const int y = layout.num_sides();
  const MaxIndex at{y, layout.num_groups()};
  const int o = at.plane();
  const int size = layout.plane_lcp_size();
  DenseLcp planes;
  planes.M = M.block(o, o, size, size);
  planes.q = q.segment(o, size);
  for (int i = 0; i < y; ++i) {
    planes.M.row(i) = M.block(at.h(i), o, 1, size);
    planes.q(i) = q(at.h(i));
  }
  *gamma = y > 0 ? -q(at.g(0)) : 0.0;
  NonconvexGroups groups;
  int side = 0;
  for (const int count : layout.group_sizes) {
    groups.emplace_back(count);
    std::iota(groups.back().begin(), groups.back().end(), side);
    side += count;
  }
  const NonconvexLcp rebuilt = build_max_lcp(planes, layout.d, groups, *gamma);
  const double scale = std::max({1.0, M.cwiseAbs().maxCoeff(), q.lpNorm<Eigen::Infinity>()});
  if ((rebuilt.lcp.M - M).cwiseAbs().maxCoeff() > 1e-12 * scale ||
      (rebuilt.lcp.q - q).lpNorm<Eigen::Infinity>() > 1e-12 * scale) {
    throw std::invalid_argument(
        "solve_lcp_with_max_groups: (M, q) is not the max formulation of Egan (32)-(33) for "
        "this layout");
  }
  return planes;
}

// The plane LCP (M_p, q_p) of a max formulation, in the layout's plane order (sides group
// by group, then the convex planes): its rows w_p = M_p z_p + q_p, and Lemke on the planes
// a selection keeps. Dense for a given (M, q); structural for a contact problem, where
// Lloyd's fast Lemke solves each selection and M_p is never formed, with the fallback chain
// of a convex island behind it: a selection that fails numerically is no answer, and the
// search cannot repair it (on a 28-box pile, 864 selections failed alike, issue 21).
class PlaneLcp {
 public:
  virtual ~PlaneLcp() = default;
  virtual VecX rows(const VecX& z_p) const = 0;
  // Lemke on the variables `index` (kept_variables); scatters its z into *z_p on success.
  // rescue: a failed solve climbs the fallback chain (contact_fallback.cpp), where there is
  // one, and only then may a refused path end be repaired (LemkeOptions::repair_refused_end:
  // the search tries many selections, and a flip costs a fresh factorisation). warm: a
  // basis over those variables to start from (solve_contact's), or empty.
  virtual LcpResult solve(const std::vector<int>& index, bool rescue, const LcpBasis& warm,
                          VecX* z_p) const = 0;
};

// The plane-LCP variables of the kept planes, in the order of the Stewart-Trinkle LCP over
// those planes alone: normals, then friction contact by contact, then the s (lambda) rows.
std::vector<int> kept_variables(const std::vector<bool>& kept, int d) {
  const int P = static_cast<int>(kept.size());
  std::vector<int> index;
  for (int k = 0; k < P; ++k) {
    if (kept[k]) index.push_back(k);
  }
  if (d > 0) {
    for (int k = 0; k < P; ++k) {
      for (int j = 0; j < d && kept[k]; ++j) index.push_back(P + k * d + j);
    }
    for (int k = 0; k < P; ++k) {
      if (kept[k]) index.push_back(P + P * d + k);
    }
  }
  return index;
}

class DensePlanes final : public PlaneLcp {
 public:
  DensePlanes(const DenseLcp& planes, const LemkeOptions& options)
      : planes_(planes), options_(options) {}
  VecX rows(const VecX& z_p) const override { return planes_.M * z_p + planes_.q; }
  // A dense max formulation comes without a previous step: its solves start cold.
  LcpResult solve(const std::vector<int>& index, bool rescue, const LcpBasis& /*warm*/,
                  VecX* z_p) const override {
    LcpResult r = solve_lemke(planes_.M(index, index), planes_.q(index),
                              rescue ? options_ : without_end_repair(options_));
    if (r.status == LcpStatus::Solved) (*z_p)(index) = r.z;
    return r;
  }

 private:
  const DenseLcp& planes_;
  const LemkeOptions& options_;
};

class ContactPlanes final : public PlaneLcp {
 public:
  // columns: those of planes (normalize_contacts).
  ContactPlanes(const ContactProblem& planes, const NormalizedContacts& columns, LcpMethod method,
                const LemkeOptions& options)
      : planes_(planes), nc_(columns), method_(method), options_(options) {}
  VecX rows(const VecX& z_p) const override {
    double q_scale = 0.0;
    return contact_lcp_w(nc_, z_p, &q_scale);
  }
  LcpResult solve(const std::vector<int>& index, bool rescue, const LcpBasis& warm,
                  VecX* z_p) const override {
    const int P = planes_.num_contacts();
    std::vector<int> contacts;
    for (const int k : index) {
      if (k >= P) break;
      contacts.push_back(k);
    }
    const ContactLcpSolve solve = [&](const ContactProblem& kept, const LcpBasis& start) {
      return rescue ? solve_contact_with_fallback(kept, method_, options_, start).result
                    : solve_contact(kept, method_, without_end_repair(options_), start);
    };
    LcpResult r = solve_screened(planes_, nc_, contacts, warm, solve);
    if (r.status == LcpStatus::Solved) (*z_p)(index) = r.z;
    return r;
  }

 private:
  const ContactProblem& planes_;
  const NormalizedContacts& nc_;
  const LcpMethod method_;
  const LemkeOptions& options_;
};

// Search over selections of active sides (docs/nonconvex-max.md). For a selection, the
// Stewart-Trinkle LCP of the selected sides and the convex planes is solved by Lemke;
// the dropped sides get p = 0 and no friction, and the artificial variables follow in
// closed form from their complementarity rows. The rows of the full max formulation,
// evaluated from the plane rows, then decide.
class MaxGroupSearch {
 public:
  // warm: a basis over the plane LCP in the layout's plane order, or empty.
  MaxGroupSearch(const PlaneLcp& planes, const NonconvexLayout& layout, double gamma,
                 const MaxGroupOptions& options, const LcpBasis& warm = {})
      : planes_(planes),
        L_(layout),
        gamma_(gamma),
        options_(options),
        at_{layout.num_sides(), layout.num_groups()},
        first_side_(layout.num_groups() + 1, 0),
        free_(planes.rows(VecX::Zero(layout.plane_lcp_size()))),
        a_(free_.head(layout.num_sides())),
        z_(VecX::Zero(layout.size())),
        z_p_(layout.plane_lcp_size()),
        start_(warm.z_basic.size() == static_cast<size_t>(layout.plane_lcp_size()) ? warm
                                                                                   : LcpBasis{}),
        emptied_(layout.num_groups(), 0) {
    std::partial_sum(layout.group_sizes.begin(), layout.group_sizes.end(), first_side_.begin() + 1);
    // |q|_inf of the max formulation: q_p, and per side q_p - 1, -gamma and 1 - gamma.
    q_scale_ = free_.lpNorm<Eigen::Infinity>();
    if (L_.num_sides() > 0) {
      q_scale_ = std::max({q_scale_, 1.0, std::abs(gamma_), std::abs(1.0 - gamma_),
                           (a_.array() - 1.0).abs().maxCoeff()});
    }
  }

  // Greedy start and repair, then every selection by size. True when one is accepted.
  bool run() {
    // Each group starts from the sides that carry force in the warm basis, else from its
    // side with the largest free-motion a_i (a_i at z_p = 0, the least penetrated). A
    // candidate the max rows reject is repaired group by group (repaired()); when that
    // repeats, every group moves to the side its point ended up inside, until that repeats
    // too.
    Selection selection = warm_sides(best_sides(Selection(L_.num_groups(), 0)));
    while (true) {
      if (try_selection(selection)) return true;
      if (!solved_ || out_of_budget_) break;
      Selection next = repaired(selection);
      if (visited_.count(next) > 0) next = best_sides(selection);
      if (visited_.count(next) > 0) break;
      selection = next;
    }
    return enumerate();
  }

  bool out_of_budget() const { return out_of_budget_; }
  bool cancelled() const { return cancelled_; }
  int pivots() const { return pivots_; }
  int selections() const { return selections_; }
  // Selections whose Lemke solve ended in a numerical failure or its pivot limit: neither
  // an answer nor a ray.
  int failed_selections() const { return failed_selections_; }
  // The accepted z, or the first candidate's when none was accepted; w = M z + q of the
  // max formulation for it.
  const VecX& z() const { return found_ ? z_ : first_z_; }
  const VecX& w() const { return found_ ? w_ : first_w_; }
  // The accepted selection's solve: its basis over the plane LCP (a dropped side's rows all
  // w), and whether it was a warm start's answer or ended a path from the warm basis.
  const LcpBasis& basis() const { return basis_; }
  bool warm() const { return warm_; }
  bool warm_path() const { return warm_path_; }

 private:
  int group_size(int G) const { return L_.group_sizes[G]; }

  // Per group, the single side with the largest a_ (current single side kept on ties).
  Selection best_sides(const Selection& current) const {
    Selection out(L_.num_groups());
    for (int G = 0; G < L_.num_groups(); ++G) {
      int best = -1;
      for (int k = 0; k < group_size(G); ++k) {
        const bool is_current = current[G] == (1u << k);
        const double a = a_(first_side_[G] + k);
        if (best < 0 || a > a_(first_side_[G] + best) ||
            (is_current && a == a_(first_side_[G] + best))) {
          best = k;
        }
      }
      out[G] = 1u << best;
    }
    return out;
  }

  // Without a warm basis, `cold`; with one, per group the sides whose normal impulse is
  // basic in it, none for a group that exerted no force (or is new this step: the max rows
  // then reject it at once and repaired() gives it its best side). Last step's answer is
  // usually this step's: at rest the search then takes one selection and no pivot.
  Selection warm_sides(const Selection& cold) const {
    if (start_.z_basic.empty()) return cold;
    Selection out(L_.num_groups(), 0);
    for (int G = 0; G < L_.num_groups(); ++G) {
      for (int k = 0; k < group_size(G); ++k) {
        if (start_.z_basic[first_side_[G] + k]) out[G] |= 1u << k;
      }
    }
    return out;
  }

  // The candidate's repair: a group whose rows (20)-(22) hold keeps its sides. One that
  // pushes on a side while another side is strictly separated (the point left the piece
  // through it) exerts no force: its empty subset. With friction the selection's LCP can
  // have both answers, pushing and not, and Lemke may return the one that pushes (step 133
  // of scenes/bin_pile_40.json: every selection pushed and ended 8e-7 m/s outside the other
  // side). One that is inside every side takes the side with the largest a_i. A group
  // emptied once that again pushes while outside moves to the side it left through (the
  // largest a_i at this candidate): without force its point is inside every side, with
  // force on one side it ends outside another, and Egan's rows (21)-(22) allow force only
  // on a side where a attains the group's maximum. Without that, such a group went back
  // and forth between its empty subset and one side while the other groups kept theirs:
  // the 80-box pile's step 173 (3,762 groups; docs/nonconvex-max.md) spent its 4,096
  // selections, and now takes 6.
  Selection repaired(const Selection& current) {
    const int o = at_.plane();
    const double tol = kAcceptanceTolerance * std::max(1.0, q_scale_);
    const double z_scale = std::max(1.0, z_.lpNorm<Eigen::Infinity>());
    const Selection best = best_sides(current);
    Selection out = current;
    for (int G = 0; G < L_.num_groups(); ++G) {
      bool pushes_while_outside = false;
      for (int i = first_side_[G]; i < first_side_[G + 1]; ++i) {
        pushes_while_outside = pushes_while_outside || w_(o + i) * z_(o + i) > tol * z_scale;
      }
      if (w_(at_.p(G)) < -tol) {
        out[G] = best[G];
      } else if (pushes_while_outside) {
        out[G] = emptied_[G] ? best[G] : 0;
        emptied_[G] = 1;
      }
    }
    return out;
  }

  // Subsets by size, the empty one (no force from the group) ranked with the single sides.
  static int rank_size(std::uint32_t mask) { return std::max(1, popcount(mask)); }

  // All selections in order of their largest subset (single sides and no side first), each
  // group's subsets ordered by size (the empty one after the single sides) and then by the
  // free-motion a_i of their sides.
  bool enumerate() {
    int widest = 0;
    std::vector<std::vector<std::uint32_t>> subsets(L_.num_groups());
    for (int G = 0; G < L_.num_groups(); ++G) {
      widest = std::max(widest, group_size(G));
      std::vector<int> rank(group_size(G));
      std::iota(rank.begin(), rank.end(), 0);
      const int first = first_side_[G];
      std::stable_sort(rank.begin(), rank.end(),
                       [&](int u, int v) { return free_(first + u) > free_(first + v); });
      const auto key = [&](std::uint32_t mask) {
        std::vector<int> k{rank_size(mask), mask == 0};
        for (int r = 0; r < group_size(G); ++r) {
          if (mask & (1u << rank[r])) k.push_back(r);
        }
        return k;
      };
      for (std::uint32_t mask = 0; mask < (1u << group_size(G)); ++mask) subsets[G].push_back(mask);
      std::stable_sort(subsets[G].begin(), subsets[G].end(),
                       [&](std::uint32_t u, std::uint32_t v) { return key(u) < key(v); });
    }
    for (int limit = 1; limit <= widest; ++limit) {
      std::vector<int> count(L_.num_groups());
      for (int G = 0; G < L_.num_groups(); ++G) {
        count[G] =
            static_cast<int>(std::count_if(subsets[G].begin(), subsets[G].end(),
                                           [&](std::uint32_t m) { return rank_size(m) <= limit; }));
      }
      std::vector<int> digit(L_.num_groups(), 0);
      while (true) {
        Selection selection(L_.num_groups());
        int largest = 0;
        for (int G = 0; G < L_.num_groups(); ++G) {
          selection[G] = subsets[G][digit[G]];
          largest = std::max(largest, rank_size(selection[G]));
        }
        if (largest == limit && try_selection(selection)) return true;
        if (out_of_budget_) return false;
        int G = 0;
        while (G < L_.num_groups() && ++digit[G] == count[G]) digit[G++] = 0;
        if (G == L_.num_groups()) break;
      }
    }
    return false;
  }

  bool try_selection(const Selection& selection) {
    // A spent budget or a cancelled solve ends the search: no phase tries another.
    if (out_of_budget_ || !visited_.insert(selection).second) return false;
    if (static_cast<int>(visited_.size()) > options_.max_selections) {
      out_of_budget_ = true;
      return false;
    }
    const int P = L_.num_planes();
    const int y = L_.num_sides();
    const int d = L_.d;
    std::vector<bool> kept(P, true);
    for (int G = 0; G < L_.num_groups(); ++G) {
      for (int k = 0; k < group_size(G); ++k) kept[first_side_[G] + k] = (selection[G] >> k) & 1u;
    }
    z_p_.setZero();
    ++selections_;
    const std::vector<int> index = kept_variables(kept, d);
    kept_warm_.z_basic.clear();
    if (!start_.z_basic.empty()) {
      for (const int v : index) kept_warm_.z_basic.push_back(start_.z_basic[v]);
    }
    const LcpResult r = planes_.solve(index, !chain_failed_, kept_warm_, &z_p_);
    pivots_ += r.pivots;
    solved_ = r.status == LcpStatus::Solved;
    // The selections differ in a few sides: in a warm search the next one starts from this
    // one's basis (the planes it dropped keep theirs, nothing newer being known of them). A
    // cold search stays cold, each selection from Step 0: its failed step replays exactly
    // from the step's problem file, which holds no basis.
    if (solved_ && !r.basis.z_basic.empty() && !start_.z_basic.empty()) {
      for (size_t t = 0; t < index.size(); ++t) start_.z_basic[index[t]] = r.basis.z_basic[t];
    }
    // The selections differ in a few sides of one LCP. When the whole fallback chain fails
    // one of them, it has failed on their common part, and the others are left to the
    // method alone: on an island of the bin pile (scenes/bin_pile_40.json, step 88: 189
    // contacts, two groups) the chain failed all 16 selections, 356 s of one step.
    chain_failed_ = chain_failed_ || (!solved_ && r.status != LcpStatus::SecondaryRay &&
                                      r.status != LcpStatus::Cancelled);
    if (r.status == LcpStatus::Cancelled) {
      cancelled_ = out_of_budget_ = true;  // ends the search as a spent budget does
      return false;
    }
    if (!solved_) {
      const bool failed = r.status != LcpStatus::SecondaryRay;
      failed_selections_ += failed;
      // Once the chain has failed, selections that go on failing with the method alone
      // fail on that common part too: on step 76 of scenes/bin_pile_40.json (six groups,
      // n ~ 1,480) each took 0.8 s, up to the 4,096 of the budget; ended after four, the
      // standard method's search answered the step in 49 s.
      failed_in_a_row_ = failed ? failed_in_a_row_ + 1 : 0;
      if (chain_failed_ && failed_in_a_row_ > options_.max_failed_in_a_row) out_of_budget_ = true;
      return false;
    }
    failed_in_a_row_ = 0;
    // A dropped side has p = 0, hence no friction (its gamma row forces p_f = 0); its s
    // is the least value that keeps its sigma rows >= 0 (Egan (5)).
    VecX w_p = planes_.rows(z_p_);
    if (d > 0) {
      for (int k = 0; k < y; ++k) {
        if (kept[k]) continue;
        double s = 0.0;
        for (int j = 0; j < d; ++j) s = std::max(s, -w_p(P + k * d + j));
        z_p_(P + P * d + k) = s;
      }
      w_p = planes_.rows(z_p_);
    }
    complete(w_p);
    const bool accepted = check_complementarity(z_, w_, q_scale_).accepted;
    if (first_z_.size() == 0) {
      first_z_ = z_;
      first_w_ = w_;
    }
    found_ = accepted;
    if (accepted) {
      basis_.z_basic.assign(L_.plane_lcp_size(), 0);
      for (size_t t = 0; t < index.size() && !r.basis.z_basic.empty(); ++t)
        basis_.z_basic[index[t]] = r.basis.z_basic[t];
      warm_ = r.warm;
      warm_path_ = r.warm_path;
    }
    return accepted;
  }

  // The artificial variables of Egan (13)-(22) from the plane rows w_p (a_i = w_p(i) for
  // side i), each from its own row: c_i = max(0, 1 - a_i), h_i = max(0, -a_i), d = max_i
  // (gamma - c_i) (the smallest c_i, Egan Sec. IV), g = 1 on that side, p = 0. Then w_ =
  // M z + q of Egan (32)-(33) (max_formulation_w).
  void complete(const VecX& w_p) {
    const int o = at_.plane();
    const int y = L_.num_sides();
    z_.setZero();
    z_.segment(o, L_.plane_lcp_size()) = z_p_;
    a_ = w_p.head(y);
    for (int i = 0; i < y; ++i) {
      z_(at_.c(i)) = std::max(0.0, 1.0 - a_(i));
      z_(at_.h(i)) = std::max(0.0, -a_(i));
    }
    for (int G = 0; G < L_.num_groups(); ++G) {
      int best = first_side_[G];
      for (int i = first_side_[G]; i < first_side_[G + 1]; ++i) {
        if (z_(at_.c(i)) < z_(at_.c(best))) best = i;
      }
      z_(at_.d(G)) = std::max(0.0, gamma_ - z_(at_.c(best)));
      z_(at_.g(best)) = 1.0;
    }
    max_formulation_w(L_, gamma_, z_, w_p, &w_);
  }

  const PlaneLcp& planes_;
  const NonconvexLayout& L_;
  const double gamma_;
  const MaxGroupOptions& options_;
  const MaxIndex at_;
  std::vector<int> first_side_;  // sides of group G are first_side_[G] .. first_side_[G+1]-1
  const VecX free_;              // the plane rows at z_p = 0, q_p
  VecX a_;                       // a_i at the last candidate (initially at z_p = 0)
  double q_scale_ = 0.0;         // |q|_inf of the max formulation
  VecX z_, w_, z_p_, first_z_, first_w_;
  LcpBasis start_;      // the basis the next selection's solve starts from (plane LCP)
  LcpBasis kept_warm_;  // start_ on a selection's kept variables
  LcpBasis basis_;      // the accepted selection's (basis())
  bool warm_ = false, warm_path_ = false;
  std::set<Selection> visited_;
  std::vector<char> emptied_;  // per group: the repair gave it its empty subset before
  int pivots_ = 0;
  int selections_ = 0;
  int failed_selections_ = 0;
  bool solved_ = false;
  bool chain_failed_ = false;  // a selection's solve failed after the whole chain
  int failed_in_a_row_ = 0;    // selections failed numerically since the last that did not
  bool found_ = false;
  bool out_of_budget_ = false;
  bool cancelled_ = false;
};

// Runs the search and reports it as an LcpResult over the max formulation. Without an
// accepted selection: PivotLimit when the budget ran out, NumericalFailure when some
// selection's solve failed numerically (the search proves nothing then), SecondaryRay when
// every selection ended on a ray.
LcpResult search_result(MaxGroupSearch* search, int size, Clock::time_point start) {
  LcpResult result;
  if (search->run()) {
    result.status = LcpStatus::Solved;
  } else if (search->cancelled()) {
    result.status = LcpStatus::Cancelled;
  } else if (search->out_of_budget()) {
    result.status = LcpStatus::PivotLimit;
  } else {
    result.status =
        search->failed_selections() > 0 ? LcpStatus::NumericalFailure : LcpStatus::SecondaryRay;
  }
  const bool have = search->z().size() == size;
  result.z = have ? search->z() : VecX::Zero(size);
  result.w = have ? search->w() : VecX::Zero(size);
  result.pivots = search->pivots();
  // A warm answer only when the search found it in its first selection without a pivot.
  result.warm = result.status == LcpStatus::Solved && search->warm() && search->selections() == 1;
  result.warm_path = result.status == LcpStatus::Solved && search->warm_path();
  result.solve_time_us = microseconds_since(start);
  return result;
}

}  // namespace

LcpResult solve_lcp_with_max_groups(const MatX& M, const VecX& q, const NonconvexLayout& layout,
                                    const MaxGroupOptions& options) {
  const Clock::time_point start = Clock::now();
  double gamma = 0.0;
  const DenseLcp planes = read_plane_lcp(M, q, layout, &gamma);
  const DensePlanes plane_lcp(planes, options.lemke);
  MaxGroupSearch search(plane_lcp, layout, gamma, options);
  LcpResult result = search_result(&search, layout.size(), start);
  result.w = M * result.z + q;
  return result;
}

MaxGroupResult solve_contact_with_max_groups(const ContactProblem& planes,
                                             const NonconvexGroups& groups, double gamma,
                                             LcpMethod method, const MaxGroupOptions& options,
                                             const LcpBasis& warm) {
  return solve_contact_with_max_groups(planes, nullptr, nullptr, groups, gamma, method, options,
                                       warm);
}

MaxGroupResult solve_contact_with_max_groups(const ContactProblem& planes,
                                             const NormalizedContacts* columns,
                                             PlanesInLayout* storage, const NonconvexGroups& groups,
                                             double gamma, LcpMethod method,
                                             const MaxGroupOptions& options, const LcpBasis& warm) {
  const Clock::time_point start = Clock::now();
  if (!(gamma > 1.0 && std::isfinite(gamma))) {
    throw std::invalid_argument("solve_contact_with_max_groups: gamma must be finite and > 1");
  }
  MaxGroupResult out;
  out.plane_order = plane_order(planes.num_contacts(), groups, &out.layout);
  out.layout.form = NonconvexFormulation::Max;
  out.layout.d = planes.d;
  PlanesInLayout local;
  PlanesInLayout& in_layout = storage ? *storage : local;
  ContactProblem& ordered = in_layout.problem;
  ordered = planes;
  const int P = planes.num_contacts();
  const int d = planes.d;
  for (int k = 0; k < P; ++k) {
    const int from = out.plane_order[k];
    ordered.mu[k] = planes.mu[from];
    ordered.b[k] = planes.b[from];
    ordered.normal[k] = planes.normal[from];
    for (int j = 0; j < d; ++j) ordered.friction[k * d + j] = planes.friction[from * d + j];
  }
  // The warm basis and the answer's, from the planes' input order to the layout's and back.
  const std::vector<int> index = plane_variables(out.plane_order, d);
  const auto permute = [&](const LcpBasis& basis, bool to_layout, LcpBasis* permuted) {
    permuted->z_basic.assign(basis.z_basic.size(), 0);
    for (size_t t = 0; t < index.size() && !basis.z_basic.empty(); ++t) {
      if (to_layout) {
        permuted->z_basic[t] = basis.z_basic[index[t]];
      } else {
        permuted->z_basic[index[t]] = basis.z_basic[t];
      }
    }
  };
  LcpBasis warm_in_layout;
  if (warm.z_basic.size() == static_cast<size_t>(planes.lcp_size()))
    permute(warm, true, &warm_in_layout);
  if (columns) {
    reorder_contacts(*columns, out.plane_order, &in_layout.columns);
  } else {
    normalize_contacts(ordered, &in_layout.columns);
  }
  const ContactPlanes plane_lcp(ordered, in_layout.columns, method, options.lemke);
  MaxGroupSearch search(plane_lcp, out.layout, gamma, options, warm_in_layout);
  out.lcp = search_result(&search, out.layout.size(), start);
  if (out.lcp.status == LcpStatus::Solved) permute(search.basis(), false, &out.plane_basis);
  out.selections = search.selections();
  out.failed_selections = search.failed_selections();
  out.budget_exhausted = search.out_of_budget() && !search.cancelled();
  return out;
}

}  // namespace pivot
