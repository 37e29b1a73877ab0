// The depths the recovery push takes from the velocity LCP (dynamics/penetration_recovery),
// and why a step may leave all of a penetration to it: a wedge that friction locks.
#include "dynamics/penetration_recovery.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "pivot/lcp.hpp"
#include "support/shipped_problem.hpp"

namespace pivot {
namespace {

TEST(PenetrationRecovery, DepthsBeyondTheSlopPerContactAndPerGroup) {
  // Rows 0 and 1 alone, 2..4 one max group: its gap is its largest side's, -1e-4 m.
  const std::vector<double> gap_m = {-3e-5, 2e-3, -4e-4, -1e-4, -2e-4};
  const NonconvexGroups groups = {{2, 3, 4}};
  std::vector<double> depth_m;
  ASSERT_TRUE(recovery_depths(gap_m, groups, 1e-5, &depth_m));
  const std::vector<double> beyond_slop = {2e-5, 0.0, 9e-5, 9e-5, 9e-5};
  ASSERT_EQ(depth_m.size(), beyond_slop.size());
  for (size_t i = 0; i < depth_m.size(); ++i) EXPECT_NEAR(depth_m[i], beyond_slop[i], 1e-18);
  // With no slop every unit's whole penetration: f + s = 0 for a contact alone and for
  // the group's deepest-reaching side, so the velocity LCP asks for no separation.
  ASSERT_TRUE(recovery_depths(gap_m, groups, 0.0, &depth_m));
  const std::vector<double> whole = {3e-5, 0.0, 1e-4, 1e-4, 1e-4};
  for (size_t i = 0; i < depth_m.size(); ++i) EXPECT_NEAR(depth_m[i], whole[i], 1e-18);
  // Within the slop there is nothing to push.
  EXPECT_FALSE(recovery_depths({-3e-6, 1e-3}, {}, 1e-5, &depth_m));
  EXPECT_EQ(depth_m, (std::vector<double>{0.0, 0.0}));
}

// Step 2 of `pivot run scenes/peg_in_hole_jam.json --mu 2`: the peg wedged in its hole
// (16 contacts, two of them 2e-7 m into the wall, b = f/h = -2.04e-5 m/s, inside the
// slop). Every method and every stage of the fallback chain end it on a secondary ray.
// With those two offsets at 0, all of the penetration left to the push, z >= 0, M z >= 0
// and z'M z = 0 give z'q = theta'b >= 0 (Anitescu-Potra 1997), and Lemke's method ends on
// a solution: every method's passes the acceptance check.
TEST(PenetrationRecovery, AWedgeWithItsPenetrationLeftToThePushHasASolution) {
  ContactProblem p = test::shipped_contact_problem("dynamics/peg_in_hole_jam_mu2_step2.contact");
  int penetrating = 0;
  for (double& b : p.b) {
    if (b >= 0.0) continue;
    ++penetrating;
    b = 0.0;
  }
  ASSERT_EQ(penetrating, 2);
  for (LcpMethod method : {LcpMethod::Reduced, LcpMethod::Structural, LcpMethod::Standard}) {
    const LcpResult r = solve_contact(p, method);
    EXPECT_EQ(r.status, LcpStatus::Solved) << to_string(method);
    EXPECT_TRUE(check_contact_solution(p, r.z).accepted) << to_string(method);
  }
}

}  // namespace
}  // namespace pivot
