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
//
// Built with the peers (CMake PIVOT_BENCH_PEERS and libode-dev / libdart-dev), it also
// steps the 5-block stack and the 10-block tower for 60 s of simulated time in Pivot, ODE
// (dWorldStep and dWorldQuickStep) and DART, all built from the same scene file
// (bench/peers/peer_world.hpp), and prints a second table: steps/s, Pivot's speed over
// each engine's, and how far the top block moved from its initial position.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "pivot/scene.hpp"
#include "pivot/world.hpp"

#if defined(PIVOT_BENCH_ODE) || defined(PIVOT_BENCH_DART)
#define PIVOT_STEP_BENCH_PEERS
#include "peers/peer_world.hpp"
#endif

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

#ifdef PIVOT_STEP_BENCH_PEERS
// Long enough for a resting stack's drift to show: 6,000 steps at h = 0.01 s.
constexpr double kPeerTrajectory_s = 60.0;

const SceneCase kPeerScenes[] = {
    {"stack of 5 blocks", "block_stack_5.json"},
    {"tower of 10 blocks", "block_tower_10.json"},
};

enum class Engine { Pivot, OdeExact, OdeQuick, DartMesh, DartPrimitive };
struct EngineCase {
  Engine engine;
  const char* key;    // in the benchmark's name
  const char* label;  // in the table
};
const EngineCase kEngines[] = {
    {Engine::Pivot, "pivot", "Pivot (reduced Lemke)"},
#ifdef PIVOT_BENCH_ODE
    {Engine::OdeExact, "ode_step", "ODE 0.16 `dWorldStep` (Dantzig)"},
    {Engine::OdeQuick, "ode_quickstep", "ODE 0.16 `dWorldQuickStep` (PGS, 20 iterations)"},
#endif
#ifdef PIVOT_BENCH_DART
    {Engine::DartMesh, "dart", "DART 6.12 `World::step` (Dantzig; FCL, boxes as meshes: default)"},
    {Engine::DartPrimitive, "dart_primitive",
     "DART 6.12 `World::step` (Dantzig; FCL, boxes as boxes)"},
#endif
};

// One engine stepping the scene: step() and the centre of mass of a body.
struct Stepper {
  std::unique_ptr<World> pivot;
  std::unique_ptr<peers::PeerWorld> peer;

  void step() {
    if (!pivot) return peer->step();
    if (pivot->step().cancelled) throw std::runtime_error("Pivot's step was cancelled");
  }
  Vec3 position(int body) const {
    return pivot ? pivot->state().bodies[static_cast<std::size_t>(body)].pose.position
                 : peer->position(body);
  }
  int contacts() const {
    return pivot ? pivot->last_stats().contacts : peer->last_stats().contacts;
  }
  // Pivot: failed islands (it stops at the first, FailurePolicy::Stop); a peer: its errors.
  int errors() const {
    return pivot ? pivot->last_stats().failures : peer->last_stats().solver_errors;
  }
};

Stepper make_stepper(const Scene& scene, Engine engine) {
  Stepper stepper;
  switch (engine) {
    case Engine::Pivot:
      stepper.pivot = std::make_unique<World>(scene);
      break;
#ifdef PIVOT_BENCH_ODE
    case Engine::OdeExact:
      stepper.peer = peers::make_ode_world(scene, peers::OdeStepper::Exact);
      break;
    case Engine::OdeQuick:
      stepper.peer = peers::make_ode_world(scene, peers::OdeStepper::Quick);
      break;
#endif
#ifdef PIVOT_BENCH_DART
    case Engine::DartMesh:
      stepper.peer = peers::make_dart_world(scene, peers::DartCollision::Mesh);
      break;
    case Engine::DartPrimitive:
      stepper.peer = peers::make_dart_world(scene, peers::DartCollision::Primitive);
      break;
#endif
    default:
      throw std::logic_error("engine not built");
  }
  return stepper;
}

// Each iteration builds the engine's world (untimed) and steps it for the whole
// trajectory; the drift is the top block's distance from its initial position at the end.
void step_peer(benchmark::State& state, const std::string& file, Engine engine) {
  try {
    const Scene scene = read_scene_file(std::string(PIVOT_SOURCE_DIR) + "/scenes/" + file).scene;
    int top = 0;
    for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
      if (scene.initial_states[i].pose.position.z() > scene.initial_states[top].pose.position.z()) {
        top = static_cast<int>(i);
      }
    }
    const int steps = static_cast<int>(kPeerTrajectory_s / scene.settings.time_step_s + 0.5);
    double drift_m = 0, contacts = 0, errors = 0;
    for (auto _ : state) {
      state.PauseTiming();
      Stepper stepper = make_stepper(scene, engine);
      state.ResumeTiming();
      for (int k = 0; k < steps; ++k) {
        stepper.step();
        contacts += stepper.contacts();
        errors += stepper.errors();
      }
      drift_m = (stepper.position(top) - scene.initial_states[top].pose.position).norm();
    }
    const double total = static_cast<double>(state.iterations()) * steps;
    state.counters["steps_per_s"] = benchmark::Counter(total, benchmark::Counter::kIsRate);
    state.counters["drift_m"] = drift_m;
    state.counters["contacts"] = contacts / total;
    state.counters["errors"] = errors / static_cast<double>(state.iterations());
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
}
#endif

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

#ifdef PIVOT_STEP_BENCH_PEERS
  void print_peer_table() const {
    std::printf(
        "\n| scene | engine | contacts per step | steps/s | Pivot's steps/s over this | "
        "top block's drift after %.0f s [m] | solver errors per run "
        "|\n|---|---|---|---|---|---|---|\n",
        kPeerTrajectory_s);
    for (const SceneCase& scene : kPeerScenes) {
      const auto value = [&](const EngineCase& engine, const char* name) {
        const auto it = medians_.find(std::string("peers/") + scene.file + "/" + engine.key);
        if (it == medians_.end()) return -1.0;
        const auto c = it->second.find(name);
        return c == it->second.end() ? -1.0 : c->second.value;
      };
      const double pivot_rate = value(kEngines[0], "steps_per_s");
      for (const EngineCase& engine : kEngines) {
        const double rate = value(engine, "steps_per_s");
        if (rate < 0) {
          std::printf("| %s | %s | - | failed (see above) | - | - | - |\n", scene.label,
                      engine.label);
          continue;
        }
        std::printf("| %s | %s | %.1f | %.0f | %.2f | %.2e | %.0f |\n", scene.label, engine.label,
                    value(engine, "contacts"), rate, pivot_rate > 0 ? pivot_rate / rate : 0.0,
                    value(engine, "drift_m"), value(engine, "errors"));
      }
    }
  }
#endif

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
#ifdef PIVOT_STEP_BENCH_PEERS
  for (const SceneCase& scene : kPeerScenes) {
    for (const EngineCase& engine : kEngines) {
      benchmark::RegisterBenchmark((std::string("peers/") + scene.file + "/" + engine.key).c_str(),
                                   step_peer, std::string(scene.file), engine.engine)
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond)
          ->Iterations(1)
          ->Repetitions(3)
          ->ReportAggregatesOnly(true);
    }
  }
#endif
  TableReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  reporter.print_table();
#ifdef PIVOT_STEP_BENCH_PEERS
  reporter.print_peer_table();
#endif
  benchmark::Shutdown();
  return 0;
}
