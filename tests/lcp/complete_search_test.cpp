// The complete search for small LCPs (solve_lcp_complete): solutions where Lemke's ray
// proves nothing, and a proof where there is none, checked against enumeration of every
// complementary basis.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <variant>

#include "pivot/lcp.hpp"
#include "pivot/problem_file.hpp"

namespace pivot {
namespace {

LcpProblemFile read_lcp(const std::string& name) {
  return std::get<LcpProblemFile>(
      read_problem_file(std::string(PIVOT_SOURCE_DIR) + "/tests/lcp/complete/" + name));
}

double max_abs(const VecX& v) { return v.size() ? v.lpNorm<Eigen::Infinity>() : 0.0; }

TEST(CompleteSearch, SolvesEgansMaxExampleAToItsUniqueSolution) {
  const LcpProblemFile egan = read_lcp("egan_max_a.lcp");
  ASSERT_EQ(solve_lemke(egan.M, egan.q).status, LcpStatus::SecondaryRay);
  CompleteSearchStats stats;
  const LcpResult r = solve_lcp_complete(egan.M, egan.q, {}, &stats);
  ASSERT_EQ(r.status, LcpStatus::Solved);
  EXPECT_TRUE(check_lcp_solution(egan.M, egan.q, r.z).accepted);
  // z_a is the unique solution (Egan Sec. V): the polished support solve gives it to rounding.
  EXPECT_LE(max_abs(r.z - *egan.solution), 1e-12) << r.z.transpose();
  EXPECT_LE(max_abs(r.w - (egan.M * r.z + egan.q)), 0.0);
  EXPECT_GE(stats.nodes, 1);
}

TEST(CompleteSearch, SolvesEgansMaxExampleBToOneOfItsPrintedSolutions) {
  const LcpProblemFile egan = read_lcp("egan_max_b.lcp");
  ASSERT_EQ(solve_lemke(egan.M, egan.q).status, LcpStatus::SecondaryRay);
  const LcpResult r = solve_lcp_complete(egan.M, egan.q);
  ASSERT_EQ(r.status, LcpStatus::Solved);
  EXPECT_TRUE(check_lcp_solution(egan.M, egan.q, r.z).accepted);
  // The motion of one of the printed z_b1, z_b2, z_b3 (the file's solution block): the
  // same c, d, h, p and side impulses. The selectors g1, g2 (z_3, z_4) are not compared:
  // where both sides are at the group maximum (c1 + d = c2 + d = gamma, rows (16)-(17)) any
  // g1 + g2 = 1 solves the LCP, and the search ends on g = (1, 0) where z_b1 prints (0, 1).
  VecX b1(10), b2(10);
  b1 << 1, 1, 99, 0, 1, 0, 0, 0, 1.5, 0.5;
  b2 << 1, 1.5, 99, 1, 0, 0, 0.5, 0, 1.5, 0;
  const auto motion_distance = [&](const VecX& printed) {
    VecX difference = r.z - printed;
    difference.segment(3, 2).setZero();
    return max_abs(difference);
  };
  const double distance =
      std::min({motion_distance(b1), motion_distance(b2), motion_distance(*egan.solution)});
  EXPECT_LE(distance, 1e-12) << r.z.transpose();
}

// Every complementary basis of a generic LCP (no singular principal submatrix, no
// degenerate solution): the LCP has a solution iff one of them gives z, w >= 0.
bool has_solution_by_enumeration(const MatX& M, const VecX& q) {
  const int n = static_cast<int>(q.size());
  for (int mask = 0; mask < (1 << n); ++mask) {
    std::vector<int> alpha;
    for (int i = 0; i < n; ++i) {
      if (mask & (1 << i)) alpha.push_back(i);
    }
    VecX z = VecX::Zero(n);
    if (!alpha.empty()) {
      const MatX M_aa = M(alpha, alpha);
      const VecX rhs = -q(alpha);
      const VecX z_a = M_aa.partialPivLu().solve(rhs);
      z(alpha) = z_a;
    }
    const VecX w = M * z + q;
    if (z.minCoeff() >= -1e-9 && w.minCoeff() >= -1e-9) return true;
  }
  return false;
}

TEST(CompleteSearch, AgreesWithEnumerationOnRandomIndefiniteLcps) {
  std::mt19937 rng(20261126);
  std::normal_distribution<double> normal(0.0, 1.0);
  int solved = 0, none = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const int n = 1 + trial % 8;
    // Indefinite M (neither copositive nor P): Lemke's ray proves nothing on these, and a
    // good share have no solution.
    const MatX M = MatX::NullaryExpr(n, n, [&] { return normal(rng); });
    const VecX q = VecX::NullaryExpr(n, [&] { return normal(rng); });
    CompleteSearchStats stats;
    const LcpResult r = solve_lcp_complete(M, q, {}, &stats);
    if (has_solution_by_enumeration(M, q)) {
      ASSERT_EQ(r.status, LcpStatus::Solved) << "trial " << trial << ": " << to_string(r.status);
      EXPECT_TRUE(check_lcp_solution(M, q, r.z).accepted) << "trial " << trial;
      ++solved;
    } else {
      ASSERT_EQ(r.status, LcpStatus::NoSolution)
          << "trial " << trial << ": " << to_string(r.status);
      EXPECT_GE(stats.certified_radius, 1e8 * std::max(1.0, max_abs(q))) << "trial " << trial;
      EXPECT_EQ(stats.undecided_nodes, 0) << "trial " << trial;
      EXPECT_GE(stats.infeasible_nodes, 1) << "trial " << trial;
      ++none;
    }
  }
  // Both outcomes occur often enough for the agreement to mean something.
  EXPECT_GE(solved, 100);
  EXPECT_GE(none, 100);
}

TEST(CompleteSearch, ReportsTheBudgetWhenItRunsOut) {
  // The first random problem that takes a proof of several branches, searched again with a
  // budget of fewer.
  std::mt19937 rng(7);
  std::normal_distribution<double> normal(0.0, 1.0);
  for (int trial = 0; trial < 1000; ++trial) {
    const MatX M = MatX::NullaryExpr(6, 6, [&] { return normal(rng); });
    const VecX q = VecX::NullaryExpr(6, [&] { return normal(rng); });
    CompleteSearchStats full;
    if (solve_lcp_complete(M, q, {}, &full).status != LcpStatus::NoSolution || full.nodes < 3) {
      continue;
    }
    CompleteSearchOptions options;
    options.max_nodes = full.nodes - 1;
    CompleteSearchStats stats;
    EXPECT_EQ(solve_lcp_complete(M, q, options, &stats).status, LcpStatus::PivotLimit);
    EXPECT_EQ(stats.nodes, full.nodes - 1);
    return;
  }
  FAIL() << "no random problem needed three branches";
}

TEST(CompleteSearch, RejectsMismatchedSizesWithTheirNumbers) {
  try {
    solve_lcp_complete(MatX::Identity(2, 3), VecX::Ones(2));
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "solve_lcp_complete: M is 2x3 but q has 2 entries");
  }
}

}  // namespace
}  // namespace pivot
