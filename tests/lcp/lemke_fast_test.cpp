// Lloyd's structural and reduced fast Lemke against the standard method: random contact
// problems of every shape, degenerate contact sets, resting bodies with closed-form
// impulses, and the instrumentation showing that the n(2+d) matrix M is never formed.
#include "lcp/lemke_fast.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "lcp/friction_at_rest.hpp"
#include "lcp/lcp_check.hpp"
#include "lcp/lemke_standard.hpp"
#include "pivot/lcp.hpp"
#include "support/lloyd_problems.hpp"
#include "support/random_contact_problems.hpp"
#include "support/shipped_problem.hpp"

namespace pivot {
namespace {

constexpr LcpMethod kFast[] = {LcpMethod::Structural, LcpMethod::Reduced};
constexpr LcpMethod kAll[] = {LcpMethod::Standard, LcpMethod::Structural, LcpMethod::Reduced};

// Velocities of two solutions of one problem agree to this, relative to max(1, |v|_inf).
// Where the velocity is unique (frictionless problems: M = N'N is PSD, and monotonicity
// gives |N'(theta1 - theta2)|^2 <= w1'theta2 + w2'theta1 - w1'theta1 - w2'theta2, the
// complementarity residues; resting bodies), two Lemke answers differ only through those
// residues, which are at round-off (~1e-14 s): their square root bounds the difference
// by ~1e-7.
constexpr double kVelocityTolerance = 1e-7;

double velocity_gap(const ContactProblem& p, const VecX& z1, const VecX& z2) {
  const VecX v1 = contact_velocity(p, z1);
  const VecX v2 = contact_velocity(p, z2);
  const double scale = std::max({1.0, v1.lpNorm<Eigen::Infinity>(), v2.lpNorm<Eigen::Infinity>()});
  return (v1 - v2).lpNorm<Eigen::Infinity>() / scale;
}

// Solves with every method, expects Solved and an accepted answer from each; returns
// the results in kAll order.
std::vector<LcpResult> solve_all(const ContactProblem& p, const std::string& what) {
  std::vector<LcpResult> results;
  for (LcpMethod method : kAll) {
    results.push_back(solve_contact(p, method));
    const LcpResult& r = results.back();
    EXPECT_EQ(r.status, LcpStatus::Solved) << what << " " << to_string(method);
    EXPECT_EQ(r.z.size(), p.lcp_size()) << what << " " << to_string(method);
    if (r.status == LcpStatus::Solved) {
      EXPECT_TRUE(check_contact_solution(p, r.z).accepted) << what << " " << to_string(method);
    }
  }
  return results;
}

void expect_same_velocity(const ContactProblem& p, const std::vector<LcpResult>& results,
                          const std::string& what) {
  for (size_t k = 1; k < results.size(); ++k) {
    if (results[0].status != LcpStatus::Solved || results[k].status != LcpStatus::Solved) continue;
    EXPECT_LT(velocity_gap(p, results[0].z, results[k].z), kVelocityTolerance)
        << what << ": standard vs " << to_string(kAll[k]);
  }
}

testing::RandomProblemShape shape_for(int seed, double mu_max) {
  constexpr int kDirections[] = {2, 4, 8, 16};
  testing::RandomProblemShape shape;
  shape.bodies = 1 + seed % 5;
  shape.contacts = 1 + (seed * 7) % 40;
  shape.d = kDirections[(seed / 5) % 4];
  shape.mu_max = mu_max;
  return shape;
}

std::string describe(int seed, const testing::RandomProblemShape& s) {
  return "seed " + std::to_string(seed) + " (m " + std::to_string(s.bodies) + ", n " +
         std::to_string(s.contacts) + ", d " + std::to_string(s.d) + ")";
}

// A problem of tests/lcp/soak solved by a fast method, which must answer it with an answer
// the acceptance rule takes.
struct SoakSolve {
  ContactProblem problem;
  FastLemkeResult result;
};
SoakSolve solve_soak_problem(const std::string& file, LcpMethod method) {
  SoakSolve s{test::shipped_contact_problem("lcp/soak/" + file), {}};
  s.result = solve_lemke_fast(s.problem, method);
  EXPECT_EQ(s.result.lcp.status, LcpStatus::Solved)
      << file << ": " << to_string(s.result.lcp.status);
  EXPECT_TRUE(check_contact_solution(s.problem, s.result.lcp.z).accepted) << file;
  return s;
}

// m = 1..5 bodies with random SPD masses, n = 1..40 contacts between random body pairs or
// a body and the ground, d in {2, 4, 8, 16}, mu in [0, 1], random k~_x.
TEST(LemkeFast, SolvesRandomFrictionalProblemsAcceptedByTheCheck) {
  for (int seed = 0; seed < 120; ++seed) {
    const auto shape = shape_for(seed, 1.0);
    const ContactProblem p = testing::random_contact_problem(1000 + seed, shape);
    solve_all(p, describe(seed, shape));
  }
}

TEST(LemkeFast, AgreesWithStandardOnVelocityOfRandomFrictionlessProblems) {
  for (int seed = 0; seed < 80; ++seed) {
    const auto shape = shape_for(seed, 0.0);
    const ContactProblem p = testing::random_contact_problem(5000 + seed, shape);
    expect_same_velocity(p, solve_all(p, describe(seed, shape)), describe(seed, shape));
  }
}

// With friction the contact LCP of (8) can have several solutions with different
// velocities: redundant contacts (coplanar, duplicated) make the normal impulses
// statically indeterminate, and with them each contact's friction limit mu_i theta_i, so a
// spinning block on a face can end with different spin rates (Lloyd Fig. 2 problem, seed
// 7: omega_z -0.397 from one Lemke path and -0.407 from another, both with residues
// ~1e-17). So frictional answers are held to the acceptance rule, and velocities are
// compared where they are unique: without friction (M = N'N is PSD) and at rest.
ContactProblem frictionless(ContactProblem p) {
  std::fill(p.mu.begin(), p.mu.end(), 0.0);
  return p;
}

void solve_and_compare(const ContactProblem& p, const std::string& what) {
  solve_all(p, what);
  const ContactProblem smooth = frictionless(p);
  expect_same_velocity(smooth, solve_all(smooth, what + ", mu 0"), what + ", mu 0");
}

TEST(LemkeFast, SolvesLloydProblemsAndAgreesOnFrictionlessVelocity) {
  for (int n = 8; n <= 32; n += 8)
    solve_and_compare(lloyd::peg_in_hole(n, 7), "peg n " + std::to_string(n));
  for (int s = 0; s < 10; ++s) {
    solve_and_compare(lloyd::single_body_problem(s, 11), lloyd::single_body_situations()[s].name);
  }
  for (int blocks = 1; blocks <= 3; ++blocks) {
    for (bool rotated : {false, true}) {
      solve_and_compare(lloyd::block_stack(blocks, rotated, 13),
                        "stack " + std::to_string(blocks) + (rotated ? " rotated" : ""));
    }
  }
}

// Islands of 13 to 19 bodies with friction, whose reduced systems pass 64 rows: from there
// the LU is kept across pivots through a border (bordered_lu.hpp), and each of these paths
// takes hundreds of pivots that way. Every answer is accepted.
TEST(LemkeFast, ReducedSystemsKeptAcrossPivotsGiveAcceptedAnswers) {
  for (int seed : {7, 10, 11}) {
    testing::RandomProblemShape shape;
    shape.bodies = 12 + seed % 9;
    shape.contacts = 60 + 5 * seed;
    shape.d = 4;
    shape.mu_max = 1.0;
    const ContactProblem p = testing::random_contact_problem(7000 + seed, shape);
    for (LcpMethod method : kFast) {
      const FastLemkeResult r = solve_lemke_fast(p, method);
      const std::string what = describe(seed, shape) + " " + to_string(method);
      EXPECT_EQ(r.lcp.status, LcpStatus::Solved) << what;
      EXPECT_TRUE(check_contact_solution(p, r.lcp.z).accepted) << what;
      EXPECT_GT(r.stats.bordered_factorisations, 100) << what;
    }
  }
}

// Lloyd Sec. 5.2: the reduced matrix has r <= 6m (+2 for z0 and w_r); it is the only dense
// matrix the fast methods allocate.
TEST(LemkeFast, LargestDenseMatrixIsTheReducedSystem) {
  for (int seed = 0; seed < 40; ++seed) {
    const auto shape = shape_for(seed, 1.0);
    const ContactProblem p = testing::random_contact_problem(9000 + seed, shape);
    const long long bound = 6LL * shape.bodies + 2;
    for (LcpMethod method : kFast) {
      const FastLemkeResult r = solve_lemke_fast(p, method);
      EXPECT_EQ(r.lcp.status, LcpStatus::Solved) << describe(seed, shape);
      EXPECT_LE(r.stats.max_reduced_size, bound) << describe(seed, shape);
      EXPECT_LE(r.stats.largest_dense_entries, bound * bound) << describe(seed, shape);
    }
  }
}

// n = 2000 contacts with d = 16 on one body: M would have (2000 * 18)^2 entries, 10.4 GB,
// and the fast methods allocate an 8 x 8 matrix. Both solve it (the reduced one adding
// only the handful of contacts that become active).
TEST(LemkeFast, SolvesTwoThousandContactsWhoseDenseMatrixWouldNeedTenGigabytes) {
  testing::RandomProblemShape shape;
  shape.contacts = 2000;
  shape.d = 16;
  const ContactProblem p = testing::random_contact_problem(2000, shape);
  ASSERT_EQ(p.lcp_size(), 36000);
  for (LcpMethod method : kFast) {
    const FastLemkeResult r = solve_lemke_fast(p, method);
    EXPECT_EQ(r.lcp.status, LcpStatus::Solved) << to_string(method);
    EXPECT_TRUE(check_contact_solution(p, r.lcp.z).accepted) << to_string(method);
    EXPECT_LE(r.stats.largest_dense_entries, 8 * 8) << to_string(method);
    if (method == LcpMethod::Reduced) {
      EXPECT_LT(r.stats.activated_contacts, 100);
    }
  }
}

// A box at rest on a plane under gravity only: it stays at rest and the normal impulses
// carry its weight over the step, sum theta = m g h (Lloyd (2) with v = v0 = 0).
TEST(LemkeFast, BoxRestingOnPlaneStaysAtRestAndCarriesItsWeight) {
  for (bool rotated : {false, true}) {
    const ContactProblem p = lloyd::block_stack(1, rotated, 0);
    ContactProblem rest = p;
    rest.kx.setZero();
    rest.kx[2] = -1.0 * lloyd::kGravity_mps2 * lloyd::kStep_s;
    const auto results = solve_all(rest, rotated ? "rotated box" : "box");
    for (size_t k = 0; k < results.size(); ++k) {
      if (results[k].status != LcpStatus::Solved) continue;
      const int n = rest.num_contacts();
      EXPECT_NEAR(results[k].z.head(n).sum(), lloyd::kGravity_mps2 * lloyd::kStep_s, 1e-12)
          << to_string(kAll[k]);
      EXPECT_LT(contact_velocity(rest, results[k].z).lpNorm<Eigen::Infinity>(), 1e-12)
          << to_string(kAll[k]);
    }
  }
}

// Three aligned blocks under gravity: at rest, the bottom interface carries all three.
TEST(LemkeFast, StackRestsAndBottomContactsCarryTheWholeStack) {
  ContactProblem p = lloyd::block_stack(3, false, 0);
  p.kx.setZero();
  for (int k = 0; k < 3; ++k) p.kx[6 * k + 2] = -lloyd::kGravity_mps2 * lloyd::kStep_s;
  const auto results = solve_all(p, "stack of 3");
  for (size_t k = 0; k < results.size(); ++k) {
    if (results[k].status != LcpStatus::Solved) continue;
    EXPECT_NEAR(results[k].z.head(4).sum(), 3 * lloyd::kGravity_mps2 * lloyd::kStep_s, 1e-12)
        << to_string(kAll[k]);
    EXPECT_LT(contact_velocity(p, results[k].z).lpNorm<Eigen::Infinity>(), 1e-12)
        << to_string(kAll[k]);
  }
}

// Degenerate contact sets: every one makes the ratio test tie, so these exercise the
// lexicographic rule and the columns of B^-1 computed on demand.
ContactProblem duplicated(const ContactProblem& p) {
  ContactProblem out = p;
  const int n = p.num_contacts();
  for (int i = 0; i < n; ++i) {
    out.normal.push_back(p.normal[i]);
    out.mu.push_back(p.mu[i]);
    out.b.push_back(p.b[i]);
    for (int j = 0; j < p.d; ++j) out.friction.push_back(p.friction[i * p.d + j]);
  }
  return out;
}

TEST(LemkeFast, SolvesDuplicatedContacts) {
  for (int s : {4, 6, 8}) {  // block on plane, face on face rotated, block in corner
    solve_and_compare(duplicated(lloyd::single_body_problem(s, 3)),
                      "duplicated " + lloyd::single_body_situations()[s].name);
  }
  solve_and_compare(duplicated(lloyd::block_stack(2, true, 5)), "duplicated stack");
}

TEST(LemkeFast, SolvesEightCoplanarContactsOfRotatedSquare) {
  // Lloyd Fig. 2: the octagon where a square face turned by 45 degrees meets another.
  for (std::uint64_t seed = 0; seed < 10; ++seed) {
    const ContactProblem p = lloyd::single_body_problem(6, seed);
    ASSERT_EQ(p.num_contacts(), 8);
    solve_and_compare(p, "fig 2 seed " + std::to_string(seed));
  }
}

TEST(LemkeFast, SolvesCollinearNormalsAndExtremeFriction) {
  for (double mu : {0.0, 10.0}) {
    // Six contacts on one line under a bar, all normals +z: rank 2 in the normal rows.
    lloyd::ContactProblemBuilder builder(8);
    const int bar = builder.add_body(Vec3(0, 0, 0.05),
                                     lloyd::box_mass(1.0, Vec3(0.3, 0.05, 0.05), Mat3::Identity()));
    for (int i = 0; i < 6; ++i)
      builder.add_contact(bar, -1, Vec3(-0.3 + 0.12 * i, 0, 0), Vec3::UnitZ(), mu);
    Vec6 impulse;
    impulse << 0.05, 0.02, -0.1, 0.01, 0.0, 0.003;
    builder.add_impulse(bar, impulse);
    solve_and_compare(builder.problem(), "collinear, mu " + std::to_string(mu));
    // And every Lloyd single-body situation with that friction coefficient.
    for (int s = 0; s < 10; ++s) {
      ContactProblem p = lloyd::single_body_problem(s, 21);
      std::fill(p.mu.begin(), p.mu.end(), mu);
      solve_all(p, lloyd::single_body_situations()[s].name + ", mu " + std::to_string(mu));
    }
  }
}

// A contact with a fixed body may be written with the second slot naming a body whose
// block is zero (as a reader of dense 6m columns produces): same answer as an empty slot.
TEST(LemkeFast, ZeroJacobianBlockActsLikeFixedBody) {
  const ContactProblem one = lloyd::single_body_problem(8, 2);  // block in corner
  ContactProblem two = one;
  two.mass.push_back(Mat6::Identity());
  two.kx.conservativeResize(12);
  two.kx.tail<6>().setZero();
  for (auto* columns : {&two.normal, &two.friction}) {
    for (ContactColumn& c : *columns) {
      c.body[1] = 1;
      c.block[1].setZero();
    }
  }
  for (LcpMethod method : kAll) {
    const LcpResult a = solve_contact(one, method), b = solve_contact(two, method);
    ASSERT_EQ(a.status, LcpStatus::Solved) << to_string(method);
    ASSERT_EQ(b.status, LcpStatus::Solved) << to_string(method);
    const VecX va = contact_velocity(one, a.z), vb = contact_velocity(two, b.z);
    EXPECT_LT((va - vb.head(6)).lpNorm<Eigen::Infinity>(), kVelocityTolerance) << to_string(method);
    EXPECT_LT(vb.tail(6).lpNorm<Eigen::Infinity>(), 1e-15) << to_string(method);
  }
}

// Lloyd Sec. 5.3: the reduced method adds a contact's friction rows only when its theta
// enters, so on peg-in-hole it adds few of them and needs far fewer pivots.
TEST(LemkeFast, ReducedAddsFewContactsAndSavesPivotsOnPegInHole) {
  const ContactProblem p = lloyd::peg_in_hole(32, 1);
  const FastLemkeResult structural = solve_lemke_fast(p, LcpMethod::Structural);
  const FastLemkeResult reduced = solve_lemke_fast(p, LcpMethod::Reduced);
  ASSERT_EQ(structural.lcp.status, LcpStatus::Solved);
  ASSERT_EQ(reduced.lcp.status, LcpStatus::Solved);
  EXPECT_LT(reduced.stats.activated_contacts, 16);
  EXPECT_LT(2 * reduced.lcp.pivots, structural.lcp.pivots);
  // Variables of contacts never added: theta = phi = 0 and lambda completes sigma >= 0.
  EXPECT_TRUE(check_contact_solution(p, reduced.lcp.z).accepted);
}

// Regression: with Lloyd (59) applied at the current basis only, this problem's reduced
// solve cycled without end through six non-degenerate pivots after a contact was added.
TEST(LemkeFast, ReducedDoesNotCycleAfterAddingContactMidPath) {
  testing::RandomProblemShape shape;
  shape.bodies = 2;
  shape.contacts = 18;
  shape.d = 4;
  const ContactProblem p = testing::random_contact_problem(97 * 7919 + 2, shape);
  const FastLemkeResult r = solve_lemke_fast(p, LcpMethod::Reduced);
  EXPECT_EQ(r.lcp.status, LcpStatus::Solved);
  EXPECT_LT(r.lcp.pivots, 200);
}

// Regression: on these rotated stacks (8 contacts per interface) the reduced method added
// a contact late on the path, where z0 was near 1e-8 and (59) asked for covering entries of
// 1e5-1e6; the next reduced matrices were singular or the answer had lambda = -0.04. Each
// now restarts with that contact active from Step 0 and solves.
TEST(LemkeFast, ReducedRestartsInsteadOfAddingAContactWithAHugeCover) {
  const struct {
    int blocks;
    std::uint64_t seed;
  } cases[] = {{2, 5188}, {4, 1025}, {4, 5099}};
  for (const auto& c : cases) {
    const ContactProblem p = lloyd::block_stack(c.blocks, true, c.seed);
    const FastLemkeResult r = solve_lemke_fast(p, LcpMethod::Reduced);
    EXPECT_EQ(r.lcp.status, LcpStatus::Solved) << c.blocks << " blocks, seed " << c.seed;
    EXPECT_GE(r.stats.restarts, 1) << c.blocks << " blocks, seed " << c.seed;
    EXPECT_TRUE(check_contact_solution(p, r.lcp.z).accepted)
        << c.blocks << " blocks, seed " << c.seed;
  }
}

// Regression (issue 21): 13 contacts of 4 boxes cut from step 93 of a 40-box pile. Past a
// degenerate vertex, where a row's m' within round-off of zero let its value drift to
// -1e-17 and the next pivot took it at ratio zero, the reduced method's path went down
// and back up through the same points, a cycle of 14 pivots, until the pivot limit (3950
// pivots; the island of 622 contacts it was cut from: 186,650 pivots and 14 s). The cycle
// is now found, and a restart from another covering vector solves.
TEST(LemkeFast, ReducedRestartsAfterItsPathCycles) {
  const FastLemkeResult r =
      solve_soak_problem("pile_40_step93_cycle.contact", LcpMethod::Reduced).result;
  EXPECT_EQ(r.stats.cover_restarts, 1);
  // Brent's method finds a cycle of period p entered after t pivots within about
  // 2 max(t, p): here about 2 x 92, then a restart of about the structural path's 75.
  EXPECT_LT(r.lcp.pivots, 400);
}

// Step 25399 of the ten-block tower's hour at d = 8 (tests/lcp/soak): the reduced method's
// first path and its three cover restarts end 7e-8 past the acceptance rule; the flips of
// the first refused end (repaired_end, lemke_fast.cpp) make it an answer the rule takes.
// (Step 91937, which served before, is answered by the first cover restart since infeasible
// rows of round-off pivots are spared.)
TEST(LemkeFast, RepairsAPathsRefusedEndByFlipsAfterTheCoverRestarts) {
  const FastLemkeResult r =
      solve_soak_problem("block_tower_10_d8_step25399.contact", LcpMethod::Reduced).result;
  EXPECT_EQ(r.stats.cover_restarts, kCoverRestarts);
  EXPECT_GE(r.stats.end_repairs, 1);
  EXPECT_LE(r.stats.end_repairs, kEndFlips);
}

// Step 30766 of the ten-block tower's hour at d = 16 (tests/lcp/soak): the structural
// method's second path ends on a ray with z0 above the ray's slack, and its basis solved
// afresh, z0's value dropped, is an answer the rule takes. Before, that ray ended the method
// (and every stage of the fallback chain: the step failed). The first path crawls at a small
// z0 before it, but the tower is at rest, where a crawling path's answer must be within the
// leaving slack (pivot_to_solution), and none of its is.
TEST(LemkeFast, RayWhoseBasisIsAnAnswerEndsTheSolve) {
  const FastLemkeResult r =
      solve_soak_problem("block_tower_10_d16_step30766.contact", LcpMethod::Structural).result;
  EXPECT_EQ(r.stats.ray_answers, 1);
  EXPECT_EQ(r.stats.small_z0_answers, 0);
}

// A moving island's path that crawls at a z0 small enough to drop tries, every few pivots,
// its basis's answer with z0 dropped, and ends on the first the rule takes at a quarter of
// its tolerance.
// - A box dragged out of the 40-body bin pile at d = 6 (step 971, n = 1,656): the first path
//   stayed at z0 of 4e-10..7e-10 (qscale 2.9) from pivot 9,971 and cycled at 10,490 at
//   1.07e-9, outside the cycle rule; with two more covers the solve took 31,706 pivots
//   (4.2 s), and the steps around it up to 156,180.
// - An island of the 40-body bin pile with grouped warm starts (39 bodies, 174 contacts,
//   n = 1,044; step 130): the first path cycles at z0 = 1e-5, and the second cover's crawls
//   to z0 of 1.5e-10, where every basis z0's leaving gives is infeasible by 1.2e-8 to 5e-7 (so
//   in long double too). That path went on to cycle, and a basis of its cycle with z0 dropped
//   was the answer; before the cycle rule every cover cycled and the method failed.
TEST(LemkeFast, PathCrawlingAtASmallZ0EndsOnABasisWhoseAnswerTheRuleTakes) {
  struct Case {
    const char* file;
    int cover_restarts;
    int most_pivots;  // a little above today's count: 10,271 and 5,403
  };
  const Case cases[] = {{"bin_pile_40_drag_step971.contact", 0, 11000},
                        {"bin_pile_40_step130_cycle.contact", 1, 6000}};
  for (const Case& c : cases) {
    const FastLemkeResult r = solve_soak_problem(c.file, LcpMethod::Structural).result;
    EXPECT_EQ(r.stats.small_z0_answers, 1) << c.file;
    EXPECT_EQ(r.stats.cover_restarts, c.cover_restarts) << c.file;
    EXPECT_LT(r.lcp.pivots, c.most_pivots) << c.file;
  }
}

// A moving island's path that cycles at a z0 between a quarter of the rule's tolerance and
// the whole of it ends on its cycle's basis with z0 dropped, an answer the rule takes; at
// the quarter the path was refused and another cover from Step 0 paid the path again. Step
// 130 of the 40-body bin pile (grouped warm starts, n = 1,044), reduced method: its first
// path cycles at z0 = 1e-5, far from any answer, and the second cover's cycle is answered
// (3,516 pivots; 10,416 when that cycle too was refused).
TEST(LemkeFast, CycleOnAMovingIslandEndsOnAnAnswerAtTheRulesWholeTolerance) {
  const SoakSolve s = solve_soak_problem("bin_pile_40_step130_cycle.contact", LcpMethod::Reduced);
  const FastLemkeResult& r = s.result;
  EXPECT_EQ(r.stats.cycle_answers, 1);
  EXPECT_EQ(r.stats.cover_restarts, 1);
  EXPECT_LT(r.lcp.pivots, 4000);  // 3,516 today
  const double qinf =
      contact_lcp_w(s.problem, VecX::Zero(s.problem.lcp_size())).lpNorm<Eigen::Infinity>();
  const VecX w = contact_lcp_w(s.problem, r.lcp.z);
  EXPECT_FALSE(at_rest(r.lcp.z, w, s.problem.num_contacts(), s.problem.d,
                       kLeavingSlack * std::max(1.0, qinf)));
  // Taken beyond the quarter: the quarter alone refuses it.
  EXPECT_FALSE(
      check_complementarity(r.lcp.z, w, qinf, kCycleShare * kAcceptanceTolerance).accepted);
}

// Step 70000 of the ten-block tower's hour at d = 4 (t = 700 s, tests/lcp/soak): every
// method's path ends on an answer in which no friction acts and each interface slides by
// about 7e-11 m/s, the friction rows (sigma) 6.7e-11 below zero, inside the leaving slack
// (1e-10); the top block moves at 7.3e-10 m/s, and the warm start took that answer every
// step (2.5e-6 m in the hour). The reduced method's answer at rest has its loaded contacts'
// friction engaged (engage_friction, lemke_fast.cpp). The bound: an hour at 1e-11 m/s is
// 3.6e-8 m, 30 times under issue 20's drift target; engaged, the speeds are 5e-13 m/s.
// The structural method's first flip needs more than kFlipRepairs repairs here (its basis
// holds every contact's rows, and three lambda rows go below zero on the way), so its
// answer stays as it was: with 64 repairs it engages too, but the bases that many repairs
// reach were no warm start for the next step (the tower's 600 s: 13,488 cold solves
// instead of 249, and five times the wall time).
TEST(LemkeFast, ReducedAnswerAtRestEngagesTheFrictionOfItsLoadedContacts) {
  const SoakSolve s =
      solve_soak_problem("block_tower_10_step70000_creep.contact", LcpMethod::Reduced);
  EXPECT_GE(s.result.stats.friction_flips, 1);
  const VecX v = contact_velocity(s.problem, s.result.lcp.z);
  for (int b = 0; b < s.problem.num_bodies(); ++b)
    EXPECT_LT(v.segment<3>(6 * b).norm(), 1e-11) << "body " << b;
}

TEST(LemkeFast, ReportsPivotLimitAndReturnsSolutionOfTrivialProblem) {
  const ContactProblem p = lloyd::peg_in_hole(16, 3);
  LemkeOptions options;
  options.max_pivots = 3;
  for (LcpMethod method : kAll) {
    const LcpResult r = solve_contact(p, method, options);
    EXPECT_EQ(r.status, LcpStatus::PivotLimit) << to_string(method);
    // The unfinished z comes with its own w = M z + q, not zeros, so a report of it shows
    // which conditions fail rather than a residual (`pivot lcp solve` printed 0.12).
    EXPECT_LE((r.w - contact_lcp_w(p, r.z)).lpNorm<Eigen::Infinity>(), 1e-12) << to_string(method);
    EXPECT_LT(check_contact_solution(p, r.z).min_entry, 0.0) << to_string(method);
  }
  // q >= 0 (a body moving away from its contacts): z = 0 without a pivot.
  ContactProblem away = lloyd::single_body_problem(4, 0);
  away.kx.setZero();
  away.kx[2] = 1.0;
  for (LcpMethod method : kFast) {
    const LcpResult r = solve_contact(away, method);
    EXPECT_EQ(r.status, LcpStatus::Solved);
    EXPECT_EQ(r.pivots, 0);
    EXPECT_EQ(r.z.head(away.num_contacts()).lpNorm<Eigen::Infinity>(), 0.0);
  }
}

TEST(LemkeFast, RejectsTheStandardMethodAndMalformedColumns) {
  const ContactProblem p = lloyd::single_body_problem(0, 0);
  EXPECT_THROW(solve_lemke_fast(p, LcpMethod::Standard), std::invalid_argument);
  ContactProblem bad = lloyd::block_stack(3, false, 0);
  bad.friction[0].body[0] = 2;  // contact 0 touches bodies 0 and -1; this adds a third
  bad.friction[0].body[1] = 1;
  EXPECT_THROW(solve_lemke_fast(bad, LcpMethod::Reduced), std::invalid_argument);
}

}  // namespace
}  // namespace pivot
