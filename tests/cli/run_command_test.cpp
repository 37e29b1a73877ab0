// `pivot run` and `pivot replay` as a user runs them, including being interrupted and
// killed mid-run while recording.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "pivot/recording.hpp"
#include "support/run_program.hpp"

extern char** environ;

namespace pivot {
namespace {

using test::read_file;
using test::run_pivot;
using test::temp_file;

const std::string kStack = std::string(PIVOT_SOURCE_DIR) + "/scenes/block_stack_5.json";

std::string fresh_path(const std::string& name) {
  const std::string path = (std::filesystem::temp_directory_path() / name).string();
  for (const char* suffix : {"", ".json", ".contacts.csv"}) std::remove((path + suffix).c_str());
  return path;
}

// Starts `pivot run SCENE --duration 1000 --record PATH` in the background.
pid_t start_long_run(const std::string& path) {
  const std::string cli = PIVOT_CLI_PATH;
  std::vector<std::string> args = {cli, "run", kStack, "--duration", "1000", "--record", path};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  pid_t pid = -1;
  posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  return pid;
}

// Waits until the run's temporary recording has grown past a few frames.
void wait_until_recording(pid_t pid, const std::string& path) {
  const std::string temp = path + ".tmp." + std::to_string(pid);
  for (int i = 0; i < 600; ++i) {
    std::error_code ec;
    if (std::filesystem::file_size(temp, ec) > 20000 && !ec) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

TEST(RunCommand, JsonSummaryReportsTheRun) {
  const test::ProgramRun run = run_pivot("run " + kStack + " --duration 0.5 --json");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const nlohmann::json j = nlohmann::json::parse(run.output);
  EXPECT_EQ(j["steps"], 50);
  EXPECT_NEAR(j["sim_time_s"].get<double>(), 0.5, 1e-12);
  EXPECT_EQ(j["fallbacks"], 0);
  EXPECT_EQ(j["failures"], 0);
  EXPECT_EQ(j["contacts_per_step"]["max"], 20);
  EXPECT_LT(j["max_penetration_m"].get<double>(), 1e-6);
  EXPECT_FALSE(j["interrupted"].get<bool>());
  // One island a step; at rest, every step after the first takes the previous basis.
  EXPECT_EQ(j["island_solves"], 50);
  EXPECT_EQ(j["warm_starts"], 49);
  EXPECT_EQ(j["warm_paths"], 0);  // at rest no path starts at the basis
  EXPECT_EQ(j["substepped_steps"]["steps"], 0);
}

// A needle spinning about its axis after its impact (tests/world/needle_drop.json): the
// summary says how many steps ran as substeps, and in how many.
TEST(RunCommand, SummaryCountsTheStepsRunAsSubsteps) {
  const std::string needle = std::string(PIVOT_SOURCE_DIR) + "/tests/world/needle_drop.json";
  const test::ProgramRun run = run_pivot("run " + needle + " --duration 1 --json");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const nlohmann::json j = nlohmann::json::parse(run.output);
  const int steps = j["substepped_steps"]["steps"];
  const int substeps = j["substepped_steps"]["substeps"];
  EXPECT_GT(steps, 0);
  EXPECT_LE(steps, 100);
  EXPECT_GE(substeps, 2 * steps);
  const test::ProgramRun text = run_pivot("run " + needle + " --duration 1");
  EXPECT_EQ(j["substepped_steps"]["fast_spin"], steps);
  EXPECT_EQ(j["substepped_steps"]["retaken"], 0);
  EXPECT_EQ(j["substepped_steps"]["carried"], 0);
  EXPECT_NE(text.output.find("substeps         " + std::to_string(steps) + " steps in " +
                             std::to_string(substeps) + " substeps (" + std::to_string(steps) +
                             " for a body spinning too fast for h, 0 retaken for a contact "
                             "deeper than the step's linearisation, 0 carried from a retaken "
                             "step)\n"),
            std::string::npos)
      << text.output;
}

// A box falling past a spinning box's corner (tests/world/corner_strike.json): its first
// step is retaken in 6 substeps, and the next five are carried from it (6, 5, 4, 3 and 2
// substeps), none for a spin.
TEST(RunCommand, SummaryCountsTheStepsRetakenForAContactAndThoseCarriedFromThem) {
  const std::string strike = std::string(PIVOT_SOURCE_DIR) + "/tests/world/corner_strike.json";
  const test::ProgramRun run = run_pivot("run " + strike + " --duration 1 --json");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const nlohmann::json j = nlohmann::json::parse(run.output);
  EXPECT_EQ(j["substepped_steps"]["steps"], 6);
  EXPECT_EQ(j["substepped_steps"]["substeps"], 26);
  EXPECT_EQ(j["substepped_steps"]["fast_spin"], 0);
  EXPECT_EQ(j["substepped_steps"]["retaken"], 1);
  EXPECT_EQ(j["substepped_steps"]["carried"], 5);
  const test::ProgramRun text = run_pivot("run " + strike + " --duration 1");
  EXPECT_NE(text.output.find("substeps         6 steps in 26 substeps (0 for a body spinning "
                             "too fast for h, 1 retaken for a contact deeper than the step's "
                             "linearisation, 5 carried from a retaken step)\n"),
            std::string::npos)
      << text.output;
}

// Egan's corner (scenes/egan_corner.json, tests/scenes/egan_corner_test.cpp): one step,
// two islands, one group each, each answered by its first selection of sides (point_a
// moves freely, point_b stops on the least penetrated side). The stack has no group.
TEST(RunCommand, SummaryCountsTheMaxGroupSelectionsOfEachStep) {
  const std::string corner = std::string(PIVOT_SOURCE_DIR) + "/scenes/egan_corner.json";
  const test::ProgramRun run = run_pivot("run " + corner + " --duration 2 --json");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const nlohmann::json j = nlohmann::json::parse(run.output);
  EXPECT_EQ(j["island_solves"], 2);
  EXPECT_EQ(j["selections_per_step"]["steps"], 1);
  EXPECT_EQ(j["selections_per_step"]["median"], 2);
  EXPECT_EQ(j["selections_per_step"]["p99"], 2);
  EXPECT_EQ(j["selections_per_step"]["max"], 2);
  EXPECT_EQ(j["selection_budgets_exhausted"], 0);
  const test::ProgramRun text = run_pivot("run " + corner + " --duration 2");
  EXPECT_NE(text.output.find("selections/step  median 2, p99 2, max 2 over 1 steps with max "
                             "groups; budget exhausted 0 times\n"),
            std::string::npos)
      << text.output;
  const nlohmann::json stack =
      nlohmann::json::parse(run_pivot("run " + kStack + " --duration 0.1 --json").output);
  EXPECT_EQ(stack["selections_per_step"]["steps"], 0);
  EXPECT_EQ(stack["selections_per_step"]["max"], 0);
}

TEST(RunCommand, ColdStartSolvesEveryStepFromStepZero) {
  const test::ProgramRun run = run_pivot("run " + kStack + " --duration 0.5 --json --cold-start");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const nlohmann::json j = nlohmann::json::parse(run.output);
  EXPECT_EQ(j["island_solves"], 50);
  EXPECT_EQ(j["warm_starts"], 0);
  EXPECT_EQ(j["warm_paths"], 0);
  EXPECT_GT(j["pivots_per_step"]["mean"].get<double>(), 1.0);
}

// A pivot budget of one cannot solve the resting stack's first step, by any method: the
// run stops there with the problem file written, and its summary counts the failure.
TEST(RunCommand, FailedSolveStopsTheRunAndIsCounted) {
  // The failure folder does not exist yet, two levels deep: pivot run makes it.
  const std::string top =
      (std::filesystem::temp_directory_path() / ("run_failure_" + std::to_string(::getpid())))
          .string();
  std::filesystem::remove_all(top);
  const std::string dir = top + "/nested/failures";
  const test::ProgramRun run =
      run_pivot("run " + kStack + " --max-pivots 1 --failure-dir " + dir + " --json");
  EXPECT_EQ(run.exit_code, 1);
  const std::string file = dir + "/failed-step-0-island-0.contact";
  EXPECT_NE(run.output.find("pivot: error: step 0 (t = 0.000000 s), island 0 with 20 contacts: "
                            "no method solved the LCP (pivot_limit); problem written to " +
                            file),
            std::string::npos)
      << run.output;
  EXPECT_TRUE(std::filesystem::exists(file));
  const nlohmann::json j = nlohmann::json::parse(run.output.substr(run.output.find('{')));
  EXPECT_EQ(j["steps"], 0);
  EXPECT_EQ(j["failures"], 1);
  std::filesystem::remove_all(top);
}

TEST(RunCommand, FailureDirThatCannotBeMadeIsAnErrorBeforeAnyStep) {
  const std::string file =
      temp_file("failure_dir_is_a_file_" + std::to_string(::getpid()) + ".txt", "not a folder\n");
  const test::ProgramRun run = run_pivot("run " + kStack + " --failure-dir " + file + "/sub");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.output,
            "pivot: error: cannot create --failure-dir '" + file + "/sub': Not a directory\n");
  std::remove(file.c_str());
}

TEST(RunCommand, OverridesReachTheStepper) {
  const test::ProgramRun run = run_pivot(
      "run " + kStack + " --duration 0.1 --h 0.005 -d 8 --method standard --mu 0.2 --json");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const nlohmann::json j = nlohmann::json::parse(run.output);
  EXPECT_EQ(j["steps"], 20);
  EXPECT_EQ(j["d"], 8);
  EXPECT_EQ(j["method"], "standard");
}

// drop_and_tumble's bodies fall apart and onto one another (several islands a step): its
// recording, contacts included, is the same file on one thread and on two. Fewer than one
// is refused with the option's range.
TEST(RunCommand, ThreadsGiveTheSameRecording) {
  const std::string scene = std::string(PIVOT_SOURCE_DIR) + "/scenes/drop_and_tumble.json";
  std::vector<std::string> paths;
  for (const char* threads : {"1", "2"}) {
    paths.push_back(fresh_path(std::string("run_threads_") + threads + ".csv"));
    const test::ProgramRun run = run_pivot("run " + scene + " --duration 1 --contacts --record " +
                                           paths.back() + " --threads " + threads);
    ASSERT_EQ(run.exit_code, 0) << run.output;
  }
  EXPECT_EQ(read_recording(paths[0]).frames.size(), 101u);
  EXPECT_EQ(read_file(paths[0]), read_file(paths[1]));
  EXPECT_EQ(read_file(paths[0] + ".contacts.csv"), read_file(paths[1] + ".contacts.csv"));
  const test::ProgramRun zero = run_pivot("run " + scene + " --threads 0");
  EXPECT_NE(zero.exit_code, 0);
  EXPECT_NE(zero.output.find("--threads: Value 0 not in range 1 to 256"), std::string::npos)
      << zero.output;
}

TEST(RunCommand, RecordsAndReplaysTheSameFrames) {
  const std::string path = fresh_path("run_record.csv");
  ASSERT_EQ(run_pivot("run " + kStack + " --duration 0.3 --record " + path + " --record-every 3")
                .exit_code,
            0);
  const Recording rec = read_recording(path);
  EXPECT_EQ(rec.frames.size(), 11u);  // steps 0, 3, ..., 30
  const test::ProgramRun replay = run_pivot("replay " + path + " --json");
  ASSERT_EQ(replay.exit_code, 0) << replay.output;
  EXPECT_EQ(nlohmann::json::parse(replay.output)["frames"], 11);
}

TEST(RunCommand, BadSceneFailsWithFileLineColumn) {
  const std::string scene = temp_file("run_bad.json", "{\n  \"bodies\": 3\n}\n");
  const test::ProgramRun run = run_pivot("run " + scene);
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.output.rfind("pivot: error: " + scene + ":2:", 0), 0u) << run.output;
}

TEST(RunCommand, ReplayOfTruncatedRecordingFails) {
  const std::string path = fresh_path("replay_truncated.csv");
  ASSERT_EQ(run_pivot("run " + kStack + " --duration 0.02 --record " + path).exit_code, 0);
  std::string text = read_file(path);
  text.resize(text.size() - 20);  // cut the last row short
  std::ofstream(path) << text;
  const test::ProgramRun replay = run_pivot("replay " + path);
  EXPECT_EQ(replay.exit_code, 1);
  EXPECT_EQ(replay.output.rfind("pivot: error: " + path + ":", 0), 0u) << replay.output;
}

TEST(RunCommand, SigkillMidRunLeavesThePreviousCompleteRecording) {
  const std::string path = fresh_path("killed.csv");
  ASSERT_EQ(run_pivot("run " + kStack + " --duration 0.05 --record " + path).exit_code, 0);
  const std::string before = read_file(path);
  const std::string sidecar_before = read_file(path + ".json");
  const pid_t pid = start_long_run(path);
  ASSERT_GT(pid, 0);
  wait_until_recording(pid, path);
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(read_file(path), before);
  EXPECT_EQ(read_file(path + ".json"), sidecar_before);
  EXPECT_EQ(read_recording(path).frames.size(), 6u);
  std::remove((path + ".tmp." + std::to_string(pid)).c_str());
}

// SIGINT (Ctrl-C) and SIGTERM (timeout, a batch system) both end the run cleanly, with
// the shell's status for the signal: 128 + its number.
class RunCommandSignal : public testing::TestWithParam<int> {};

TEST_P(RunCommandSignal, FinishesTheRecordingWithEverythingSoFar) {
  const int signal = GetParam();
  const std::string path = fresh_path("interrupted-" + std::to_string(signal) + ".csv");
  const pid_t pid = start_long_run(path);
  ASSERT_GT(pid, 0);
  wait_until_recording(pid, path);
  kill(pid, signal);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 128 + signal);
  const Recording rec = read_recording(path);  // complete and valid
  ASSERT_GT(rec.frames.size(), 10u);
  EXPECT_EQ(rec.frames.back().step, static_cast<std::int64_t>(rec.frames.size()) - 1);
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp." + std::to_string(pid)));
}

INSTANTIATE_TEST_SUITE_P(SigintAndSigterm, RunCommandSignal, testing::Values(SIGINT, SIGTERM));

}  // namespace
}  // namespace pivot
