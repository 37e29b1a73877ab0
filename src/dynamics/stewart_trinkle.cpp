#include "stewart_trinkle.hpp"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "rigid_body_motion.hpp"

namespace pivot {

namespace {

// The directions' tables cover the slider's and the scenes' usual range; a larger d
// computes its angles when asked.
constexpr int kTabulatedDirections = 64;

// (cos, sin) of t_j's angle from t_0: the one formula of both the table and the rest.
std::pair<double, double> direction_angle(int j, int d) {
  const double angle = 2.0 * kPi * j / d;
  return {std::cos(angle), std::sin(angle)};
}

// Per d <= kTabulatedDirections, d pairs (cos, sin) from offset d (d - 1), after the
// d (d - 1) / 2 pairs of every smaller d. Made once, thread-safe as a function's static.
const std::vector<double>& direction_table() {
  static const std::vector<double> table = [] {
    std::vector<double> t;
    t.reserve(static_cast<size_t>(kTabulatedDirections) * (kTabulatedDirections + 1));
    for (int d = 1; d <= kTabulatedDirections; ++d) {
      for (int j = 0; j < d; ++j) {
        const auto [c, s] = direction_angle(j, d);
        t.push_back(c);
        t.push_back(s);
      }
    }
    return t;
  }();
  return table;
}

// v.normalized(), without its square root and division where |v|^2 is exactly one (then
// they leave v as it is): a resting body's contact normals and tangents are mostly axes,
// and the two normalisations of every contact were 3 % of a resting stack's step.
Vec3 unit(const Vec3& v) { return v.squaredNorm() == 1.0 ? v : v.normalized(); }

}  // namespace

FrictionDirections::FrictionDirections(const Vec3& normal, int d)
    : d_(d),
      cos_sin_(d >= 1 && d <= kTabulatedDirections ? direction_table().data() + d * (d - 1)
                                                   : nullptr) {
  const Vec3 n = unit(normal);
  const Vec3 axis = std::abs(n.x()) > std::sqrt(0.5) ? Vec3::UnitY() : Vec3::UnitX();
  u_ = unit(axis - axis.dot(n) * n);
  w_ = n.cross(u_);
}

Vec3 FrictionDirections::operator[](int j) const {
  const auto [c, s] = cos_sin_ ? std::pair<double, double>(cos_sin_[2 * j], cos_sin_[2 * j + 1])
                               : direction_angle(j, d_);
  return c * u_ + s * w_;
}

ContactColumn contact_column(const Vec3& point, const Vec3& direction, int local_a,
                             const Vec3& com_a, int local_b, const Vec3& com_b) {
  // Lloyd Sec. 2: +-(n, r x n) per body, r from the body's reference point (its COM). Set
  // by fixed-size halves: Eigen's comma initialiser assigns through dynamic-size blocks, and
  // was 6 % of a resting peg's step.
  ContactColumn column;
  int slot = 0;
  if (local_a >= 0) {
    column.body[slot] = local_a;
    column.block[slot].head<3>() = direction;
    column.block[slot].tail<3>() = (point - com_a).cross(direction);
    ++slot;
  }
  if (local_b >= 0) {
    column.body[slot] = local_b;
    column.block[slot].head<3>() = -direction;
    column.block[slot].tail<3>() = -(point - com_b).cross(direction);
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
    problem.kx.segment<6>(6 * k) = in.free_impulse[k];
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
