// Running a sweep's samples and keeping their rows: outcomes against closed forms, rows that
// repeat, and the results table read back for --resume.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "pivot/error.hpp"
#include "sweep/sweep_fixture.hpp"

namespace pivot {
namespace {

using test::parse_test_sweep;

std::vector<std::string> without_timing(std::vector<std::string> row) {
  row.resize(row.size() - kSweepTimingColumns);
  return row;
}

// The box rests on the plane (it starts 0.1 m up, its half height); a 5 N push for 0.2 s
// against friction mu m g: it slides only when mu < 5 / (m g) with m = 8 kg (box of 0.2 m
// at 1000 kg/m^3), i.e. mu < 0.0637.
const char* const kSlideSweep = R"(
  "duration": 0.3,
  "parameters": [{"target": "mu", "values": [0.01, 0.5]}],
  "outcomes": {"poses": ["box"], "predicates": {"slid": "box.x > 0.001"}})";

TEST(SweepSample, RowHoldsValuesOutcomesAndPredicates) {
  const Sweep sweep = parse_test_sweep("row", kSlideSweep);
  const std::vector<std::string> columns = sweep_columns(sweep);
  const std::vector<std::string> slides = run_sweep_sample(sweep, 0);
  const std::vector<std::string> sticks = run_sweep_sample(sweep, 1);
  ASSERT_EQ(slides.size(), columns.size());
  EXPECT_EQ(slides[0], "0");
  EXPECT_EQ(slides[1], "0.01");
  EXPECT_EQ(sticks[1], "0.5");
  const auto cell = [&](const std::vector<std::string>& row, const std::string& column) {
    const auto at = std::find(columns.begin(), columns.end(), column) - columns.begin();
    return row.at(static_cast<std::size_t>(at));
  };
  EXPECT_EQ(cell(slides, "steps"), "30");
  EXPECT_EQ(cell(slides, "failures"), "0");
  // While pushed the box accelerates at (5 - mu m g) / m = 0.527 m/s^2 for 0.2 s (10.5 mm,
  // v = 0.105 m/s), then slows at mu g = 0.098 m/s^2 for 0.1 s (10.0 mm). Time stepping is
  // first order in h = 0.01 s, so 10 % of it.
  EXPECT_NEAR(std::stod(cell(slides, "box.x")), 0.0105 + 0.0100, 0.1 * 0.0205);
  EXPECT_EQ(cell(slides, "slid"), "1");
  EXPECT_NEAR(std::stod(cell(sticks, "box.x")), 0.0, 1e-9);
  EXPECT_EQ(cell(sticks, "slid"), "0");
  EXPECT_NEAR(std::stod(cell(sticks, "box.z")), 0.1, 1e-6);
  EXPECT_GT(std::stoi(cell(sticks, "pivots")), 0);
  EXPECT_GE(std::stod(slides.back()), 0.0);  // solve_ms
}

TEST(SweepSample, TheSameIndexGivesTheSameRowInAnyOrder) {
  const Sweep sweep = parse_test_sweep("repeat", R"(
  "duration": 0.2,
  "sampling": "random", "samples": 10,
  "parameters": [{"target": "mu", "uniform": {"low": 0.0, "high": 0.1}},
                 {"target": "box.rotate.z", "normal": {"mean": 0, "std": 20}}],
  "outcomes": {"poses": ["box"]})");
  const std::vector<std::string> first = without_timing(run_sweep_sample(sweep, 7));
  run_sweep_sample(sweep, 3);
  EXPECT_EQ(without_timing(run_sweep_sample(sweep, 7)), first);
}

TEST(SweepTable, WrittenAtomicallyAndReadBack) {
  const Sweep sweep = parse_test_sweep("table", kSlideSweep);
  const std::string path = (std::filesystem::temp_directory_path() / "sweep_table.csv").string();
  const std::vector<std::string> row0 = run_sweep_sample(sweep, 0);
  const std::vector<std::string> row1 = run_sweep_sample(sweep, 1);
  write_sweep_table(sweep, path, {row1, row0}, "abc123");
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
  const auto rows = read_sweep_table(sweep, path);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0], row0);  // sorted by index
  EXPECT_EQ(rows[1], row1);
  const nlohmann::json sidecar = nlohmann::json::parse(test::read_file(path + ".json"));
  EXPECT_EQ(sidecar["git"], "abc123");
  EXPECT_EQ(sidecar["pivot_version"], PIVOT_VERSION);
  EXPECT_EQ(sidecar["samples"], 2);
  EXPECT_EQ(sidecar["timing_columns"], nlohmann::json::array({"solve_ms"}));
  EXPECT_EQ(sidecar["sweep"]["duration"], 0.3);
  EXPECT_EQ(sidecar["scene"]["bodies"][1]["name"], "box");
}

TEST(SweepTable, CsvQuotesWhatNeedsIt) {
  EXPECT_EQ(csv_line({"a", "b,c", "say \"hi\"", ""}), "a,\"b,c\",\"say \"\"hi\"\"\",");
}

TEST(SweepTable, ATableOfAnotherSweepIsRefused) {
  const Sweep sweep = parse_test_sweep("other", kSlideSweep);
  const std::string path = test::temp_file("sweep_other.csv", "index,mu,solve_ms\n0,0.01,1\n");
  try {
    read_sweep_table(sweep, path);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              path +
                  ":1: the header is not that of sweep.json (expected index,mu,box.x,box.y,"
                  "box.z,box.qw,box.qx,box.qy,box.qz,steps,pivots,max_penetration_m,"
                  "failures,slid,solve_ms)");
  }
  const std::string header = csv_line(sweep_columns(sweep));
  const std::string bad_index =
      test::temp_file("sweep_bad_index.csv", header + "\n2,0.5,0,0,0.1,1,0,0,0,30,0,0,0,0,1\n");
  try {
    read_sweep_table(sweep, bad_index);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              bad_index + ":2:1: '2' is not a sample index of sweep.json (0..1)");
  }
}

}  // namespace
}  // namespace pivot
