#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

#include "pivot/lcp.hpp"

namespace pivot {
namespace {

// Tolerances: assembly and the explicit products below are both a few dozen floating
// point operations on O(1) numbers, so they agree to ~1e-14; 1e-11 leaves room.
constexpr double kAgree = 1e-11;

Vec6 random_vec6(std::mt19937* rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Vec6 v;
  for (int i = 0; i < 6; ++i) v(i) = u(*rng);
  return v;
}

// m bodies with random SPD mass matrices, n contacts between random body pairs (contact
// i touches the fixed world when i % 3 == 0), random columns, mu and b.
ContactProblem random_problem(int m, int n, int d, std::mt19937* rng) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  ContactProblem p;
  p.d = d;
  for (int k = 0; k < m; ++k) {
    Mat6 B;
    for (int c = 0; c < 6; ++c) B.col(c) = random_vec6(rng);
    p.mass.push_back(B * B.transpose() + Mat6::Identity());
  }
  p.kx = VecX(6 * m);
  for (int k = 0; k < m; ++k) p.kx.segment<6>(6 * k) = random_vec6(rng);
  const auto column = [&](int i) {
    ContactColumn c;
    c.body[0] = i % m;
    c.block[0] = random_vec6(rng);
    if (i % 3 != 0 && m > 1) {
      c.body[1] = (i + 1) % m;
      c.block[1] = random_vec6(rng);
    }
    return c;
  };
  for (int i = 0; i < n; ++i) {
    p.mu.push_back(u(*rng));
    p.b.push_back(0.1 * u(*rng));
    p.normal.push_back(column(i));
    for (int j = 0; j < d; ++j) p.friction.push_back(column(i));
  }
  return p;
}

// Dense 6m x cols Jacobian from sparse columns.
MatX dense_columns(const std::vector<ContactColumn>& columns, int m) {
  MatX J = MatX::Zero(6 * m, static_cast<int>(columns.size()));
  for (int c = 0; c < J.cols(); ++c) {
    for (int s = 0; s < 2; ++s) {
      if (columns[c].body[s] >= 0) J.block<6, 1>(6 * columns[c].body[s], c) += columns[c].block[s];
    }
  }
  return J;
}

MatX block_mass(const ContactProblem& p) {
  const int m = p.num_bodies();
  MatX M = MatX::Zero(6 * m, 6 * m);
  for (int k = 0; k < m; ++k) M.block<6, 6>(6 * k, 6 * k) = p.mass[k];
  return M;
}

TEST(ContactLcpDense, AssemblyMatchesExplicitProductsOfEquation8) {
  std::mt19937 rng(8);
  for (const int d : {2, 4}) {
    const ContactProblem p = random_problem(3, 5, d, &rng);
    const int n = p.num_contacts();
    const MatX Minv = block_mass(p).inverse();
    const MatX N = dense_columns(p.normal, 3);
    const MatX D = dense_columns(p.friction, 3);
    MatX E = MatX::Zero(n * d, n);
    for (int i = 0; i < n; ++i) E.block(i * d, i, d, 1).setOnes();
    const VecX mu = Eigen::Map<const VecX>(p.mu.data(), n);
    const VecX b = Eigen::Map<const VecX>(p.b.data(), n);

    // Lloyd (8) with N'N = N~' M^-1 N~ etc. and q = (N~' M^-1 k~ + b, D~' M^-1 k~, 0).
    MatX M_expected = MatX::Zero(n * (2 + d), n * (2 + d));
    M_expected.block(0, 0, n, n) = N.transpose() * Minv * N;
    M_expected.block(0, n, n, n * d) = N.transpose() * Minv * D;
    M_expected.block(n, 0, n * d, n) = D.transpose() * Minv * N;
    M_expected.block(n, n, n * d, n * d) = D.transpose() * Minv * D;
    M_expected.block(n, n + n * d, n * d, n) = E;
    M_expected.block(n + n * d, 0, n, n) = mu.asDiagonal();
    M_expected.block(n + n * d, n, n, n * d) = -E.transpose();
    VecX q_expected = VecX::Zero(n * (2 + d));
    q_expected.head(n) = N.transpose() * Minv * p.kx + b;
    q_expected.segment(n, n * d) = D.transpose() * Minv * p.kx;

    const DenseLcp lcp = assemble_contact_lcp(p);
    ASSERT_EQ(lcp.M.rows(), p.lcp_size());
    EXPECT_LE((lcp.M - M_expected).lpNorm<Eigen::Infinity>(), kAgree) << "d = " << d;
    EXPECT_LE((lcp.q - q_expected).lpNorm<Eigen::Infinity>(), kAgree) << "d = " << d;
    // The Gram block is exactly symmetric, not just to rounding.
    const MatX G = lcp.M.topLeftCorner(n + n * d, n + n * d);
    EXPECT_EQ(G, G.transpose());
  }
}

TEST(ContactLcpDense, VelocityIsMassInverseOfTotalImpulse) {
  std::mt19937 rng(9);
  const ContactProblem p = random_problem(2, 4, 3, &rng);
  const int n = p.num_contacts();
  VecX z(p.lcp_size());
  for (int i = 0; i < z.size(); ++i) z(i) = 0.1 * (i + 1);
  const MatX N = dense_columns(p.normal, 2);
  const MatX D = dense_columns(p.friction, 2);
  const VecX impulse = N * z.head(n) + D * z.segment(n, n * p.d) + p.kx;
  const VecX expected = block_mass(p).ldlt().solve(impulse);
  EXPECT_LE((contact_velocity(p, z) - expected).lpNorm<Eigen::Infinity>(), kAgree);
}

TEST(ContactLcpDense, StructuralCheckAgreesWithDenseCheck) {
  std::mt19937 rng(10);
  for (int trial = 0; trial < 6; ++trial) {
    const ContactProblem p = random_problem(2 + trial % 2, 3 + trial, 2 + trial % 3, &rng);
    const DenseLcp lcp = assemble_contact_lcp(p);
    const LcpResult r = solve_lemke(lcp.M, lcp.q);
    ASSERT_EQ(r.status, LcpStatus::Solved) << "trial " << trial;
    // The solution, and the solution knocked off complementarity in one entry.
    VecX off = r.z;
    off(trial % off.size()) += 0.5;
    for (const VecX& z : {r.z, off}) {
      const LcpCheck dense = check_lcp_solution(lcp.M, lcp.q, z);
      const LcpCheck structural = check_contact_solution(p, z);
      EXPECT_EQ(structural.accepted, dense.accepted) << "trial " << trial;
      EXPECT_NEAR(structural.min_entry, dense.min_entry, kAgree);
      EXPECT_NEAR(structural.max_complementarity, dense.max_complementarity, kAgree);
    }
    EXPECT_TRUE(check_contact_solution(p, r.z).accepted);
    EXPECT_FALSE(check_contact_solution(p, off).accepted);
  }
}

// One body of mass 2 kg (unit inertia) on the ground z = 0, pushed sideways along x with
// impulse P during a step h under gravity: with d = 4 directions (+-x, +-y) the friction
// cone is exact for motion along x. Coulomb: the normal impulse is m g h; it sticks when
// P <= mu m g h and otherwise slides with v_x = (P - mu m g h) / m.
ContactProblem pushed_block(double push) {
  const double mass = 2.0, g = 9.81, h = 0.01, mu = 0.5;
  ContactProblem p;
  p.d = 4;
  Mat6 M = Mat6::Identity();
  M.topLeftCorner<3, 3>() *= mass;
  p.mass.push_back(M);
  p.kx = VecX::Zero(6);
  p.kx(0) = push;
  p.kx(2) = -mass * g * h;
  p.mu.push_back(mu);
  p.b.push_back(0.0);
  ContactColumn n;
  n.body[0] = 0;
  n.block[0] << 0, 0, 1, 0, 0, 0;
  p.normal.push_back(n);
  for (const Vec3& t : {Vec3(1, 0, 0), Vec3(-1, 0, 0), Vec3(0, 1, 0), Vec3(0, -1, 0)}) {
    ContactColumn c;
    c.body[0] = 0;
    c.block[0] << t, Vec3::Zero();
    p.friction.push_back(c);
  }
  return p;
}

TEST(ContactLcpDense, PushedBlockFollowsCoulombClosedForm) {
  const double limit = 0.5 * 2.0 * 9.81 * 0.01;  // mu m g h [N s]
  for (const double push : {0.5 * limit, 2.0 * limit}) {
    const ContactProblem p = pushed_block(push);
    const DenseLcp lcp = assemble_contact_lcp(p);
    const LcpResult r = solve_lemke(lcp.M, lcp.q);
    ASSERT_EQ(r.status, LcpStatus::Solved);
    EXPECT_TRUE(check_contact_solution(p, r.z).accepted);
    const VecX v = contact_velocity(p, r.z);
    EXPECT_NEAR(r.z(0), 2.0 * 9.81 * 0.01, 1e-12);  // normal impulse m g h
    EXPECT_NEAR(v(2), 0.0, 1e-12);                  // no motion into the ground
    const double expected_vx = push <= limit ? 0.0 : (push - limit) / 2.0;
    EXPECT_NEAR(v(0), expected_vx, 1e-12) << "push " << push;
    EXPECT_NEAR(v(1), 0.0, 1e-12);
  }
}

TEST(ContactLcpDense, WrongSizedZThrows) {
  const ContactProblem p = pushed_block(0.0);
  EXPECT_THROW(contact_velocity(p, VecX::Zero(3)), std::invalid_argument);
  EXPECT_THROW(check_contact_solution(p, VecX::Zero(7)), std::invalid_argument);
}

}  // namespace
}  // namespace pivot
