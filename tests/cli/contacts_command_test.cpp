// `pivot contacts` run as a user runs it: the real program, its exit code and its output.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "support/run_program.hpp"

namespace {

using pivot::test::ProgramRun;
using pivot::test::run_pivot;

std::string scene(const std::string& name) {
  return std::string(PIVOT_SOURCE_DIR) + "/scenes/" + name;
}

TEST(ContactsCommand, BoxOnPlaneHasItsFourCorners) {
  // The scene's margin is derived: |g| h^2 = 9.81 * 0.01^2 m.
  const ProgramRun run = run_pivot("contacts " + scene("box_on_plane.json"));
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find(scene("box_on_plane.json") +
                            ": 4 contacts, 0 groups (margin 0.000981 m, nonconvex max)\n"),
            std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("  box  ground  (-0.1, -0.1, 0)  (0, 0, 1)  0        v0 / f0\n"),
            std::string::npos)
      << run.output;
}

TEST(ContactsCommand, PegCornersOverTheHoleFormGroupsWithinALargerMargin) {
  // The peg's four bottom corners hang 1 cm inside the 0.12 m hole's walls, 2 cm above its
  // rim: each meets the rim edges of the two pieces at that corner of the hole, which meet
  // in a concave corner, so every corner gets one group per piece (8). The block's four
  // pieces stand on the ground with four corners each, four of them shared by two pieces
  // and reported once (12 contacts).
  const ProgramRun run =
      run_pivot("contacts --margin 0.03 --json " + scene("block_with_hole.json"));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const nlohmann::json out = nlohmann::json::parse(run.output);
  EXPECT_EQ(out["contacts"].size(), 12u);
  ASSERT_EQ(out["groups"].size(), 8u);
  for (const auto& g : out["groups"]) {
    // Both bodies move, so A is the first in the file: the vertex is on B.
    EXPECT_EQ(g["body_a"], "block");
    EXPECT_EQ(g["body_b"], "peg");
    EXPECT_EQ(g["vertex_on_a"], false);
    EXPECT_EQ(g["feature_a"]["type"], "edge");
    EXPECT_EQ(g["feature_b"]["type"], "vertex");
    ASSERT_EQ(g["sides"].size(), 2u);
    EXPECT_NEAR(g["sides"][0]["gap_m"].get<double>() + g["sides"][1]["gap_m"].get<double>(), 0.03,
                1e-12);  // 2 cm above the top, 1 cm beside the wall
  }
  const ProgramRun off =
      run_pivot("contacts --margin 0.03 --nonconvex off " + scene("block_with_hole.json"));
  EXPECT_EQ(off.exit_code, 0) << off.output;
  EXPECT_NE(off.output.find("contacts, 0 groups (margin 0.03 m, nonconvex off)"), std::string::npos)
      << off.output;
}

TEST(ContactsCommand, NonconvexTakesTheVocabularyOfRun) {
  const ProgramRun sum =
      run_pivot("contacts --margin 0.03 --nonconvex sum " + scene("block_with_hole.json"));
  EXPECT_EQ(sum.exit_code, 0) << sum.output;
  EXPECT_NE(sum.output.find("contacts, 8 groups (margin 0.03 m, nonconvex sum)"), std::string::npos)
      << sum.output;
  // "groups", the old word for max and sum, is refused like any unknown word.
  const ProgramRun groups =
      run_pivot("contacts " + scene("box_on_plane.json") + " --nonconvex groups");
  EXPECT_EQ(groups.exit_code, 105);  // CLI::ExitCodes::ValidationError
  EXPECT_EQ(groups.output,
            "--nonconvex: expected max, sum or off, got 'groups'\n"
            "Run with --help for more information.\n");
}

}  // namespace
