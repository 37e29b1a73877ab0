// The contact LCP of Lloyd (2005) eq. (8) as a dense (M, q) for the standard method, the
// body velocities it implies, and its acceptance check computed from the structure.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "lcp_check.hpp"
#include "normalized_contacts.hpp"

namespace pivot {

namespace {

void check_size(const ContactProblem& problem, const VecX& z, const char* what) {
  if (z.size() != problem.lcp_size()) {
    throw std::invalid_argument(std::string(what) + ": z has " + std::to_string(z.size()) +
                                " entries, the contact LCP has " +
                                std::to_string(problem.lcp_size()));
  }
}

}  // namespace

DenseLcp assemble_contact_lcp(const ContactProblem& problem) {
  const NormalizedContacts nc = normalize_contacts(problem);
  const int n = problem.num_contacts();
  const int d = problem.d;
  const int size = problem.lcp_size();
  const int lambda0 = n + n * d;
  // The (theta, phi) block of (8) is the Gram matrix J'J of the normalised columns
  // J = (N D): N'N, N'D, D'N and D'D in one symmetric pass over sparse column pairs.
  std::vector<const ContactColumn*> J;
  J.reserve(lambda0);
  for (const ContactColumn& c : nc.N) J.push_back(&c);
  for (const ContactColumn& c : nc.D) J.push_back(&c);

  DenseLcp lcp;
  lcp.M = MatX::Zero(size, size);
  lcp.q = VecX::Zero(size);
  for (int a = 0; a < lambda0; ++a) {
    for (int b = a; b < lambda0; ++b) {
      const double g = column_dot(*J[a], *J[b]);
      lcp.M(a, b) = g;
      lcp.M(b, a) = g;
    }
    // q of (8): N'k + b on the nu rows, D'k on the sigma rows.
    lcp.q(a) = column_dot(*J[a], nc.k) + (a < n ? nc.b[a] : 0.0);
  }
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < d; ++j) {
      lcp.M(n + i * d + j, lambda0 + i) = 1.0;   // E lambda in the sigma rows
      lcp.M(lambda0 + i, n + i * d + j) = -1.0;  // -E' phi in the gamma rows
    }
    lcp.M(lambda0 + i, i) = nc.mu[i];  // mu theta in the gamma rows
  }
  return lcp;
}

void normalized_velocity(const NormalizedContacts& nc, const VecX& z, VecX* v_c) {
  const int n = static_cast<int>(nc.N.size());
  *v_c = nc.k;
  for (int i = 0; i < n; ++i) add_scaled_column(nc.N[i], z(i), v_c);
  for (int j = 0; j < n * nc.d; ++j) add_scaled_column(nc.D[j], z(n + j), v_c);
}

VecX contact_velocity(const ContactProblem& problem, const VecX& z) {
  NormalizedContacts nc;
  VecX v_c, v;
  contact_velocity(problem, z, &nc, &v_c, &v);
  return v;
}

void contact_velocity(const ContactProblem& problem, const VecX& z, NormalizedContacts* nc,
                      VecX* v_c, VecX* v) {
  normalize_contacts(problem, nc);
  normalized_contact_velocity(problem, z, *nc, v_c, v);
}

void normalized_contact_velocity(const ContactProblem& problem, const VecX& z,
                                 const NormalizedContacts& nc, VecX* v_c, VecX* v) {
  check_size(problem, z, "contact_velocity");
  normalized_velocity(nc, z, v_c);
  body_velocity_from_normalized(nc, *v_c, v);
}

VecX contact_lcp_w(const NormalizedContacts& nc, const VecX& z, double* q_scale) {
  VecX v_c, w;
  contact_lcp_w(nc, z, &v_c, &w, q_scale);
  return w;
}

void contact_lcp_w(const NormalizedContacts& nc, const VecX& z, VecX* v_c_out, VecX* w_out,
                   double* q_scale) {
  const int n = static_cast<int>(nc.N.size());
  const int d = nc.d;
  const int lambda0 = n + n * d;
  normalized_velocity(nc, z, v_c_out);
  const VecX& v_c = *v_c_out;
  VecX& w = *w_out;
  w.resize(z.size());
  *q_scale = 0.0;
  for (int i = 0; i < n; ++i) {
    w(i) = column_dot(nc.N[i], v_c) + nc.b[i];
    *q_scale = std::max(*q_scale, std::abs(column_dot(nc.N[i], nc.k) + nc.b[i]));
    double phi_sum = 0.0;
    for (int j = 0; j < d; ++j) {
      const int row = n + i * d + j;
      w(row) = column_dot(nc.D[i * d + j], v_c) + z(lambda0 + i);
      *q_scale = std::max(*q_scale, std::abs(column_dot(nc.D[i * d + j], nc.k)));
      phi_sum += z(row);
    }
    w(lambda0 + i) = nc.mu[i] * z(i) - phi_sum;
  }
}

VecX contact_lcp_w(const ContactProblem& problem, const VecX& z) {
  check_size(problem, z, "contact_lcp_w");
  double q_scale = 0.0;
  return contact_lcp_w(normalize_contacts(problem), z, &q_scale);
}

LcpCheck check_contact_solution(const ContactProblem& problem, const VecX& z) {
  check_size(problem, z, "check_contact_solution");
  VecX v_c, w;
  return check_contact_solution(normalize_contacts(problem), z, &v_c, &w);
}

LcpCheck check_contact_solution(const NormalizedContacts& nc, const VecX& z, VecX* v_c, VecX* w) {
  double q_scale = 0.0;
  contact_lcp_w(nc, z, v_c, w, &q_scale);
  return check_complementarity(z, *w, q_scale);
}

}  // namespace pivot
