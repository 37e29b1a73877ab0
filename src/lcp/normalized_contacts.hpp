// The contact problem in mass-normalised coordinates, Lloyd (2005) Sec. 2: with the
// block-diagonal mass matrix factored per body as M_k = G_k G_k', the columns
// N = G^-1 N~, D = G^-1 D~ and k = G^-1 k~_x make the LCP matrix of eq. (8) a product of
// sparse factors (N'N, N'D, D'D) that is never formed by the fast methods.
#pragma once

#include <vector>

#include "pivot/lcp.hpp"

namespace pivot {

struct NormalizedContacts {
  int num_bodies = 0;
  int d = 0;
  std::vector<Eigen::LLT<Mat6>> factor;  // G_k per body (lower Cholesky factor)
  std::vector<ContactColumn> N;          // n columns, entries G^-1 n~
  std::vector<ContactColumn> D;          // n*d columns, contact-major
  VecX k;                                // G^-1 k~_x, size 6m
  std::vector<double> mu;
  std::vector<double> b;
};

// Throws std::invalid_argument naming the body when a mass matrix is not SPD, and for
// inconsistent sizes.
NormalizedContacts normalize_contacts(const ContactProblem& problem);

// a' b for two sparse columns.
double column_dot(const ContactColumn& a, const ContactColumn& b);
// a' v for a dense 6m vector v.
double column_dot(const ContactColumn& a, const VecX& v);
// v += s a.
void add_scaled_column(const ContactColumn& a, double s, VecX* v);
// |a|' v and v += s |a| (entrywise absolute values): magnitudes for round-off bounds.
double abs_column_dot(const ContactColumn& a, const VecX& v);
void add_abs_column(const ContactColumn& a, double s, VecX* v);

// w = M z + q of eq. (8) row by row from the columns, M never formed: nu_i = n_i' v_c +
// b_i, sigma_ij = d_ij' v_c + lambda_i, gamma_i = mu_i theta_i - sum_j phi_ij, with v_c
// = k + N theta + D phi. *q_scale receives |q|_inf, from the same columns (N'k + b, D'k, 0).
VecX contact_lcp_w(const NormalizedContacts& nc, const VecX& z, double* q_scale);

// Body velocities from a normalised velocity v_c: v = G^-T v_c (Lloyd (2) with M = GG').
VecX body_velocity_from_normalized(const NormalizedContacts& nc, const VecX& v_c);

}  // namespace pivot
