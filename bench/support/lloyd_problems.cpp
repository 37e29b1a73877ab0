#include "support/lloyd_problems.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>

namespace pivot::lloyd {

namespace {

constexpr double kPi = 3.14159265358979323846;

// Uniform numbers from a seeded engine, the same on every platform (no <random>
// distributions, whose output the standard leaves to the implementation).
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : engine_(seed) {}
  double uniform(double lo, double hi) {
    return lo + (hi - lo) * static_cast<double>(engine_() >> 11) * 0x1.0p-53;
  }
  Vec6 wrench(double force_N, double torque_Nm) {
    Vec6 w;
    for (int k = 0; k < 6; ++k) w[k] = uniform(-1.0, 1.0) * (k < 3 ? force_N : torque_Nm);
    return w;
  }

 private:
  std::mt19937_64 engine_;
};

Mat6 spatial_mass(double mass_kg, const Mat3& inertia) {
  Mat6 M = Mat6::Zero();
  M.topLeftCorner<3, 3>() = mass_kg * Mat3::Identity();
  M.bottomRightCorner<3, 3>() = inertia;
  return M;
}

Vec6 gravity_impulse(double mass_kg) {
  Vec6 g = Vec6::Zero();
  g[2] = -mass_kg * kGravity_mps2 * kStep_s;
  return g;
}

Mat3 rot_z(double angle_rad) { return Eigen::AngleAxisd(angle_rad, Vec3::UnitZ()).toRotationMatrix(); }

// Lloyd Sec. 5.4: mu_i uniform in [0.2, 0.3].
double lloyd_mu(Rng& rng) { return rng.uniform(0.2, 0.3); }

}  // namespace

ContactProblemBuilder::ContactProblemBuilder(int d) {
  problem_.d = d;
  problem_.kx.resize(0);
}

int ContactProblemBuilder::add_body(const Vec3& centre, const Mat6& mass) {
  problem_.mass.push_back(mass);
  centre_.push_back(centre);
  const Eigen::Index old = problem_.kx.size();
  problem_.kx.conservativeResize(old + 6);
  problem_.kx.tail<6>().setZero();
  return static_cast<int>(centre_.size()) - 1;
}

void ContactProblemBuilder::add_impulse(int body, const Vec6& impulse) {
  problem_.kx.segment<6>(6 * body) += impulse;
}

// Lloyd Sec. 2: a column holds +-(u; p x u) per body, p taken from the body's centre, with
// the sign that makes u'v the velocity of body a relative to body b along u.
ContactColumn ContactProblemBuilder::column(int a, int b, const Vec3& p, const Vec3& u) const {
  ContactColumn c;
  c.body[0] = a;
  c.block[0] << u, (p - centre_[a]).cross(u);
  if (b >= 0) {
    c.body[1] = b;
    c.block[1] << -u, -(p - centre_[b]).cross(u);
  }
  return c;
}

void ContactProblemBuilder::add_contact(int a, int b, const Vec3& p, const Vec3& normal, double mu) {
  if (a < 0 || a >= static_cast<int>(centre_.size()) || b >= static_cast<int>(centre_.size()) || a == b) {
    throw std::invalid_argument("add_contact: bad body pair");
  }
  const Vec3 n = normal.normalized();
  // Tangent basis from the world axis least aligned with n (Lloyd (48)).
  Eigen::Index axis = 0;
  n.cwiseAbs().minCoeff(&axis);
  const Vec3 t1 = n.cross(Vec3::Unit(axis)).normalized();
  const Vec3 t2 = n.cross(t1);
  problem_.normal.push_back(column(a, b, p, n));
  for (int j = 0; j < problem_.d; ++j) {
    const double angle = 2.0 * kPi * j / problem_.d;
    problem_.friction.push_back(column(a, b, p, std::cos(angle) * t1 + std::sin(angle) * t2));
  }
  problem_.mu.push_back(mu);
  problem_.b.push_back(0.0);
}

Mat6 box_mass(double mass_kg, const Vec3& half, const Mat3& R) {
  const Vec3 sq = half.cwiseProduct(half);
  const Mat3 body = (mass_kg / 3.0) * Vec3(sq.y() + sq.z(), sq.x() + sq.z(), sq.x() + sq.y()).asDiagonal();
  return spatial_mass(mass_kg, R * body * R.transpose());
}

Mat6 sphere_mass(double mass_kg, double radius_m) {
  return spatial_mass(mass_kg, 0.4 * mass_kg * radius_m * radius_m * Mat3::Identity());
}

std::vector<Vec3> rotated_square_overlap(double a) {
  // Square |x|, |y| <= a against |x| + |y| <= a sqrt(2): edges cross at a (sqrt(2) - 1).
  const double s = a * (std::sqrt(2.0) - 1.0);
  return {Vec3(a, -s, 0), Vec3(a, s, 0),   Vec3(s, a, 0),   Vec3(-s, a, 0),
          Vec3(-a, s, 0), Vec3(-a, -s, 0), Vec3(-s, -a, 0), Vec3(s, -a, 0)};
}

ContactProblem peg_in_hole(int contacts, std::uint64_t seed) {
  if (contacts < 4 || contacts % 2 != 0) throw std::invalid_argument("peg_in_hole: n must be even and >= 4");
  Rng rng(seed);
  const double radius = 0.05, length = 0.3, mass = 1.0, rim_z = 0.05;  // [m, m, kg, m]
  const double lateral = mass * (3.0 * radius * radius + length * length) / 12.0;
  const Mat3 inertia = Vec3(lateral, lateral, 0.5 * mass * radius * radius).asDiagonal();
  ContactProblemBuilder builder(kDirections);
  const int peg = builder.add_body(Vec3::Zero(), spatial_mass(mass, inertia));
  const int per_rim = contacts / 2;
  for (int rim = 0; rim < 2; ++rim) {
    for (int k = 0; k < per_rim; ++k) {
      // The bottom rim's contacts sit half a step round from the top rim's.
      const double angle = 2.0 * kPi * (k + 0.5 * rim) / per_rim;
      const Vec3 radial(std::cos(angle), std::sin(angle), 0.0);
      const Vec3 p = radius * radial + Vec3(0, 0, rim == 0 ? rim_z : -rim_z);
      builder.add_contact(peg, -1, p, -radial, lloyd_mu(rng));
    }
  }
  builder.add_impulse(peg, kStep_s * rng.wrench(20.0, 2.0));
  return builder.problem();
}

std::vector<Situation> single_body_situations() {
  return {{"ball on plane", 1},        {"box on vertex", 1},        {"box on edge", 2},
          {"ball in corner", 3},       {"block on plane", 4},       {"block in V-groove", 8},
          {"face on face rotated", 8}, {"ball in rim of hole", 8},  {"block in corner", 12},
          {"square peg in hole", 16}};
}

ContactProblem single_body_problem(int situation, std::uint64_t seed) {
  Rng rng(seed);
  ContactProblemBuilder builder(kDirections);
  const double mass = 1.0, h = 0.1;  // [kg], half size of the unit blocks [m]
  const Vec3 up = Vec3::UnitZ();
  int body = 0;
  auto add = [&](const Vec3& p, const Vec3& n) { builder.add_contact(body, -1, p, n, lloyd_mu(rng)); };
  switch (situation) {
    case 0:  // ball on plane
      body = builder.add_body(Vec3(0, 0, h), sphere_mass(mass, h));
      add(Vec3::Zero(), up);
      break;
    case 1:    // box on vertex
    case 2: {  // box on edge
      const Mat3 R = situation == 1 ? Mat3(Eigen::AngleAxisd(0.3, Vec3::UnitX()).toRotationMatrix() *
                                           Eigen::AngleAxisd(0.4, Vec3::UnitY()).toRotationMatrix())
                                    : Mat3(Eigen::AngleAxisd(0.5, Vec3::UnitX()).toRotationMatrix());
      std::vector<Vec3> corners;
      for (int k = 0; k < 8; ++k) corners.push_back(R * Vec3(k & 1 ? h : -h, k & 2 ? h : -h, k & 4 ? h : -h));
      double lowest = 0.0;
      for (const Vec3& c : corners) lowest = std::min(lowest, c.z());
      const Vec3 centre(0, 0, -lowest);
      body = builder.add_body(centre, box_mass(mass, Vec3(h, h, h), R));
      for (const Vec3& c : corners) {
        if (c.z() < lowest + 1e-12) add(centre + c, up);
      }
      break;
    }
    case 3:  // ball in corner: floor and two walls
      body = builder.add_body(Vec3(h, h, h), sphere_mass(mass, h));
      add(Vec3(h, h, 0), up);
      add(Vec3(0, h, h), Vec3::UnitX());
      add(Vec3(h, 0, h), Vec3::UnitY());
      break;
    case 4:  // block on plane
      body = builder.add_body(Vec3(0, 0, 0.5 * h), box_mass(mass, Vec3(h, h, 0.5 * h), Mat3::Identity()));
      for (int k = 0; k < 4; ++k) add(Vec3(k & 1 ? h : -h, k & 2 ? h : -h, 0), up);
      break;
    case 5: {  // block in a 90-degree V-groove along x, two faces flush with the groove
      const Vec3 n1 = Vec3(0, 1, 1).normalized(), n2 = Vec3(0, -1, 1).normalized();
      const double half_side = 0.5 * h, half_length = 2.0 * h;
      const Vec3 centre = half_side * (n1 + n2);
      const Mat3 R = Eigen::AngleAxisd(kPi / 4, Vec3::UnitX()).toRotationMatrix();
      body = builder.add_body(centre, box_mass(mass, Vec3(half_length, half_side, half_side), R));
      for (const auto& [n, t] : {std::pair{n1, n2}, std::pair{n2, n1}}) {
        for (int k = 0; k < 4; ++k) {
          add(centre - half_side * n + (k & 1 ? half_length : -half_length) * Vec3::UnitX() +
                  (k & 2 ? half_side : -half_side) * t,
              n);
        }
      }
      break;
    }
    case 6:  // face on face rotated (Lloyd Fig. 2): a turned block on a square pedestal
      body = builder.add_body(Vec3(0, 0, 0.5 * h), box_mass(mass, Vec3(h, h, 0.5 * h), rot_z(kPi / 4)));
      for (const Vec3& p : rotated_square_overlap(h)) add(p, up);
      break;
    case 7: {  // ball resting in the rim of a round hole
      const double ball = h, hole = 0.6 * h;
      const Vec3 centre(0, 0, std::sqrt(ball * ball - hole * hole));
      body = builder.add_body(centre, sphere_mass(mass, ball));
      for (int k = 0; k < 8; ++k) {
        const Vec3 p = hole * Vec3(std::cos(kPi * k / 4), std::sin(kPi * k / 4), 0);
        add(p, centre - p);
      }
      break;
    }
    case 8:  // block in corner (Lloyd Fig. 1): 4 contacts on each of three faces
      body = builder.add_body(Vec3(h, h, h), box_mass(mass, Vec3(h, h, h), Mat3::Identity()));
      for (int k = 0; k < 4; ++k) {
        const double s = k & 1 ? 2 * h : 0.0, t = k & 2 ? 2 * h : 0.0;
        add(Vec3(s, t, 0), up);
        add(Vec3(0, s, t), Vec3::UnitX());
        add(Vec3(s, 0, t), Vec3::UnitY());
      }
      break;
    case 9: {  // square peg in a square hole: both rims, corners of all four sides
      const double half = 0.5 * h, rim_z = 0.5 * h;
      body = builder.add_body(Vec3::Zero(), box_mass(mass, Vec3(half, half, 3 * half), Mat3::Identity()));
      for (int side = 0; side < 4; ++side) {
        const Vec3 out = rot_z(kPi / 2 * side) * Vec3::UnitX();
        const Vec3 along = up.cross(out);
        for (int k = 0; k < 4; ++k) {
          add(half * out + (k & 1 ? half : -half) * along + Vec3(0, 0, k & 2 ? rim_z : -rim_z), -out);
        }
      }
      break;
    }
    default:
      throw std::invalid_argument("single_body_problem: situation " + std::to_string(situation) +
                                  " of 10");
  }
  builder.add_impulse(body, gravity_impulse(mass) + kStep_s * rng.wrench(10.0, 1.0));
  return builder.problem();
}

ContactProblem block_stack(int blocks, bool rotated, std::uint64_t seed) {
  if (blocks < 1) throw std::invalid_argument("block_stack: at least one block");
  Rng rng(seed);
  ContactProblemBuilder builder(kDirections);
  const double mass = 1.0, h = 0.1;  // [kg], half side [m]
  const Vec3 up = Vec3::UnitZ();
  for (int k = 0; k < blocks; ++k) {
    // Block k stands on the block below (k = 0: a fixed pedestal of the same square).
    const double turn = rotated ? k * kPi / 4 : 0.0;
    const int body = builder.add_body(Vec3(0, 0, h + 2 * h * k), box_mass(mass, Vec3(h, h, h), rot_z(turn)));
    const double base_z = 2 * h * k;
    std::vector<Vec3> points;
    if (rotated) {
      for (const Vec3& p : rotated_square_overlap(h)) points.push_back(rot_z(turn - kPi / 4) * p);
    } else {
      for (int c = 0; c < 4; ++c) points.push_back(Vec3(c & 1 ? h : -h, c & 2 ? h : -h, 0));
    }
    for (const Vec3& p : points) builder.add_contact(body, k - 1, p + Vec3(0, 0, base_z), up, lloyd_mu(rng));
    builder.add_impulse(body, gravity_impulse(mass));
  }
  builder.add_impulse(blocks - 1, kStep_s * rng.wrench(10.0, 1.0));
  return builder.problem();
}

}  // namespace pivot::lloyd
