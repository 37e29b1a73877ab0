// The long-run soak of shipped scenes (docs/robustness.md, "Scene soak"): each scene run
// for a long simulated time with each method, as a user leaves the viewer running, counting
// what goes wrong. A failed step (no method solved an island) is the defect this hunts;
// fallbacks (a fast method failed, the standard one answered) are counted apart.
//
//   scene_soak [--duration S] [--method M]... [-d N] [--h S] [--max-failures K]
//              [--wall-limit W] [--trace N] [--keep-failures DIR] [--keep-fallbacks DIR]
//              SCENE...
//
// S simulated seconds per run (default 60); M of standard | structural | reduced, as many as
// given (default: all three); d and h override the scene's. A run stops after K failed
// steps (default 10: by then the scene is wrecked, and a wrecked stack can take minutes a
// step). --wall-limit W ends a run after W seconds of wall time (default 0: none), the step
// under way abandoned at the limit (WorldOptions::step_time_limit_s), so a scene a method
// cannot keep up with (the bin pile with the standard method: issue 20) leaves the rest of
// the soak its time; the row then says how many steps were done. Prints one Markdown table
// row per scene and method: steps, failed steps, fallbacks,
// largest pivots in a step, largest penetration, the largest displacement of any dynamic
// body from its initial position (the drift of a resting scene), and wall time. The failed
// islands' problems are written to a temporary folder that is removed at the end, or to DIR
// with --keep-failures (to turn into regression files). --trace N prints to stderr, every N
// steps, the largest body speeds, pivots, fallbacks and failures of those N steps: how a
// resting stack's noise grows before it fails (docs/robustness.md). --keep-fallbacks DIR
// writes the problems of the steps that fell back, as the step saw them: the step is taken
// again from the same state with a pivot limit of 1, so that its islands fail and are
// written (every island of that step that needs a pivot); the run then goes on from the
// state the first try reached, but cold (World::set_state forgets the warm starts), so a
// run that keeps its fallbacks is not the same trajectory as one that does not. Exits 1
// when any run had a failed step or ended at its wall limit.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "pivot/scene.hpp"
#include "pivot/world.hpp"

namespace {

using namespace pivot;

struct Options {
  double duration_s = 60.0;
  std::vector<LcpMethod> methods;
  int d = 0;         // 0: the scene's
  double h_s = 0.0;  // 0: the scene's
  int max_failures = 10;
  double wall_limit_s = 0.0;  // 0: none
  long trace_every = 0;       // 0: no trace
  std::string keep_failures;  // empty: a temporary folder, removed at the end
  std::string keep_fallbacks;  // empty: not written
  std::vector<std::string> scenes;
};

struct Outcome {
  long steps = 0;
  long steps_planned = 0;
  bool wall_stopped = false;  // ended at --wall-limit before steps_planned
  int failed_steps = 0;
  int fallbacks = 0;
  int max_pivots = 0;
  double max_penetration_m = 0.0;
  double max_displacement_m = 0.0;
  double wall_s = 0.0;
};

// The maxima of one --trace window of steps.
struct TraceWindow {
  double speed_mps = 0.0;   // largest |v| of a body
  double turn_radps = 0.0;  // largest |omega| of a body
  int min_pivots = 0, max_pivots = 0;
  int fallbacks = 0, failed_steps = 0;
  bool empty = true;

  void add(const WorldState& state, const StepStats& s) {
    for (const BodyState& b : state.bodies) {
      speed_mps = std::max(speed_mps, b.twist.linear.norm());
      turn_radps = std::max(turn_radps, b.twist.angular.norm());
    }
    min_pivots = empty ? s.pivots : std::min(min_pivots, s.pivots);
    max_pivots = std::max(max_pivots, s.pivots);
    fallbacks += s.fallbacks;
    failed_steps += s.failures > 0;
    empty = false;
  }
  void print(double time_s) const {
    std::fprintf(stderr,
                 "t %.2f s  max |v| %.2e m/s  max |omega| %.2e rad/s  pivots %d..%d  "
                 "fallbacks %d  failed steps %d\n",
                 time_s, speed_mps, turn_radps, min_pivots, max_pivots, fallbacks, failed_steps);
  }
};

[[noreturn]] void usage(const char* message) {
  std::fprintf(stderr,
               "scene_soak: %s\nusage: scene_soak [--duration S] [--method M]... [-d N] [--h S] "
               "[--max-failures K] [--wall-limit W] [--trace N] [--keep-failures DIR] "
               "[--keep-fallbacks DIR] SCENE...\n",
               message);
  std::exit(2);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int k = 1; k < argc; ++k) {
    const std::string arg = argv[k];
    const auto value = [&]() -> std::string {
      if (k + 1 >= argc) usage(("missing value after " + arg).c_str());
      return argv[++k];
    };
    if (arg == "--duration") {
      o.duration_s = std::atof(value().c_str());
    } else if (arg == "--method") {
      LcpMethod m;
      const std::string text = value();
      if (!parse_lcp_method(text, &m)) usage(("unknown method " + text).c_str());
      o.methods.push_back(m);
    } else if (arg == "-d") {
      o.d = std::atoi(value().c_str());
    } else if (arg == "--h") {
      o.h_s = std::atof(value().c_str());
    } else if (arg == "--max-failures") {
      o.max_failures = std::atoi(value().c_str());
    } else if (arg == "--wall-limit") {
      o.wall_limit_s = std::atof(value().c_str());
      if (!(o.wall_limit_s >= 0.0)) usage("--wall-limit needs seconds >= 0");
    } else if (arg == "--trace") {
      o.trace_every = std::atol(value().c_str());
      if (o.trace_every < 1) usage("--trace needs a number of steps >= 1");
    } else if (arg == "--keep-failures") {
      o.keep_failures = value();
    } else if (arg == "--keep-fallbacks") {
      o.keep_fallbacks = value();
    } else if (!arg.empty() && arg[0] == '-') {
      usage(("unknown option " + arg).c_str());
    } else {
      o.scenes.push_back(arg);
    }
  }
  if (o.scenes.empty()) usage("no scene given");
  if (!(o.duration_s > 0.0) || o.max_failures < 1) usage("duration and max failures must be > 0");
  if (o.methods.empty())
    o.methods = {LcpMethod::Reduced, LcpMethod::Structural, LcpMethod::Standard};
  return o;
}

// The step from `before` taken again with a pivot limit of 1, its islands' problems written
// to dir (as failed solves: "failed-step-S-island-I.contact"); then back to the state the
// step had reached.
void write_fallback_problems(World* world, const WorldState& before, const std::string& dir) {
  const WorldState after = world->state();
  const WorldOptions options = world->options();
  world->set_state(before);
  world->options().lemke.max_pivots = 1;
  world->options().on_failure = FailurePolicy::Continue;
  world->step();
  for (const FailedSolve& failed : world->failed_solves()) write_failed_solve(failed, dir);
  world->options() = options;
  world->set_state(after);
}

Outcome soak(Scene scene, LcpMethod method, const Options& o, const std::string& failure_dir,
             const std::string& fallback_dir) {
  scene.settings.solver = method;
  if (o.d > 0) scene.settings.friction_directions = o.d;
  if (o.h_s > 0.0) scene.settings.time_step_s = o.h_s;
  World world(scene, WorldOptions{FailurePolicy::Continue, {}});
  const std::vector<BodyState> start = world.state().bodies;
  Outcome out;
  out.steps_planned = std::lround(o.duration_s / scene.settings.time_step_s);
  TraceWindow window;
  const auto t0 = std::chrono::steady_clock::now();
  const auto elapsed_s = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  WorldState before;
  while (out.steps < out.steps_planned && out.failed_steps < o.max_failures) {
    if (o.wall_limit_s > 0.0) {
      const double left_s = o.wall_limit_s - elapsed_s();
      out.wall_stopped = left_s <= 0.0;
      if (out.wall_stopped) break;
      world.options().step_time_limit_s = left_s;
    }
    if (!fallback_dir.empty()) before = world.state();
    const StepStats s = world.step();
    if (s.cancelled) {  // abandoned at the wall limit: the state is the step's start
      out.wall_stopped = true;
      break;
    }
    ++out.steps;
    if (o.trace_every > 0) {
      window.add(world.state(), s);
      if (out.steps % o.trace_every == 0) {
        window.print(world.state().time_s);
        window = TraceWindow{};
      }
    }
    out.failed_steps += s.failures > 0;
    for (const FailedSolve& failed : world.failed_solves()) write_failed_solve(failed, failure_dir);
    if (s.fallbacks > 0 && !fallback_dir.empty())
      write_fallback_problems(&world, before, fallback_dir);
    out.fallbacks += s.fallbacks;
    out.max_pivots = std::max(out.max_pivots, s.pivots);
    out.max_penetration_m = std::max(out.max_penetration_m, s.max_penetration_m);
    for (size_t b = 0; b < start.size(); ++b) {
      if (scene.bodies[b].fixed) continue;
      const double moved = (world.state().bodies[b].pose.position - start[b].pose.position).norm();
      out.max_displacement_m = std::max(out.max_displacement_m, moved);
    }
  }
  out.wall_s = elapsed_s();
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  const bool keep = !o.keep_failures.empty();
  const std::filesystem::path failures =
      keep ? std::filesystem::path(o.keep_failures)
           : std::filesystem::temp_directory_path() / ("scene_soak_" + std::to_string(::getpid()));
  std::printf(
      "| scene | method | d | h [s] | steps | failed steps | fallbacks | max pivots/step | "
      "max penetration [m] | largest displacement [m] | wall [s] |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
  bool any_failed = false;
  for (const std::string& path : o.scenes) {
    Scene scene;
    try {
      scene = read_scene_file(path).scene;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "scene_soak: %s\n", e.what());
      return 2;
    }
    for (LcpMethod method : o.methods) {
      // One folder a run: the World names its files by step and island alone.
      const std::filesystem::path run_dir =
          failures / (std::filesystem::path(path).stem().string() + "-" + to_string(method));
      std::filesystem::create_directories(run_dir);
      std::string fallback_dir;
      if (!o.keep_fallbacks.empty()) {
        fallback_dir = (o.keep_fallbacks / run_dir.filename()).string();
        std::filesystem::create_directories(fallback_dir);
      }
      const Outcome r = soak(scene, method, o, run_dir.string(), fallback_dir);
      any_failed = any_failed || r.failed_steps > 0 || r.wall_stopped;
      const std::string steps =
          r.wall_stopped
              ? std::to_string(r.steps) + " of " + std::to_string(r.steps_planned) + " (wall limit)"
              : std::to_string(r.steps);
      const std::string failed = r.failed_steps >= o.max_failures
                                     ? ">= " + std::to_string(r.failed_steps) + " (stopped)"
                                     : std::to_string(r.failed_steps);
      std::printf("| `%s` | %s | %d | %g | %s | %s | %d | %d | %.2g | %.2g | %.1f |\n",
                  std::filesystem::path(path).filename().c_str(), to_string(method),
                  o.d > 0 ? o.d : scene.settings.friction_directions,
                  o.h_s > 0.0 ? o.h_s : scene.settings.time_step_s, steps.c_str(), failed.c_str(),
                  r.fallbacks, r.max_pivots, r.max_penetration_m, r.max_displacement_m, r.wall_s);
      std::fflush(stdout);
    }
  }
  if (!keep) std::filesystem::remove_all(failures);
  return any_failed ? 1 : 0;
}
