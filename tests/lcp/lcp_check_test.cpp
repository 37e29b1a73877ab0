#include "lcp/lcp_check.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "pivot/lcp.hpp"

namespace pivot {
namespace {

// w = M z + q with M = I: w = z + q, so entries of w can be set through q.
TEST(LcpCheck, AcceptsAnExactSolutionAndReportsItsNumbers) {
  const MatX M = MatX::Identity(3, 3);
  const VecX q = (VecX(3) << -2.0, 1.0, 0.0).finished();
  const VecX z = (VecX(3) << 2.0, 0.0, 0.0).finished();  // w = (0, 1, 0)
  const LcpCheck c = check_lcp_solution(M, q, z);
  EXPECT_TRUE(c.accepted);
  EXPECT_EQ(c.min_entry, 0.0);
  EXPECT_EQ(c.max_complementarity, 0.0);
  EXPECT_EQ(c.residual, 0.0);
}

TEST(LcpCheck, NegativeEntryToleranceIsRelativeToQ) {
  // s = max(1, |q|_inf) = 1000, so entries down to -1e-6 pass and -1.1e-6 does not.
  const MatX M = MatX::Identity(2, 2);
  const VecX q = (VecX(2) << 1000.0, 0.0).finished();
  EXPECT_TRUE(check_lcp_solution(M, q, (VecX(2) << 0.0, -0.9e-6).finished()).accepted);
  const LcpCheck c = check_lcp_solution(M, q, (VecX(2) << 0.0, -1.1e-6).finished());
  EXPECT_FALSE(c.accepted);
  EXPECT_DOUBLE_EQ(c.min_entry, -1.1e-6);
  // With |q|_inf below 1 the scale is 1, not |q|.
  const VecX small_q = (VecX(2) << 1e-3, 0.0).finished();
  EXPECT_TRUE(check_lcp_solution(M, small_q, (VecX(2) << 0.0, -0.9e-9).finished()).accepted);
  EXPECT_FALSE(check_lcp_solution(M, small_q, (VecX(2) << 0.0, -1.1e-9).finished()).accepted);
}

TEST(LcpCheck, NegativeWIsRejectedLikeNegativeZ) {
  const MatX M = MatX::Zero(1, 1);
  EXPECT_FALSE(check_lcp_solution(M, VecX::Constant(1, -1e-8), VecX::Zero(1)).accepted);
  EXPECT_TRUE(check_lcp_solution(M, VecX::Constant(1, -1e-10), VecX::Zero(1)).accepted);
}

TEST(LcpCheck, ComplementarityToleranceGrowsWithZ) {
  // M = 0: w = q = (w0, 0) with s = 1, z = (z0, 0). The same product w0 z0 = 1.5e-9 fails
  // against 1e-9 max(1, 0.5) and passes against 1e-9 max(1, 5).
  const MatX M = MatX::Zero(2, 2);
  const LcpCheck small_z =
      check_lcp_solution(M, (VecX(2) << 3e-9, 0.0).finished(), (VecX(2) << 0.5, 0.0).finished());
  EXPECT_FALSE(small_z.accepted);
  EXPECT_DOUBLE_EQ(small_z.max_complementarity, 1.5e-9);
  const LcpCheck large_z =
      check_lcp_solution(M, (VecX(2) << 3e-10, 0.0).finished(), (VecX(2) << 5.0, 0.0).finished());
  EXPECT_TRUE(large_z.accepted);
  EXPECT_DOUBLE_EQ(large_z.max_complementarity, 1.5e-9);
}

TEST(LcpCheck, NonFiniteEntriesAreNeverAccepted) {
  const MatX M = MatX::Identity(2, 2);
  const VecX q = VecX::Zero(2);
  for (const double bad : {std::nan(""), std::numeric_limits<double>::infinity()}) {
    EXPECT_FALSE(check_lcp_solution(M, q, (VecX(2) << bad, 0.0).finished()).accepted);
  }
}

TEST(LcpCheck, MismatchedSizesThrow) {
  EXPECT_THROW(check_lcp_solution(MatX::Identity(2, 2), VecX::Zero(2), VecX::Zero(3)),
               std::invalid_argument);
  EXPECT_THROW(check_lcp_solution(MatX::Identity(2, 3), VecX::Zero(2), VecX::Zero(2)),
               std::invalid_argument);
  EXPECT_THROW(check_complementarity(VecX::Zero(2), VecX::Zero(3), 0.0), std::invalid_argument);
}

TEST(LcpCheck, EmptyProblemIsAccepted) {
  EXPECT_TRUE(check_lcp_solution(MatX(0, 0), VecX(0), VecX(0)).accepted);
}

}  // namespace
}  // namespace pivot
