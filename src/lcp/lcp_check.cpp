// Acceptance check of a general LCP solution (shared/formats/problem-files.md).
#include "lcp_check.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace pivot {

namespace {

double max_abs(const VecX& v) { return v.size() > 0 ? v.lpNorm<Eigen::Infinity>() : 0.0; }

}  // namespace

LcpCheck check_complementarity(const VecX& z, const VecX& w, double q_scale, double tolerance) {
  if (z.size() != w.size()) {
    throw std::invalid_argument("check: z has " + std::to_string(z.size()) + " entries, w has " +
                                std::to_string(w.size()));
  }
  LcpCheck check;
  if (z.size() == 0) {
    check.accepted = true;
    return check;
  }
  check.min_entry = std::min(z.minCoeff(), w.minCoeff());
  check.max_complementarity = (w.array() * z.array()).abs().maxCoeff();
  const double s = std::max(1.0, q_scale);
  check.accepted = z.allFinite() && w.allFinite() && check.min_entry >= -tolerance * s &&
                   check.max_complementarity <= tolerance * s * std::max(1.0, max_abs(z));
  return check;
}

LcpCheck check_lcp_solution(const MatX& M, const VecX& q, const VecX& z) {
  if (M.rows() != q.size() || M.cols() != q.size() || z.size() != q.size()) {
    throw std::invalid_argument("check_lcp_solution: M is " + std::to_string(M.rows()) + "x" +
                                std::to_string(M.cols()) + ", q has " + std::to_string(q.size()) +
                                " entries, z has " + std::to_string(z.size()));
  }
  const VecX w = M * z + q;
  return check_complementarity(z, w, max_abs(q));
}

}  // namespace pivot
