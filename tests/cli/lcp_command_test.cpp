// `pivot lcp solve` and `pivot lcp check` run as a user runs them: the built program on
// real files, with its stdout, stderr and exit code checked.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <variant>

#include "pivot/problem_file.hpp"

namespace {

struct ProgramRun {
  int exit_code = -1;
  std::string out;
  std::string err;
};

std::string temp_path(const std::string& name) { return ::testing::TempDir() + name; }

std::string read_text(const std::string& path) {
  std::ostringstream text;
  text << std::ifstream(path).rdbuf();
  return text.str();
}

// stderr goes through a file named after the running test: CTest runs tests in parallel.
ProgramRun run_pivot(const std::string& args) {
  const std::string err_path =
      temp_path(std::string("lcp_command_") +
                ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".stderr");
  const std::string command = std::string(PIVOT_CLI_PATH) + " " + args + " 2>" + err_path;
  ProgramRun run;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return run;
  char buffer[4096];
  size_t got = 0;
  while ((got = fread(buffer, 1, sizeof buffer, pipe)) > 0) run.out.append(buffer, got);
  const int status = pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.err = read_text(err_path);
  return run;
}

const std::string kScenes = std::string(PIVOT_SOURCE_DIR) + "/scenes/problems/";
const std::string kLcpFile = kScenes + "positive_definite_4.lcp";
const std::string kBoxFile = kScenes + "box_on_plane.contact";

std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = temp_path(name);
  std::ofstream(path) << text;
  return path;
}

nlohmann::json parse_json(const ProgramRun& run) {
  EXPECT_EQ(run.out.find('\n'), run.out.size() - 1) << "not one line: " << run.out;
  return nlohmann::json::parse(run.out);
}

TEST(LcpCommand, SolvesShippedGeneralLcpAndReportsItAccepted) {
  const ProgramRun run = run_pivot("lcp solve " + kLcpFile);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.err, "");
  EXPECT_NE(run.out.find("problem          general LCP, n = 4\n"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("method           standard\n"), std::string::npos);
  EXPECT_NE(run.out.find("status           solved\n"), std::string::npos);
  EXPECT_NE(run.out.find("accepted         yes\n"), std::string::npos);
  EXPECT_NE(run.out.find("the file's solution is accepted; computed z matches it: yes"),
            std::string::npos)
      << run.out;
}

TEST(LcpCommand, JsonHoldsTheUniqueSolutionInFileOrder) {
  const nlohmann::json j = parse_json(run_pivot("lcp solve --json " + kLcpFile));
  EXPECT_EQ(j["status"], "solved");
  EXPECT_EQ(j["method"], "standard");
  EXPECT_EQ(j["kind"], "lcp");
  EXPECT_EQ(j["n"], 4);
  EXPECT_EQ(j["accepted"], true);
  EXPECT_GT(j["pivots"].get<int>(), 0);
  EXPECT_GE(j["median_us"].get<double>(), 0.0);
  // The P-matrix problem's one solution, z = (70, 0, 90, 23) / 101, w = (0, 81, 0, 0) / 101.
  const double z[] = {70.0 / 101, 0.0, 90.0 / 101, 23.0 / 101};
  const double w[] = {0.0, 81.0 / 101, 0.0, 0.0};
  ASSERT_EQ(j["z"].size(), 4u);
  ASSERT_EQ(j["w"].size(), 4u);
  for (int i = 0; i < 4; ++i) {
    EXPECT_NEAR(j["z"][i].get<double>(), z[i], 1e-14) << i;
    EXPECT_NEAR(j["w"][i].get<double>(), w[i], 1e-14) << i;
  }
  EXPECT_EQ(j["solution"]["accepted"], true);
  EXPECT_EQ(j["solution"]["z_matches"], true);
}

TEST(LcpCommand, ContactFileSolvesWithEveryMethodDefaultReduced) {
  const nlohmann::json by_default = parse_json(run_pivot("lcp solve --json " + kBoxFile));
  EXPECT_EQ(by_default["method"], "reduced");
  for (const char* method : {"standard", "structural", "reduced"}) {
    SCOPED_TRACE(method);
    const ProgramRun run =
        run_pivot("lcp solve --json --method " + std::string(method) + " " + kBoxFile);
    EXPECT_EQ(run.exit_code, 0) << run.err;
    const nlohmann::json j = parse_json(run);
    EXPECT_EQ(j["method"], method);
    EXPECT_EQ(j["status"], "solved");
    EXPECT_EQ(j["accepted"], true);
    EXPECT_EQ(j["kind"], "contact");
    EXPECT_EQ(j["n"], 40);  // 4 contacts, (2 + d) variables each
    EXPECT_EQ(j["bodies"], 1);
    EXPECT_EQ(j["contacts"], 4);
    EXPECT_EQ(j["d"], 8);
    ASSERT_EQ(j["z"].size(), 40u);
    // The box rests: every velocity is zero, and the normal impulses carry its weight,
    // m g h = 0.0981 N s (z holds theta first).
    ASSERT_EQ(j["velocity"].size(), 6u);
    for (const auto& v : j["velocity"]) EXPECT_NEAR(v.get<double>(), 0.0, 1e-12);
    double weight = 0.0;
    for (int i = 0; i < 4; ++i) weight += j["z"][i].get<double>();
    EXPECT_NEAR(weight, 0.0981, 1e-12);
    EXPECT_EQ(j["solution"]["accepted"], true);
    EXPECT_EQ(j["solution"]["velocity_matches"], true);
  }
}

TEST(LcpCommand, TextReportShowsBodyVelocities) {
  const ProgramRun run = run_pivot("lcp solve " + kBoxFile);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(
      run.out.find("problem          contact problem, 1 body, 4 contacts, d = 8, LCP size 40\n"),
      std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("velocity         body 0: "), std::string::npos) << run.out;
}

TEST(LcpCommand, RepeatReportsTheMedianOverThatManySolves) {
  const nlohmann::json j = parse_json(run_pivot("lcp solve --json --repeat 5 " + kLcpFile));
  EXPECT_EQ(j["repeat"], 5);
  EXPECT_EQ(j["status"], "solved");
}

TEST(LcpCommand, RefusesContactMethodsForGeneralLcp) {
  const ProgramRun run = run_pivot("lcp solve --method structural " + kLcpFile);
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(run.err, "pivot: error: --method structural needs a contact problem; " + kLcpFile +
                         " is a general LCP (pivot-lcp), solved by the standard method\n");
}

TEST(LcpCommand, BadFileIsOneLineWithFileAndLine) {
  const std::string path =
      write_temp("lcp_command_bad.lcp", "pivot-lcp 1\nn 2\nM 1 0 0 1\nr 1 2\n");
  const ProgramRun run = run_pivot("lcp solve " + path);
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(run.err, "pivot: error: " + path + ":4: expected keyword 'q', found 'r'\n");
  const ProgramRun check = run_pivot("lcp check " + path);
  EXPECT_EQ(check.exit_code, 1);
  EXPECT_EQ(check.err, run.err);
}

TEST(LcpCommand, MissingFileIsAnError) {
  const std::string path = temp_path("no_such_problem.lcp");
  const ProgramRun run = run_pivot("lcp solve " + path);
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.err, "pivot: error: " + path + ": cannot open: No such file or directory\n");
}

TEST(LcpCommand, UnsolvableLcpIsProvenSoAndExitsOne) {
  // Siconos' Pang_isolated_sol_perturbed: no solution exists; Lemke ends on a ray, which
  // proves nothing for this M, and the complete search closes the one branch it needs.
  const std::string path =
      write_temp("lcp_command_no_solution.lcp",
                 "pivot-lcp 1\nn 3\nM 0 -1 -1  1 0 0  -1 0 0\nq -0.0001 -1 1\n");
  const ProgramRun run = run_pivot("lcp solve --json " + path);
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.err, "");
  const nlohmann::json j = parse_json(run);
  EXPECT_EQ(j["status"], "no_solution");
  EXPECT_EQ(j["answered_by"], "complete_search");
  EXPECT_EQ(j["lemke_status"], "secondary_ray");
  EXPECT_EQ(j["search"]["undecided_nodes"], 0);
  EXPECT_EQ(j["search"]["infeasible_nodes"], j["search"]["nodes"]);
  EXPECT_EQ(j["accepted"], false);
  const ProgramRun text = run_pivot("lcp solve " + path);
  EXPECT_EQ(text.exit_code, 1);
  EXPECT_NE(text.out.find("status           no_solution\n"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("proof            every branch closed by a Farkas certificate: no "
                          "solution with |z|_1 < inf\n"),
            std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("accepted         no\n"), std::string::npos) << text.out;
}

TEST(LcpCommand, CompleteSearchAnswersWhereLemkeRayTerminates) {
  // Egan's max-formulation example: not copositive-plus, a ray after one pivot, and the
  // unique solution z_a (the file's solution block).
  const std::string path = std::string(PIVOT_SOURCE_DIR) + "/tests/lcp/complete/egan_max_a.lcp";
  const ProgramRun run = run_pivot("lcp solve --json " + path);
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  const nlohmann::json j = parse_json(run);
  EXPECT_EQ(j["status"], "solved");
  EXPECT_EQ(j["accepted"], true);
  EXPECT_EQ(j["answered_by"], "complete_search");
  EXPECT_EQ(j["lemke_status"], "secondary_ray");
  EXPECT_EQ(j["lemke_pivots"], 1);
  EXPECT_EQ(j["solution"]["z_matches"], true);
  EXPECT_FALSE(j["search"].contains("certified_radius"));
  // A problem Lemke solves is answered by Lemke.
  const nlohmann::json lemke = parse_json(run_pivot("lcp solve --json " + kLcpFile));
  EXPECT_EQ(lemke["answered_by"], "lemke");
  EXPECT_FALSE(lemke.contains("search"));
}

TEST(LcpCommand, GroupedFileIsSolvedByItsFormulationAndChecked) {
  // Egan's corner, written by a failed step: the max search's answer, accepted on the full
  // max-formulation LCP, gives the paper's velocities (Fig. 3(a) and z_b3).
  const std::string path =
      std::string(PIVOT_SOURCE_DIR) + "/tests/lcp/grouped/egan_corner_step0.contact";
  const ProgramRun run = run_pivot("lcp solve --json " + path);
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  const nlohmann::json j = parse_json(run);
  EXPECT_EQ(j["status"], "solved");
  EXPECT_EQ(j["accepted"], true);
  EXPECT_EQ(j["groups"]["count"], 14);
  EXPECT_EQ(j["groups"]["formulation"], "max");
  EXPECT_EQ(j["groups"]["failed_selections"], 0);
  const std::vector<double> v = j["velocity"];
  const std::vector<double> expected = {-2, 0, 0, 0, 0, 0, -2, -0.5, 0, 0, 0, 0};
  ASSERT_EQ(v.size(), expected.size());
  for (size_t k = 0; k < v.size(); ++k) EXPECT_NEAR(v[k], expected[k], 1e-12) << k;
  // Under a pivot limit the selections that need a pivot fail, the first through the whole
  // fallback chain, and the search ends after four more (MaxGroupOptions::
  // max_failed_in_a_row): said so, not taken for a proof.
  const ProgramRun limited = run_pivot("lcp solve --max-pivots 1 " + path);
  EXPECT_EQ(limited.exit_code, 1);
  EXPECT_NE(limited.out.find("status           pivot_limit\n"), std::string::npos) << limited.out;
  EXPECT_NE(limited.out.find("selections       5 tried, 5 failed numerically or at the "
                             "pivot limit (none accepted: this proves nothing about a "
                             "solution)\n"),
            std::string::npos)
      << limited.out;
}

// The max search's w is written by the same rows the check evaluates, so a residual against
// them would be 0 whatever w held: it is taken against the formulation's dense M z + q
// (Egan's corner: 2.2e-16, not 0), and above 2,048 rows, where M is not formed, it says so.
// Twelve copies of the corner on separate bodies make a formulation of 3,900 rows (325 each).
TEST(LcpCommand, GroupedResidualIsTakenAgainstTheDenseMatrixOrSaidNotComputed) {
  const std::string path =
      std::string(PIVOT_SOURCE_DIR) + "/tests/lcp/grouped/egan_corner_step0.contact";
  const nlohmann::json one = parse_json(run_pivot("lcp solve --json " + path));
  EXPECT_GT(one["residual"].get<double>(), 0.0);
  EXPECT_LT(one["residual"].get<double>(), 1e-12);

  using pivot::ContactColumn, pivot::ContactProblem, pivot::ContactProblemFile;
  const ContactProblemFile corner = std::get<ContactProblemFile>(pivot::read_problem_file(path));
  constexpr int kCopies = 12;
  ContactProblemFile copies;
  ContactProblem& p = copies.problem;
  const ContactProblem& c = corner.problem;
  p.d = c.d;
  ASSERT_TRUE(corner.groups.has_value());
  copies.groups =
      pivot::PlaneGroups{corner.groups.value().form, {}, corner.groups.value().parameter};
  for (int k = 0; k < kCopies; ++k) {
    const int body0 = k * c.num_bodies(), plane0 = k * c.num_contacts();
    p.mass.insert(p.mass.end(), c.mass.begin(), c.mass.end());
    p.mu.insert(p.mu.end(), c.mu.begin(), c.mu.end());
    p.b.insert(p.b.end(), c.b.begin(), c.b.end());
    for (const std::vector<ContactColumn>* from : {&c.normal, &c.friction}) {
      std::vector<ContactColumn>& to = from == &c.normal ? p.normal : p.friction;
      for (ContactColumn column : *from) {
        for (int& body : column.body) body = body < 0 ? body : body + body0;
        to.push_back(column);
      }
    }
    for (std::vector<int> group : corner.groups->groups) {
      for (int& plane : group) plane += plane0;
      copies.groups->groups.push_back(group);
    }
  }
  p.kx = c.kx.replicate(kCopies, 1);
  const std::string many = temp_path("lcp_command_corners.contact");
  pivot::write_contact_problem(many, copies);
  const ProgramRun run = run_pivot("lcp solve " + many);
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("residual         not computed (a dense M is not formed above 2048 "
                         "rows; every row is checked)\n"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("accepted         yes\n"), std::string::npos) << run.out;
  const nlohmann::json j = parse_json(run_pivot("lcp solve --json " + many));
  EXPECT_TRUE(j["residual"].is_null());
  EXPECT_EQ(j["accepted"], true);
  EXPECT_EQ(j["groups"]["count"], 14 * kCopies);
}

TEST(LcpCommand, PivotLimitStopsTheSolve) {
  const nlohmann::json unlimited = parse_json(run_pivot("lcp solve --json " + kLcpFile));
  ASSERT_GT(unlimited["pivots"].get<int>(), 1);
  const ProgramRun run = run_pivot("lcp solve --json --max-pivots 1 " + kLcpFile);
  EXPECT_EQ(run.exit_code, 1);
  const nlohmann::json j = parse_json(run);
  EXPECT_EQ(j["status"], "pivot_limit");
  EXPECT_EQ(j["accepted"], false);
}

TEST(LcpCommand, WrongSolutionBlockIsReportedNotFatal) {
  const std::string path = write_temp("lcp_command_wrong_solution.lcp",
                                      "pivot-lcp 1\nn 2\nM 2 1 1 2\nq -5 -6\nsolution 1 1\n");
  const ProgramRun run = run_pivot("lcp solve --json " + path);
  EXPECT_EQ(run.exit_code, 0) << "the solve itself succeeds";
  const nlohmann::json j = parse_json(run);
  EXPECT_EQ(j["solution"]["accepted"], false);
  EXPECT_EQ(j["solution"]["z_matches"], false);
  EXPECT_NEAR(j["solution"]["max_z_difference"].get<double>(), 4.0 / 3.0, 1e-12);  // (4/3, 7/3)
  const ProgramRun check = run_pivot("lcp check " + path);
  EXPECT_EQ(check.exit_code, 0);
  EXPECT_EQ(check.out, path + ": general LCP, n = 2, solution block NOT accepted\n");
}

TEST(LcpCommand, CheckPrintsTheSizeWithoutSolving) {
  const ProgramRun box = run_pivot("lcp check " + kBoxFile);
  EXPECT_EQ(box.exit_code, 0) << box.err;
  EXPECT_EQ(box.out, kBoxFile +
                         ": contact problem, 1 body, 4 contacts, d = 8, LCP size 40, solution "
                         "block accepted\n");
  const std::string path =
      write_temp("lcp_command_no_solution_block.lcp", "pivot-lcp 1 n 1 M 1 q -1");
  const ProgramRun lcp = run_pivot("lcp check " + path);
  EXPECT_EQ(lcp.exit_code, 0);
  EXPECT_EQ(lcp.out, path + ": general LCP, n = 1, no solution block\n");
}

TEST(LcpCommand, UsageErrorsComeFromTheCommandLineParser) {
  EXPECT_NE(run_pivot("lcp solve --method lemke " + kLcpFile).exit_code, 0);
  EXPECT_NE(run_pivot("lcp solve --repeat 0 " + kLcpFile).exit_code, 0);
  EXPECT_NE(run_pivot("lcp solve").exit_code, 0);
  EXPECT_NE(run_pivot("lcp").exit_code, 0);
}

}  // namespace
