// `pivot sweep` as a user runs it: one index, all samples on two threads, resume, Ctrl-C.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <sstream>
#include <thread>

#include "sweep/sweep_fixture.hpp"

extern char** environ;

namespace pivot {
namespace {

using test::run_pivot;

// 3 x 4 samples of the pushed box, 0.2 s each.
std::string grid_sweep_file(const std::string& name) {
  const std::string scene = test::sweep_scene_file(name);
  return test::temp_file("sweep_" + name + ".json", test::sweep_text(scene, R"(
  "duration": 0.2,
  "parameters": [{"target": "mu", "values": [0.01, 0.03, 0.5]},
                 {"target": "box.offset.y", "range": {"from": 0, "to": 0.3, "count": 4}}],
  "outcomes": {"poses": ["box"], "predicates": {"slid": "box.x > 0.001"}})"));
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// A CSV line without its last (timing) cell: what must repeat exactly.
std::string deterministic_part(const std::string& line) { return line.substr(0, line.rfind(',')); }

std::string fresh(const std::string& name) {
  const std::string path = (std::filesystem::temp_directory_path() / name).string();
  std::filesystem::remove(path);
  std::filesystem::remove(path + ".json");
  return path;
}

TEST(SweepCommand, IndexPrintsTheRowTheTableHoldsForAnyJobCount) {
  const std::string sweep = grid_sweep_file("jobs");
  const std::string out = fresh("sweep_jobs.csv");
  const test::ProgramRun all = run_pivot("sweep " + sweep + " --jobs 2 --out " + out);
  ASSERT_EQ(all.exit_code, 0) << all.output;
  EXPECT_NE(all.output.find("sweep: 12/12 samples (100%)"), std::string::npos) << all.output;
  const std::vector<std::string> table = lines_of(test::read_file(out));
  ASSERT_EQ(table.size(), 13u);
  EXPECT_EQ(table[0], run_pivot("sweep " + sweep + " --columns").output.substr(0, table[0].size()));
  for (int i : {0, 5, 11}) {
    const test::ProgramRun one = run_pivot("sweep " + sweep + " --index " + std::to_string(i));
    ASSERT_EQ(one.exit_code, 0) << one.output;
    EXPECT_EQ(deterministic_part(lines_of(one.output).at(0)),
              deterministic_part(table[static_cast<std::size_t>(i) + 1]));
  }
  const test::ProgramRun past = run_pivot("sweep " + sweep + " --index 12");
  EXPECT_EQ(past.exit_code, 1);
  EXPECT_EQ(past.output, "pivot: error: sample index 12 is outside 0..11 of " + sweep + "\n");
}

TEST(SweepCommand, ResumeRunsOnlyTheMissingSamples) {
  const std::string sweep = grid_sweep_file("resume");
  const std::string out = fresh("sweep_resume.csv");
  ASSERT_EQ(run_pivot("sweep " + sweep + " --jobs 1 --out " + out).exit_code, 0);
  const std::vector<std::string> full = lines_of(test::read_file(out));
  // Keep the header and rows 0..4: resume must add 5..11 and leave the five as they were.
  std::string partial;
  for (std::size_t k = 0; k < 6; ++k) partial += full[k] + "\n";
  test::temp_file("sweep_resume.csv", partial);
  const test::ProgramRun resumed = run_pivot("sweep " + sweep + " --jobs 2 --resume --out " + out);
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_NE(resumed.output.find("12 samples, 7 to run (5 already in " + out + ")"),
            std::string::npos)
      << resumed.output;
  const std::vector<std::string> after = lines_of(test::read_file(out));
  ASSERT_EQ(after.size(), full.size());
  for (std::size_t k = 0; k < 6; ++k) EXPECT_EQ(after[k], full[k]);  // kept, timing and all
  for (std::size_t k = 6; k < full.size(); ++k) {
    EXPECT_EQ(deterministic_part(after[k]), deterministic_part(full[k]));
  }
}

TEST(SweepCommand, ErrorsAreReportedBeforeAnySampleRuns) {
  const std::string scene = test::sweep_scene_file("bad");
  const std::string sweep = test::temp_file("sweep_bad.json", test::sweep_text(scene, R"(
  "duration": 0.2,
  "parameters": [{"target": "wrench0.t1", "values": [0.12, 0.4]},
                 {"target": "wrench0.t0", "values": [0.1, 0.15]}])"));
  const std::string out = fresh("sweep_bad.csv");
  const test::ProgramRun run = run_pivot("sweep " + sweep + " --out " + out);
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.output,
            "pivot: error: " + sweep +
                ":6:18: sample 1: value 0.15 of parameter "
                "'wrench0.t0' is refused by scene '" +
                scene + "': 't1' in wrenches[0] must be greater than 't0' (0.15), found 0.12\n");
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(SweepCommand, InterruptWritesTheFinishedRows) {
  const std::string scene = test::sweep_scene_file("interrupt");
  // 500 samples of 20 s each: seconds of work, interrupted after the first rows.
  const std::string sweep = test::temp_file("sweep_interrupt.json", test::sweep_text(scene, R"(
  "duration": 20,
  "parameters": [{"target": "mu", "range": {"from": 0, "to": 1, "count": 500}}])"));
  const std::string out = fresh("sweep_interrupt.csv");
  std::vector<std::string> args = {PIVOT_CLI_PATH, "sweep", sweep, "--jobs", "2", "--out", out};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  const std::string log = fresh("sweep_interrupt.log");
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, log.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = -1;
  ASSERT_EQ(posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ), 0);
  posix_spawn_file_actions_destroy(&actions);
  // Once the samples have started (after every scene is checked), a second more lets a few
  // finish, also in a sanitizer build.
  for (int i = 0; i < 600 && test::read_file(log).find("to run") == std::string::npos; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  std::this_thread::sleep_for(std::chrono::milliseconds(1000));
  kill(pid, SIGINT);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130);
  const std::vector<std::string> table = lines_of(test::read_file(out));
  ASSERT_GE(table.size(), 2u);    // the header and at least one finished row
  EXPECT_LT(table.size(), 501u);  // not all of them
  EXPECT_TRUE(std::filesystem::exists(out + ".json"));
}

}  // namespace
}  // namespace pivot
