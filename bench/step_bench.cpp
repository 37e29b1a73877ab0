// Whole time steps on the shipped scenes: World::step() from each scene's initial state for
// two simulated seconds (the peg seats, the block crosses the hole, the stacks rest), timed
// by wall clock, with the per-stage split World::step itself records in StepStats. The
// baseline in the same run is the solve stage: the table ends with what every other stage
// costs as a fraction of it.
//
//   step_bench [Google Benchmark flags]
//
// prints Google Benchmark's lines (medians over the repetitions) and then one Markdown
// table per run, the one docs/benchmarks.md records.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "pivot/scene.hpp"
#include "pivot/world.hpp"

namespace {

using namespace pivot;

// Long enough for every scene's event: the 60 N push seats the pegs within about 0.3 s,
// the block at 2 m/s crosses the hole within 0.5 s.
constexpr double kTrajectory_s = 2.0;

struct SceneCase {
  const char* label;
  const char* file;  // under scenes/
};

const SceneCase kScenes[] = {
    {"peg-in-hole, square peg (16 contacts at start)", "peg_in_hole.json"},
    {"peg-in-hole, round peg (32 contacts at start)", "peg_in_hole_round_32.json"},
    {"stack of 5 blocks", "block_stack_5.json"},
    {"tower of 10 blocks", "block_tower_10.json"},
    {"block over hole, narrow", "block_over_hole_narrow.json"},
    {"block over hole, wide", "block_over_hole_wide.json"},
};

// Each iteration is one whole trajectory from the initial state, so that every repetition
// times the same steps; the counters are per step.
void step_scene(benchmark::State& state, const std::string& file) {
  LoadedScene loaded;
  try {
    loaded = read_scene_file(std::string(PIVOT_SOURCE_DIR) + "/scenes/" + file);
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    return;
  }
  int fixed = 0;
  for (const Body& body : loaded.scene.bodies) fixed += body.fixed ? 1 : 0;
  World world(loaded.scene);
  const double h_s = world.settings().time_step_s;
  const int steps = static_cast<int>(kTrajectory_s / h_s + 0.5);

  double collision_us = 0, assembly_us = 0, solve_us = 0, integrate_us = 0, contacts = 0;
  int max_contacts = 0;
  try {
    for (auto _ : state) {
      world.reset();
      for (int k = 0; k < steps; ++k) {
        const StepStats& s = world.step();
        collision_us += s.collision_us;
        assembly_us += s.assembly_us;
        solve_us += s.solve_us;
        integrate_us += s.integrate_us;
        contacts += s.contacts;
        max_contacts = std::max(max_contacts, s.contacts);
      }
    }
  } catch (const SolverFailure& e) {
    state.SkipWithError(e.what());
    return;
  }
  const double total = static_cast<double>(state.iterations()) * steps;
  // A rate counter divides by the benchmark's time, wall time here (UseRealTime).
  state.counters["steps_per_s"] = benchmark::Counter(total, benchmark::Counter::kIsRate);
  state.counters["collision_us"] = collision_us / total;
  state.counters["assembly_us"] = assembly_us / total;
  state.counters["solve_us"] = solve_us / total;
  state.counters["integrate_us"] = integrate_us / total;
  state.counters["contacts"] = contacts / total;
  state.counters["max_contacts"] = max_contacts;
  state.counters["dynamic"] = static_cast<double>(loaded.scene.bodies.size()) - fixed;
  state.counters["fixed"] = fixed;
  state.counters["h_s"] = h_s;
}

// Console output as usual, plus the median runs kept for the table.
class TableReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      if (run.run_type == Run::RT_Aggregate && run.aggregate_name == "median") {
        medians_[run.run_name.function_name] = run.counters;
      }
    }
    ConsoleReporter::ReportRuns(runs);
  }

  void print_table() const {
    std::printf(
        "\n| scene | bodies (dynamic + fixed) | contacts per step, mean (max) | steps/s | "
        "real-time factor | step [us] | collision [us] | assembly [us] | solve [us] | "
        "integrate [us] | collision / solve |\n|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (const SceneCase& scene : kScenes) {
      const auto it = medians_.find(std::string("step/") + scene.file);
      if (it == medians_.end()) continue;
      const auto value = [&](const char* name) {
        const auto c = it->second.find(name);
        return c == it->second.end() ? 0.0 : c->second.value;
      };
      const double steps_per_s = value("steps_per_s");
      const double step_us = steps_per_s > 0 ? 1e6 / steps_per_s : 0.0;
      const auto stage = [&](const char* name) {
        char cell[48];
        std::snprintf(cell, sizeof(cell), "%.1f (%.0f%%)", value(name),
                      step_us > 0 ? 100.0 * value(name) / step_us : 0.0);
        return std::string(cell);
      };
      std::printf(
          "| %s | %.0f + %.0f | %.1f (%.0f) | %.0f | %.1f | %.1f | %s | %s | %s | %s | %.2f |\n",
          scene.label, value("dynamic"), value("fixed"), value("contacts"), value("max_contacts"),
          steps_per_s, steps_per_s * value("h_s"), step_us, stage("collision_us").c_str(),
          stage("assembly_us").c_str(), stage("solve_us").c_str(), stage("integrate_us").c_str(),
          value("collision_us") / std::max(value("solve_us"), 1e-9));
    }
  }

 private:
  std::map<std::string, benchmark::UserCounters> medians_;
};

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  for (const SceneCase& scene : kScenes) {
    benchmark::RegisterBenchmark((std::string("step/") + scene.file).c_str(), step_scene,
                                 std::string(scene.file))
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond)
        ->Repetitions(9)
        ->ReportAggregatesOnly(true);
  }
  TableReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  reporter.print_table();
  benchmark::Shutdown();
  return 0;
}
