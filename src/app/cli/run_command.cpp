// `pivot run SCENE`: steps a scene headless, optionally recording its trajectory, and
// prints a summary. `pivot replay FILE`: validates a recording and summarises it.
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <vector>

#include "commands.hpp"
#include "pivot/recording.hpp"
#include "pivot/scene.hpp"
#include "pivot/world.hpp"

namespace pivot::cli {

namespace {

// Set by SIGINT and SIGTERM; the solvers read it between pivots (LemkeOptions::cancel), so
// a run ends within a pivot whatever the step is doing. Lock-free, hence signal-safe.
std::atomic<bool> g_interrupted{false};
std::atomic<int> g_signal{0};  // which one, for the exit status
static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free);
void on_signal(int signal) {
  g_signal.store(signal, std::memory_order_relaxed);
  g_interrupted.store(true, std::memory_order_relaxed);
}

struct RunOptions {
  std::string scene_path;
  double duration_s = 5.0;
  std::optional<double> h_s;
  std::optional<int> d;
  std::optional<double> mu;
  std::string method;
  std::string nonconvex;
  std::string record_path;
  int record_every = 1;
  bool contact_log = false;
  bool json = false;
  bool keep_going = false;
  std::string failure_dir;
  int max_pivots = 0;
  bool cold_start = false;
  int threads = 1;
};

struct RunSummary {
  std::int64_t steps = 0;
  double sim_time_s = 0.0;
  double wall_s = 0.0;
  double contacts_sum = 0.0;
  int contacts_max = 0;
  double pivots_sum = 0.0;
  int pivots_max = 0;
  double max_penetration_m = 0.0;
  double energy_start_j = 0.0;
  double energy_end_j = 0.0;
  std::int64_t island_solves = 0;
  std::int64_t warm_starts = 0;
  std::int64_t warm_paths = 0;
  int fallbacks = 0;
  std::array<int, kFallbackStages> rescues{};
  int failures = 0;
  int recoveries = 0;
  int deferred_penetrations = 0;
  // Steps run as substeps (StepStats::substeps > 1) by cause (substep_cause, indexed by
  // SubstepCause; None's stays 0), and their substeps.
  std::array<int, kSubstepCauses> substep_causes{};
  std::int64_t substeps_taken = 0;
  int steps_of(SubstepCause cause) const { return substep_causes[static_cast<int>(cause)]; }
  int substepped_steps() const {
    return std::accumulate(substep_causes.begin(), substep_causes.end(), 0);
  }
  // Max groups: the selections each step tried, over the steps that searched, and the
  // searches that spent their budget (StepStats::selection_budgets_exhausted).
  std::vector<int> selections;
  int selection_budgets_exhausted = 0;
  double collision_us = 0.0, assembly_us = 0.0, solve_us = 0.0, integrate_us = 0.0;
  bool interrupted = false;
};

void apply_overrides(const RunOptions& o, Scene* scene) {
  if (o.h_s) scene->settings.time_step_s = *o.h_s;
  if (o.d) scene->settings.friction_directions = *o.d;
  if (o.mu) scene->settings.friction_override = *o.mu;
  if (!o.method.empty() && !parse_lcp_method(o.method, &scene->settings.solver)) {
    throw CLI::ValidationError("--method",
                               "expected standard, structural or reduced, got '" + o.method + "'");
  }
  override_nonconvex(o.nonconvex, &scene->settings.nonconvex);
}

// (world after a step) => a recorded frame, when recording
void record_step(RecordingWriter* recording, World& world) {
  if (recording == nullptr) return;
  recording->record(world.state(), world.settings(), world.materials(), world.collision(),
                    world.impulses());
}

void draw_progress(double fraction, bool done) {
  const int width = 40;
  const int filled = static_cast<int>(fraction * width);
  std::fprintf(stderr, "\r[%s%s] %3d%%", std::string(filled, '#').c_str(),
               std::string(width - filled, ' ').c_str(), static_cast<int>(100 * fraction));
  if (done) std::fputc('\n', stderr);
  std::fflush(stderr);
}

// The q-quantile of v by nearest rank, 0 for an empty v.
int quantile(std::vector<int> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const auto rank = static_cast<size_t>(std::ceil(q * static_cast<double>(v.size())));
  return v[std::clamp<size_t>(rank, 1, v.size()) - 1];
}

void print_summary(const RunOptions& o, const Scene& scene, const RunSummary& s) {
  const double steps = std::max<double>(1.0, static_cast<double>(s.steps));
  const int selections_median = quantile(s.selections, 0.5);
  const int selections_p99 = quantile(s.selections, 0.99);
  const int selections_max = quantile(s.selections, 1.0);
  if (o.json) {
    nlohmann::ordered_json j;
    j["scene"] = o.scene_path;
    j["steps"] = s.steps;
    j["sim_time_s"] = s.sim_time_s;
    j["wall_time_s"] = s.wall_s;
    j["real_time_factor"] = s.wall_s > 0 ? s.sim_time_s / s.wall_s : 0.0;
    j["h_s"] = scene.settings.time_step_s;
    j["d"] = scene.settings.friction_directions;
    j["method"] = to_string(scene.settings.solver);
    j["nonconvex"] = to_string(scene.settings.nonconvex);
    j["contacts_per_step"] = {{"mean", s.contacts_sum / steps}, {"max", s.contacts_max}};
    j["pivots_per_step"] = {{"mean", s.pivots_sum / steps}, {"max", s.pivots_max}};
    j["max_penetration_m"] = s.max_penetration_m;
    j["energy_change_j"] = s.energy_end_j - s.energy_start_j;
    j["island_solves"] = s.island_solves;
    j["warm_starts"] = s.warm_starts;
    j["warm_paths"] = s.warm_paths;
    j["fallbacks"] = s.fallbacks;
    nlohmann::json rescues = nlohmann::json::object();
    for (int k = 0; k < kFallbackStages; ++k) {
      rescues[to_string(static_cast<FallbackStage>(k))] = s.rescues[k];
    }
    j["rescues"] = rescues;
    j["failures"] = s.failures;
    j["recoveries"] = s.recoveries;
    j["deferred_penetrations"] = s.deferred_penetrations;
    j["substepped_steps"] = {{"steps", s.substepped_steps()}, {"substeps", s.substeps_taken}};
    for (int c = 1; c < kSubstepCauses; ++c) {  // every cause but None
      const auto cause = static_cast<SubstepCause>(c);
      j["substepped_steps"][to_string(cause)] = s.steps_of(cause);
    }
    j["selections_per_step"] = {{"steps", s.selections.size()},
                                {"median", selections_median},
                                {"p99", selections_p99},
                                {"max", selections_max}};
    j["selection_budgets_exhausted"] = s.selection_budgets_exhausted;
    j["stage_us_per_step"] = {{"collision", s.collision_us / steps},
                              {"assembly", s.assembly_us / steps},
                              {"solve", s.solve_us / steps},
                              {"integrate", s.integrate_us / steps}};
    j["interrupted"] = s.interrupted;
    if (!o.record_path.empty()) j["recording"] = o.record_path;
    std::cout << j.dump() << "\n";
    return;
  }
  std::printf("scene            %s\n", o.scene_path.c_str());
  std::printf("steps            %lld (%.3f s simulated, h = %g s, d = %d, %s, nonconvex %s)%s\n",
              static_cast<long long>(s.steps), s.sim_time_s, scene.settings.time_step_s,
              scene.settings.friction_directions, to_string(scene.settings.solver),
              to_string(scene.settings.nonconvex), s.interrupted ? "  [interrupted]" : "");
  std::printf("wall time        %.3f s (real-time factor %.2f)\n", s.wall_s,
              s.wall_s > 0 ? s.sim_time_s / s.wall_s : 0.0);
  std::printf("contacts/step    mean %.1f, max %d\n", s.contacts_sum / steps, s.contacts_max);
  std::printf("pivots/step      mean %.1f, max %d\n", s.pivots_sum / steps, s.pivots_max);
  std::printf("stage us/step    collision %.1f, assembly %.1f, solve %.1f, integrate %.1f\n",
              s.collision_us / steps, s.assembly_us / steps, s.solve_us / steps,
              s.integrate_us / steps);
  std::printf("max penetration  %.3g m\n", s.max_penetration_m);
  std::printf("energy change    %.6g J (%.6g -> %.6g)\n", s.energy_end_j - s.energy_start_j,
              s.energy_start_j, s.energy_end_j);
  std::printf("warm starts      %lld of %lld island solves (the previous step's basis, no pivot)\n",
              static_cast<long long>(s.warm_starts), static_cast<long long>(s.island_solves));
  std::printf("warm paths       %lld (Lemke's path started at that basis)\n",
              static_cast<long long>(s.warm_paths));
  std::string rescued;
  for (int k = 0; k < kFallbackStages; ++k) {
    if (s.rescues[k] == 0) continue;
    rescued += std::string(rescued.empty() ? " (answered by " : ", ") +
               to_string(static_cast<FallbackStage>(k)) + " " + std::to_string(s.rescues[k]);
  }
  if (!rescued.empty()) rescued += ")";
  std::printf("fallbacks        %d%s, failures %d\n", s.fallbacks, rescued.c_str(), s.failures);
  std::printf("recoveries       %d (islands pushed out of a penetration)\n", s.recoveries);
  if (s.substepped_steps() > 0) {
    std::printf("substeps         %d steps in %lld substeps (%d for %s, %d %s, %d %s)\n",
                s.substepped_steps(), static_cast<long long>(s.substeps_taken),
                s.steps_of(SubstepCause::FastSpin), describe(SubstepCause::FastSpin),
                s.steps_of(SubstepCause::Retaken), describe(SubstepCause::Retaken),
                s.steps_of(SubstepCause::Carried), describe(SubstepCause::Carried));
  }
  if (s.deferred_penetrations > 0) {
    std::printf(
        "deferred         %d (penetrations left to the push where the velocity LCP had no "
        "solution: a wedge friction locks)\n",
        s.deferred_penetrations);
  }
  if (!s.selections.empty()) {
    std::printf(
        "selections/step  median %d, p99 %d, max %d over %zu steps with max groups; budget "
        "exhausted %d times\n",
        selections_median, selections_p99, selections_max, s.selections.size(),
        s.selection_budgets_exhausted);
  }
  if (!o.record_path.empty()) std::printf("recording        %s\n", o.record_path.c_str());
}

int run_scene(const RunOptions& o) {
  LoadedScene loaded = read_scene_file(o.scene_path);
  for (const std::string& w : loaded.warnings) std::cerr << "pivot: warning: " << w << "\n";
  apply_overrides(o, &loaded.scene);
  WorldOptions world_options;
  world_options.on_failure = o.keep_going ? FailurePolicy::Continue : FailurePolicy::Stop;
  if (!o.failure_dir.empty()) {
    // Made before the first step, so a wrong path is reported before any simulation.
    std::error_code error;
    std::filesystem::create_directories(o.failure_dir, error);
    if (error) {
      throw std::runtime_error("cannot create --failure-dir '" + o.failure_dir +
                               "': " + error.message());
    }
  }
  world_options.lemke.max_pivots = o.max_pivots;
  world_options.warm_start = !o.cold_start;
  world_options.threads = o.threads;
  world_options.lemke.cancel = &g_interrupted;
  World world(loaded.scene, world_options);

  std::unique_ptr<RecordingWriter> recording;
  if (!o.record_path.empty()) {
    recording = std::make_unique<RecordingWriter>(o.record_path, world.scene(), o.scene_path,
                                                  o.record_every, o.contact_log);
    record_step(recording.get(), world);
  }
  g_interrupted = false;
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);

  RunSummary s;
  s.energy_start_j = world.energy_j();
  const bool progress = !o.json && ::isatty(STDERR_FILENO);
  const double h = world.scene().settings.time_step_s;
  const auto steps = static_cast<std::int64_t>(std::llround(o.duration_s / h));
  const auto start = std::chrono::steady_clock::now();
  int last_percent = -1;
  int exit_code = 0;
  try {
    for (std::int64_t k = 0; k < steps && !g_interrupted; ++k) {
      const StepStats& st = world.step();
      if (st.cancelled) break;  // the abandoned step left the state at its start
      ++s.steps;
      s.contacts_sum += st.contacts;
      s.contacts_max = std::max(s.contacts_max, st.contacts);
      s.pivots_sum += st.pivots;
      s.pivots_max = std::max(s.pivots_max, st.pivots);
      s.max_penetration_m = std::max(s.max_penetration_m, st.max_penetration_m);
      s.island_solves += st.islands;
      s.warm_starts += st.warm_starts;
      s.warm_paths += st.warm_paths;
      s.fallbacks += st.fallbacks;
      for (int stage = 0; stage < kFallbackStages; ++stage) s.rescues[stage] += st.rescues[stage];
      s.failures += st.failures;
      for (const FailedSolve& failed : world.failed_solves()) {
        write_failed_solve(failed, o.failure_dir);
      }
      s.recoveries += st.recoveries;
      s.deferred_penetrations += st.deferred_penetrations;
      if (st.substeps > 1) {
        s.substeps_taken += st.substeps;
        ++s.substep_causes[static_cast<int>(substep_cause(st))];
      }
      if (st.selections > 0) s.selections.push_back(st.selections);
      s.selection_budgets_exhausted += st.selection_budgets_exhausted;
      s.collision_us += st.collision_us;
      s.assembly_us += st.assembly_us;
      s.solve_us += st.solve_us;
      s.integrate_us += st.integrate_us;
      record_step(recording.get(), world);
      const int percent = static_cast<int>(100 * (k + 1) / steps);
      if (progress && percent != last_percent) {
        draw_progress(static_cast<double>(k + 1) / steps, k + 1 == steps);
        last_percent = percent;
      }
    }
  } catch (const SolverFailure& e) {
    // Keep what was recorded up to the failing step, then report.
    // The step that failed counts, so the summary never says "failures 0" after one.
    const std::string file = write_failed_solve(e.failed(), o.failure_dir);
    std::cerr << (progress ? "\n" : "") << "pivot: error: " << e.what() << "; problem written to "
              << file << "\n";
    ++s.failures;
    exit_code = 1;
  }
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  s.interrupted = g_interrupted;
  if (progress && s.interrupted) std::fputc('\n', stderr);
  s.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  s.sim_time_s = world.state().time_s;
  s.energy_end_j = world.energy_j();
  if (recording) recording->finish();
  print_summary(o, world.scene(), s);
  // The shell's convention for death by a signal: 130 for SIGINT, 143 for SIGTERM.
  if (s.interrupted) return 128 + g_signal;
  return exit_code;
}

int replay(const std::string& path, bool json) {
  const Recording rec = read_recording(path);
  const double t0 = rec.frames.empty() ? 0.0 : rec.frames.front().time_s;
  const double t1 = rec.frames.empty() ? 0.0 : rec.frames.back().time_s;
  if (json) {
    nlohmann::ordered_json j;
    j["recording"] = path;
    j["pivot_version"] = rec.info.pivot_version;
    j["scene"] = rec.info.scene_path;
    j["bodies"] = rec.info.bodies;
    j["frames"] = rec.frames.size();
    j["t_start_s"] = t0;
    j["t_end_s"] = t1;
    j["h_s"] = rec.info.time_step_s;
    j["d"] = rec.info.friction_directions;
    j["method"] = rec.info.solver;
    j["nonconvex"] = rec.info.nonconvex;
    std::cout << j.dump() << "\n";
    return 0;
  }
  std::printf("recording  %s (pivot %s)\n", path.c_str(), rec.info.pivot_version.c_str());
  std::printf("scene      %s\n", rec.info.scene_path.c_str());
  std::printf("bodies     %zu\n", rec.info.bodies.size());
  std::printf("frames     %zu, t = %.6g .. %.6g s (h = %g s, every %d steps)\n", rec.frames.size(),
              t0, t1, rec.info.time_step_s, rec.info.record_every);
  std::printf("settings   d = %d, %s, nonconvex %s\n", rec.info.friction_directions,
              rec.info.solver.c_str(), rec.info.nonconvex.c_str());
  if (!rec.frames.empty()) {
    const RecordedFrame& last = rec.frames.back();
    for (size_t k = 0; k < rec.info.bodies.size(); ++k) {
      const Vec3& p = last.bodies[k].pose.position;
      std::printf("  %-16s final position (%.6g, %.6g, %.6g) m\n", rec.info.bodies[k].c_str(),
                  p.x(), p.y(), p.z());
    }
  }
  return 0;
}

}  // namespace

void override_nonconvex(const std::string& text, NonconvexFormulation* formulation) {
  if (!text.empty() && !parse_nonconvex_formulation(text, formulation)) {
    throw CLI::ValidationError("--nonconvex", "expected max, sum or off, got '" + text + "'");
  }
}

void add_run_commands(CLI::App& app, int* exit_code) {
  auto o = std::make_shared<RunOptions>();
  CLI::App* run = app.add_subcommand("run", "Simulate a scene headless and print a summary");
  run->add_option("SCENE", o->scene_path, "Scene file (JSON)")->required();
  run->add_option("--duration", o->duration_s, "Simulated time [s]")->check(CLI::PositiveNumber);
  run->add_option("--h", o->h_s, "Time step [s] (overrides the scene)")->check(CLI::PositiveNumber);
  run->add_option("-d,--directions", o->d, "Friction directions per contact")
      ->check(CLI::Range(kMinFrictionDirections, kMaxFrictionDirections));
  run->add_option("--mu", o->mu, "Friction coefficient for every contact")
      ->check(CLI::NonNegativeNumber);
  run->add_option("--method", o->method, "standard | structural | reduced");
  run->add_option("--nonconvex", o->nonconvex, "max | sum | off");
  run->add_option("--record", o->record_path, "Write the trajectory to this CSV (+ .json sidecar)");
  run->add_option("--record-every", o->record_every, "Record every K-th step")
      ->check(CLI::PositiveNumber);
  run->add_flag("--contacts", o->contact_log, "Also log contacts and impulses (FILE.contacts.csv)");
  run->add_flag("--json", o->json, "Print the summary as one JSON object");
  run->add_flag("--keep-going", o->keep_going,
                "After a failed solve, write the problem file and continue without impulses");
  run->add_option("--failure-dir", o->failure_dir,
                  "Where failed problems are written (default: .)");
  run->add_option("--max-pivots", o->max_pivots,
                  "Give up a solve after K pivots (0: a default that grows with its size)")
      ->check(CLI::NonNegativeNumber);
  run->add_flag("--cold-start", o->cold_start,
                "Start every solve at Lemke's Step 0, not from the previous step's basis");
  run->add_option("--threads", o->threads,
                  "Threads a step's collision pairs and islands run on (the same result for any)")
      ->check(CLI::Range(1, 256));  // PositiveNumber's message named 0 as in its range
  run->callback([o, exit_code] { *exit_code = run_scene(*o); });

  auto replay_path = std::make_shared<std::string>();
  auto replay_json = std::make_shared<bool>(false);
  CLI::App* rep = app.add_subcommand("replay", "Validate a recording and print its summary");
  rep->add_option("FILE", *replay_path, "Recording CSV (with FILE.json beside it)")->required();
  rep->add_flag("--json", *replay_json, "Print the summary as one JSON object");
  rep->callback(
      [replay_path, replay_json, exit_code] { *exit_code = replay(*replay_path, *replay_json); });
}

}  // namespace pivot::cli
