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
  // Per body: G_k = diag(g0, g1, g2, G_rot), the factor of a rigid body's mass matrix about
  // its centre of mass, which apply_inverse_factor solves with fewer dependent divisions.
  std::vector<char> centred;
  std::vector<ContactColumn> N;          // n columns, entries G^-1 n~
  std::vector<ContactColumn> D;          // n*d columns, contact-major
  VecX k;                                // G^-1 k~_x, size 6m
  std::vector<double> mu;
  std::vector<double> b;
};

// Throws std::invalid_argument naming the body when a mass matrix is not SPD, and for
// inconsistent sizes.
NormalizedContacts normalize_contacts(const ContactProblem& problem);
// The same into *out, whose storage is reused: no allocation for sizes it has held before.
void normalize_contacts(const ContactProblem& problem, NormalizedContacts* out);
// The columns of the problem whose contact k is contact order[k] of nc's (order a
// permutation), as copies: to the bit what normalize_contacts forms for that problem, as
// each column is solved alone with its body's factor.
// Into *out, whose storage is reused.
void reorder_contacts(const NormalizedContacts& nc, const std::vector<int>& order,
                      NormalizedContacts* out);

// G^-1 b, to the bit Eigen's triangular solve (LLT::matrixL().solve) for the G it is
// given, also when `centred` (NormalizedContacts::centred): a triangular solve is a chain of
// six dependent divisions, and solved per column block it was a tenth of a resting stack's
// step; with G's structural zeros, whose products and sums add nothing, the three
// translational rows are independent.
inline Vec6 apply_inverse_factor(const Eigen::LLT<Mat6>& G, bool centred, const Vec6& b) {
  if (!centred) return G.matrixL().solve(b);
  const auto& L = G.matrixLLT();
  Vec6 x;
  x(0) = b(0) / L(0, 0);
  x(1) = b(1) / L(1, 1);
  x(2) = b(2) / L(2, 2);
  x(3) = b(3) / L(3, 3);
  x(4) = (b(4) - L(4, 3) * x(3)) / L(4, 4);
  x(5) = (b(5) - (L(5, 3) * x(3) + L(5, 4) * x(4))) / L(5, 5);
  return x;
}

// The column operations below are inline: the fast methods call them once per row and
// pivot, and as out-of-line calls they were 14 % of a peg solve's instructions (issue 15).

// a' b for two sparse columns.
inline double column_dot(const ContactColumn& a, const ContactColumn& b) {
  double sum = 0.0;
  for (int s = 0; s < 2; ++s) {
    if (a.body[s] < 0) continue;
    for (int t = 0; t < 2; ++t) {
      if (b.body[t] == a.body[s]) sum += a.block[s].dot(b.block[t]);
    }
  }
  return sum;
}

// a' v for a dense 6m vector v.
inline double column_dot(const ContactColumn& a, const VecX& v) {
  double sum = 0.0;
  for (int s = 0; s < 2; ++s) {
    if (a.body[s] >= 0) sum += a.block[s].dot(v.segment<6>(6 * a.body[s]));
  }
  return sum;
}

// v += s a.
inline void add_scaled_column(const ContactColumn& a, double s, VecX* v) {
  for (int t = 0; t < 2; ++t) {
    if (a.body[t] >= 0) v->segment<6>(6 * a.body[t]) += s * a.block[t];
  }
}

// |a|' v and v += s |a| (entrywise absolute values): magnitudes for round-off bounds.
inline double abs_column_dot(const ContactColumn& a, const VecX& v) {
  double sum = 0.0;
  for (int s = 0; s < 2; ++s) {
    if (a.body[s] >= 0) sum += a.block[s].cwiseAbs().dot(v.segment<6>(6 * a.body[s]));
  }
  return sum;
}

inline void add_abs_column(const ContactColumn& a, double s, VecX* v) {
  for (int t = 0; t < 2; ++t) {
    if (a.body[t] >= 0) v->segment<6>(6 * a.body[t]) += s * a.block[t].cwiseAbs();
  }
}

// w = M z + q of eq. (8) row by row from the columns, M never formed: nu_i = n_i' v_c +
// b_i, sigma_ij = d_ij' v_c + lambda_i, gamma_i = mu_i theta_i - sum_j phi_ij, with v_c
// = k + N theta + D phi. *q_scale receives |q|_inf, from the same columns (N'k + b, D'k, 0).
VecX contact_lcp_w(const NormalizedContacts& nc, const VecX& z, double* q_scale);
// The same into *w, v_c into *v_c: storage reused, as for what follows.
void contact_lcp_w(const NormalizedContacts& nc, const VecX& z, VecX* v_c, VecX* w,
                   double* q_scale);

// v_c = N theta + D phi + k, the normalised velocity after the step (Lloyd (2) with
// M = G G'); the body velocity is G^-T v_c.
void normalized_velocity(const NormalizedContacts& nc, const VecX& z, VecX* v_c);

// Body velocities from a normalised velocity v_c: v = G^-T v_c (Lloyd (2) with M = GG').
VecX body_velocity_from_normalized(const NormalizedContacts& nc, const VecX& v_c);
void body_velocity_from_normalized(const NormalizedContacts& nc, const VecX& v_c, VecX* v);

// contact_velocity with the columns, v_c and v formed in the storage given.
void contact_velocity(const ContactProblem& problem, const VecX& z, NormalizedContacts* nc,
                      VecX* v_c, VecX* v);
// The same on problem's columns already normalised (nc).
void normalized_contact_velocity(const ContactProblem& problem, const VecX& z,
                                 const NormalizedContacts& nc, VecX* v_c, VecX* v);

// check_contact_solution on columns already normalised, w and v_c formed in *w, *v_c.
LcpCheck check_contact_solution(const NormalizedContacts& nc, const VecX& z, VecX* v_c, VecX* w);

}  // namespace pivot
