// When an answer is at rest, and which of its loaded contacts slides: the rules by which the
// fast methods engage the friction of a path's answer at rest (engage_friction,
// lemke_fast.cpp, which says why), and by which the standard method's warm start leaves a
// sliding answer to its path (solve_contact.cpp). On the contact LCP of Lloyd (8), ordered
// z = (theta, phi, lambda) and w = (nu, sigma, gamma) for n contacts of d directions.
#pragma once

#include <cmath>
#include <vector>

#include "pivot/math.hpp"

namespace pivot {

// An answer is at rest when no loaded contact slides faster than this many leaving
// slacks: 1e-7 m/s at the stacks' |q| <= 1.
constexpr double kRestSpeed = 1e3;

inline int phi_row(int n, int d, int i, int j) { return n + i * d + j; }
inline int lambda_row(int n, int d, int i) { return n + n * d + i; }

// Whether no loaded contact (theta above slack) of the answer slides: its lambda (the
// sliding speed) and every sigma (the relative speed along a friction direction, plus
// lambda) within kRestSpeed slacks of zero. Sliding at 1e-7 m/s is gone in a step (mu g h
// is 0.06 m/s at h = 0.01).
inline bool at_rest(const VecX& z, const VecX& w, int n, int d, double slack) {
  const double rest = kRestSpeed * slack;
  for (int i = 0; i < n; ++i) {
    if (!(z[i] > slack)) continue;
    if (z[lambda_row(n, d, i)] > rest) return false;
    for (int j = 0; j < d; ++j)
      if (std::abs(w[phi_row(n, d, i, j)]) > rest) return false;
  }
  return true;
}

// The friction row to engage next: of the loaded contacts' sigma rows whose phi is not
// basic, the most negative below a tenth of the slack; -1 when there is none.
inline int sliding_friction_row(const VecX& z, const VecX& w, const std::vector<char>& z_basic,
                                int n, int d, double slack) {
  const double sliding = 0.1 * slack;
  int worst = -1;
  for (int i = 0; i < n; ++i) {
    if (!(z[i] > slack)) continue;  // unloaded: no friction to engage
    for (int j = 0; j < d; ++j) {
      const int g = phi_row(n, d, i, j);
      if (!z_basic[g] && w[g] < -sliding && (worst < 0 || w[g] < w[worst])) worst = g;
    }
  }
  return worst;
}

}  // namespace pivot
