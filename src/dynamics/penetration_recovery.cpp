#include "dynamics/penetration_recovery.hpp"

#include <algorithm>

namespace pivot {

bool recovery_depths(const std::vector<double>& gap_m, const NonconvexGroups& groups, double slop_m,
                     std::vector<double>* depth_m) {
  std::vector<double>& depth = *depth_m;
  depth.resize(gap_m.size());
  for (size_t i = 0; i < gap_m.size(); ++i) depth[i] = -gap_m[i];
  for (const std::vector<int>& group : groups) {
    double unit_depth = depth[group.front()];
    for (int i : group) unit_depth = std::min(unit_depth, depth[i]);  // the largest gap
    for (int i : group) depth[i] = unit_depth;
  }
  bool any = false;
  for (double& s : depth) {
    s = std::max(0.0, s - slop_m);
    any = any || s > 0.0;
  }
  return any;
}

void recovery_problem(const ContactProblem& step, const VecX& v, const std::vector<double>& depth_m,
                      double h_s, double recovery_speed_mps, ContactProblem* pseudo) {
  ContactProblem& p = *pseudo;
  p = step;
  std::fill(p.mu.begin(), p.mu.end(), 0.0);
  for (int k = 0; k < p.num_bodies(); ++k) {
    p.kx.segment<6>(6 * k) = p.mass[k] * v.segment<6>(6 * k);
  }
  for (int i = 0; i < p.num_contacts(); ++i) {
    p.b[i] -= std::min(recovery_speed_mps, depth_m[i] / h_s);
  }
}

}  // namespace pivot
