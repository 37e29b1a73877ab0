#include "stewart_trinkle.hpp"

#include <algorithm>
#include <cmath>

#include "rigid_body_motion.hpp"

namespace pivot {

FrictionDirections::FrictionDirections(const Vec3& normal, int d) : d_(d) {
  const Vec3 n = normal.normalized();
  const Vec3 axis = std::abs(n.x()) > std::sqrt(0.5) ? Vec3::UnitY() : Vec3::UnitX();
  u_ = (axis - axis.dot(n) * n).normalized();
  w_ = n.cross(u_);
}

Vec3 FrictionDirections::operator[](int j) const {
  const double angle = 2.0 * kPi * j / d_;
  return std::cos(angle) * u_ + std::sin(angle) * w_;
}

ContactColumn contact_column(const Vec3& point, const Vec3& direction, int local_a,
                             const Vec3& com_a, int local_b, const Vec3& com_b) {
  // Lloyd Sec. 2: +-(n, r x n) per body, r from the body's reference point (its COM).
  ContactColumn column;
  int slot = 0;
  if (local_a >= 0) {
    column.body[slot] = local_a;
    column.block[slot] << direction, (point - com_a).cross(direction);
    ++slot;
  }
  if (local_b >= 0) {
    column.body[slot] = local_b;
    column.block[slot] << -direction, -(point - com_b).cross(direction);
  }
  return column;
}

void assemble_stewart_trinkle(const StewartTrinkleInput& in, ContactProblem* out) {
  const std::vector<Body>& bodies = *in.bodies;
  const std::vector<BodyState>& states = *in.states;
  const int m = static_cast<int>(in.island_bodies.size());
  // A body's place in the island (ascending indices), -1 for a fixed body.
  auto local_index = [&](int global) {
    const auto it = std::lower_bound(in.island_bodies.begin(), in.island_bodies.end(), global);
    return it != in.island_bodies.end() && *it == global
               ? static_cast<int>(it - in.island_bodies.begin())
               : -1;
  };

  ContactProblem& problem = *out;
  problem.d = in.d;
  problem.mass.resize(m);
  problem.kx.resize(6 * m);
  for (int k = 0; k < m; ++k) {
    const int g = in.island_bodies[k];
    problem.mass[k] = spatial_mass(bodies[g], states[g].pose.orientation);
    const Vec6& wrench = in.applied_wrench[k];
    problem.kx.segment<6>(6 * k) = free_motion_impulse(bodies[g], states[g], in.gravity_mps2,
                                                       wrench.head<3>(), wrench.tail<3>(), in.h_s);
  }

  const int n = static_cast<int>(in.contacts.size());
  problem.mu = in.mu;
  problem.b.resize(n);
  problem.normal.clear();
  problem.friction.clear();
  problem.normal.reserve(n);
  problem.friction.reserve(static_cast<size_t>(n) * in.d);
  for (int i = 0; i < n; ++i) {
    const Contact& c = *in.contacts[i];
    const int a = local_index(c.body_a);
    const int b = local_index(c.body_b);
    const Vec3 com_a = states[c.body_a].pose.position;
    const Vec3 com_b = states[c.body_b].pose.position;
    // Egan (5): nu = n' v + f/h, the depth s beyond the slop left to the recovery pass.
    const double depth = in.recovery_depth_m.empty() ? 0.0 : in.recovery_depth_m[i];
    problem.b[i] = (c.gap_m + depth) / in.h_s;
    problem.normal.push_back(contact_column(c.point, c.normal, a, com_a, b, com_b));
    const FrictionDirections t(c.normal, in.d);
    for (int j = 0; j < t.size(); ++j) {
      problem.friction.push_back(contact_column(c.point, t[j], a, com_a, b, com_b));
    }
  }
}

}  // namespace pivot
