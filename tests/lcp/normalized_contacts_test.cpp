// The mass-normalised columns (Lloyd Sec. 2): G^-1 applied per block, with the rigid body's
// structure used for speed and not for a different answer.
#include "lcp/normalized_contacts.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "dynamics/rigid_body_motion.hpp"

namespace pivot {
namespace {

bool same_bits(const Vec6& a, const Vec6& b) {
  return std::memcmp(a.data(), b.data(), sizeof(double) * 6) == 0;
}

// Rigid bodies of random mass, inertia and orientation, and column blocks of random
// magnitude: the structured solve gives Eigen's triangular solve to the bit, so the
// trajectories and the saved problems' paths are those of the plain solve.
TEST(NormalizedContacts, ACentredFactorSolvesToTheBitOfEigensTriangularSolve) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::uniform_real_distribution<double> decade(-4.0, 4.0);
  int centred = 0;
  for (int body = 0; body < 200; ++body) {
    Body b;
    b.mass_kg = std::pow(10.0, decade(rng));
    const Vec3 half =
        Vec3(1.0 + unit(rng), 1.0 + unit(rng), 1.0 + unit(rng)) * std::pow(10.0, decade(rng) / 4.0);
    b.inertia_body_kgm2 = (b.mass_kg / 3.0) * Vec3(half.y() * half.y() + half.z() * half.z(),
                                                   half.x() * half.x() + half.z() * half.z(),
                                                   half.x() * half.x() + half.y() * half.y())
                                                  .asDiagonal();
    // Every fourth body aligned with the world axes (a diagonal factor), the rest turned.
    const Quat q = body % 4 == 0 ? Quat::Identity()
                                 : Quat(unit(rng), unit(rng), unit(rng), unit(rng)).normalized();
    ContactProblem p;
    p.d = 2;
    p.mass = {spatial_mass(b, q)};
    p.kx = VecX::Zero(6);
    NormalizedContacts nc;
    normalize_contacts(p, &nc);
    ASSERT_EQ(nc.centred.size(), 1u);
    ASSERT_TRUE(nc.centred[0]) << "body " << body;
    centred += nc.centred[0];
    for (int k = 0; k < 50; ++k) {
      Vec6 v;
      for (int i = 0; i < 6; ++i) v(i) = unit(rng) * std::pow(10.0, decade(rng));
      const Vec6 plain = nc.factor[0].matrixL().solve(v);
      const Vec6 fast = apply_inverse_factor(nc.factor[0], true, v);
      ASSERT_TRUE(same_bits(plain, fast)) << "body " << body << " block " << k << "\n"
                                          << plain.transpose() << "\n"
                                          << fast.transpose();
    }
  }
  EXPECT_EQ(centred, 200);
}

// A mass matrix with coupling between the translation and the rotation (a reference point
// away from the centre of mass, as a problem file may give) is solved the plain way.
TEST(NormalizedContacts, ACoupledMassMatrixIsNotTakenForACentredOne) {
  Mat6 M = Mat6::Identity();
  M(3, 1) = M(1, 3) = 0.25;
  ContactProblem p;
  p.d = 2;
  p.mass = {M, Mat6::Identity() * 2.0};
  p.kx = VecX::Zero(12);
  NormalizedContacts nc;
  normalize_contacts(p, &nc);
  ASSERT_EQ(nc.centred.size(), 2u);
  EXPECT_FALSE(nc.centred[0]);
  EXPECT_TRUE(nc.centred[1]);
  ContactColumn c;
  c.body[0] = 0;
  c.body[1] = 1;
  c.block[0] << 1, 2, 3, 4, 5, 6;
  c.block[1] << -1, 0.5, 2, 0, 1, -3;
  p.normal = {c};
  p.friction = {c, c};
  p.mu = {0.5};
  p.b = {0.0};
  normalize_contacts(p, &nc);
  // G^-1 block solves G x = block exactly up to round-off.
  for (int s = 0; s < 2; ++s) {
    const Mat6 L = nc.factor[s].matrixL();
    EXPECT_LT((L * nc.N[0].block[s] - c.block[s]).norm(), 1e-14 * c.block[s].norm()) << s;
  }
}

}  // namespace
}  // namespace pivot
