// The single-body contact cases Lloyd's own Java implementation is tested on (ArtiSynth
// maspack/solvers/contactTest.txt): one body on 1 to 16 contacts, d = 8. The file has
// no answers; ArtiSynth's test requires every case to solve, and so does this one, with
// each of the three methods and the acceptance rule.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "pivot/lcp.hpp"
#include "support/artisynth_reader.hpp"

namespace pivot::external {
namespace {

const std::string kFile = std::string(PIVOT_TESTDATA_DIR) + "/external/artisynth/contactTest.txt";

TEST(ArtisynthContactTest, ReadsAllSixteenCasesWithTheirState) {
  const std::vector<ArtisynthContactCase> cases = read_artisynth_contact_test(kFile);
  ASSERT_EQ(cases.size(), 16u);
  const std::vector<size_t> contacts = {1, 1, 1, 1, 2, 2, 2, 2, 2, 4, 4, 4, 4, 8, 16, 16};
  for (size_t i = 0; i < cases.size(); ++i) {
    EXPECT_EQ(cases[i].points.size(), contacts[i]) << "case at line " << cases[i].line;
    EXPECT_EQ(cases[i].mu.size(), contacts[i]);
    EXPECT_EQ(cases[i].friction_directions, std::vector<int>{8});
  }
  // "two offset points of contact": the normal (1 1 0) is normalised, as ArtiSynth does.
  EXPECT_TRUE(cases[7].normals[1].isApprox(Vec3(1, 1, 0).normalized()));
  EXPECT_EQ(cases[8].body_position, Vec3(1, 1, 0));
  // The two prismatic-joint cases share every setting but the wrench.
  EXPECT_EQ(cases[15].line, 230);
  EXPECT_EQ(cases[15].points, cases[14].points);
  EXPECT_EQ(cases[15].wrench, (Vec6() << 0.1, -1, 0.1, 0, 0, 0).finished());
}

TEST(ArtisynthContactTest, ColumnsAreUnitWrenchesAboutTheBody) {
  const std::vector<ArtisynthContactCase> cases = read_artisynth_contact_test(kFile);
  const ArtisynthContactCase& c = cases[8];  // body at (1 1 0), contact at (1 0 0), n = y
  const ContactProblem p = artisynth_contact_problem(c, 8);
  ASSERT_EQ(p.num_contacts(), 2);
  EXPECT_EQ(p.normal[0].body[0], 0);
  EXPECT_EQ(p.normal[0].body[1], -1);
  // r = (0, -1, 0), n = (0, 1, 0): moment r x n = 0.
  EXPECT_TRUE(p.normal[0].block[0].isApprox((Vec6() << 0, 1, 0, 0, 0, 0).finished()));
  EXPECT_EQ(p.kx, c.wrench);
  for (int j = 0; j < 8; ++j) {
    const Vec6& t = p.friction[j].block[0];
    EXPECT_NEAR(t.head<3>().norm(), 1.0, 1e-15);
    EXPECT_NEAR(t.head<3>().dot(c.normals[0]), 0.0, 1e-15);
    // Evenly spaced: direction j + 4 is the opposite of direction j.
    if (j < 4) {
      EXPECT_TRUE(p.friction[j + 4].block[0].isApprox(-t));
    }
  }
}

TEST(ArtisynthContactTest, EveryCaseSolvesWithAllThreeMethods) {
  for (const ArtisynthContactCase& c : read_artisynth_contact_test(kFile)) {
    for (int d : c.friction_directions) {
      const ContactProblem problem = artisynth_contact_problem(c, d);
      for (LcpMethod method : {LcpMethod::Standard, LcpMethod::Structural, LcpMethod::Reduced}) {
        SCOPED_TRACE("case at line " + std::to_string(c.line) + ", d = " + std::to_string(d) +
                     ", " + to_string(method));
        const LcpResult result = solve_contact(problem, method);
        ASSERT_EQ(result.status, LcpStatus::Solved) << to_string(result.status);
        const LcpCheck check = check_contact_solution(problem, result.z);
        EXPECT_TRUE(check.accepted)
            << "min entry " << check.min_entry << ", complementarity " << check.max_complementarity;
      }
    }
  }
}

}  // namespace
}  // namespace pivot::external
