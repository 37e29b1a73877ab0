#include "normalized_contacts.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace pivot {

namespace {

ContactColumn normalized_column(const ContactColumn& c, const NormalizedContacts& nc) {
  ContactColumn out = c;
  for (int s = 0; s < 2; ++s) {
    const int k = c.body[s];
    if (k >= 0) out.block[s] = apply_inverse_factor(nc.factor[k], nc.centred[k], c.block[s]);
  }
  return out;
}

void check_column(const ContactColumn& c, int num_bodies, const char* what, int index) {
  for (int s = 0; s < 2; ++s) {
    if (c.body[s] >= num_bodies) {
      throw std::invalid_argument(std::string(what) + " column " + std::to_string(index) +
                                  " refers to body " + std::to_string(c.body[s]) + " of " +
                                  std::to_string(num_bodies));
    }
  }
}

}  // namespace

NormalizedContacts normalize_contacts(const ContactProblem& p) {
  NormalizedContacts nc;
  normalize_contacts(p, &nc);
  return nc;
}

void normalize_contacts(const ContactProblem& p, NormalizedContacts* out) {
  const int m = p.num_bodies();
  const int n = p.num_contacts();
  if (p.d < 2) throw std::invalid_argument("d must be >= 2, got " + std::to_string(p.d));
  if (p.kx.size() != 6 * m) throw std::invalid_argument("kx must have 6m entries");
  if (static_cast<int>(p.mu.size()) != n || static_cast<int>(p.b.size()) != n ||
      static_cast<int>(p.friction.size()) != n * p.d) {
    throw std::invalid_argument("contact problem sizes disagree (mu, b, friction vs normal)");
  }
  NormalizedContacts& nc = *out;
  nc.num_bodies = m;
  nc.d = p.d;
  nc.factor.clear();
  nc.factor.reserve(m);
  nc.centred.resize(m);
  for (int k = 0; k < m; ++k) {
    const Mat6& Mk = p.mass[k];
    Eigen::LLT<Mat6> llt(Mk);
    // LLT only reads the lower triangle, so symmetry is checked separately.
    const double scale = std::max(1.0, Mk.cwiseAbs().maxCoeff());
    if (llt.info() != Eigen::Success ||
        (Mk - Mk.transpose()).cwiseAbs().maxCoeff() > 1e-12 * scale ||
        llt.matrixL().toDenseMatrix().diagonal().minCoeff() <= 1e-12 * std::sqrt(scale)) {
      throw std::invalid_argument("mass matrix of body " + std::to_string(k) +
                                  " is not symmetric positive definite");
    }
    nc.factor.push_back(llt);
    const Mat6& L = llt.matrixLLT();
    nc.centred[k] =
        L(1, 0) == 0.0 && L(2, 0) == 0.0 && L(2, 1) == 0.0 && L.block<3, 3>(3, 0).isZero(0.0);
  }
  nc.N.clear();
  nc.D.clear();
  nc.N.reserve(n);
  nc.D.reserve(static_cast<size_t>(n) * p.d);
  for (int i = 0; i < n; ++i) {
    check_column(p.normal[i], m, "normal", i);
    nc.N.push_back(normalized_column(p.normal[i], nc));
  }
  for (int j = 0; j < n * p.d; ++j) {
    check_column(p.friction[j], m, "friction", j);
    nc.D.push_back(normalized_column(p.friction[j], nc));
  }
  nc.k.resize(6 * m);
  for (int k = 0; k < m; ++k) {
    nc.k.segment<6>(6 * k) = nc.factor[k].matrixL().solve(p.kx.segment<6>(6 * k));
  }
  nc.mu = p.mu;
  nc.b = p.b;
}

void reorder_contacts(const NormalizedContacts& nc, const std::vector<int>& order,
                      NormalizedContacts* out) {
  out->num_bodies = nc.num_bodies;
  out->d = nc.d;
  out->factor = nc.factor;
  out->centred = nc.centred;
  out->k = nc.k;
  out->N.clear();
  out->D.clear();
  out->mu.clear();
  out->b.clear();
  for (const int from : order) {
    out->N.push_back(nc.N[from]);
    for (int j = 0; j < nc.d; ++j) out->D.push_back(nc.D[static_cast<size_t>(from) * nc.d + j]);
    out->mu.push_back(nc.mu[from]);
    out->b.push_back(nc.b[from]);
  }
}

VecX body_velocity_from_normalized(const NormalizedContacts& nc, const VecX& v_c) {
  VecX v;
  body_velocity_from_normalized(nc, v_c, &v);
  return v;
}

void body_velocity_from_normalized(const NormalizedContacts& nc, const VecX& v_c, VecX* v) {
  v->resize(v_c.size());
  for (int k = 0; k < nc.num_bodies; ++k) {
    v->segment<6>(6 * k) = nc.factor[k].matrixU().solve(v_c.segment<6>(6 * k));
  }
}

}  // namespace pivot
