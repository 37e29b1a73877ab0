// Every method's warm start (solve_contact's `warm`): a basis handed back is solved and
// taken when it is an answer, repaired by a few principal pivots when it nearly is, and
// otherwise Lemke's path starts from it (a covering vector that makes it feasible); when
// that fails, the path from Step 0 runs as without it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "lcp/lemke_fast.hpp"
#include "lcp/lemke_standard.hpp"
#include "pivot/lcp.hpp"
#include "support/lloyd_problems.hpp"
#include "support/shipped_problem.hpp"

namespace pivot {
namespace {

constexpr LcpMethod kFast[] = {LcpMethod::Structural, LcpMethod::Reduced};
constexpr LcpMethod kEvery[] = {LcpMethod::Standard, LcpMethod::Structural, LcpMethod::Reduced};

// Lloyd's stacked blocks (his experiment c): four-contact faces, non-unique normal forces.
ContactProblem stack() { return lloyd::block_stack(5, false, 7); }

double max_abs_difference(const VecX& a, const VecX& b) {
  return (a - b).lpNorm<Eigen::Infinity>();
}

TEST(WarmStart, AnAnswersOwnBasisIsTheAnswerWithoutAPivot) {
  // The 96-contact peg (n = 576) too: the standard method once left the basis of a problem
  // beyond n = 512 untried, taking its dense solve for dearer than a path.
  for (const ContactProblem& p : {stack(), lloyd::peg_in_hole(32, 3), lloyd::peg_in_hole(96, 3)}) {
    for (LcpMethod m : kEvery) {
      const LcpResult cold = solve_contact(p, m);
      ASSERT_EQ(cold.status, LcpStatus::Solved) << to_string(m);
      ASSERT_EQ(cold.basis.z_basic.size(), static_cast<size_t>(p.lcp_size()));
      EXPECT_FALSE(cold.warm);
      const LcpResult warm = solve_contact(p, m, {}, cold.basis);
      ASSERT_EQ(warm.status, LcpStatus::Solved) << to_string(m);
      EXPECT_TRUE(warm.warm);
      EXPECT_EQ(warm.pivots, 0);
      EXPECT_EQ(warm.basis.z_basic, cold.basis.z_basic);
      EXPECT_TRUE(check_contact_solution(p, warm.z).accepted);
      // The same basis solved by the same reduced system, once at the end of the path and
      // once from the start: the answers agree to round-off of z's size (impulses of
      // order 1 N s here).
      EXPECT_LT(max_abs_difference(warm.z, cold.z), 1e-12) << to_string(m);
    }
  }
}

TEST(WarmStart, TheNextStepsProblemTakesThePreviousBasis) {
  // A resting stack one step on: the same contacts, the offsets b moved by gaps of 1e-13 m
  // over h = 0.01 s, as round-off moves them. The previous basis stays an answer.
  const ContactProblem p = stack();
  ContactProblem next = p;
  for (size_t i = 0; i < next.b.size(); ++i) next.b[i] += (i % 2 ? 1e-11 : -1e-11);
  for (LcpMethod m : kEvery) {
    const LcpResult cold = solve_contact(p, m);
    ASSERT_EQ(cold.status, LcpStatus::Solved);
    const LcpResult warm = solve_contact(next, m, {}, cold.basis);
    ASSERT_EQ(warm.status, LcpStatus::Solved) << to_string(m);
    EXPECT_TRUE(warm.warm) << to_string(m);
    EXPECT_EQ(warm.pivots, 0);
    EXPECT_TRUE(check_contact_solution(next, warm.z).accepted);
  }
}

TEST(WarmStart, ABasisThatCannotStartAPathLeavesTheColdSolveAsItWas) {
  // A basis of the wrong size, and one with every z basic (singular: four normals of rank
  // three on each face): the solve is bit for bit the cold one.
  const ContactProblem p = stack();
  for (LcpMethod m : kEvery) {
    LcpBasis wrong_size = solve_contact(p, m).basis;
    wrong_size.z_basic.push_back(1);
    LcpBasis all_z;
    all_z.z_basic.assign(p.lcp_size(), 1);
    for (const LcpBasis* basis : {&wrong_size, &all_z}) {
      SCOPED_TRACE(basis == &wrong_size ? "wrong size" : "all z");
      const LcpResult cold = solve_contact(p, m);
      const LcpResult warm = solve_contact(p, m, {}, *basis);
      ASSERT_EQ(warm.status, LcpStatus::Solved) << to_string(m);
      EXPECT_FALSE(warm.warm);
      EXPECT_FALSE(warm.warm_path);
      EXPECT_EQ(warm.pivots, cold.pivots);
      EXPECT_EQ(max_abs_difference(warm.z, cold.z), 0.0) << to_string(m);
    }
  }
}

TEST(WarmStart, ABasisThatIsNoAnswerStartsLemkesPathFromIt) {
  // Lloyd's stack under one random wrench, its answer's basis handed to the same stack
  // under another (seeds s and s + 100, s = 1..20): no flip of a few rows makes one the
  // other's answer, the blocks move, and every method starts Lemke's path at that basis
  // with the covering vector B e. Measured at this change, over the 20: 18 such paths
  // answered with each method (the other two pairs from Step 0), 1,322 pivots in all
  // against 1,623 from Step 0 (structural) and 1,590 against 1,964 (reduced). A path from
  // a basis is not Lemke's from Step 0, whose end on a copositive-plus M is a solution
  // (Lloyd Sec. 2): it may fail, and then Step 0's runs.
  // The standard method's path from the basis (lemke_standard.hpp, warm_path) is taken on
  // the same rule (path_from_warm_basis on the basis's answer as solved, negative basic
  // values included): the same 18 pairs.
  for (LcpMethod m : kEvery) {
    int cold_pivots = 0, warm_pivots = 0, paths = 0;
    for (std::uint64_t s = 1; s <= 20; ++s) {
      const ContactProblem before = lloyd::block_stack(5, false, s);
      const ContactProblem after = lloyd::block_stack(5, false, s + 100);
      const LcpResult previous = solve_contact(before, m);
      ASSERT_EQ(previous.status, LcpStatus::Solved) << to_string(m) << " seed " << s;
      const LcpResult cold = solve_contact(after, m);
      const LcpResult warm = solve_contact(after, m, {}, previous.basis);
      ASSERT_EQ(warm.status, LcpStatus::Solved) << to_string(m) << " seed " << s;
      EXPECT_TRUE(check_contact_solution(after, warm.z).accepted) << to_string(m) << s;
      EXPECT_FALSE(warm.warm);
      cold_pivots += cold.pivots;
      warm_pivots += warm.pivots;
      paths += warm.warm_path;
    }
    EXPECT_EQ(paths, 18) << to_string(m);
    EXPECT_LT(warm_pivots, cold_pivots) << to_string(m);
  }
}

TEST(WarmStart, AtRestOnlyALargeProblemsBasisStartsAPath) {
  // A resting stack's answer basis with every normal force taken out: nothing is loaded, so
  // its answer is at rest, and more than the sixteen flips are needed. A small problem
  // (5 blocks, LCP size 200) goes to Step 0, whose answer at rest is the one the next
  // steps' warm starts keep: its pivots are the cold solve's. From kRestWarmPathSize (512)
  // Step 0's path is long and the path starts at the basis (25 blocks, size 1,000; the
  // 40-body bin pile at rest after a change of d, docs/lemke-fast.md): measured, 188, 196
  // and 246 pivots against the cold 420, 398 and 524 (standard, structural, reduced).
  for (const int blocks : {5, 25}) {
    const ContactProblem p = lloyd::block_stack(blocks, false, 7);
    const bool large = p.lcp_size() >= kRestWarmPathSize;
    ASSERT_EQ(large, blocks == 25) << p.lcp_size();
    for (LcpMethod m : kEvery) {
      const LcpResult cold = solve_contact(p, m);
      ASSERT_EQ(cold.status, LcpStatus::Solved) << to_string(m);
      LcpBasis unloaded = cold.basis;
      std::fill(unloaded.z_basic.begin(), unloaded.z_basic.begin() + p.num_contacts(), 0);
      const LcpResult warm = solve_contact(p, m, {}, unloaded);
      ASSERT_EQ(warm.status, LcpStatus::Solved) << to_string(m) << " blocks " << blocks;
      EXPECT_TRUE(check_contact_solution(p, warm.z).accepted);
      EXPECT_FALSE(warm.warm);
      EXPECT_EQ(warm.warm_path, large) << to_string(m) << " blocks " << blocks;
      if (large) {
        EXPECT_LT(warm.pivots, cold.pivots) << to_string(m);
      } else {
        EXPECT_EQ(warm.pivots, cold.pivots) << to_string(m);
      }
    }
  }
}

TEST(WarmStart, AReducedPathFromTheBasisRestartsThereWhenItActivatesAContact) {
  // The reduced method activates a contact's friction rows when its normal enters; when
  // the covering entry they need is too large it starts again with the contact active. From
  // a warm basis it starts again from that basis, no longer from Step 0 (which it did when
  // the warm path gave up on a restart). The 32-contact peg under Lloyd's random wrench of
  // seed 10, started from the answer's basis for seed 1: one restart, then the warm path
  // answers (measured 91 pivots in all).
  const ContactProblem before = lloyd::peg_in_hole(32, 1);
  const ContactProblem after = lloyd::peg_in_hole(32, 10);
  const LcpResult previous = solve_contact(before, LcpMethod::Reduced);
  ASSERT_EQ(previous.status, LcpStatus::Solved);
  const FastLemkeResult warm = solve_lemke_fast(after, LcpMethod::Reduced, {}, previous.basis);
  ASSERT_EQ(warm.lcp.status, LcpStatus::Solved);
  EXPECT_TRUE(check_contact_solution(after, warm.lcp.z).accepted);
  EXPECT_GE(warm.stats.restarts, 1);
  EXPECT_TRUE(warm.lcp.warm_path);
  EXPECT_EQ(warm.stats.warm_paths, 1);
}

TEST(WarmStart, APairWhoseFlipIsSingularIsHeldToTheRuleOnly) {
  // Four coplanar corners hold each face of Lloyd's aligned stack; at rest some corner's
  // theta is not basic, its column a combination of the basic ones. Its row w_0 moved 5e-10
  // below zero (b_0 lowered: the corner approaching at 5e-10 m/s, between the warm start's
  // slack of 1e-10 and the acceptance rule's 1e-9): bringing theta_0 in makes the reduced
  // system (the standard method's M_aa) singular, so the flip is undone and the row is
  // held to the rule only. The basis is the answer, with no pivot (every method went to
  // Lemke's path before: the reduced method's took 5 pivots). Lowered by 5e-9, past the
  // rule, the basis is no answer: the solve still ends on an accepted one.
  const ContactProblem p = lloyd::block_stack(5, false, 0);
  for (LcpMethod m : kEvery) {
    const LcpResult previous = solve_contact(p, m);
    ASSERT_EQ(previous.status, LcpStatus::Solved) << to_string(m);
    ASSERT_FALSE(previous.basis.z_basic[0]) << to_string(m);
    ASSERT_LT(std::abs(previous.w[0]), 1e-12) << to_string(m);
    for (double lowered : {5e-10, 5e-9}) {
      ContactProblem next = p;
      next.b[0] -= lowered;
      const LcpResult r = solve_contact(next, m, {}, previous.basis);
      ASSERT_EQ(r.status, LcpStatus::Solved) << to_string(m) << " " << lowered;
      EXPECT_TRUE(check_contact_solution(next, r.z).accepted) << to_string(m) << lowered;
      if (lowered < 1e-9) {
        EXPECT_TRUE(r.warm) << to_string(m);
        EXPECT_EQ(r.pivots, 0) << to_string(m);
        EXPECT_EQ(r.basis.z_basic, previous.basis.z_basic) << to_string(m);  // flip undone
        EXPECT_NEAR(r.w[0], -lowered, 1e-12) << to_string(m);
      } else {
        EXPECT_GE(r.w[0], -1e-9) << to_string(m);
      }
    }
  }
}

TEST(WarmStart, ALoadedContactLeftOutOfTheBasisIsBroughtBack) {
  // The least loaded contact's normal force taken out of the resting stack's basis: the
  // block turns about the other two corners of its face and sinks there (w < 0 on its
  // row), and the flips bring it back and restore the answer, without a pivot of
  // Lemke's path. (The most loaded one moves the load of the whole face and its friction
  // with it: more than a few flips, and a path answers.)
  const ContactProblem p = stack();
  for (LcpMethod m : kFast) {
    const LcpResult cold = solve_contact(p, m);
    ASSERT_EQ(cold.status, LcpStatus::Solved);
    int k = -1;
    for (int i = 0; i < p.num_contacts(); ++i) {
      if (cold.z[i] > 1e-3 && (k < 0 || cold.z[i] < cold.z[k])) k = i;
    }
    ASSERT_GE(k, 0);
    ASSERT_TRUE(cold.basis.z_basic[k]);
    LcpBasis dropped = cold.basis;
    dropped.z_basic[k] = 0;
    const FastLemkeResult fast = solve_lemke_fast(p, m, {}, dropped);
    const LcpResult& warm = fast.lcp;
    ASSERT_EQ(warm.status, LcpStatus::Solved) << to_string(m);
    // Flips, not a path: three on this stack (measured), within the sixteen a warm start
    // may take.
    EXPECT_GE(fast.stats.warm_repairs, 1);
    EXPECT_LE(fast.stats.warm_repairs, 16);
    EXPECT_TRUE(warm.warm) << to_string(m);
    EXPECT_EQ(warm.pivots, 0);
    EXPECT_EQ(warm.basis.z_basic, cold.basis.z_basic);
    EXPECT_LT(max_abs_difference(warm.z, cold.z), 1e-12) << to_string(m);
  }
}

// A warm path breaks ratio-test ties by the columns of B^-1 B0, B0 its starting basis
// (lemke_fast.cpp, lexicographic_min), which is what keeps it from cycling. The island of
// the bin pile settling at step 91 (166 contacts, n = 996; the basis of step 90 saved with
// it): ordered by B^-1's own columns, as from Step 0, the reduced method's warm path went
// round a cycle twice and failed after 990 pivots, and Step 0 took 885 more; the answer
// then came from Step 0, not from the path.
TEST(WarmStart, AWarmPathBreaksTiesRelativeToItsStartingBasis) {
  const ContactProblem p =
      test::shipped_contact_problem("lcp/soak/bin_pile_40_step91_warm_cycle.contact");
  std::ifstream in(std::string(PIVOT_SOURCE_DIR) +
                   "/tests/lcp/soak/bin_pile_40_step91_warm_cycle.basis");
  std::string flags;
  in >> flags;
  LcpBasis warm;
  for (const char c : flags) warm.z_basic.push_back(c == '1');
  ASSERT_EQ(warm.z_basic.size(), static_cast<size_t>(p.lcp_size()));
  for (const LcpMethod method : kFast) {
    const FastLemkeResult r = solve_lemke_fast(p, method, {}, warm);
    ASSERT_EQ(r.lcp.status, LcpStatus::Solved) << to_string(method);
    EXPECT_TRUE(r.lcp.warm_path) << to_string(method);
    EXPECT_EQ(r.stats.warm_paths, 1) << to_string(method);
    EXPECT_TRUE(check_contact_solution(p, r.lcp.z).accepted) << to_string(method);
  }
  // The standard method's path (FactoredLemke::run_from) breaks its ties alike; its warm
  // path answered this island with either order (403 and 392 pivots).
  const LcpResult standard = solve_contact(p, LcpMethod::Standard, {}, warm);
  ASSERT_EQ(standard.status, LcpStatus::Solved);
  EXPECT_TRUE(standard.warm_path);
  EXPECT_TRUE(check_contact_solution(p, standard.z).accepted);
}

}  // namespace
}  // namespace pivot
