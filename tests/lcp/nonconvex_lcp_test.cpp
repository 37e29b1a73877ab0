#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "lcp/grouped_contact.hpp"
#include "lcp/normalized_contacts.hpp"
#include "pivot/nonconvex.hpp"
#include "pivot/problem_file.hpp"
#include "support/random_contact_problems.hpp"

namespace pivot {
namespace {

// Egan, Berard & Trinkle, Sec. IV-V: a point of mass 1, time step h = 2, sides x = 0
// (plane 0, p_1n) and y = 0 (plane 1, p_2n) at distances f = (1, 1): the free motion of
// Fig. 3(b) reaches (1, 1) + h (-2, -1) = (-3, -1) as printed. Frictionless plane LCP:
// M = W' M^-1 W = I and q = a(0) = W' v + f / h.
DenseLcp paper_planes(double vx, double vy) {
  DenseLcp planes;
  planes.M = MatX::Identity(2, 2);
  planes.q = (VecX(2) << vx + 0.5, vy + 0.5).finished();
  return planes;
}
const double kVa[2] = {-2.0, 0.0};   // Fig. 3(a): no contact
const double kVb[2] = {-2.0, -1.0};  // Fig. 3(b): contact

// The max-formulation matrices as printed (gamma = 100), z = (c1, c2, d, g1, g2, h1, h2,
// p, p1n, p2n).
MatX paper_B_max() {
  MatX B(10, 10);
  B << 1, 0, 0, 0, 0, 0, 0, 0, 1, 0,  //
      0, 1, 0, 0, 0, 0, 0, 0, 0, 1,   //
      0, 0, 0, 1, 1, 0, 0, 0, 0, 0,   //
      1, 0, 1, 0, 0, 0, 0, 0, 0, 0,   //
      0, 1, 1, 0, 0, 0, 0, 0, 0, 0,   //
      0, 0, 0, 0, 0, 1, 0, 0, 1, 0,   //
      0, 0, 0, 0, 0, 0, 1, 0, 0, 1,   //
      0, 0, 1, 0, 0, 0, 0, 0, 0, 0,   //
      0, 0, 1, 0, 0, 1, 0, 0, 0, 0,   //
      0, 0, 1, 0, 0, 0, 1, 0, 0, 0;
  return B;
}
VecX vec(std::initializer_list<double> values) {
  VecX v(static_cast<Eigen::Index>(values.size()));
  int i = 0;
  for (const double x : values) v(i++) = x;
  return v;
}
const VecX kBa = vec({-2.5, -0.5, -1, -100, -100, -1.5, 0.5, -99, -99, -99});
const VecX kBb = vec({-2.5, -1.5, -1, -100, -100, -1.5, -0.5, -99, -99, -99});
const VecX kZa = vec({2.5, 0.5, 99.5, 0, 1, 1.5, 0, 0, 0, 0});
const VecX kZb1 = vec({1, 1, 99, 0, 1, 0, 0, 0, 1.5, 0.5});
const VecX kZb2 = vec({1, 1.5, 99, 1, 0, 0, 0.5, 0, 1.5, 0});
const VecX kZb3 = vec({2.5, 1, 99, 0, 1, 1.5, 0, 0, 0, 0.5});

// The summation matrices as printed (epsilon/h = 0.01), z = (c1, c2, p1n, p2n). The
// paper's b_1 is Fig. 3(b) and b_2 is Fig. 3(a): only that pairing makes its printed
// solutions satisfy the LCP (z_a has c2 = 0.51 = a2 + eps/h with a2 = 0.5, Fig. 3(a)).
MatX paper_B_sum() {
  MatX B(4, 4);
  B << 1, 0, -1, 0,  //
      0, 1, 0, -1,   //
      1, 1, 0, 0,    //
      1, 1, 0, 0;
  return B;
}
const VecX kB1 = vec({1.49, 0.49, -0.01, -0.01});
const VecX kB2 = vec({1.49, -0.51, -0.01, -0.01});
const VecX kSumZa = vec({0, 0.51, 0, 0});
const VecX kSumZb1 = vec({0, 0.01, 0.5, 0.5});
const VecX kSumZb2 = vec({0.005, 0.005, 1.495, 0.495});
const VecX kSumZb3 = vec({0.01, 0, 1.5, 0.13});

NonconvexLayout paper_layout() {
  NonconvexLayout layout;
  layout.form = NonconvexFormulation::Max;
  layout.group_sizes = {2};
  return layout;
}

double max_abs(const VecX& v) { return v.lpNorm<Eigen::Infinity>(); }

TEST(NonconvexMax, BuildsThePaperMatricesFromThePointMassExample) {
  for (const bool contact : {false, true}) {
    const double* v = contact ? kVb : kVa;
    const NonconvexLcp max = build_max_lcp(paper_planes(v[0], v[1]), 0, {{0, 1}}, 100.0);
    EXPECT_EQ(max.layout.size(), 10);
    EXPECT_EQ(max.layout.plane_offset(), 8);
    EXPECT_EQ(max.lcp.M, paper_B_max());
    EXPECT_EQ(max.lcp.q, contact ? kBb : kBa);
    EXPECT_EQ(max.plane_order, (std::vector<int>{0, 1}));
  }
}

TEST(NonconvexMax, PrintedSolutionsSatisfyThePrintedLcps) {
  EXPECT_TRUE(check_lcp_solution(paper_B_max(), kBa, kZa).accepted);
  for (const VecX& z : {kZb1, kZb2, kZb3}) {
    EXPECT_TRUE(check_lcp_solution(paper_B_max(), kBb, z).accepted);
  }
  // z_a is Fig. 3(a)'s and not a solution of Fig. 3(b), and vice versa.
  EXPECT_FALSE(check_lcp_solution(paper_B_max(), kBb, kZa).accepted);
  EXPECT_FALSE(check_lcp_solution(paper_B_max(), kBa, kZb1).accepted);
}

TEST(NonconvexMax, PlainLemkeRayTerminatesOnThePaperExamples) {
  // The obstacle this solver exists for: B is not copositive-plus (docs/nonconvex-max.md),
  // and Lemke with covering vector e ends on a secondary ray although solutions exist.
  for (const VecX& b : {kBa, kBb}) {
    const LcpResult r = solve_lemke(paper_B_max(), b);
    EXPECT_EQ(r.status, LcpStatus::SecondaryRay);
  }
}

TEST(NonconvexMax, SolvesExampleAToItsUniqueSolution) {
  const LcpResult r = solve_lcp_with_max_groups(paper_B_max(), kBa, paper_layout());
  ASSERT_EQ(r.status, LcpStatus::Solved);
  EXPECT_TRUE(check_lcp_solution(paper_B_max(), kBa, r.z).accepted);
  EXPECT_LE(max_abs(r.z - kZa), 1e-14);
  EXPECT_LE(max_abs(r.w - (paper_B_max() * r.z + kBa)), 1e-14);
}

TEST(NonconvexMax, SolvesExampleBToOneOfItsPrintedSolutions) {
  const LcpResult r = solve_lcp_with_max_groups(paper_B_max(), kBb, paper_layout());
  ASSERT_EQ(r.status, LcpStatus::Solved);
  EXPECT_TRUE(check_lcp_solution(paper_B_max(), kBb, r.z).accepted);
  // The search starts from the side with the larger free-motion a_i: a(0) = (-1.5, -0.5),
  // so the horizontal side y = 0 alone, which is z_b3 (rest on the floor at (-3, 0)).
  EXPECT_LE(max_abs(r.z - kZb3), 1e-14);
  EXPECT_EQ(r.pivots, 2);  // one 1x1 Lemke solve: z0 in, p2n in and z0 out
}

TEST(NonconvexMax, RejectsAMatrixWithoutTheMaxStructure) {
  MatX B = paper_B_max();
  B(7, 2) = 2.0;  // row (20) must read d - gamma + 1
  EXPECT_THROW(solve_lcp_with_max_groups(B, kBa, paper_layout()), std::invalid_argument);
  NonconvexLayout summation = paper_layout();
  summation.form = NonconvexFormulation::Sum;
  EXPECT_THROW(solve_lcp_with_max_groups(paper_B_max(), kBa, summation), std::invalid_argument);
  NonconvexLayout three_sides = paper_layout();
  three_sides.group_sizes = {3};
  EXPECT_THROW(solve_lcp_with_max_groups(paper_B_max(), kBa, three_sides), std::invalid_argument);
}

TEST(NonconvexLayout, RejectsOffWhichHasNoNonconvexLcp) {
  // Off turns a group's sides into convex contacts: there is no layout to read z by.
  NonconvexLayout off = paper_layout();
  off.form = NonconvexFormulation::Off;
  try {
    plane_solution(off, {0, 1}, VecX::Zero(10));
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "NonconvexLayout: form must be Max or Sum, got Off");
  }
  EXPECT_THROW(solve_lcp_with_max_groups(paper_B_max(), kBa, off), std::invalid_argument);
}

TEST(NonconvexMax, SmallGammaHasNoSolutionAndSearchReportsIt) {
  // With gamma = 0.5 row (16)-(17) needs c_i + d >= 0.5 and (20) needs d >= 0.5, so
  // d - gamma + 1 >= 1 > 0 forbids every contact impulse while the point must stop:
  // no selection passes. Exhausted: SecondaryRay; out of budget first: PivotLimit.
  const NonconvexLcp max = build_max_lcp(paper_planes(kVb[0], kVb[1]), 0, {{0, 1}}, 0.5);
  const LcpResult all = solve_lcp_with_max_groups(max.lcp.M, max.lcp.q, max.layout);
  EXPECT_EQ(all.status, LcpStatus::SecondaryRay);
  EXPECT_EQ(all.z.size(), 10);
  EXPECT_FALSE(check_lcp_solution(max.lcp.M, max.lcp.q, all.z).accepted);
  MaxGroupOptions options;
  options.max_selections = 1;
  EXPECT_EQ(solve_lcp_with_max_groups(max.lcp.M, max.lcp.q, max.layout, options).status,
            LcpStatus::PivotLimit);
}

TEST(NonconvexMax, PlaneSolutionReturnsTheInputPlaneOrder) {
  // Three frictionless planes, group {2, 0}, plane 1 convex: layout order (2, 0, 1).
  DenseLcp planes;
  planes.M = (MatX(3, 3) << 2, 0.5, 0.1, 0.5, 3, 0.2, 0.1, 0.2, 4).finished();
  planes.q = vec({-1, 1, -2});
  const NonconvexLcp max = build_max_lcp(planes, 0, {{2, 0}}, 100.0);
  EXPECT_EQ(max.plane_order, (std::vector<int>{2, 0, 1}));
  EXPECT_EQ(max.layout.num_convex, 1);
  VecX z = VecX::Zero(max.layout.size());
  z.tail(3) = vec({30, 10, 20});  // planes 2, 0, 1
  EXPECT_EQ(plane_solution(max, z), vec({10, 20, 30}));
  // The a rows of the layout are the input's rows, permuted.
  EXPECT_EQ(max.lcp.M(5, 8), planes.M(2, 2));   // h row of side 0 (plane 2), column plane 2
  EXPECT_EQ(max.lcp.M(5, 10), planes.M(2, 1));  // ... column plane 1
  EXPECT_THROW(build_max_lcp(planes, 0, {{2, 2}}, 100.0), std::invalid_argument);
  EXPECT_THROW(build_max_lcp(planes, 0, {{3}}, 100.0), std::invalid_argument);
  EXPECT_THROW(build_max_lcp(planes, 2, {{0}}, 100.0), std::invalid_argument);
}

// Random frictionless problems: a body with k = 3 velocity coordinates and SPD mass,
// several groups of 2 or 3 random sides plus convex planes, all with gaps b >= 0 (v = 0
// is admissible, so the nonconvex feasible set is not empty). Completeness argument of
// docs/nonconvex-max.md: some selection of single sides always passes.
TEST(NonconvexMax, RandomFrictionlessGroupsAlwaysSolve) {
  std::mt19937 rng(33);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int trial = 0; trial < 60; ++trial) {
    const int k = 3;
    const int groups = 1 + trial % 4;
    const int convex = trial % 3;
    MatX A(k, k);
    for (int i = 0; i < k * k; ++i) A.data()[i] = u(rng);
    const MatX Minv = (A * A.transpose() + 0.2 * MatX::Identity(k, k)).inverse();
    NonconvexGroups sides;
    int P = 0;
    for (int g = 0; g < groups; ++g) {
      sides.emplace_back();
      for (int s = 0; s < 2 + (g + trial) % 2; ++s) sides.back().push_back(P++);
    }
    P += convex;
    MatX W(k, P);
    for (int i = 0; i < k * P; ++i) W.data()[i] = u(rng);
    VecX v0(k);
    for (int i = 0; i < k; ++i) v0(i) = 3.0 * u(rng);
    VecX b(P);
    for (int i = 0; i < P; ++i) b(i) = 0.5 * (u(rng) + 1.0);
    DenseLcp planes;
    planes.M = W.transpose() * Minv * W;
    planes.q = W.transpose() * v0 + b;
    const NonconvexLcp max = build_max_lcp(planes, 0, sides, 100.0);
    const LcpResult r = solve_lcp_with_max_groups(max.lcp.M, max.lcp.q, max.layout);
    ASSERT_EQ(r.status, LcpStatus::Solved) << "trial " << trial;
    ASSERT_TRUE(check_lcp_solution(max.lcp.M, max.lcp.q, r.z).accepted);
    // The physics the check stands for: a = W' v + b with v = v0 + M^-1 W p; each group
    // has a side with a >= 0, convex planes a >= 0, and impulses only where a = 0 = max.
    const VecX p = plane_solution(max, r.z);
    const VecX a = W.transpose() * (v0 + Minv * W * p) + b;
    const double tol = 1e-9 * 100.0;
    for (const std::vector<int>& group : sides) {
      double best = -1e300;
      for (const int s : group) best = std::max(best, a(s));
      EXPECT_GE(best, -tol) << "trial " << trial;
      for (const int s : group) {
        if (p(s) > tol) {
          EXPECT_NEAR(a(s), 0.0, tol);
          EXPECT_NEAR(best, 0.0, tol);
        }
      }
    }
    for (int c = P - convex; c < P; ++c) EXPECT_GE(a(c), -tol) << "trial " << trial;
  }
}

// A unit point body (6-D, unit inertia) near the concave edge of two planes, x = 0 with
// normal +x and z = 0 with normal +z, valid region x >= 0 or z >= 0, mu = 0.3 and d = 4
// friction directions per plane. Step h = 0.1 from (0.05, 0, 0.2) with v0 = (-1, 0.4, -1):
// the free motion ends at x = -0.05, z = 0.1, inside the valid half-space z >= 0 only
// after crossing x = 0 ... so no contact is needed at all; from (0.05, 0, 0.05) it ends
// at (-0.05, ., -0.05), outside both, and one side must stop it.
ContactProblem corner(double start_z) {
  const double h = 0.1;
  ContactProblem p;
  p.d = 4;
  p.mass.push_back(Mat6::Identity());
  p.kx = VecX::Zero(6);
  p.kx.head<3>() = Vec3(-1.0, 0.4, -1.0);  // M v0 with no external force
  const auto column = [](const Vec3& direction) {
    ContactColumn c;
    c.body[0] = 0;
    c.block[0] << direction, Vec3::Zero();
    return c;
  };
  // Plane 0: x = 0, gap 0.05; tangents +-y, +-z.
  p.normal.push_back(column(Vec3(1, 0, 0)));
  p.b.push_back(0.05 / h);
  p.mu.push_back(0.3);
  for (const Vec3& t : {Vec3(0, 1, 0), Vec3(0, -1, 0), Vec3(0, 0, 1), Vec3(0, 0, -1)}) {
    p.friction.push_back(column(t));
  }
  // Plane 1: z = 0, gap start_z; tangents +-x, +-y.
  p.normal.push_back(column(Vec3(0, 0, 1)));
  p.b.push_back(start_z / h);
  p.mu.push_back(0.3);
  for (const Vec3& t : {Vec3(1, 0, 0), Vec3(-1, 0, 0), Vec3(0, 1, 0), Vec3(0, -1, 0)}) {
    p.friction.push_back(column(t));
  }
  return p;
}

TEST(NonconvexMax, FrictionalCornerStopsOnOneSideWithCoulombFriction) {
  const double h = 0.1;
  for (const double start_z : {0.2, 0.05}) {
    const ContactProblem p = corner(start_z);
    const NonconvexLcp max = build_max_lcp(p, {{0, 1}}, 100.0);
    const LcpResult r = solve_lcp_with_max_groups(max.lcp.M, max.lcp.q, max.layout);
    ASSERT_EQ(r.status, LcpStatus::Solved) << "start_z " << start_z;
    const VecX z = plane_solution(max, r.z);
    const VecX v = contact_velocity(p, z);
    const double x_end = 0.05 + h * v(0), z_end = start_z + h * v(2);
    // The end point is in the union of the two half-spaces.
    EXPECT_GE(std::max(x_end, z_end), -1e-9) << "start_z " << start_z;
    for (int plane = 0; plane < 2; ++plane) {
      const double theta = z(plane);
      const double phi = z.segment(2 + 4 * plane, 4).sum();
      EXPECT_LE(phi, 0.3 * theta + 1e-9);  // inside the friction cone
      if (theta > 1e-9) {
        EXPECT_NEAR(plane == 0 ? x_end : z_end, 0.0, 1e-9);
      }
    }
    if (start_z == 0.2) {
      EXPECT_EQ(z.head(10), VecX::Zero(10));  // no impulse: the free motion is valid
    } else {
      EXPECT_GT(z(0) + z(1), 0.1);  // one side stops the point
      EXPECT_TRUE(z(0) == 0.0 || z(1) == 0.0);
    }
  }
}

// The structural max search (no dense matrix; fast Lemke per selection) against the dense
// one on random frictional problems with groups of 2 and 3 sides: same status, same
// layout, and an answer the dense max formulation of build_max_lcp accepts, with w equal
// to its M z + q. That dense check is the truth the row-by-row evaluation must agree with.
TEST(NonconvexMax, StructuralSearchAgreesWithTheDenseFormulation) {
  int solved = 0;
  for (std::uint64_t seed = 0; seed < 40; ++seed) {
    testing::RandomProblemShape shape;
    shape.bodies = 1 + static_cast<int>(seed % 2);
    shape.contacts = 5 + static_cast<int>(seed % 4);
    shape.d = 4;
    const ContactProblem p = testing::random_contact_problem(7000 + seed, shape);
    const NonconvexGroups groups = {{0, 1}, {2, 3, 4}};
    const DenseLcp planes = assemble_contact_lcp(p);
    const double gamma = 1.0 + 2.0 * planes.q.cwiseAbs().maxCoeff();
    const NonconvexLcp max = build_max_lcp(planes, p.d, groups, gamma);
    const LcpResult dense = solve_lcp_with_max_groups(max.lcp.M, max.lcp.q, max.layout);
    for (const LcpMethod method :
         {LcpMethod::Standard, LcpMethod::Structural, LcpMethod::Reduced}) {
      const MaxGroupResult r = solve_contact_with_max_groups(p, groups, gamma, method);
      const std::string what = "seed " + std::to_string(seed) + ", " + to_string(method);
      EXPECT_EQ(r.lcp.status, dense.status) << what;
      EXPECT_EQ(r.plane_order, max.plane_order) << what;
      EXPECT_EQ(r.layout.group_sizes, max.layout.group_sizes) << what;
      if (r.lcp.status != LcpStatus::Solved) continue;
      EXPECT_TRUE(check_lcp_solution(max.lcp.M, max.lcp.q, r.lcp.z).accepted) << what;
      const VecX w = max.lcp.M * r.lcp.z + max.lcp.q;
      EXPECT_LE((w - r.lcp.w).lpNorm<Eigen::Infinity>(), 1e-9 * gamma) << what;
    }
    if (dense.status == LcpStatus::Solved) ++solved;
  }
  EXPECT_GE(solved, 30);  // the comparison is mostly over solved problems
}

TEST(NonconvexMax, StructuralSearchRejectsGammaNotAboveOne) {
  const ContactProblem p = corner(0.05);
  EXPECT_THROW(solve_contact_with_max_groups(p, {{0, 1}}, 1.0, LcpMethod::Reduced),
               std::invalid_argument);
  EXPECT_THROW(solve_contact_with_max_groups(p, {{0, 5}}, 100.0, LcpMethod::Reduced),
               std::invalid_argument);
}

TEST(NonconvexSummation, BuildsThePaperMatricesFromThePointMassExample) {
  const NonconvexLcp a = build_summation_lcp(paper_planes(kVa[0], kVa[1]), 0, {{0, 1}}, 0.01);
  const NonconvexLcp b = build_summation_lcp(paper_planes(kVb[0], kVb[1]), 0, {{0, 1}}, 0.01);
  EXPECT_EQ(a.lcp.M, paper_B_sum());
  EXPECT_EQ(b.lcp.M, paper_B_sum());
  // 1.5 - 0.01 and the printed 1.49 differ in the last bit.
  EXPECT_LE(max_abs(a.lcp.q - kB2), 1e-15);
  EXPECT_LE(max_abs(b.lcp.q - kB1), 1e-15);
  EXPECT_EQ(a.layout.plane_offset(), 2);
}

TEST(NonconvexSummation, PrintedSolutionsSatisfyThePrintedLcps) {
  EXPECT_TRUE(check_lcp_solution(paper_B_sum(), kB2, kSumZa).accepted);
  for (const VecX& z : {kSumZb1, kSumZb2, kSumZb3}) {
    EXPECT_TRUE(check_lcp_solution(paper_B_sum(), kB1, z).accepted);
  }
}

TEST(NonconvexSummation, LemkeSolvesThePaperExamples) {
  const LcpResult a = solve_lemke(paper_B_sum(), kB2);
  ASSERT_EQ(a.status, LcpStatus::Solved);
  EXPECT_LE(max_abs(a.z - kSumZa), 1e-14);  // unique (no contact)
  const LcpResult b = solve_lemke(paper_B_sum(), kB1);
  ASSERT_EQ(b.status, LcpStatus::Solved);
  EXPECT_TRUE(check_lcp_solution(paper_B_sum(), kB1, b.z).accepted);
}

TEST(NonconvexSummation, ThreeSidedGroupAllowsContactWithoutAGap) {
  // A unit point with sides x = 0, y = 0, z = 0 (normals +x, +y, +z) penetrates x = 0 by
  // 1 (a(0) = -1) and is deep below the other two (a(0) = -5). Stopping exactly on x = 0
  // (p = (1, 0, 0), a = (0, -5, -5), c = (eps/h, 0, 0)) satisfies Equation (30); the
  // appendix offset (n - 1) eps/h would reject it and demand a gap a_1 = eps/h.
  DenseLcp planes;
  planes.M = MatX::Identity(3, 3);
  planes.q = vec({-1, -5, -5});
  const double eps_h = 0.01;
  const NonconvexLcp sum = build_summation_lcp(planes, 0, {{0, 1, 2}}, eps_h);
  EXPECT_EQ(sum.lcp.q.segment(3, 3), VecX::Constant(3, -eps_h));
  EXPECT_EQ(sum.lcp.M.block(3, 0, 3, 3), MatX::Ones(3, 3));
  const VecX touching = vec({eps_h, 0, 0, 1, 0, 0});
  EXPECT_TRUE(check_lcp_solution(sum.lcp.M, sum.lcp.q, touching).accepted);
  const VecX gap = vec({2 * eps_h, 0, 0, 1 + eps_h, 0, 0});  // a_1 = eps/h
  EXPECT_FALSE(check_lcp_solution(sum.lcp.M, sum.lcp.q, gap).accepted);
  // Lemke solves it; the impulse may come from any side (Egan Sec. V), and some side
  // then has a_i >= -eps/h with the c_i summing to eps/h.
  const LcpResult r = solve_lemke(sum.lcp.M, sum.lcp.q);
  ASSERT_EQ(r.status, LcpStatus::Solved);
  const VecX a = planes.M * plane_solution(sum, r.z) + planes.q;
  EXPECT_GE(a.maxCoeff(), -eps_h - 1e-12);
}

}  // namespace
}  // namespace pivot

namespace pivot {
namespace {

// Step 133 of scenes/bin_pile_40.json (163 contacts, one group of two sides). Every
// selection's LCP solves, but with friction each has a solution that pushes on its side and
// ends 8e-7 m/s outside the other, which the max rows reject; no force from the group (its
// empty subset) is the answer. The step failed when the search knew only nonempty subsets.
TEST(NonconvexMax, BinPileGroupThatNeedsNoForceIsSolvedInTwoSelections) {
  const auto file = std::get<ContactProblemFile>(read_problem_file(
      std::string(PIVOT_SOURCE_DIR) + "/tests/lcp/grouped/bin_pile_40_step133.contact"));
  ASSERT_TRUE(file.groups.has_value());
  const GroupedSolve solved = solve_grouped_contact(file.problem, *file.groups, LcpMethod::Reduced);
  ASSERT_EQ(solved.lcp.status, LcpStatus::Solved);
  EXPECT_LE(solved.selections, 2);
  EXPECT_FALSE(solved.budget_exhausted);
  const NonconvexLcp full = build_grouped_lcp(file.problem, *file.groups);
  EXPECT_TRUE(check_lcp_solution(full.lcp.M, full.lcp.q, solved.formulation_z).accepted);
}

// The formulation's rows from the planes' rows (grouped_lcp_w, what `pivot lcp solve`
// checks a grouped answer on) are the dense LCP's M z + q, for both formulations, at an
// answer and at random z >= 0 of the answer's size; the check on them gives
// check_lcp_solution's verdict. The bound: rows of size |q|_inf + |M| |z|_1 summed in
// another order, 1e-9 relative. (The summation formulation is solved on Egan's corner
// only: the standard method on the bin pile's dense n = 980 takes 7 s.)
TEST(NonconvexGroups, FormulationRowsWithoutTheDenseMatrixAreItsRows) {
  const std::string dir = std::string(PIVOT_SOURCE_DIR) + "/tests/lcp/grouped/";
  const auto egan =
      std::get<ContactProblemFile>(read_problem_file(dir + "egan_corner_step0.contact"));
  const auto bin_pile =
      std::get<ContactProblemFile>(read_problem_file(dir + "bin_pile_40_step133.contact"));
  struct Case {
    const ContactProblemFile* file;
    NonconvexFormulation form;
    double parameter;
  };
  const Case cases[] = {{&egan, NonconvexFormulation::Max, 1000.0},
                        {&egan, NonconvexFormulation::Sum, 0.1},
                        {&bin_pile, NonconvexFormulation::Max, 1000.0}};
  for (const Case& c : cases) {
    const ContactProblemFile& file = *c.file;
    ASSERT_TRUE(file.groups.has_value());
    PlaneGroups groups = *file.groups;
    groups.form = c.form;
    groups.parameter = c.parameter;
    SCOPED_TRACE(std::to_string(file.problem.num_contacts()) + " planes, " +
                 (c.form == NonconvexFormulation::Max ? "max" : "sum"));
    const NonconvexLcp full = build_grouped_lcp(file.problem, groups);
    const GroupedSolve solved = solve_grouped_contact(file.problem, groups, LcpMethod::Reduced);
    ASSERT_EQ(solved.lcp.status, LcpStatus::Solved);
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    VecX random(full.lcp.q.size());
    for (Eigen::Index i = 0; i < random.size(); ++i) {
      random(i) = unit(rng) * solved.formulation_z.lpNorm<Eigen::Infinity>();
    }
    for (const VecX& z : {solved.formulation_z, random}) {
      const VecX dense = full.lcp.M * z + full.lcp.q;
      const double scale =
          full.lcp.q.lpNorm<Eigen::Infinity>() + full.lcp.M.cwiseAbs().maxCoeff() * z.lpNorm<1>();
      EXPECT_LE((grouped_lcp_w(file.problem, groups, z) - dense).lpNorm<Eigen::Infinity>(),
                1e-9 * scale);
      EXPECT_EQ(check_grouped_solution(file.problem, groups, z).accepted,
                check_lcp_solution(full.lcp.M, full.lcp.q, z).accepted);
    }
    EXPECT_TRUE(check_grouped_solution(file.problem, groups, solved.formulation_z).accepted);
    EXPECT_FALSE(check_grouped_solution(file.problem, groups, random).accepted);
  }
  EXPECT_THROW(grouped_lcp_w(egan.problem, *egan.groups, VecX::Zero(3)), std::invalid_argument);
}

// Three frictionless groups of two sides on a plane LCP of six planes (a random positive
// definite M, rounded; seed 2995 of 5,000 such problems). The second group pushes on its
// first side and ends outside its second (selection 1); emptied, it must push (2); given
// its first side back it again ends outside the second (3); the repair now moves it to the
// second side, and the fourth selection is accepted. Before, the search needed seven.
TEST(NonconvexMax, AGroupEmptiedThatAgainPushesWhileOutsideMovesToTheSideItLeftThrough) {
  DenseLcp planes;
  planes.M.resize(6, 6);
  planes.M << 1.86, 0.28, 0.22, 0.48, -1.89, -1.20,  //
      0.28, 5.13, 0.31, 0.00, 0.26, 2.78,            //
      0.22, 0.31, 0.74, 1.32, 0.03, 0.08,            //
      0.48, 0.00, 1.32, 7.12, -3.01, -0.50,          //
      -1.89, 0.26, 0.03, -3.01, 4.39, 1.79,          //
      -1.20, 2.78, 0.08, -0.50, 1.79, 3.85;
  planes.q.resize(6);
  planes.q << -0.54, -0.96, -1.10, -1.45, -1.36, -1.10;
  const NonconvexLcp lcp = build_max_lcp(planes, 0, {{0, 1}, {2, 3}, {4, 5}}, 100.0);
  MaxGroupOptions options;
  options.max_selections = 4;
  const LcpResult r = solve_lcp_with_max_groups(lcp.lcp.M, lcp.lcp.q, lcp.layout, options);
  ASSERT_EQ(r.status, LcpStatus::Solved);
  EXPECT_TRUE(check_lcp_solution(lcp.lcp.M, lcp.lcp.q, r.z).accepted);
  options.max_selections = 3;
  EXPECT_EQ(solve_lcp_with_max_groups(lcp.lcp.M, lcp.lcp.q, lcp.layout, options).status,
            LcpStatus::PivotLimit);
}

// Egan's corner (14 groups) under a pivot limit of 1: every selection that needs a pivot
// fails, the first one through the whole fallback chain. The search then ends after
// max_failed_in_a_row more failures, reported as a spent budget (no proof of anything);
// without that rule it went on through the 4,096 of max_selections, as on step 76 of
// scenes/bin_pile_40.json, where each took 0.8 s.
TEST(NonconvexMax, SearchEndsWhenSelectionsGoOnFailingAfterTheChainFailed) {
  const auto file = std::get<ContactProblemFile>(read_problem_file(
      std::string(PIVOT_SOURCE_DIR) + "/tests/lcp/grouped/egan_corner_step0.contact"));
  ASSERT_TRUE(file.groups.has_value());
  MaxGroupOptions options;
  options.lemke.max_pivots = 1;
  const auto search = [&] {
    return solve_contact_with_max_groups(file.problem, file.groups->groups, file.groups->parameter,
                                         LcpMethod::Reduced, options);
  };
  const MaxGroupResult ended = search();
  EXPECT_EQ(ended.lcp.status, LcpStatus::PivotLimit);
  EXPECT_TRUE(ended.budget_exhausted);
  EXPECT_EQ(ended.selections, 1 + options.max_failed_in_a_row);
  EXPECT_EQ(ended.failed_selections, ended.selections);
  options.max_failed_in_a_row = options.max_selections;
  const MaxGroupResult whole = search();
  EXPECT_EQ(whole.lcp.status, LcpStatus::PivotLimit);
  EXPECT_TRUE(whole.budget_exhausted);
  EXPECT_EQ(whole.selections, options.max_selections);
  EXPECT_EQ(whole.failed_selections, 3952);  // 144 need no pivot, and the max rows refuse them
}

}  // namespace
}  // namespace pivot

namespace pivot {
namespace {

// A grouped problem's answer carries its basis over the planes (input order); handed back
// as the warm start of the same problem (a step at rest), the search's first selection is
// the answer's and its solve the warm start's: one selection, no pivot, the same impulses.
TEST(NonconvexMax, AnAnswersPlaneBasisIsTheWarmStartOfOneSelectionWithoutAPivot) {
  for (const char* name : {"egan_corner_step0.contact", "bin_pile_40_step133.contact"}) {
    const auto file = std::get<ContactProblemFile>(
        read_problem_file(std::string(PIVOT_SOURCE_DIR) + "/tests/lcp/grouped/" + name));
    ASSERT_TRUE(file.groups.has_value());
    const NonconvexLcp full = build_grouped_lcp(file.problem, *file.groups);
    for (const LcpMethod method : {LcpMethod::Reduced, LcpMethod::Structural}) {
      SCOPED_TRACE(std::string(name) + " " + to_string(method));
      const GroupedSolve cold = solve_grouped_contact(file.problem, *file.groups, method);
      ASSERT_EQ(cold.lcp.status, LcpStatus::Solved);
      const std::vector<char>& basic = cold.lcp.basis.z_basic;
      ASSERT_EQ(static_cast<int>(basic.size()), file.problem.lcp_size());
      // A plane that pushes has its normal impulse basic (its friction rows: the reduced
      // method's convention, which leaves an inactive contact's lambda out of the basis).
      for (int k = 0; k < file.problem.num_contacts(); ++k) {
        if (cold.lcp.z(k) > 1e-9) {
          EXPECT_TRUE(basic[k]) << "plane " << k;
        }
      }
      const GroupedSolve warm =
          solve_grouped_contact(file.problem, *file.groups, method, {}, cold.lcp.basis);
      ASSERT_EQ(warm.lcp.status, LcpStatus::Solved);
      EXPECT_EQ(warm.selections, 1);
      EXPECT_EQ(warm.lcp.pivots, 0);
      EXPECT_TRUE(warm.lcp.warm);
      EXPECT_EQ(warm.lcp.basis.z_basic.size(), basic.size());
      EXPECT_TRUE(check_lcp_solution(full.lcp.M, full.lcp.q, warm.formulation_z).accepted);
      // The same basis solved again: the same impulses to round-off.
      const double scale = std::max(1.0, cold.lcp.z.lpNorm<Eigen::Infinity>());
      EXPECT_LT((warm.lcp.z - cold.lcp.z).lpNorm<Eigen::Infinity>(), 1e-9 * scale);
    }
  }
}

// The summation formulation's LCP is not the planes': its solve leaves no basis to keep.
TEST(NonconvexSum, LeavesNoPlaneBasis) {
  const auto file = std::get<ContactProblemFile>(read_problem_file(
      std::string(PIVOT_SOURCE_DIR) + "/tests/lcp/grouped/egan_corner_step0.contact"));
  PlaneGroups sum = *file.groups;
  sum.form = NonconvexFormulation::Sum;
  sum.parameter = 0.01;
  const GroupedSolve solved = solve_grouped_contact(file.problem, sum, LcpMethod::Reduced);
  ASSERT_EQ(solved.lcp.status, LcpStatus::Solved);
  EXPECT_TRUE(solved.lcp.basis.z_basic.empty());
}

}  // namespace
}  // namespace pivot

namespace pivot {
namespace {

bool same_bits(const VecX& a, const VecX& b) {
  return a.size() == b.size() &&
         std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<size_t>(a.size())) == 0;
}

ContactProblemFile grouped_file(const std::string& name) {
  return std::get<ContactProblemFile>(
      read_problem_file(std::string(PIVOT_SOURCE_DIR) + "/tests/lcp/grouped/" + name + ".contact"));
}

// A World step hands a grouped island's solve the planes' columns, normalised once, and
// storage kept from the island's last solve (lcp/grouped_contact.hpp). The answer must be
// the one the public entry forms for itself, to the bit, whatever the storage last held:
// here first a larger island's planes, then this one's.
TEST(NonconvexMax, GivenColumnsAndKeptStorageGiveTheSameBits) {
  const ContactProblemFile file = grouped_file("egan_corner_step0");  // 14 groups among the planes
  ASSERT_TRUE(file.groups.has_value());
  const GroupedSolve own = solve_grouped_contact(file.problem, *file.groups, LcpMethod::Reduced);
  ASSERT_EQ(own.lcp.status, LcpStatus::Solved);
  const NormalizedContacts columns = normalize_contacts(file.problem);
  PlanesInLayout storage;
  storage.problem = grouped_file("bin_pile_40_step133").problem;
  normalize_contacts(storage.problem, &storage.columns);
  for (int round = 0; round < 2; ++round) {
    SCOPED_TRACE(round);
    const GroupedSolve given = solve_grouped_contact(file.problem, &columns, &storage, *file.groups,
                                                     LcpMethod::Reduced, {}, {});
    EXPECT_EQ(given.lcp.status, own.lcp.status);
    EXPECT_EQ(given.selections, own.selections);
    EXPECT_EQ(given.lcp.pivots, own.lcp.pivots);
    EXPECT_TRUE(same_bits(given.lcp.z, own.lcp.z));
    EXPECT_TRUE(same_bits(given.formulation_z, own.formulation_z));
    EXPECT_EQ(given.lcp.basis.z_basic, own.lcp.basis.z_basic);
  }
}

// reorder_contacts copies columns; normalising the reordered problem solves them again.
// Each column is solved alone with its body's factor, so the two agree to the bit.
TEST(NormalizedContacts, ReorderedColumnsAreThoseOfTheReorderedProblem) {
  const ContactProblem p = grouped_file("bin_pile_40_step133").problem;
  const int n = p.num_contacts();
  std::vector<int> order(n), identity(n);
  for (int k = 0; k < n; ++k) {
    order[k] = (7 * k + 3) % n;  // a permutation while 7 and n are coprime (n = 163)
    identity[k] = k;
  }
  ASSERT_TRUE(std::is_permutation(order.begin(), order.end(), identity.begin()));
  ContactProblem reordered = p;
  for (int k = 0; k < n; ++k) {
    reordered.normal[k] = p.normal[order[k]];
    reordered.mu[k] = p.mu[order[k]];
    reordered.b[k] = p.b[order[k]];
    for (int j = 0; j < p.d; ++j) reordered.friction[k * p.d + j] = p.friction[order[k] * p.d + j];
  }
  const NormalizedContacts expected = normalize_contacts(reordered);
  NormalizedContacts copied;
  reorder_contacts(normalize_contacts(p), order, &copied);
  ASSERT_EQ(copied.N.size(), expected.N.size());
  ASSERT_EQ(copied.D.size(), expected.D.size());
  auto same_column = [](const ContactColumn& a, const ContactColumn& b) {
    for (int s = 0; s < 2; ++s) {
      if (a.body[s] != b.body[s]) return false;
      if (a.body[s] >= 0 && std::memcmp(a.block[s].data(), b.block[s].data(), sizeof(Vec6)) != 0)
        return false;
    }
    return true;
  };
  for (size_t i = 0; i < copied.N.size(); ++i)
    EXPECT_TRUE(same_column(copied.N[i], expected.N[i])) << i;
  for (size_t i = 0; i < copied.D.size(); ++i)
    EXPECT_TRUE(same_column(copied.D[i], expected.D[i])) << i;
  EXPECT_EQ(copied.mu, expected.mu);
  EXPECT_EQ(copied.b, expected.b);
  EXPECT_TRUE(same_bits(copied.k, expected.k));
}

}  // namespace
}  // namespace pivot
