// Piles of boxes (issue 21): each scene stepped for up to --seconds of simulated time by
// Pivot and, when built with the peers (PIVOT_BENCH_PEERS, libode-dev), by ODE's exact
// dWorldStep in the same run; one Markdown table of what each did. The scenes are files
// (scripts/bench-piles.sh writes them with bench/pile_scene.py), read through Pivot's
// scene API, so Pivot and ODE step the same boxes.
//
//   pile_bench [--seconds S] [--step-limit S] [--wall-limit S] [--nonconvex max|sum|off]
//              [--threads N] SCENE...
//
// A plain program, not Google Benchmark: a pile may not finish. Pivot's step runs under
// WorldOptions::step_time_limit_s (--step-limit S: a step whose solves run longer is
// abandoned; default 0, no cap but the wall limit's) and each engine's run under
// --wall-limit per scene (default 60 s, which also caps Pivot's step); a run that ends
// early says how many steps it did and why it stopped. The slowest step is named, since a
// pile's time tends to go to a few steps. Failed steps are
// islands no method solved (FailurePolicy::Continue: the run goes on without their
// impulses). The last line is the least-squares slope of log(solve time per step) against
// log(bodies) over the scenes with 20 to 160 bodies that ran to the end. --threads N steps
// Pivot's islands on N threads (WorldOptions::threads, the same trajectory); ODE's
// dWorldStep has one.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "pivot/scene.hpp"
#include "pivot/world.hpp"

#ifdef PIVOT_BENCH_ODE
#include "peers/peer_world.hpp"
#endif

namespace {

using namespace pivot;
using Clock = std::chrono::steady_clock;

struct Options {
  double seconds = 10.0;
  double step_limit_s = 0.0;  // 0: a step may take what is left of the wall limit
  double wall_limit_s = 60.0;
  std::optional<NonconvexFormulation> nonconvex;  // absent: the scene's
  int threads = 1;
  std::vector<std::string> scenes;
};

// What one engine did on one scene.
struct Run {
  int steps_planned = 0;
  int steps_done = 0;
  std::string stopped;          // empty: ran to the end
  double abandoned_s = 0;       // wall time of the step abandoned at the end, if any
  std::vector<double> step_s;   // wall time of each step
  std::vector<double> solve_s;  // Pivot: its solve stage; ODE: the whole step
  std::vector<int> pivots;      // Pivot only
  // Pivot: each step's pivots over its active contacts (convex contacts and group sides with
  // a normal impulse), issue 21's measure "p99 pivots per step <= 3 x active contacts";
  // steps with no active contact are left out.
  std::vector<double> pivots_per_active;
  // The same over the step's takes (StepStats::substeps, plus the first take of a retaken
  // step): a step in substeps solves each island once a substep, a retaken step its whole
  // take besides, and issue 21 item 2 asks what one solve costs. A max group's selections
  // are still summed within a take. And per take over all the step's contacts and groups,
  // the LCP's size over 2 + d: Lemke's path pivots on the contacts in the margin too.
  std::vector<double> pivots_per_take_active, pivots_per_take_contact;
  double contacts = 0;          // summed over steps
  int max_contacts_per_step = 0;
  double island_contacts = 0;  // Pivot: contacts and groups, summed over islands and steps
  int islands = 0;             // Pivot: summed over steps
  int max_island_contacts = 0;
  double max_penetration_m = 0;
  int failed_steps = 0;
};

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

double sum(const std::vector<double>& v, std::size_t n) {
  double s = 0;
  for (std::size_t i = 0; i < std::min(n, v.size()); ++i) s += v[i];
  return s;
}

// The q-quantile of v (nearest rank), 0 for an empty v.
template <class T>
T quantile(std::vector<T> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(v.size())));
  return v[std::min(v.size() - 1, rank > 0 ? rank - 1 : 0)];
}

Run run_pivot(const Scene& scene, const Options& options) {
  WorldOptions world_options;
  world_options.on_failure = FailurePolicy::Continue;
  world_options.threads = options.threads;
  World world(scene, world_options);
  Run run;
  run.steps_planned = static_cast<int>(options.seconds / scene.settings.time_step_s + 0.5);
  const Clock::time_point t0 = Clock::now();
  std::map<int, int> per_island;  // island => contacts and groups, this step
  while (run.steps_done < run.steps_planned) {
    if (seconds_since(t0) > options.wall_limit_s) {
      run.stopped = "wall limit";
      break;
    }
    // The step's budget: the step limit, or what is left of the run's, so that the wall
    // limit bounds the run even when a step stalls.
    const double left_s = std::max(options.wall_limit_s - seconds_since(t0), 1e-3);
    const bool wall_bound = options.step_limit_s <= 0 || left_s < options.step_limit_s;
    world.options().step_time_limit_s = wall_bound ? left_s : options.step_limit_s;
    const Clock::time_point s0 = Clock::now();
    const StepStats& stats = world.step();
    const double step_s = seconds_since(s0);
    if (stats.cancelled) {
      run.abandoned_s = step_s;
      char why[192];
      std::snprintf(why, sizeof(why),
                    "step %d (t = %.2f s) abandoned after %.1f s at the %s limit (%d contacts, "
                    "%d groups, %d islands)",
                    run.steps_done, run.steps_done * scene.settings.time_step_s, step_s,
                    wall_bound ? "wall" : "step", stats.contacts, stats.groups, stats.islands);
      run.stopped = why;
      break;
    }
    ++run.steps_done;
    run.step_s.push_back(step_s);
    run.solve_s.push_back(stats.solve_us * 1e-6);
    run.pivots.push_back(stats.pivots);
    int active = 0;
    for (const auto* list : {&world.impulses(), &world.side_impulses()}) {
      for (const ContactImpulse& impulse : *list) active += impulse.normal_ns > 0.0 ? 1 : 0;
    }
    if (active > 0) {
      run.pivots_per_active.push_back(static_cast<double>(stats.pivots) / active);
      const int takes = stats.substeps + (stats.retaken ? 1 : 0);
      run.pivots_per_take_active.push_back(static_cast<double>(stats.pivots) / takes / active);
      run.pivots_per_take_contact.push_back(static_cast<double>(stats.pivots) / takes /
                                            (stats.contacts + stats.groups));
    }
    run.contacts += stats.contacts;
    run.max_contacts_per_step = std::max(run.max_contacts_per_step, stats.contacts);
    run.max_penetration_m = std::max(run.max_penetration_m, stats.max_penetration_m);
    run.failed_steps += stats.failures > 0 ? 1 : 0;
    per_island.clear();
    for (const ContactImpulse& impulse : world.impulses()) ++per_island[impulse.island];
    for (const ContactImpulse& impulse : world.side_impulses()) {
      per_island[impulse.island] += impulse.side == 0 ? 1 : 0;  // a group once, not per side
    }
    for (const auto& [island, n] : per_island) {
      run.island_contacts += n;
      run.max_island_contacts = std::max(run.max_island_contacts, n);
    }
    run.islands += static_cast<int>(per_island.size());
  }
  return run;
}

#ifdef PIVOT_BENCH_ODE
Run run_ode(const Scene& scene, const Options& options) {
  const auto world = peers::make_ode_world(scene, peers::OdeStepper::Exact);
  Run run;
  run.steps_planned = static_cast<int>(options.seconds / scene.settings.time_step_s + 0.5);
  const Clock::time_point t0 = Clock::now();
  while (run.steps_done < run.steps_planned) {
    if (seconds_since(t0) > options.wall_limit_s) {
      run.stopped = "wall limit";
      break;
    }
    const Clock::time_point s0 = Clock::now();
    world->step();
    run.step_s.push_back(seconds_since(s0));
    run.solve_s.push_back(run.step_s.back());
    ++run.steps_done;
    const peers::PeerStepStats& stats = world->last_stats();
    run.contacts += stats.contacts;
    run.max_contacts_per_step = std::max(run.max_contacts_per_step, stats.contacts);
    run.max_penetration_m = std::max(run.max_penetration_m, stats.max_penetration_m);
  }
  return run;
}
#endif

int dynamic_bodies(const Scene& scene) {
  int n = 0;
  for (const Body& body : scene.bodies) n += body.fixed ? 0 : 1;
  return n;
}

std::string base_name(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

void print_row(const std::string& scene, int bodies, const char* engine, const Run& run,
               const Run* pivot) {
  const double wall = sum(run.step_s, run.step_s.size()) + run.abandoned_s;
  const double steps = std::max(run.steps_done, 1);
  std::printf("| %s | %d | %s | %d / %d | %s | %.0f | %.3g |", scene.c_str(), bodies, engine,
              run.steps_done, run.steps_planned, run.stopped.empty() ? "-" : run.stopped.c_str(),
              run.steps_done / std::max(wall, 1e-12),
              1e3 * sum(run.solve_s, run.solve_s.size()) / steps);
  if (pivot) {  // ODE: its time over the steps Pivot did, against Pivot's
    const auto n = static_cast<std::size_t>(pivot->steps_done);
    std::printf(" %.3g |",
                n > 0 ? sum(run.step_s, n) / std::max(sum(pivot->step_s, n), 1e-12) : 0.0);
  } else {
    std::printf(" - |");
  }
  const auto slowest = std::max_element(run.step_s.begin(), run.step_s.end());
  if (slowest == run.step_s.end()) {
    std::printf(" - |");
  } else {
    const auto k = static_cast<std::size_t>(slowest - run.step_s.begin());
    std::printf(" %zu: %.3g s", k, *slowest);
    if (!run.pivots.empty()) std::printf(", %d pivots", run.pivots[k]);
    std::printf(" |");
  }
  if (run.pivots.empty()) {
    std::printf(" - | - | - | - | - |");
  } else {
    std::printf(" %d / %d / %d | %.2f / %.2f | %.2f / %.2f | %.2f |", quantile(run.pivots, 0.5),
                quantile(run.pivots, 0.99), quantile(run.pivots, 1.0),
                quantile(run.pivots_per_active, 0.99), quantile(run.pivots_per_active, 1.0),
                quantile(run.pivots_per_take_active, 0.99),
                quantile(run.pivots_per_take_active, 1.0),
                quantile(run.pivots_per_take_contact, 0.99));
    std::printf(" %.1f (%d) |", run.island_contacts / std::max(run.islands, 1),
                run.max_island_contacts);
  }
  std::printf(" %.1f (%d) | %.2f | %s |\n", run.contacts / steps, run.max_contacts_per_step,
              1e3 * run.max_penetration_m,
              run.pivots.empty() ? "-" : std::to_string(run.failed_steps).c_str());
  std::fflush(stdout);
}

// Least squares slope of log(y) on log(x).
double log_log_slope(const std::vector<std::pair<double, double>>& xy) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (const auto& [x, y] : xy) {
    sx += std::log(x);
    sy += std::log(y);
    sxx += std::log(x) * std::log(x);
    sxy += std::log(x) * std::log(y);
  }
  const double n = static_cast<double>(xy.size());
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

void print_slope(const char* engine, const std::vector<std::pair<double, double>>& xy) {
  if (xy.size() < 2) {
    std::printf(
        "- %s: slope of log(solve time per step) on log(bodies), 20 to 160 bodies: not "
        "measured (%zu of the piles ran to the end)\n",
        engine, xy.size());
    return;
  }
  std::printf(
      "- %s: slope of log(solve time per step) on log(bodies) over the %zu piles of 20 to "
      "160 bodies that ran to the end: %.2f\n",
      engine, xy.size(), log_log_slope(xy));
}

bool parse(int argc, char** argv, Options* options) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--seconds" && has_value) {
      options->seconds = std::atof(argv[++i]);
    } else if (arg == "--step-limit" && has_value) {
      options->step_limit_s = std::atof(argv[++i]);
    } else if (arg == "--wall-limit" && has_value) {
      options->wall_limit_s = std::atof(argv[++i]);
    } else if (arg == "--nonconvex" && has_value) {
      NonconvexFormulation formulation;
      if (!parse_nonconvex_formulation(argv[++i], &formulation)) return false;
      options->nonconvex = formulation;
    } else if (arg == "--threads" && has_value) {
      options->threads = std::atoi(argv[++i]);
    } else if (arg.rfind("--", 0) == 0) {
      return false;
    } else {
      options->scenes.push_back(arg);
    }
  }
  return !options->scenes.empty() && options->seconds > 0 && options->step_limit_s >= 0 &&
         options->wall_limit_s > 0 && options->threads >= 1;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (!parse(argc, argv, &options)) {
    std::fprintf(stderr,
                 "usage: pile_bench [--seconds S] [--step-limit S] [--wall-limit S] "
                 "[--nonconvex max|sum|off] [--threads N] SCENE...\n");
    return 2;
  }
  std::printf(
      "| scene | bodies | engine | steps done / planned | stopped by | steps/s | solve [ms/step] | "
      "ODE time / Pivot's, same steps | slowest step: index, wall, pivots | pivots per step: "
      "median / p99 / max | pivots per active contact: p99 / max | pivots per take per active "
      "contact: p99 / max | pivots per take per contact: p99 | contacts and groups per island: "
      "mean (max) | contacts per step: mean (max) | max penetration [mm] | failed steps |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  std::vector<std::pair<double, double>> pivot_slope, ode_slope;
  for (const std::string& file : options.scenes) {
    Scene scene;
    try {
      scene = read_scene_file(file).scene;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "pile_bench: %s\n", e.what());
      return 1;
    }
    if (options.nonconvex) scene.settings.nonconvex = *options.nonconvex;
    const std::string label = base_name(file) + " (" + to_string(scene.settings.nonconvex) + ")";
    const int bodies = dynamic_bodies(scene);
    const bool in_slope = bodies >= 20 && bodies <= 160 && base_name(file).rfind("pile", 0) == 0;
    const Run pivot = run_pivot(scene, options);
    const std::string engine =
        options.threads > 1 ? "Pivot, " + std::to_string(options.threads) + " threads" : "Pivot";
    print_row(label, bodies, engine.c_str(), pivot, nullptr);
    if (in_slope && pivot.stopped.empty()) {
      pivot_slope.emplace_back(bodies, sum(pivot.solve_s, pivot.solve_s.size()) / pivot.steps_done);
    }
#ifdef PIVOT_BENCH_ODE
    const Run ode = run_ode(scene, options);
    print_row(label, bodies, "ODE `dWorldStep`", ode, &pivot);
    if (in_slope && ode.stopped.empty()) {
      ode_slope.emplace_back(bodies, sum(ode.solve_s, ode.solve_s.size()) / ode.steps_done);
    }
#endif
  }
  std::printf("\n");
  print_slope("Pivot (solve stage)", pivot_slope);
#ifdef PIVOT_BENCH_ODE
  print_slope("ODE (whole dWorldStep with collision)", ode_slope);
#endif
  return 0;
}
