// Siconos' LCP collection (testdata/external/siconos-lcp), read as Siconos writes it and
// solved by the standard Lemke method, against the outcomes worked out independently in
// testdata/external/EXPECTED.md. Pivot counts follow EXPECTED.md's convention, which is
// also LcpResult::pivots': the pivot that brings z0 in and the one that takes it out both
// count.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "pivot/lcp.hpp"
#include "support/siconos_reader.hpp"

namespace pivot::external {
namespace {

const std::string kDir = std::string(PIVOT_TESTDATA_DIR) + "/external/siconos-lcp/";

SiconosLcp read(const std::string& name) { return read_siconos_lcp(kDir + name + ".dat"); }

enum class Expect {
  Solution,  // Solved with exactly z (the unique solution, or Lemke's one where noted)
  Accepted,  // Solved with a solution the acceptance rule takes; z not pinned
  Ray,       // SecondaryRay
};

struct ExpectedOutcome {
  const char* name;
  Expect expect;
  std::vector<double> z;
  int pivots;
};

void PrintTo(const ExpectedOutcome& e, std::ostream* os) { *os << e.name; }

// EXPECTED.md, one row per file (`_block` twins share their dense file's row), with its
// pivot counts; the one count that differs is explained where it stands.
const std::vector<ExpectedOutcome>& expected_outcomes() {
  static const std::vector<ExpectedOutcome> table = {
      // A continuum of solutions z1 + z2 = 1; which one Lemke returns depends on how the
      // tie in q is broken, so the test checks z1 + z2 = 1 (below) instead of z.
      {"lcp_CPS_1", Expect::Accepted, {}, 2},
      {"lcp_CPS_2", Expect::Solution, {0, 1, 3}, 5},
      // A bimatrix game with three solutions, none reachable by Lemke: ray after z0 enters.
      {"lcp_CPS_3", Expect::Ray, {}, 1},
      {"lcp_CPS_4", Expect::Solution, {2, 2, 2, 92}, 5},
      {"lcp_CPS_4bis", Expect::Solution, {3, 3, 0, 83}, 5},
      {"lcp_CPS_5", Expect::Solution, {0, 1}, 2},
      {"lcp_Pang_isolated_sol", Expect::Solution, {1, 0, 0}, 3},
      // No solution at all.
      {"lcp_Pang_isolated_sol_perturbed", Expect::Ray, {}, -1},
      {"lcp_inf_sol_perturbed", Expect::Solution, {1, 0, 1e-4}, 5},
      {"lcp_deudeu", Expect::Solution, {4.0 / 3.0, 7.0 / 3.0}, 3},
      // The unique solution has entries around 1e-4; EXPECTED.md does not list them.
      {"lcp_enum_fails", Expect::Accepted, {}, 8},
      // EXPECTED.md counts 12 with z0 entering at the first of the six tied q_i = -1. The
      // lexicographic rule (lemke_standard.hpp, initial_leaving_row) takes the last: w_6
      // leaves, z_6 enters, z0 leaves, and the same solution comes after 2 pivots.
      {"lcp_exp_murty", Expect::Solution, {0, 0, 0, 0, 0, 1}, 2},
      // Murty's exponential family: 2^6 pivots.
      {"lcp_exp_murty2", Expect::Solution, {0, 0, 0, 0, 0, 64}, 64},
      {"lcp_mmc", Expect::Accepted, {}, 23},
      {"lcp_ortiz", Expect::Solution, {2.0 / 3.0, 0, 1.0 / 3.0, 0}, 3},
      // Degenerate: a naive ratio test cycles; the lexicographic rule finishes in 127.
      {"lcp_tobenna", Expect::Accepted, {}, 127},
      {"lcp_trivial",
       Expect::Solution,
       {1, 0.5, 1.0 / 3, 0.25, 0.2, 1.0 / 6, 1.0 / 7, 0.125, 1.0 / 9},
       10},
  };
  return table;
}

const char* const kBlockTwins[] = {"lcp_deudeu", "lcp_ortiz", "lcp_trivial"};

// Relative to the solution's size; the standard method solves the final basis by LU with
// one refinement step, so agreement is near rounding.
constexpr double kSolutionTolerance = 1e-9;

TEST(SiconosLcp, DenseMatricesAreColumnMajor) {
  // EXPECTED.md / FORMAT.md: read column-major, CPS_4 is Drake's testProblem6 (l = 10).
  const SiconosLcp lcp = read("lcp_CPS_4");
  MatX M(4, 4);
  M << 11, 0, 10, -1,  //
      0, 11, 10, -1,   //
      10, 10, 21, -1,  //
      1, 1, 1, 0;
  EXPECT_EQ(lcp.M, M);
  EXPECT_EQ(lcp.q, (VecX(4) << 50, 50, 10, -6).finished());
}

TEST(SiconosLcp, BlockFilesDecodeEqualToTheirDenseTwins) {
  for (const char* name : kBlockTwins) {
    const SiconosLcp dense = read(name);
    const SiconosLcp block = read(std::string(name) + "_block");
    EXPECT_EQ(block.M, dense.M) << name;
    EXPECT_EQ(block.q, dense.q) << name;
  }
}

TEST(SiconosLcp, EveryFileHasAnExpectedOutcome) {
  std::map<std::string, bool> known;
  for (const ExpectedOutcome& e : expected_outcomes()) known[e.name] = true;
  for (const char* twin : kBlockTwins) known[std::string(twin) + "_block"] = true;
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kDir)) {
    ++files;
    EXPECT_TRUE(known.count(entry.path().stem().string())) << entry.path() << " is not tested";
  }
  EXPECT_EQ(files, 20);
}

std::vector<ExpectedOutcome> with_listed_solution() {
  std::vector<ExpectedOutcome> out;
  for (const ExpectedOutcome& e : expected_outcomes()) {
    if (!e.z.empty()) out.push_back(e);
  }
  return out;
}

class SiconosListedSolution : public ::testing::TestWithParam<ExpectedOutcome> {};

// The listed solutions solve the decoded problems: a check of the decoding that does not
// depend on any solver (read row-major, CPS_4's and exp_murty2's would not).
TEST_P(SiconosListedSolution, SolvesTheDecodedProblem) {
  const ExpectedOutcome& e = GetParam();
  const SiconosLcp lcp = read(e.name);
  const VecX z = Eigen::Map<const VecX>(e.z.data(), static_cast<Eigen::Index>(e.z.size()));
  EXPECT_TRUE(check_lcp_solution(lcp.M, lcp.q, z).accepted);
}

class SiconosLcpOutcome : public ::testing::TestWithParam<ExpectedOutcome> {};

TEST_P(SiconosLcpOutcome, StandardLemkeReachesTheExpectedOutcome) {
  const ExpectedOutcome& e = GetParam();
  const SiconosLcp lcp = read(e.name);
  const LcpResult result = solve_lemke(lcp.M, lcp.q);
  if (e.pivots >= 0) {
    EXPECT_EQ(result.pivots, e.pivots);
  }
  if (e.expect == Expect::Ray) {
    EXPECT_EQ(result.status, LcpStatus::SecondaryRay) << to_string(result.status);
    return;
  }
  ASSERT_EQ(result.status, LcpStatus::Solved) << to_string(result.status);
  EXPECT_TRUE(check_lcp_solution(lcp.M, lcp.q, result.z).accepted);
  if (e.expect == Expect::Solution) {
    const VecX z = Eigen::Map<const VecX>(e.z.data(), static_cast<Eigen::Index>(e.z.size()));
    EXPECT_LE((result.z - z).lpNorm<Eigen::Infinity>(),
              kSolutionTolerance * std::max(1.0, z.lpNorm<Eigen::Infinity>()))
        << "z = " << result.z.transpose();
  }
}

std::string outcome_name(const ::testing::TestParamInfo<ExpectedOutcome>& param) {
  return param.param.name;
}
INSTANTIATE_TEST_SUITE_P(Files, SiconosListedSolution, ::testing::ValuesIn(with_listed_solution()),
                         outcome_name);
INSTANTIATE_TEST_SUITE_P(Files, SiconosLcpOutcome, ::testing::ValuesIn(expected_outcomes()),
                         outcome_name);

TEST(SiconosLcp, Cps1LandsOnTheSolutionSegment) {
  const SiconosLcp lcp = read("lcp_CPS_1");
  const LcpResult result = solve_lemke(lcp.M, lcp.q);
  ASSERT_EQ(result.status, LcpStatus::Solved);
  EXPECT_NEAR(result.z.sum(), 1.0, 1e-12);
}

TEST(SiconosLcp, MmcHasItsFirst22VariablesPositive) {
  const SiconosLcp lcp = read("lcp_mmc");
  const LcpResult result = solve_lemke(lcp.M, lcp.q);
  ASSERT_EQ(result.status, LcpStatus::Solved);
  for (int i = 0; i < 22; ++i) EXPECT_GT(result.z(i), 0.0) << "z_" << i;
}

TEST(SiconosLcp, BlockTwinsSolveLikeTheirDenseFiles) {
  for (const char* name : kBlockTwins) {
    const SiconosLcp dense = read(name);
    const SiconosLcp block = read(std::string(name) + "_block");
    const LcpResult a = solve_lemke(dense.M, dense.q);
    const LcpResult b = solve_lemke(block.M, block.q);
    EXPECT_EQ(b.status, a.status) << name;
    EXPECT_EQ(b.pivots, a.pivots) << name;
    EXPECT_EQ(b.z, a.z) << name;
  }
}

// Where Lemke's ray proves nothing, the complete search answers: CPS_3's bimatrix game has
// the three solutions of EXPECTED.md, Pang_isolated_sol_perturbed none, and every other file
// a solution the search finds too.
TEST(SiconosLcp, CompleteSearchFindsOneOfTheBimatrixGamesSolutions) {
  const SiconosLcp lcp = read("lcp_CPS_3");
  const LcpResult r = solve_lcp_complete(lcp.M, lcp.q);
  ASSERT_EQ(r.status, LcpStatus::Solved) << to_string(r.status);
  EXPECT_TRUE(check_lcp_solution(lcp.M, lcp.q, r.z).accepted);
  const VecX listed[] = {(VecX(4) << 0.1, 0, 0.1, 0).finished(),
                         (VecX(4) << 0, 1.0 / 15, 0, 1.0 / 15).finished(),
                         (VecX(4) << 1.0 / 90, 2.0 / 45, 1.0 / 90, 2.0 / 45).finished()};
  double distance = 1.0;
  for (const VecX& z : listed) distance = std::min(distance, (r.z - z).lpNorm<Eigen::Infinity>());
  EXPECT_LE(distance, kSolutionTolerance) << "z = " << r.z.transpose();
}

TEST(SiconosLcp, CompleteSearchProvesThePerturbedPangProblemHasNoSolution) {
  const SiconosLcp lcp = read("lcp_Pang_isolated_sol_perturbed");
  CompleteSearchStats stats;
  const LcpResult r = solve_lcp_complete(lcp.M, lcp.q, {}, &stats);
  EXPECT_EQ(r.status, LcpStatus::NoSolution) << to_string(r.status);
  EXPECT_EQ(stats.infeasible_nodes, stats.nodes);
  EXPECT_EQ(stats.undecided_nodes, 0);
  EXPECT_GE(stats.certified_radius, 1e8);
}

TEST(SiconosLcp, CompleteSearchSolvesEveryFileThatHasASolution) {
  for (const ExpectedOutcome& e : expected_outcomes()) {
    if (std::string(e.name) == "lcp_Pang_isolated_sol_perturbed") continue;
    const SiconosLcp lcp = read(e.name);
    const LcpResult r = solve_lcp_complete(lcp.M, lcp.q);
    EXPECT_EQ(r.status, LcpStatus::Solved) << e.name << ": " << to_string(r.status);
    EXPECT_TRUE(check_lcp_solution(lcp.M, lcp.q, r.z).accepted) << e.name;
  }
}

}  // namespace
}  // namespace pivot::external
