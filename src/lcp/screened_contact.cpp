// The working set of a contact LCP's solve (screened_contact.hpp).

#include "screened_contact.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "lcp_check.hpp"
#include "stopwatch.hpp"

namespace pivot {

namespace {

// The contact LCP of planes' contacts `set`, in their order (kept_variables' layout).
void subproblem(const ContactProblem& planes, const std::vector<int>& set, ContactProblem* out) {
  const int d = planes.d;
  out->d = d;
  out->mass = planes.mass;
  out->kx = planes.kx;
  out->mu.clear();
  out->b.clear();
  out->normal.clear();
  out->friction.clear();
  for (const int k : set) {
    out->mu.push_back(planes.mu[k]);
    out->b.push_back(planes.b[k]);
    out->normal.push_back(planes.normal[k]);
    for (int j = 0; j < d; ++j) out->friction.push_back(planes.friction[k * d + j]);
  }
}

// Variable t of the LCP over contacts `from` is variable map[t] of the LCP over `to`, every
// contact of `from` being one of `to` (at[c]: c's place in `to`).
std::vector<int> variable_map(const std::vector<int>& from, const std::vector<int>& at, int n_to,
                              int d) {
  const int n = static_cast<int>(from.size());
  std::vector<int> map(static_cast<size_t>(n) * (2 + d));
  for (int i = 0; i < n; ++i) {
    const int c = at[from[i]];
    map[i] = c;
    for (int j = 0; j < d; ++j) map[n + i * d + j] = n_to + c * d + j;
    map[n + n * d + i] = n_to + n_to * d + c;
  }
  return map;
}

}  // namespace

LcpResult solve_screened(const ContactProblem& planes, const NormalizedContacts& columns,
                         const std::vector<int>& contacts, const LcpBasis& warm,
                         const ContactLcpSolve& solve) {
  const int n = static_cast<int>(contacts.size());
  const int d = planes.d;
  const int size = n * (2 + d);
  ContactProblem whole;
  const auto solve_whole = [&](int pivots_before) {
    subproblem(planes, contacts, &whole);
    LcpResult r = solve(whole, warm);
    r.pivots += pivots_before;
    return r;
  };
  if (n < kScreenedMinContacts) return solve_whole(0);
  const auto start = Clock::now();

  // Place of each plane among `contacts` (-1: not one of them).
  std::vector<int> at(planes.num_contacts(), -1);
  for (int i = 0; i < n; ++i) at[contacts[i]] = i;
  const bool have_warm = warm.z_basic.size() == static_cast<size_t>(size);
  // The free normal velocities, row nu_i of eq. (8) at z = 0 (gap term included).
  std::vector<double> free(n);
  double free_inf = 0.0;
  for (int i = 0; i < n; ++i) {
    const int k = contacts[i];
    free[i] = column_dot(columns.N[k], columns.k) + columns.b[k];
    free_inf = std::max(free_inf, std::abs(free[i]));
  }
  const double separating = kAcceptanceTolerance * std::max(1.0, free_inf);
  std::vector<char> in(n, 0);
  for (int i = 0; i < n; ++i) {
    bool basic = false;
    for (int j = 0; j < d && have_warm; ++j) basic = basic || warm.z_basic[n + i * d + j];
    if (have_warm) basic = basic || warm.z_basic[i] || warm.z_basic[n + n * d + i];
    in[i] = basic || free[i] <= separating;
  }

  std::vector<int> set;
  LcpBasis basis;  // over `contacts`, the last round's (the caller's warm basis at first)
  if (have_warm) basis = warm;
  ContactProblem sub;
  LcpBasis sub_warm;
  VecX v_c;
  int pivots = 0;
  bool first = true, first_warm = false, warm_path = false;
  while (true) {
    set.clear();
    for (int i = 0; i < n; ++i) {
      if (in[i]) set.push_back(contacts[i]);
    }
    if (static_cast<int>(set.size()) == n) return solve_whole(pivots);
    const std::vector<int> map = variable_map(set, at, n, d);
    sub_warm.z_basic.clear();
    if (!basis.z_basic.empty()) {
      for (const int v : map) sub_warm.z_basic.push_back(basis.z_basic[v]);
    }
    subproblem(planes, set, &sub);
    const LcpResult r = solve(sub, sub_warm);
    pivots += r.pivots;
    if (r.status == LcpStatus::Cancelled) {
      LcpResult out = r;
      out.pivots = pivots;
      return out;
    }
    if (r.status != LcpStatus::Solved) return solve_whole(pivots);
    if (first) first_warm = r.warm;
    first = false;
    warm_path = warm_path || r.warm_path;

    // The answer's normalised velocity, Lloyd (27): v_c = k + N theta + D phi over the set.
    const int s = static_cast<int>(set.size());
    v_c = columns.k;
    for (int i = 0; i < s; ++i) {
      add_scaled_column(columns.N[set[i]], r.z[i], &v_c);
      for (int j = 0; j < d; ++j)
        add_scaled_column(columns.D[set[i] * d + j], r.z[s + i * d + j], &v_c);
    }
    bool closing = false;
    for (int i = 0; i < n; ++i) {
      const int k = contacts[i];
      if (in[i] || column_dot(columns.N[k], v_c) + columns.b[k] >= 0.0) continue;
      in[i] = 1;
      closing = true;
    }
    basis.z_basic.assign(size, 0);
    for (size_t t = 0; t < map.size(); ++t) basis.z_basic[map[t]] = r.basis.z_basic[t];
    if (closing) continue;

    // Every contact left out separates: theta = phi = 0 and the least lambda that keeps its
    // friction rows sigma = D'v_c + lambda >= 0 (the reduced method's finish()).
    LcpResult out;
    out.z = VecX::Zero(size);
    for (size_t t = 0; t < map.size(); ++t) out.z[map[t]] = r.z[t];
    for (int i = 0; i < n; ++i) {
      if (in[i]) continue;
      double lambda = 0.0;
      for (int j = 0; j < d; ++j)
        lambda = std::max(lambda, -column_dot(columns.D[contacts[i] * d + j], v_c));
      out.z[n + n * d + i] = lambda;
    }
    NormalizedContacts kept;
    reorder_contacts(columns, contacts, &kept);
    VecX v_check;
    if (!check_contact_solution(kept, out.z, &v_check, &out.w).accepted) return solve_whole(pivots);
    out.status = LcpStatus::Solved;
    out.pivots = pivots;
    out.basis = std::move(basis);
    out.warm = first_warm && pivots == 0;
    out.warm_path = warm_path;
    out.solve_time_us = microseconds_since(start);
    return out;
  }
}

}  // namespace pivot
