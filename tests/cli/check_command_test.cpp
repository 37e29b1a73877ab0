// `pivot check` run as a user runs it: the real program, its exit code and its output.
#include <gtest/gtest.h>

#include <string>

#include "support/run_program.hpp"

namespace {

using pivot::test::ProgramRun;
using pivot::test::run_pivot;

std::string temp_scene(const std::string& name, const std::string& text) {
  return pivot::test::temp_file(name, text);
}

TEST(CheckCommand, ValidSceneExitsZeroWithSummary) {
  const std::string scene = std::string(PIVOT_SOURCE_DIR) + "/scenes/block_with_hole.json";
  const ProgramRun run = run_pivot("check " + scene);
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find(
                scene + ": valid scene, 3 bodies (2 dynamic, 1 fixed), 2 materials, 0 wrenches\n"),
            std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("  solver               reduced\n"), std::string::npos) << run.output;
  // 2700 kg/m^3 x (0.4 x 0.4 - 0.12 x 0.12) x 0.1 m^3 = 39.312 kg.
  EXPECT_NE(run.output.find("  block   dynamic  compound, 4 pieces"), std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("39.312"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("  ground  fixed    half_space n (0, 0, 1), offset 0 m"),
            std::string::npos)
      << run.output;
}

TEST(CheckCommand, WarningsGoToStderrAndStillExitZero) {
  const std::string path = temp_scene(
      "pivot_check_warning.json",
      "{\"bodies\": [{\"name\": \"b\", \"shape\": {\"type\": \"sphere\", \"radius\": 1},\n"
      "  \"orientation\": [0, 0, 0, 3]}]}\n");
  const ProgramRun run = run_pivot("check " + path);
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("pivot: warning: " + path +
                            ":2:18: 'orientation' in body 'b' has norm 3; normalised\n"),
            std::string::npos)
      << run.output;
  std::remove(path.c_str());
}

TEST(CheckCommand, InvalidSceneExitsOneWithLocatedError) {
  const std::string path = temp_scene(
      "pivot_check_error.json",
      "{\"bodies\": [\n  {\"name\": \"b\", \"shape\": {\"type\": \"sphere\", \"radius\": 1}, "
      "\"mass\": \"heavy\"}\n]}\n");
  const ProgramRun run = run_pivot("check " + path);
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.output,
            "pivot: error: " + path + ":2:67: expected a number for 'mass', found a string\n");
  std::remove(path.c_str());
}

}  // namespace
