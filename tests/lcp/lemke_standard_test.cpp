#include "lcp/lemke_standard.hpp"

#include <gtest/gtest.h>

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "lcp/lemke_factored.hpp"
#include "pivot/lcp.hpp"
#include "support/lloyd_problems.hpp"
#include "support/shipped_problem.hpp"

namespace pivot {
namespace {

// Every Solved answer must also pass the public acceptance check.
void expect_accepted(const MatX& M, const VecX& q, const LcpResult& r) {
  ASSERT_EQ(r.status, LcpStatus::Solved) << to_string(r.status);
  ASSERT_EQ(r.z.size(), q.size());
  EXPECT_TRUE(check_lcp_solution(M, q, r.z).accepted);
  EXPECT_LE((r.w - (M * r.z + q)).lpNorm<Eigen::Infinity>(),
            1e-12 * (1 + q.lpNorm<Eigen::Infinity>()));
}

// All solutions by enumerating the 2^n complementary bases (n <= 10): z_a = -M_aa^-1 q_a
// with z_a >= 0 and w >= 0.
std::vector<VecX> enumerate_solutions(const MatX& M, const VecX& q) {
  const int n = static_cast<int>(q.size());
  std::vector<VecX> solutions;
  for (int mask = 0; mask < (1 << n); ++mask) {
    std::vector<int> a;
    for (int i = 0; i < n; ++i) {
      if (mask & (1 << i)) a.push_back(i);
    }
    VecX z = VecX::Zero(n);
    if (!a.empty()) {
      const Eigen::FullPivLU<MatX> lu(M(a, a));
      if (!lu.isInvertible()) continue;
      z(a) = lu.solve(-q(a));
    }
    const VecX w = M * z + q;
    if (z.minCoeff() >= -1e-10 && w.minCoeff() >= -1e-10) solutions.push_back(z);
  }
  return solutions;
}

// Murty's exponential family (Murty 1988, Ch. 6): M upper triangular with 1 on the
// diagonal and 2 above it, q_i = -(2^(n+1) - 2^i) for i = 1..n. Lemke with covering
// vector e and z0 entering at argmin q visits 2^n bases (n = 6 is Siconos'
// lcp_exp_murty2, 64 pivots counting z0's entry and exit); the solution is 2^n e_n.
void murty(int n, MatX* M, VecX* q) {
  *M = MatX::Zero(n, n);
  *q = VecX(n);
  for (int i = 0; i < n; ++i) {
    (*M)(i, i) = 1.0;
    for (int j = i + 1; j < n; ++j) (*M)(i, j) = 2.0;
    (*q)(i) = -(std::ldexp(1.0, n + 1) - std::ldexp(1.0, i + 1));
  }
}

MatX random_matrix(int rows, int cols, std::mt19937* rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  MatX A(rows, cols);
  for (int j = 0; j < cols; ++j) {
    for (int i = 0; i < rows; ++i) A(i, j) = u(*rng);
  }
  return A;
}

VecX random_vector(int n, std::mt19937* rng) { return random_matrix(n, 1, rng); }

// A A' + I + S - S': positive definite, so a P-matrix (one answer for every q).
MatX p_matrix(int n, std::mt19937* rng) {
  const MatX A = random_matrix(n, n, rng);
  const MatX S = 2.0 * random_matrix(n, n, rng);
  return A * A.transpose() + MatX::Identity(n, n) + S - S.transpose();
}

TEST(LemkeStandard, NonnegativeQGivesZeroWithoutPivots) {
  const MatX M = MatX::Constant(3, 3, -1.0);  // would have no solution for a negative q
  const VecX q = (VecX(3) << 0.0, 2.0, 1e-300).finished();
  const LcpResult r = solve_lemke(M, q);
  expect_accepted(M, q, r);
  EXPECT_EQ(r.pivots, 0);
  EXPECT_EQ(r.z, VecX::Zero(3));
  EXPECT_EQ(r.w, q);
}

TEST(LemkeStandard, OneDimensionalNegativeQWithPositiveSlope) {
  // w = 2 z - 3: z = 1.5. Two pivots: z0 enters for w, then z enters and z0 leaves.
  const MatX M = MatX::Constant(1, 1, 2.0);
  const VecX q = VecX::Constant(1, -3.0);
  const LcpResult r = solve_lemke(M, q);
  expect_accepted(M, q, r);
  EXPECT_EQ(r.pivots, 2);
  EXPECT_DOUBLE_EQ(r.z(0), 1.5);
  EXPECT_DOUBLE_EQ(r.w(0), 0.0);
}

TEST(LemkeStandard, OneDimensionalWithoutSolutionEndsOnRay) {
  // w = -z - 1 < 0 for every z >= 0; and w = 0 z - 1 likewise (a zero column).
  for (const double m : {-1.0, 0.0}) {
    const MatX M = MatX::Constant(1, 1, m);
    const VecX q = VecX::Constant(1, -1.0);
    const LcpResult r = solve_lemke(M, q);
    EXPECT_EQ(r.status, LcpStatus::SecondaryRay) << "m = " << m;
    EXPECT_EQ(r.pivots, 1);
    EXPECT_EQ(r.z.size(), 1);
    EXPECT_FALSE(check_lcp_solution(M, q, r.z).accepted);
  }
}

TEST(LemkeStandard, SolvesMurtyTwoByTwoByHand) {
  // Murty (1988) p. 2: w1 = 2 z1 + z2 - 5, w2 = z1 + 2 z2 - 6; both w zero gives
  // z = (4/3, 7/3). z0 enters at row 2 (q2 = -6), z2 enters, then z1 enters and z0 leaves.
  const MatX M = (MatX(2, 2) << 2, 1, 1, 2).finished();
  const VecX q = (VecX(2) << -5, -6).finished();
  const LcpResult r = solve_lemke(M, q);
  expect_accepted(M, q, r);
  EXPECT_EQ(r.pivots, 3);
  EXPECT_NEAR(r.z(0), 4.0 / 3.0, 1e-15);
  EXPECT_NEAR(r.z(1), 7.0 / 3.0, 1e-15);
}

TEST(LemkeStandard, SolvesCottleExampleWithZeroDiagonal) {
  // Cottle-Pang-Stone's 3x3 example with a zero diagonal (not a P-matrix, not PSD);
  // the unique solution (0, 1, 3) checks by hand: w = (2, 0, 0).
  const MatX M = (MatX(3, 3) << 0, -1, 2, 2, 0, -2, -1, 1, 0).finished();
  const VecX q = (VecX(3) << -3, 6, -1).finished();
  const LcpResult r = solve_lemke(M, q);
  expect_accepted(M, q, r);
  EXPECT_NEAR((r.z - Eigen::Vector3d(0, 1, 3)).lpNorm<Eigen::Infinity>(), 0.0, 1e-14);
  EXPECT_NEAR(r.w(0), 2.0, 1e-14);
}

TEST(LemkeStandard, NoSolutionEndsOnSecondaryRay) {
  // w1 = -z1 + z2 - 1 and w2 = z1 - z2 ... (w1 + w2 = -1 < 0 always): infeasible.
  const MatX M = (MatX(2, 2) << -1, 1, 1, -1).finished();
  const VecX q = (VecX(2) << -1, 0).finished();
  const LcpResult r = solve_lemke(M, q);
  EXPECT_EQ(r.status, LcpStatus::SecondaryRay);
  EXPECT_EQ(r.z.size(), 2);
  EXPECT_EQ(r.w, M * r.z + q);
}

// Murty's family has one path, of 2^n pivots, and the answer 2^n e_n.
template <class Solve>
void expect_murtys_path(Solve&& solve) {
  for (int n = 2; n <= 8; ++n) {
    MatX M;
    VecX q;
    murty(n, &M, &q);
    const LcpResult r = solve(M, q);
    expect_accepted(M, q, r);
    EXPECT_EQ(r.pivots, 1 << n) << "n = " << n;
    VecX expected = VecX::Zero(n);
    expected(n - 1) = std::ldexp(1.0, n);
    EXPECT_EQ(r.z, expected) << "n = " << n;
  }
}

TEST(LemkeStandard, MurtyFamilyTakesTwoToTheNPivots) {
  expect_murtys_path([](const MatX& M, const VecX& q) { return solve_lemke(M, q); });
}

TEST(LemkeStandard, PivotLimitStopsExactlyAtTheLimit) {
  MatX M;
  VecX q;
  murty(6, &M, &q);
  LemkeOptions options;
  options.max_pivots = 63;
  const LcpResult short_of = solve_lemke(M, q, options);
  EXPECT_EQ(short_of.status, LcpStatus::PivotLimit);
  EXPECT_EQ(short_of.pivots, 63);
  EXPECT_EQ(short_of.z.size(), 6);
  options.max_pivots = 64;
  expect_accepted(M, q, solve_lemke(M, q, options));
}

TEST(LemkeStandard, DefaultPivotLimitIsFiftyTimesSizePlusOne) {
  EXPECT_EQ(default_max_pivots(9), 500);
  // Murty n = 9 needs 512 pivots, just over the default of 500.
  MatX M;
  VecX q;
  murty(9, &M, &q);
  const LcpResult r = solve_lemke(M, q);
  EXPECT_EQ(r.status, LcpStatus::PivotLimit);
  EXPECT_EQ(r.pivots, 500);
  LemkeOptions options;
  options.max_pivots = 512;
  expect_accepted(M, q, solve_lemke(M, q, options));
}

// M = [A A; A A] with A symmetric positive definite, q = (p, p): every ratio test ties a
// row with its copy, and the bases are degenerate throughout. M is PSD, so Lemke must reach
// a solution, here within a few pivots per row.
template <class Solve>
void expect_duplicated_rows_solved(Solve&& solve) {
  std::mt19937 rng(7);
  for (int m : {2, 5, 12}) {
    const MatX B = random_matrix(m, m, &rng);
    const MatX A = B * B.transpose() + MatX::Identity(m, m);
    MatX M(2 * m, 2 * m);
    M << A, A, A, A;
    const VecX p = random_vector(m, &rng);
    VecX q(2 * m);
    q << p, p;
    const LcpResult r = solve(M, q);
    expect_accepted(M, q, r);
    EXPECT_LE(r.pivots, 4 * m + 2) << "m = " << m;
  }
}

TEST(LemkeStandard, DuplicatedRowsAndColumnsAreSolved) {
  expect_duplicated_rows_solved([](const MatX& M, const VecX& q) { return solve_lemke(M, q); });
}

// A game LCP with the structure of Siconos' lcp_tobenna (two players, four blocks of
// four actions each, integer payoffs in 1..250): q is zero in 32 of 40 rows, so the
// bases are degenerate from the first pivot on. Breaking ratio ties by lowest row cycles
// on these (checked while writing this test: all of the first 50 draws from this seed hit
// the pivot limit), as it does on lcp_tobenna; the lexicographic rule took 37 to 269.
void degenerate_game(std::mt19937* rng, MatX* M, VecX* q) {
  const int actions = 16, sets = 4, n = 2 * actions + 2 * sets;
  std::uniform_int_distribution<int> payoff(1, 250);
  *M = MatX::Zero(n, n);
  for (int i = 0; i < actions; ++i) {
    for (int j = 0; j < actions; ++j) {
      (*M)(i, j) = 1.0;
      (*M)(actions + i, actions + j) = 1.0;
      (*M)(i, actions + j) = payoff(*rng);
      (*M)(actions + i, j) = payoff(*rng);
    }
    const int set = i / (actions / sets);
    (*M)(i, 2 * actions + set) = -1.0;
    (*M)(actions + i, 2 * actions + sets + set) = -1.0;
    (*M)(2 * actions + set, i) = 1.0;
    (*M)(2 * actions + sets + set, actions + i) = 1.0;
  }
  *q = VecX::Zero(n);
  q->tail(2 * sets).setConstant(-1.0);
}

TEST(LemkeStandard, DegenerateGameSolvesWithLexicographicRule) {
  std::mt19937 rng(2005);
  for (int trial = 0; trial < 5; ++trial) {
    MatX M;
    VecX q;
    degenerate_game(&rng, &M, &q);
    const LcpResult r = solve_lemke(M, q);
    expect_accepted(M, q, r);
    EXPECT_LT(r.pivots, 500) << "trial " << trial;
  }
}

// Lloyd's peg-in-hole (d = 8, n = 12 and 28) with the wrenches on which the standard
// method once failed: z0 reached zero between pivots through a non-blocking residue and the
// path ran on to a false ray (12/16, 28/4, 28/6); a pivot element of 5e-12 against 3.2,
// the update error of an exact zero, made the basis singular (28/8). Every other seed of
// the benchmark solved, so these four are the regression set.
TEST(LemkeStandard, SolvesDegeneratePegInHoleWrenchesThatOnceFailed) {
  const std::pair<int, int> cases[] = {{12, 16}, {28, 4}, {28, 6}, {28, 8}};
  for (const auto& [n, seed] : cases) {
    const ContactProblem p = lloyd::peg_in_hole(n, static_cast<std::uint64_t>(seed));
    const LcpResult r = solve_contact(p, LcpMethod::Standard);
    EXPECT_EQ(r.status, LcpStatus::Solved) << "n = " << n << ", seed " << seed;
    EXPECT_TRUE(check_contact_solution(p, r.z).accepted) << "n = " << n << ", seed " << seed;
  }
}

// A failed scene step saved under tests/lcp/standard/: the standard method must solve it
// with an answer the acceptance check takes.
void expect_standard_solves(const std::string& file) {
  const ContactProblem p = test::shipped_contact_problem("lcp/standard/" + file);
  const LcpResult r = solve_contact(p, LcpMethod::Standard);
  EXPECT_EQ(r.status, LcpStatus::Solved) << file << ": " << to_string(r.status);
  EXPECT_TRUE(check_contact_solution(p, r.z).accepted) << file;
}

// A block sliding over the rim of a hole (one body, 8 contacts in pairs with identical
// normals, d = 4, mu = 0.2), two steps on which the standard method ended on a secondary
// ray while the fast methods solved. Step 30: a pivot element of 7e-9 made the basis
// ill-conditioned for two pivots, and the basic values kept the 1e-7 error they took there
// after the conditioning recovered, so z0 missed an exact tie at the last pivot. Step 456:
// about 30 rows tie within 1e-10 relative; the tie test took a row 1.5e-13 past the step
// but not z0 at 6.7e-13, since it ignored the round-off of the step itself, and the path
// ended on a ray with z0 = 6.7e-13.
TEST(LemkeStandard, SolvesBlockSlidingOverTheRimOfAHole) {
  for (const char* file : {"block_over_rim_step30.contact", "block_over_rim_step456.contact"}) {
    expect_standard_solves(file);
  }
}

// Stacked blocks (five in a stack, ten in a tower; four coplanar contacts a face, so the
// contacts are redundant and the geometry leaves gaps of 1e-12), steps on which the standard
// method failed while the fast methods solved. Exact pivot elements of 4e-12 to 1e-10 lead
// into bases with |B^-1|_max ~ 1e11, where judging each row of B^-1 by its own largest entry
// took the update noise (2e-4 on a row of scale 1.2) for ties and degenerate values: a false
// solution (step 114), a ray (step 138), or a ray with z0 left at 3.6e-12 (tower, step 42).
TEST(LemkeStandard, SolvesStackedBlocksWithRedundantContacts) {
  for (const char* file : {"block_stack_5_step114.contact", "block_stack_5_step138.contact",
                           "block_tower_10_step42.contact"}) {
    expect_standard_solves(file);
  }
}

TEST(LemkeStandard, SymmetricPositiveDefiniteUpTo200AreSolved) {
  std::mt19937 rng(42);
  for (int n : {1, 3, 8, 20, 60, 120, 200}) {
    const MatX A = random_matrix(n, n, &rng);
    const MatX M = A * A.transpose() + MatX::Identity(n, n);
    const VecX q = random_vector(n, &rng);
    const LcpResult r = solve_lemke(M, q);
    expect_accepted(M, q, r);
    EXPECT_GT(r.solve_time_us, 0.0);
  }
}

TEST(LemkeStandard, NonsymmetricPositiveDefiniteUpTo200AreSolved) {
  // M = A A' + I + (S - S'): x'Mx = x'(AA' + I)x > 0, so M is a P-matrix and the
  // solution is unique.
  std::mt19937 rng(43);
  for (int n : {2, 9, 30, 100, 200}) {
    const MatX M = p_matrix(n, &rng);
    const VecX q = random_vector(n, &rng);
    expect_accepted(M, q, solve_lemke(M, q));
  }
}

// A P-matrix LCP has exactly one solution; enumeration of all complementary bases finds it
// independently. Tolerance: both are direct solves of the same small system.
template <class Solve>
void expect_p_matrix_answers_match_enumeration(Solve&& solve) {
  std::mt19937 rng(44);
  for (int trial = 0; trial < 40; ++trial) {
    const int n = 1 + trial % 8;
    const MatX A = random_matrix(n, n, &rng);
    const MatX S = random_matrix(n, n, &rng);
    const MatX M = A * A.transpose() + 0.1 * MatX::Identity(n, n) + S - S.transpose();
    const VecX q = 3.0 * random_vector(n, &rng);
    const LcpResult r = solve(M, q);
    expect_accepted(M, q, r);
    const std::vector<VecX> reference = enumerate_solutions(M, q);
    ASSERT_EQ(reference.size(), 1u) << "trial " << trial;
    EXPECT_LE((r.z - reference[0]).lpNorm<Eigen::Infinity>(), 1e-9) << "trial " << trial;
  }
}

TEST(LemkeStandard, PMatrixSolutionsMatchEnumeration) {
  expect_p_matrix_answers_match_enumeration(
      [](const MatX& M, const VecX& q) { return solve_lemke(M, q); });
}

TEST(LemkeStandard, ScaleInvariantOnHugeProblemsAndAcceptedOnTinyOnes) {
  // Scaled by 1e8 (M and q together), the same problem takes the same pivots and gives the
  // same z: from |q|_inf = 1 on (0.995 here), every threshold is relative to it. Scaled by
  // 1e-8, the acceptance rule's scale is floored at 1 (shared/formats/problem-files.md),
  // and its tolerance is 1e-9 where |q| is 1e-8: the factorised run takes z0 out when the
  // step leaves every row within the leaving slack, a tenth of that (as the fast methods
  // do), so the answer is one the rule takes but not the unscaled problem's z. (The run on
  // the updated inverse, which led before, was invariant at both scales.)
  std::mt19937 rng(45);
  const int n = 30;
  const MatX A = random_matrix(n, n, &rng);
  const MatX M = A * A.transpose() + MatX::Identity(n, n);
  const VecX q = random_vector(n, &rng);
  const LcpResult base = solve_lemke(M, q);
  expect_accepted(M, q, base);
  const LcpResult huge = solve_lemke(1e8 * M, 1e8 * q);
  expect_accepted(1e8 * M, 1e8 * q, huge);
  EXPECT_EQ(huge.pivots, base.pivots);
  EXPECT_LE((huge.z - base.z).lpNorm<Eigen::Infinity>(), 1e-9 * base.z.lpNorm<Eigen::Infinity>());
  expect_accepted(1e-8 * M, 1e-8 * q, solve_lemke(1e-8 * M, 1e-8 * q));
}

TEST(LemkeStandard, ZeroSizeIsSolvedTrivially) {
  const LcpResult r = solve_lemke(MatX(0, 0), VecX(0));
  EXPECT_EQ(r.status, LcpStatus::Solved);
  EXPECT_EQ(r.z.size(), 0);
}

TEST(LemkeStandard, RejectsMismatchedOrNonFiniteInput) {
  EXPECT_THROW(solve_lemke(MatX::Identity(2, 3), VecX::Zero(2)), std::invalid_argument);
  EXPECT_THROW(solve_lemke(MatX::Identity(2, 2), VecX::Zero(3)), std::invalid_argument);
  MatX M = MatX::Identity(2, 2);
  M(0, 1) = std::nan("");
  EXPECT_THROW(solve_lemke(M, -VecX::Ones(2)), std::invalid_argument);
}

// The standard method's path from a warm basis (warm_path). On a P-matrix the answer is
// unique, so the path from the answer basis of a neighbouring q must end where Step 0's
// does; it has at most two pivots per variable for it (measured at n = 5, 30, 120: 2, 4
// and 13 pivots against Step 0's 3, 15 and 62).
TEST(StandardWarmPath, EndsOnStepZerosAnswerOfAPMatrixFromANeighboursBasis) {
  std::mt19937 rng(44);
  for (int n : {5, 30, 120}) {
    const MatX M = p_matrix(n, &rng);
    const VecX q0 = random_vector(n, &rng);
    const VecX q1 = q0 + 0.3 * random_vector(n, &rng);
    const LcpResult before = solve_lemke(M, q0);
    ASSERT_EQ(before.status, LcpStatus::Solved);
    const LcpResult cold = solve_lemke(M, q1);
    const LcpResult warm = warm_path(M, q1, before.basis, {});
    SCOPED_TRACE("n = " + std::to_string(n));
    expect_accepted(M, q1, warm);
    EXPECT_TRUE(warm.warm_path);
    EXPECT_LE(warm.pivots, kWarmPathPivots * n);
    EXPECT_LE(warm.pivots, cold.pivots);
    EXPECT_LT((warm.z - cold.z).lpNorm<Eigen::Infinity>(),
              1e-10 * std::max(1.0, cold.z.lpNorm<Eigen::Infinity>()));
    // The factorised path from the same basis (FactoredLemke::run_from, which warm_path
    // runs) ends on the same answer's basis, and from that basis takes no pivot.
    const VecX neighbour_cover = warm_cover(M, before.basis.z_basic);  // kept by reference
    FactoredLemke from_neighbour(M, q1, neighbour_cover, {});
    ASSERT_EQ(from_neighbour.run_from(before.basis.z_basic), LcpStatus::Solved);
    EXPECT_LE(from_neighbour.pivots(), kWarmPathPivots * n);
    EXPECT_EQ(from_neighbour.basic_z(), cold.basis.z_basic);
    const VecX answer_cover = warm_cover(M, cold.basis.z_basic);
    FactoredLemke from_answer(M, q1, answer_cover, {});
    ASSERT_EQ(from_answer.run_from(cold.basis.z_basic), LcpStatus::Solved);
    EXPECT_EQ(from_answer.pivots(), 0);
    EXPECT_LT((from_answer.current_z() - cold.z).lpNorm<Eigen::Infinity>(),
              1e-10 * std::max(1.0, cold.z.lpNorm<Eigen::Infinity>()));
  }
}

TEST(StandardWarmPath, AFeasibleBasisIsTheAnswerWithoutAPivot) {
  std::mt19937 rng(45);
  const int n = 20;
  const MatX A = random_matrix(n, n, &rng);
  const MatX M = A * A.transpose() + MatX::Identity(n, n);
  const VecX q = random_vector(n, &rng);
  const LcpResult cold = solve_lemke(M, q);
  ASSERT_EQ(cold.status, LcpStatus::Solved);
  const LcpResult warm = warm_path(M, q, cold.basis, {});
  expect_accepted(M, q, warm);
  EXPECT_TRUE(warm.warm_path);
  EXPECT_EQ(warm.pivots, 0);
  EXPECT_EQ(warm.basis.z_basic, cold.basis.z_basic);
}

TEST(StandardWarmPath, StopsAfterTwoPivotsPerVariable) {
  // From the all-w basis (B = I, B e = e) the path is Step 0's, which on Murty's problem
  // takes 2^n pivots: the warm path gives up at 2n.
  MatX M;
  VecX q;
  murty(10, &M, &q);
  LcpBasis all_w;
  all_w.z_basic.assign(10, 0);
  const LcpResult r = warm_path(M, q, all_w, {});
  EXPECT_EQ(r.status, LcpStatus::PivotLimit);
  EXPECT_EQ(r.pivots, 20);
  EXPECT_FALSE(r.warm_path);
}

TEST(StandardWarmPath, NothingToStartFromIsAFailureWithoutAPivot) {
  MatX M;
  VecX q;
  murty(4, &M, &q);
  LcpBasis wrong_size;
  wrong_size.z_basic.assign(5, 0);
  const VecX nonnegative = VecX::Ones(4);
  LcpBasis all_w;
  all_w.z_basic.assign(4, 0);
  for (const LcpResult& r :
       {warm_path(M, q, wrong_size, {}), warm_path(M, nonnegative, all_w, {})}) {
    EXPECT_EQ(r.status, LcpStatus::NumericalFailure);
    EXPECT_EQ(r.pivots, 0);
    EXPECT_FALSE(r.warm_path);
  }
}

// The standard method on a factorisation (lemke_factored.hpp), one run from ones: the same
// path as the tableau's in exact arithmetic, every decision on a fresh solve's bounds.
TEST(FactoredRun, FollowsLemkesPathThroughMurtysFamily) {
  // The same count of pivots as the updated inverse's shows the factorised run takes
  // Lemke's pivots, not another route to the answer.
  expect_murtys_path([](const MatX& M, const VecX& q) { return factored_run(M, q); });
}

TEST(FactoredRun, PMatrixSolutionsMatchEnumeration) {
  expect_p_matrix_answers_match_enumeration(
      [](const MatX& M, const VecX& q) { return factored_run(M, q); });
}

TEST(FactoredRun, DuplicatedRowsAndColumnsAreSolved) {
  expect_duplicated_rows_solved([](const MatX& M, const VecX& q) { return factored_run(M, q); });
}

TEST(FactoredRun, NoSolutionEndsOnSecondaryRay) {
  const MatX M = (MatX(2, 2) << -1, 1, 1, -1).finished();
  const VecX q = (VecX(2) << -1, 0).finished();
  EXPECT_EQ(factored_run(M, q).status, LcpStatus::SecondaryRay);
}

// Steps of the ten-block tower at rest (four coplanar contacts a face, gaps of 1e-12 from
// the collision geometry; tests/lcp/soak, docs/robustness.md) on which the standard
// method's paths all failed before its factorised runs: every run on the updated inverse,
// from ones and the spread covers, ended on a ray or past the acceptance rule (1545 and
// 91937 were solved then by runs on an inverse refactorised at every large pivot, which the
// factorised runs replace). The first factorised run solves four of them by its path; the
// method's runs together, without the end repair (which flipped a refused end of 105268
// into an answer), solve all of them.
TEST(FactoredRun, SolvesTheStacksNearSingularBasesByAPath) {
  for (const char* file :
       {"block_tower_10_step1545.contact", "block_tower_10_d8_step91937.contact",
        "block_tower_10_d16_step30766.contact", "block_tower_10_standard_cold_step1914.contact"}) {
    const ContactProblem p = test::shipped_contact_problem(std::string("lcp/soak/") + file);
    const DenseLcp lcp = assemble_contact_lcp(p);
    const LcpResult r = factored_run(lcp.M, lcp.q);
    ASSERT_EQ(r.status, LcpStatus::Solved) << file << ": " << to_string(r.status);
    EXPECT_TRUE(check_contact_solution(p, r.z).accepted) << file;
    EXPECT_LT(r.pivots, 200) << file;
  }
  LemkeOptions paths_only;
  paths_only.repair_refused_end = false;
  for (const char* file :
       {"block_tower_10_step105268.contact", "block_tower_10_d16_step30766.contact",
        "block_tower_10_d8_step23062.contact", "block_tower_10_d8_step25399.contact",
        "block_tower_10_d8_rocking_step104450.contact",
        "block_tower_10_d8_rocking_step153113.contact",
        "block_tower_10_standard_cold_step1914.contact"}) {
    const ContactProblem p = test::shipped_contact_problem(std::string("lcp/soak/") + file);
    const LcpResult r = solve_contact(p, LcpMethod::Standard, paths_only);
    ASSERT_EQ(r.status, LcpStatus::Solved) << file << ": " << to_string(r.status);
    EXPECT_TRUE(check_contact_solution(p, r.z).accepted) << file;
  }
}

// Islands of the 40-body bin pile (tests/lcp/soak) on which the factorised run stays at a
// z0 above the leaving slack. The first two (n = 1,044 and 1,008) no run of the standard
// method solved: on the first, every factorised run cycled at z0 of 1.2e-10 to 1.8e-10, and
// one more round of the cycle found a basis whose answer with z0 dropped passes at -1.6e-10;
// on the second the first run ended with z0 basic on a basis whose least-squares answer the
// rule refused and whose square system (ray_z) gives one it takes. Now that a path tries
// that answer every kDropZ0Interval pivots while z0 is that small (FactoredLemke::follow),
// they take 3,446 and 2,374 pivots (3,894 and 3,557 before). The third, a box dragged out
// of the pile (n = 1,656), took the standard method 65,148 pivots (287 s) before.
TEST(FactoredRun, AnswersThePilesPathsAtASmallZ0) {
  const std::pair<const char*, int> cases[] = {{"bin_pile_40_step130_cycle.contact", 3700},
                                               {"bin_pile_40_structural_cycles.contact", 2600},
                                               {"bin_pile_40_drag_step971.contact", 11000}};
  for (const auto& [file, most_pivots] : cases) {
    const ContactProblem p = test::shipped_contact_problem(std::string("lcp/soak/") + file);
    const DenseLcp lcp = assemble_contact_lcp(p);
    const LcpResult r = factored_run(lcp.M, lcp.q);
    ASSERT_EQ(r.status, LcpStatus::Solved) << file << ": " << to_string(r.status);
    EXPECT_TRUE(check_contact_solution(p, r.z).accepted) << file;
    EXPECT_LT(r.pivots, most_pivots) << file;
  }
}

// An island of the 40-body bin pile (n = 1,038; tests/lcp/soak) on which the factorised run
// let z0 leave at a basis whose answer, solved afresh, is 2.9e-9 below zero: judged by that
// answer (FactoredLemke::leave_if_answer), z0 stays, and the run ends two pivots later on an
// answer the rule takes.
TEST(FactoredRun, JudgesZ0sLeavingByItsAnswer) {
  const ContactProblem p =
      test::shipped_contact_problem("lcp/soak/bin_pile_40_standard_step75.contact");
  const DenseLcp lcp = assemble_contact_lcp(p);
  const LcpResult r = factored_run(lcp.M, lcp.q);
  ASSERT_EQ(r.status, LcpStatus::Solved) << to_string(r.status);
  EXPECT_TRUE(check_contact_solution(p, r.z).accepted);
}

// The standard method leads with its factorised run: on an island of the 40-body bin pile
// (n = 1,050) its answer is the first factorised run's, and its warm path is FactoredLemke's
// path from the basis. The warm basis is the answer's with
// its four largest impulses made nonbasic, so that the path has work to do.
TEST(FactoredRun, LeadsTheStandardMethodOnAPilesIsland) {
  const ContactProblem p =
      test::shipped_contact_problem("lcp/soak/bin_pile_40_island_ties.contact");
  const DenseLcp lcp = assemble_contact_lcp(p);
  const int n = static_cast<int>(lcp.q.size());
  const LcpResult method = solve_lemke(lcp.M, lcp.q);
  const LcpResult first = factored_run(lcp.M, lcp.q);
  ASSERT_EQ(first.status, LcpStatus::Solved) << to_string(first.status);
  ASSERT_EQ(method.status, LcpStatus::Solved) << to_string(method.status);
  EXPECT_EQ(method.pivots, first.pivots);
  EXPECT_EQ(method.basis.z_basic, first.basis.z_basic);
  EXPECT_TRUE(check_contact_solution(p, method.z).accepted);

  LcpBasis warm = first.basis;
  std::vector<int> order(n);
  for (int j = 0; j < n; ++j) order[j] = j;
  std::partial_sort(order.begin(), order.begin() + 4, order.end(),
                    [&](int a, int b) { return first.z(a) > first.z(b); });
  for (int k = 0; k < 4; ++k) warm.z_basic[order[k]] = 0;
  const LcpResult path = warm_path(lcp.M, lcp.q, warm, {});
  ASSERT_EQ(path.status, LcpStatus::Solved) << to_string(path.status);
  EXPECT_TRUE(path.warm_path);
  EXPECT_TRUE(check_contact_solution(p, path.z).accepted);
  const VecX cover = warm_cover(lcp.M, warm.z_basic);  // FactoredLemke keeps a reference
  FactoredLemke factored(lcp.M, lcp.q, cover, {});
  ASSERT_EQ(factored.run_from(warm.z_basic), LcpStatus::Solved);
  EXPECT_GT(factored.pivots(), 0);
  EXPECT_EQ(path.pivots, factored.pivots());
  EXPECT_EQ(path.basis.z_basic, factored.basic_z());
}

// complementary_z solves a square basis by QR below 256 unknowns and by LU from there (the
// bin pile's saved islands reach 452): on both sides an exact answer to the refinement's accuracy,
// and numerically dependent columns reported, not solved.
TEST(ComplementaryZ, SolvesWellConditionedBasesAndRefusesDependentOnesAtEverySize) {
  for (int n : {40, 255, 256, 400}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    std::mt19937 rng(n);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    // Diagonally dominant: cond about 3, so the refined z_a is exact to a few ulps.
    MatX M = MatX::NullaryExpr(n, n, [&] { return u(rng) / n; });
    M.diagonal().array() += 2.0;
    const VecX z_true = VecX::NullaryExpr(n, [&] { return 1.0 + u(rng) * 0.5; });
    std::vector<int> alpha(n);
    for (int j = 0; j < n; ++j) alpha[j] = j;
    const VecX q = -M * z_true;
    VecX z;
    ASSERT_TRUE(complementary_z(M, q, alpha, alpha, &z));
    EXPECT_LE((z - z_true).lpNorm<Eigen::Infinity>(), 1e-14);
    // Two equal columns: M_aa is singular, whatever the rounding of its factors.
    M.col(n - 1) = M.col(0);
    EXPECT_FALSE(complementary_z(M, VecX(-M * VecX::Ones(n)), alpha, alpha, &z));
  }
}

TEST(LemkeRatioTest, PrefersSmallestRatioAndReportsTies) {
  std::vector<int> ties;
  double theta = 0.0;
  const VecX x = (VecX(4) << 2.0, 1.0, 3.0, 0.5).finished();
  const VecX d = (VecX(4) << 1.0, 1.0, 3.0, -1.0).finished();  // ratios 2, 1, 1, blocked
  const VecX ones = VecX::Ones(4);
  ASSERT_TRUE(min_ratio_rows(x, d, ones, 1.0, 1.0, 1e-12, &ties, &theta));
  EXPECT_EQ(ties, (std::vector<int>{1, 2}));
  EXPECT_EQ(theta, 1.0);
  // Row 3 has d < 0 and never blocks; a column with no positive entry is a ray.
  EXPECT_FALSE(min_ratio_rows(x, -d.cwiseAbs(), ones, 1.0, 1.0, 1e-12, &ties, &theta));
  EXPECT_TRUE(ties.empty());
}

TEST(LemkeRatioTest, PivotElementTestIsRelativeToColumnScale) {
  std::vector<int> ties;
  double theta = 0.0;
  const VecX x = (VecX(2) << 0.0, 1.0).finished();
  const VecX tiny = VecX::Constant(2, 1e-40);  // B^-1 row scales far below d: no effect
  // Row 0 would block at once (ratio 0), but its pivot element is 1e-14 of the column's
  // largest entry, below the relative threshold; scaling the column by 1e-30 changes
  // nothing, where an absolute threshold would reject every row or accept both.
  const VecX d = (VecX(2) << 1e-20, 1e-6).finished();
  ASSERT_TRUE(min_ratio_rows(x, d, tiny, 1.0, 1.0, 1e-12, &ties, &theta));
  EXPECT_EQ(ties, std::vector<int>{1});
  ASSERT_TRUE(min_ratio_rows(x, 1e-30 * d, tiny, 1.0, 1.0, 1e-12, &ties, &theta));
  EXPECT_EQ(ties, std::vector<int>{1});
}

TEST(LemkeRatioTest, PivotElementAtRoundingLevelOfItsRowIsNotAPivot) {
  // d_0 = 1e-11 looks like a pivot against |d|_inf = 1, but row 0 of B^-1 has entries of
  // 1e4 and the column entries of 250: d_0 is a rounding residue of an exact zero
  // (1e-11 < 1e-12 * 1e4 * 250), and pivoting on it would wreck the basis.
  std::vector<int> ties;
  double theta = 0.0;
  const VecX x = (VecX(2) << 0.0, 1.0).finished();
  const VecX d = (VecX(2) << 1e-11, 1.0).finished();
  const VecX row_scale = (VecX(2) << 1e4, 1.0).finished();
  ASSERT_TRUE(min_ratio_rows(x, d, row_scale, 250.0, 1.0, 1e-12, &ties, &theta));
  EXPECT_EQ(ties, std::vector<int>{1});
  EXPECT_EQ(theta, 1.0);
  // The same d_0 from a row of B^-1 of size 1 and a unit column is a genuine pivot.
  ASSERT_TRUE(min_ratio_rows(x, d, VecX::Ones(2), 1.0, 1.0, 1e-12, &ties, &theta));
  EXPECT_EQ(ties, std::vector<int>{0});
}

TEST(LemkeRatioTest, LexicographicRuleUsesInverseColumnsInOrder) {
  // Rows 0 and 2 tie; column 0 of B^-1 ties them again (0/1 vs 0/2), column 1 decides:
  // 3/1 > -4/2, so row 2.
  MatX Binv(3, 3);
  Binv << 0, 3, 1,  //
      5, 5, 5,      //
      0, -4, 1;
  const VecX d = (VecX(3) << 1.0, 1.0, 2.0).finished();
  const VecX row_scale = Binv.cwiseAbs().rowwise().maxCoeff();
  std::vector<int> keep;
  EXPECT_EQ(break_tie_lexicographically(
                std::vector<int>{0, 2}, d, 3, 1e-12, [&](int k) { return Binv.col(k); }, row_scale,
                &keep),
            2);
  // A residue of 1e-17 in column 0 (an exact zero in row 0's scale of 3) does not decide.
  Binv(0, 0) = 1e-17;
  Binv(2, 0) = -1e-17;
  EXPECT_EQ(break_tie_lexicographically(
                std::vector<int>{0, 2}, d, 3, 1e-12, [&](int k) { return Binv.col(k); }, row_scale,
                &keep),
            2);
  Binv(2, 0) = 1e-17;
  Binv(0, 0) = -1e-17;
  EXPECT_EQ(break_tie_lexicographically(
                std::vector<int>{0, 2}, d, 3, 1e-12, [&](int k) { return Binv.col(k); }, row_scale,
                &keep),
            2);
}

TEST(LemkeRatioTest, InitialRowIsMostNegativeWithTiesToLargestIndex) {
  std::vector<int> ties;
  const VecX q = (VecX(4) << -2.0, -3.0, 1.0, -3.0).finished();
  EXPECT_EQ(initial_leaving_row(q, 1e-12, &ties), 3);
  EXPECT_EQ(ties, (std::vector<int>{1, 3}));
  const VecX q2 = (VecX(3) << -3.0, -1.0, 0.0).finished();
  EXPECT_EQ(initial_leaving_row(q2, 1e-12, &ties), 0);
}

// A path's states: t distinct ones, then a cycle of period p; each state's signature is its
// key. CycleWatch must report a repeat only once a state has come round (k >= t + p), and
// within about twice the longer of lead and period (Brent 1980).
TEST(CycleWatch, FindsACycleSoonAfterItsFirstRepeat) {
  for (int lead : {0, 1, 5, 100, 1000}) {
    for (int period : {1, 2, 7, 262, 1000}) {
      CycleWatch watch;
      int found = -1;
      for (int k = 0; k < 100000 && found < 0; ++k) {
        const int state = k < lead ? k : lead + (k - lead) % period;
        if (watch.repeats(signature_key(static_cast<std::uint64_t>(state)))) found = k;
      }
      SCOPED_TRACE("lead " + std::to_string(lead) + ", period " + std::to_string(period));
      EXPECT_GE(found, lead + period);
      EXPECT_LE(found, 2 * std::max(lead, period) + period + 1);
    }
  }
}

// A short cycle entered late (the bin pile's island at step 96: period 12 after 1,493
// pivots) is reported at its first repeat, not when Brent's window next reaches it; then
// again when the path is back at that state, one period later (the fast methods go round
// the cycle once more for an answer with z0 dropped, then fail).
TEST(CycleWatch, FindsAShortCycleAtItsFirstRepeatAndAgainOnePeriodLater) {
  for (int lead : {0, 3, 1493, 5000}) {
    for (int period : {1, 2, 12, CycleWatch::kRecent}) {
      CycleWatch watch;
      std::vector<int> found;
      for (int k = 0; k < 100000 && found.size() < 2; ++k) {
        const int state = k < lead ? k : lead + (k - lead) % period;
        if (watch.repeats(signature_key(static_cast<std::uint64_t>(state)))) found.push_back(k);
      }
      SCOPED_TRACE("lead " + std::to_string(lead) + ", period " + std::to_string(period));
      ASSERT_EQ(found.size(), 2u);
      EXPECT_EQ(found[0], lead + period);
      EXPECT_EQ(found[1], lead + 2 * period);
    }
  }
}

TEST(CycleWatch, NeverReportsAPathOfDistinctStates) {
  CycleWatch watch;
  for (std::uint64_t k = 0; k < 1000000; ++k) ASSERT_FALSE(watch.repeats(signature_key(k))) << k;
}

}  // namespace
}  // namespace pivot
