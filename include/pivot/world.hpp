// The simulation: a scene's bodies moved by Stewart–Trinkle time steps whose contact LCPs
// are solved by Lloyd's fast Lemke. The scene is the immutable model; WorldState is all
// that changes, so reset, step-back and replay copy one struct.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pivot/contact.hpp"
#include "pivot/lcp.hpp"
#include "pivot/problem_file.hpp"
#include "pivot/scene.hpp"

namespace pivot {

// What one step did, for the CLI summary, the viewer's stats panel and benchmarks.
struct StepStats {
  int contacts = 0;
  int groups = 0;
  int islands = 0;        // islands with at least one contact (those that need an LCP)
  int pivots = 0;         // summed over islands
  int warm_starts = 0;    // islands whose previous step's basis was the answer (no pivot)
  int warm_paths = 0;     // islands answered by Lemke's path started at that basis
  int fallbacks = 0;      // solves the scene's method failed, handed to the fallback chain
  std::array<int, kFallbackStages> rescues{};  // of those, answered by each FallbackStage
  int recoveries = 0;     // islands pushed out of a penetration deeper than the slop
  // islands whose velocity LCP had no solution with a penetration in it (a wedge that
  // friction locks), solved with all of the penetration left to the recovery push
  int deferred_penetrations = 0;
  int failures = 0;       // islands no method solved (only with FailurePolicy::Continue)
  // Max-formulation groups (docs/nonconvex-max.md): selections of active sides whose
  // Stewart-Trinkle LCP was solved, summed over islands and attempts, and the searches
  // that stopped at MaxGroupOptions::max_selections or ::max_failed_in_a_row (untried
  // selections left: no proof that none solves, unlike a search that tried them all).
  int selections = 0;
  int selection_budgets_exhausted = 0;
  // The step was abandoned: a solve was cancelled (LemkeOptions::cancel, or the deadline
  // of WorldOptions::step_time_limit_s). The state is the step's start, untouched.
  bool cancelled = false;
  // Substeps of h / substeps the step took: more than 1 only when a body spins too fast
  // for h to resolve its rotation (a needle about its axis), when the step, taken whole,
  // left a contact deeper than its linearisation allowed (retaken; docs/stewart-trinkle.md),
  // or when it was taken, without a retake, in the substeps carried from the last step
  // (carried: WorldState::carried_substeps, a retaken step's, one fewer a step after it).
  // Then the counts above are summed over the substeps (and both takes), the contacts and
  // groups and the impulses (World::impulses) are the last substep's.
  int substeps = 1;
  bool retaken = false;
  bool carried = false;
  double max_penetration_m = 0.0;  // max(0, -gap) over the step's contacts
  double time_step_s = 0.0;        // h of this (sub)step: impulse / h is the mean force [N]
  // Stage times [us]: collision and integration wall time; assembly, solve and the
  // islands' part of integration summed over islands (on several threads, more than the
  // step's wall time).
  double collision_us = 0.0;
  double assembly_us = 0.0;
  double solve_us = 0.0;
  double integrate_us = 0.0;
};

// Why a step ran in substeps (StepStats::substeps > 1), one answer for all who report it
// (the CLI's summary and JSON, the viewer's stats, Python's StepStats): a retake, a carry
// from one, else a body spinning too fast for h. None for a step taken whole.
enum class SubstepCause { None, FastSpin, Retaken, Carried };
constexpr int kSubstepCauses = 4;
SubstepCause substep_cause(const StepStats& stats);
// "none", "fast_spin", "retaken", "carried": the name in JSON and Python.
const char* to_string(SubstepCause cause);
// The cause in words, for summaries: "a body spinning too fast for h", ...
const char* describe(SubstepCause cause);

enum class FailurePolicy {
  Stop,      // throw SolverFailure carrying the failed solve
  Continue,  // move the island's bodies without contact impulses; World::failed_solves()
};

// An island no method solved, handed to the program (World::failed_solves, SolverFailure),
// which chooses whether to write it (write_failed_solve): the library writes no files of
// its own accord.
struct FailedSolve {
  std::int64_t step = 0;  // the step's index and start time [s]
  double time_s = 0.0;
  int island = -1;
  LcpStatus status = LcpStatus::PivotLimit;
  ContactProblemFile problem;  // with the island's groups, formulation and constant
};

// "step S (t = T s), island I with N contacts: no method solved the LCP (status)".
std::string describe(const FailedSolve& failed);

// Writes failed's problem (pivot-contact format, replay with `pivot lcp solve FILE`) to
// DIR/failed-step-S-island-I.contact, an empty dir meaning the current directory, and
// returns the path. Throws as write_contact_problem does.
std::string write_failed_solve(const FailedSolve& failed, const std::string& dir);

struct WorldOptions {
  FailurePolicy on_failure = FailurePolicy::Stop;
  LemkeOptions lemke;
  // Hand each island's fast solve the previous step's basis, matched by contact features
  // (solve_contact's warm start). Off: every solve starts at Lemke's Step 0.
  bool warm_start = true;
  // Wall-clock budget of one step's solves [s]: a step whose solves run longer is
  // abandoned (StepStats::cancelled), so an interactive program stays responsive when a
  // solve stalls. 0: no limit.
  double step_time_limit_s = 0.0;
  // Threads a step's collision pairs and islands run on, the caller's among them (>= 1):
  // a pair's collision and an island's solve each write their own output, merged in pair
  // and island order, so the result is the same to the bit for any number. The solve of a
  // single island is not split; many programs that each step a World (a sweep's jobs) are
  // better served by one thread each.
  int threads = 1;
};

// A solve that no method could finish. what() is describe(failed()).
class SolverFailure : public std::runtime_error {
 public:
  explicit SolverFailure(FailedSolve failed)
      : std::runtime_error(describe(failed)), failed_(std::move(failed)) {}
  const FailedSolve& failed() const { return failed_; }

 private:
  FailedSolve failed_;
};

enum class OnFailure;  // a solve's, World's internals (src/lcp/contact_solver.hpp)

class World {
 public:
  // Throws std::invalid_argument for a scene the stepper cannot run (see validate()).
  explicit World(Scene scene, WorldOptions options = {});
  ~World();
  World(World&&) noexcept;
  World& operator=(World&&) noexcept;

  const Scene& scene() const { return scene_; }
  // The options may change between steps too (a viewer's step budget, warm start).
  WorldOptions& options() { return options_; }
  // Settings and materials may change between steps (the viewer's sliders): d, h, the
  // friction override, method, nonconvex formulation, gravity; the next step uses them.
  SceneSettings& settings() { return scene_.settings; }
  std::vector<Material>& materials() { return scene_.materials; }
  // Wrenches [N, N m] on each body (index = scene body), force through its centre of mass
  // and torque about it, in world axes, added to the scene's scripted wrenches on every
  // step until changed: the viewer's mouse spring and key nudges. Zero after construction
  // and reset(); ignored on fixed bodies.
  void set_applied_wrench(int body, const Vec6& wrench);
  const std::vector<Vec6>& applied_wrenches() const { return applied_wrenches_; }

  const WorldState& state() const { return state_; }
  // Step back / replay; sizes must match, and carried_substeps be 1 to 64 (else
  // std::invalid_argument). Forgets the last step's contacts and impulses.
  void set_state(const WorldState& state);
  void reset();                              // back to the scene's initial states

  // One time step. Throws SolverFailure under FailurePolicy::Stop (the first failed
  // island's, in island order; the other islands' velocities may be set), and
  // std::invalid_argument for threads < 1. A cancelled solve
  // (WorldOptions::lemke.cancel, step_time_limit_s) abandons the step: StepStats::cancelled,
  // and the state stays the step's start.
  const StepStats& step();

  // Of the last step: contacts and groups found at its start, the impulses applied.
  const CollisionResult& collision() const;
  const std::vector<ContactImpulse>& impulses() const { return impulses_; }
  // The impulses on the sides of nonconvex groups (each side a plane contact, Egan Sec. IV).
  const std::vector<ContactImpulse>& side_impulses() const { return side_impulses_; }
  // The islands of the last step that no method solved (FailurePolicy::Continue), in
  // island order; StepStats::failures counts them.
  const std::vector<FailedSolve>& failed_solves() const { return failed_solves_; }
  const StepStats& last_stats() const { return stats_; }

  // Kinetic energy plus potential energy in gravity (zero at the origin) [J].
  double energy_j() const;

 private:
  struct Pipeline;

  // The stages of step(), in order (src/world/world.cpp).
  void begin_step();
  int take_substeps();
  void retake_step(int substeps);
  void begin_substep();
  void gather_wrenches();
  void free_motion();
  void detect_contacts();
  void step_islands();                 // step_island on every island, on options' threads
  bool step_island(int island_index);  // false: a solve was cancelled
  bool merge_islands();                // false: a solve was cancelled
  void integrate_poses();
  const StepStats& abandon_step();
  // Part of step_island: the solve's cost into StepStats, its result returned (kept in the
  // pipeline until the next solve).
  const LcpResult& solve(const ContactProblem& problem, const LcpBasis& warm, int island_index,
                         OnFailure on_failure);

  Scene scene_;
  WorldOptions options_;
  WorldState state_;
  std::vector<Vec6> applied_wrenches_;
  std::unique_ptr<Pipeline> pipeline_;
  std::vector<ContactImpulse> impulses_;
  std::vector<ContactImpulse> side_impulses_;
  std::vector<FailedSolve> failed_solves_;
  StepStats stats_;
};

}  // namespace pivot
