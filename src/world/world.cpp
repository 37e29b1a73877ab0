// World::step reads as the pipeline: wrenches => free motion => collision within each
// body's reach =>
// islands => per island: input (dynamics/island_input) => assemble (dynamics/stewart_trinkle)
// => solve (world/solve_island) => velocities and impulses (dynamics/contact_impulses)
// (=> penetration recovery) => integrate, each stage timed into StepStats. Collision's
// pairs and the islands run on WorldOptions::threads threads, gathered in order.
#include "pivot/world.hpp"

#include <chrono>
#include <cmath>
#include <exception>
#include <optional>
#include <stdexcept>

#include "collision/collide.hpp"
#include "contact/islands.hpp"
#include "dynamics/contact_impulses.hpp"
#include "dynamics/contact_linearization.hpp"
#include "dynamics/island_input.hpp"
#include "dynamics/penetration_recovery.hpp"
#include "dynamics/rigid_body_motion.hpp"
#include "pivot/geometry.hpp"
#include "stopwatch.hpp"
#include "world/contact_bases.hpp"
#include "world/solve_island.hpp"
#include "world/step_workers.hpp"

namespace pivot {

struct World::Pipeline {
  explicit Pipeline(const std::vector<Body>& bodies) : detector(bodies) {
    for (const Body& body : bodies) {
      const double r = body.fixed ? 0.0 : bounding_radius_m(body.shape);
      radius_m.push_back(std::isfinite(r) ? r : 0.0);
    }
  }

  CollisionPipeline detector;
  CollisionSettings collision_settings;  // the current step's margins
  std::vector<double> radius_m;          // per body: bounding radius about the COM [m]
  IslandBuilder islands;
  const CollisionResult* collision = nullptr;
  const std::vector<Island>* island_list = nullptr;
  std::vector<Vec6> wrenches;  // per body, at the current time
  // Per body: k~_x = f_x h + M v0 (Lloyd (2)); zero for a fixed body.
  std::vector<Vec6> free_impulse;
  std::vector<Vec6> recovery;  // per body: the step's recovery pseudo-velocity
  ContactBases bases;          // the solved contacts' bases, this step's and the last
  // Per island index, what its stages write, kept from step to step so that a step like the
  // last allocates nothing (tests/world/step_allocation_test.cpp). An island writes only
  // its own (and its bodies' states and recovery), so islands may run on any thread; what
  // the step gathers from them, merge_islands takes in island order.
  struct IslandStorage {
    IslandInput input;       // the island's stepper input
    ContactKeys keys;        // its contacts as the next step will see them again
    LcpBasis warm;           // its warm start
    ContactProblem problem;  // its contact LCP
    ContactProblem pseudo;   // its recovery push's (recovery_problem)
    ContactSolver solver;
    IslandSolve solved;  // the solver's answer (or the grouped search's)
    VecX z;              // the impulses applied
    // For merge_islands:
    StepStats stats;  // the island's counts and stage times
    std::vector<ContactImpulse> impulses, side_impulses;
    std::optional<FailedSolve> failed;
    LcpBasis basis;  // its answer's, for the next step's warm starts; empty: none to record
    std::vector<double> deferred_depth_m;  // every unit's whole penetration (slop 0)
    bool cancelled = false;
    std::exception_ptr error;  // SolverFailure (FailurePolicy::Stop), or a bad problem
  };
  std::vector<IslandStorage> per_island;
  StepWorkers workers;
  std::vector<BodyState> start;  // the step's starting states, restored when it is abandoned
  double start_time_s = 0.0;     // and its time
  std::vector<BodyState> substep_start;  // the current substep's, for contact_substeps
  StepMotions substep_motions;           // the bodies' motions over it, for contact_substeps
  LemkeOptions lemke;            // WorldOptions::lemke with this step's deadline
  int substeps = 1;              // of this step (rotation_substeps, contact_substeps)
};

namespace {

// Holds *h_s at h_s / substeps while the substeps of a step run, and gives it back.
class SubstepLength {
 public:
  SubstepLength(double* h_s, int substeps) : h_s_(h_s), h_(*h_s) { *h_s_ = h_ / substeps; }
  ~SubstepLength() { *h_s_ = h_; }
  double step_s() const { return h_; }  // the whole step's h
  SubstepLength(const SubstepLength&) = delete;
  SubstepLength& operator=(const SubstepLength&) = delete;

 private:
  double* h_s_;
  double h_;
};

}  // namespace

World::World(Scene scene, WorldOptions options)
    : scene_(std::move(scene)), options_(std::move(options)) {
  if (scene_.initial_states.size() != scene_.bodies.size()) {
    throw std::invalid_argument("scene has " + std::to_string(scene_.bodies.size()) +
                                " bodies but " + std::to_string(scene_.initial_states.size()) +
                                " initial states");
  }
  pipeline_ = std::make_unique<Pipeline>(scene_.bodies);
  reset();
}

World::~World() = default;
World::World(World&&) noexcept = default;
World& World::operator=(World&&) noexcept = default;

void World::reset() {
  state_ = WorldState{};
  state_.bodies = scene_.initial_states;
  impulses_.clear();
  side_impulses_.clear();
  failed_solves_.clear();
  stats_ = StepStats{};
  applied_wrenches_.assign(scene_.bodies.size(), Vec6::Zero());
  pipeline_->collision = nullptr;
  pipeline_->bases.clear();
}

void World::set_applied_wrench(int body, const Vec6& wrench) {
  if (body < 0 || body >= static_cast<int>(scene_.bodies.size())) {
    throw std::invalid_argument("no body " + std::to_string(body) + " in a scene of " +
                                std::to_string(scene_.bodies.size()));
  }
  if (!wrench.allFinite()) throw std::invalid_argument("applied wrench is not finite");
  applied_wrenches_[body] = wrench;
}

void World::set_state(const WorldState& state) {
  if (state.bodies.size() != scene_.bodies.size()) {
    throw std::invalid_argument("state has " + std::to_string(state.bodies.size()) +
                                " bodies, the scene " + std::to_string(scene_.bodies.size()));
  }
  if (state.carried_substeps < 1 || state.carried_substeps > kMaxSubsteps) {
    throw std::invalid_argument("state's carried_substeps must be 1 to " +
                                std::to_string(kMaxSubsteps) + ", got " +
                                std::to_string(state.carried_substeps));
  }
  state_ = state;
  // The last step's contacts are gone, so are the impulses that index them.
  pipeline_->collision = nullptr;
  impulses_.clear();
  side_impulses_.clear();
  failed_solves_.clear();
  pipeline_->bases.clear();
}

const CollisionResult& World::collision() const {
  static const CollisionResult none;
  return pipeline_->collision ? *pipeline_->collision : none;
}

double World::energy_j() const {
  double energy = 0.0;
  for (size_t k = 0; k < scene_.bodies.size(); ++k) {
    const Body& body = scene_.bodies[k];
    if (body.fixed) continue;
    const BodyState& s = state_.bodies[k];
    const Mat3 R = s.pose.orientation.toRotationMatrix();
    energy +=
        0.5 * body.mass_kg * s.twist.linear.squaredNorm() +
        0.5 * s.twist.angular.dot(R * body.inertia_body_kgm2 * R.transpose() * s.twist.angular) -
        body.mass_kg * scene_.settings.gravity_mps2.dot(s.pose.position);
  }
  return energy;
}

const StepStats& World::step() {
  begin_step();  // (options, states) => failed solves cleared, the start kept, the deadline, N
  // A body spinning too fast for h (a needle about its axis) is resolved by substeps of
  // h / N, and so are the steps after a retaken one (below); every other step is first
  // taken as one substep of h (docs/stewart-trinkle.md).
  int wanted = take_substeps();  // (N) => states after N substeps of h / N; N the contacts want
  if (wanted < 0) return abandon_step();  // a solve was cancelled
  // A step whose motion left a contact deeper than its linearisation allowed (a face that
  // turned while a corner slid along it) is taken again, once, in the substeps it wanted.
  if (wanted > pipeline_->substeps) {
    retake_step(wanted);  // => the step's start back, N = wanted
    if (take_substeps() < 0) return abandon_step();
  }
  // What made the contacts stray (a body set spinning by a strike while a corner slides
  // along its face) lasts for some steps, and a step taken whole only to be retaken costs
  // a whole take: the next steps start in the retaken step's substeps, one fewer a step.
  Pipeline& p = *pipeline_;
  state_.carried_substeps = stats_.retaken ? p.substeps : std::max(1, state_.carried_substeps - 1);
  state_.time_s = p.start_time_s + scene_.settings.time_step_s;
  ++state_.step;
  return stats_;
}

// (N) => the states after N substeps of h / N; the substeps the step's contacts wanted
// (contact_substeps, at least N), or -1 when a solve was cancelled
int World::take_substeps() {
  Pipeline& p = *pipeline_;
  const SubstepLength length(&scene_.settings.time_step_s, p.substeps);
  int wanted = p.substeps;
  for (int k = 0; k < p.substeps; ++k) {
    try {
      begin_substep();    // => its start kept, the last substep's impulses cleared, the bases
      gather_wrenches();  // (applied and scripted wrenches, t) => the wrench on each body
      free_motion();      // (states, wrenches, gravity, h) => each body's k~_x
      detect_contacts();  // (states, k~_x) => contacts, groups, islands
      step_islands();     // (islands) => their bodies' velocities, impulses, failed solves
      if (!merge_islands()) return -1;  // false: a solve was cancelled
    } catch (...) {
      // A failure in a later substep, or in a retaken step, leaves the step's start too.
      state_.bodies = p.start;
      state_.time_s = p.start_time_s;
      throw;
    }
    integrate_poses();  // (velocities, recovery pseudo-velocities) => poses, t + h / N
    // (contacts, the substep's start and end) => the substeps its linearisation wants
    p.substep_motions.set(p.substep_start, state_.bodies);
    wanted = std::max(wanted, p.substeps * contact_substeps(p.radius_m, *p.collision,
                                                            p.substep_motions, kMaxSubsteps));
  }
  return std::min(wanted, kMaxSubsteps);
}

// (the substeps a step wants) => the step's starting state back, its stats counting both
// takes, N = substeps
void World::retake_step(int substeps) {
  Pipeline& p = *pipeline_;
  state_.bodies = p.start;
  state_.time_s = p.start_time_s;
  p.substeps = substeps;
  stats_.substeps = substeps;
  stats_.retaken = true;
  stats_.carried = false;
}

// (options, states) => the last step's failed solves cleared, its start state kept for
// abandon_step, the solves' deadline set, the substeps the bodies' spins need or the last
// step carried
void World::begin_step() {
  if (options_.threads < 1) {
    throw std::invalid_argument("threads must be >= 1, got " + std::to_string(options_.threads));
  }
  stats_ = StepStats{};
  failed_solves_.clear();
  Pipeline& p = *pipeline_;
  p.start = state_.bodies;
  p.start_time_s = state_.time_s;
  p.lemke = options_.lemke;
  if (options_.step_time_limit_s > 0.0) {
    p.lemke.deadline =
        Clock::now() + std::chrono::duration_cast<Clock::duration>(
                           std::chrono::duration<double>(options_.step_time_limit_s));
  }
  p.substeps = 1;
  for (size_t k = 0; k < scene_.bodies.size(); ++k) {
    if (scene_.bodies[k].fixed) continue;
    p.substeps = std::max(p.substeps, rotation_substeps(scene_.bodies[k], state_.bodies[k],
                                                        scene_.settings.time_step_s));
  }
  if (state_.carried_substeps > p.substeps) {
    p.substeps = state_.carried_substeps;
    stats_.carried = true;
  }
  stats_.substeps = p.substeps;
}

// (substep) => its starting states kept, its h in the stats, the last substep's impulses
// cleared (a step reports its last substep's), the warm-start bases rolled over as from
// step to step
void World::begin_substep() {
  pipeline_->substep_start = state_.bodies;
  stats_.time_step_s = scene_.settings.time_step_s;
  impulses_.clear();
  side_impulses_.clear();
  pipeline_->bases.begin_step();
}

// (cancelled step) => the step's starting state back, no impulses; the warm-start bases
// recorded so far describe contacts of a step that did not happen
const StepStats& World::abandon_step() {
  Pipeline& p = *pipeline_;
  state_.bodies = p.start;
  state_.time_s = p.start_time_s;
  impulses_.clear();
  side_impulses_.clear();
  failed_solves_.clear();
  p.bases.clear();
  stats_.cancelled = true;
  return stats_;
}

// (applied wrenches, scripted wrenches active at this step's start, t0 <= t < t1) =>
// the wrench on each body
void World::gather_wrenches() {
  Pipeline& p = *pipeline_;
  p.wrenches = applied_wrenches_;
  for (const ExternalWrench& w : scene_.wrenches) {
    if (state_.time_s < w.t0_s || state_.time_s >= w.t1_s) continue;
    const Vec3 arm = state_.bodies[w.body].pose.orientation * w.point_m;
    p.wrenches[w.body].head<3>() += w.force_n;
    p.wrenches[w.body].tail<3>() += w.torque_nm + arm.cross(w.force_n);
  }
}

// (states, wrenches, gravity, h) => each dynamic body's free-motion impulse k~_x, which the
// contact margins (step_motion) and the island's LCP (Lloyd (2)) both read
void World::free_motion() {
  Pipeline& p = *pipeline_;
  const SceneSettings& settings = scene_.settings;
  p.free_impulse.resize(scene_.bodies.size());
  for (size_t k = 0; k < scene_.bodies.size(); ++k) {
    const Body& body = scene_.bodies[k];
    const Vec6& wrench = p.wrenches[k];
    p.free_impulse[k] =
        body.fixed ? Vec6::Zero()
                   : free_motion_impulse(body, state_.bodies[k], settings.gravity_mps2,
                                         wrench.head<3>(), wrench.tail<3>(), settings.time_step_s);
  }
}

// (states, k~_x) => contacts and groups within each pair's reach, islands
void World::detect_contacts() {
  Pipeline& p = *pipeline_;
  const SceneSettings& settings = scene_.settings;
  const auto t0 = Clock::now();
  CollisionSettings& collision_settings = p.collision_settings;
  collision_settings.margin_m = contact_margin_m(scene_);
  collision_settings.nonconvex = settings.nonconvex;
  collision_settings.body_motion.resize(scene_.bodies.size());
  for (size_t k = 0; k < scene_.bodies.size(); ++k) {
    const Body& body = scene_.bodies[k];
    collision_settings.body_motion[k] = body.fixed
                                            ? StepMotion{}
                                            : step_motion(body, state_.bodies[k], p.free_impulse[k],
                                                          settings.time_step_s, p.radius_m[k]);
  }
  // Pairs on the step's threads, as the islands below: each pair writes its own slot.
  const int pairs = p.detector.prepare(state_.bodies, collision_settings);
  const auto collide = [&](int k) { p.detector.collide_pair(k, collision_settings); };
  p.workers.run(pairs, options_.threads, collide);
  p.collision = &p.detector.gather();
  const CollisionResult& collision = *p.collision;
  stats_.contacts = static_cast<int>(collision.contacts.size());
  stats_.groups = static_cast<int>(collision.groups.size());
  for (const Contact& c : collision.contacts) {
    stats_.max_penetration_m = std::max(stats_.max_penetration_m, -c.gap_m);
  }
  p.island_list = &p.islands.build(scene_.bodies, collision);
  p.recovery.assign(scene_.bodies.size(), Vec6::Zero());
  stats_.collision_us += microseconds_since(t0);
}

// (islands) => step_island on each, on up to WorldOptions::threads threads
void World::step_islands() {
  Pipeline& p = *pipeline_;
  const int count = static_cast<int>(p.island_list->size());
  if (p.per_island.size() < static_cast<size_t>(count)) p.per_island.resize(count);
  const auto run = [this](int k) {
    Pipeline::IslandStorage& kept = pipeline_->per_island[k];
    // Cleared for every island each step: a step that an earlier island cancelled never
    // reaches a later island's error, which must not outlive the step.
    kept.error = nullptr;
    try {
      kept.cancelled = !step_island(k);
    } catch (...) {
      kept.error = std::current_exception();
    }
  };
  p.workers.run(count, options_.threads, run);
}

// (islands' outputs) => the step's stats, impulses, failed solves and recorded bases, in
// island order, as if the islands had been stepped one after another; false: an island's
// solve was cancelled (the islands before it counted, as when stepped in turn). An
// island's error is thrown after the islands before it are merged.
bool World::merge_islands() {
  Pipeline& p = *pipeline_;
  for (size_t k = 0; k < p.island_list->size(); ++k) {
    Pipeline::IslandStorage& kept = p.per_island[k];
    if (kept.error) std::rethrow_exception(kept.error);
    const StepStats& s = kept.stats;
    stats_.islands += s.islands;
    stats_.pivots += s.pivots;
    stats_.warm_starts += s.warm_starts;
    stats_.warm_paths += s.warm_paths;
    stats_.fallbacks += s.fallbacks;
    for (int stage = 0; stage < kFallbackStages; ++stage) stats_.rescues[stage] += s.rescues[stage];
    stats_.recoveries += s.recoveries;
    stats_.deferred_penetrations += s.deferred_penetrations;
    stats_.failures += s.failures;
    stats_.selections += s.selections;
    stats_.selection_budgets_exhausted += s.selection_budgets_exhausted;
    stats_.assembly_us += s.assembly_us;
    stats_.solve_us += s.solve_us;
    stats_.integrate_us += s.integrate_us;
    if (kept.cancelled) return false;
    impulses_.insert(impulses_.end(), kept.impulses.begin(), kept.impulses.end());
    side_impulses_.insert(side_impulses_.end(), kept.side_impulses.begin(),
                          kept.side_impulses.end());
    if (kept.failed) failed_solves_.push_back(std::move(*kept.failed));
    if (!kept.basis.z_basic.empty()) {
      p.bases.record(kept.keys, kept.problem.d, kept.basis, kept.z);
    }
  }
  return true;
}

// (island bodies, contacts, groups) => contact LCP over planes => impulses => velocities,
// and the recovery pseudo-velocities when the island penetrates beyond the slop; into the
// island's storage, its bodies' velocities and recovery, and nothing else
bool World::step_island(int island_index) {
  Pipeline& p = *pipeline_;
  const Island& island = (*p.island_list)[island_index];
  const double h = scene_.settings.time_step_s;
  Pipeline::IslandStorage& kept = p.per_island[island_index];
  IslandInput& in = kept.input;
  StepStats& stats = kept.stats;
  stats = StepStats{};
  kept.impulses.clear();
  kept.side_impulses.clear();
  kept.failed.reset();
  kept.basis.z_basic.clear();

  // (island, contacts, groups, materials) => stepper input: sides as planes, mu, gaps
  auto t0 = Clock::now();
  build_island_input(island, *p.collision, scene_, state_.bodies, p.free_impulse, &in);
  // (gaps, groups) => the depths left to the recovery pass
  bool recovering =
      recovery_depths(in.gaps_m, in.groups.groups, kRecoverySlop_m, &in.stepper.recovery_depth_m);
  // (stepper input) => contact LCP, Egan (3)-(7)
  const ContactProblem& problem = kept.problem;
  assemble_stewart_trinkle(in.stepper, &kept.problem);
  stats.assembly_us += microseconds_since(t0);

  // (contact LCP, last step's bases) => impulses z, or a failed solve kept for the caller
  t0 = Clock::now();
  // A cancelled solve's time (since t0, this stage's or the push's start) counts as the
  // step's: it is where an abandoned step's budget went.
  const auto abandon = [&] {
    stats.solve_us += microseconds_since(t0);
    return false;
  };
  VecX& z = kept.z;
  z.setZero(problem.lcp_size());
  bool solved = false;
  const NormalizedContacts* columns = nullptr;  // problem's, when its solve formed them
  if (problem.num_contacts() > 0) {
    ++stats.islands;
    // Warm start by contact features (a group side's: its vertex and face). A grouped
    // island's basis is over its planes, and its max search starts from it.
    const bool warm = options_.warm_start;
    kept.keys.form(in.stepper.contacts);
    if (warm) {
      p.bases.warm_basis(kept.keys, problem.d, &kept.warm);
    } else {
      kept.warm.z_basic.clear();
    }
    // An island that penetrates at all has a second problem to try when its first fails
    // (below), and tries it before the fallback chain: where the first has no solution the
    // chain's five stages only confirm that, at a cost. The 40-body bin pile at rest, d
    // changed 4 -> 6 (step 307 after 300 at d = 4): 56,461 pivots and 29 s through the
    // chain, every stage failing, before the second problem's warm start answered it.
    const bool deferrable =
        recovery_depths(in.gaps_m, in.groups.groups, 0.0, &kept.deferred_depth_m);
    const LcpResult* solve_result = &solve(problem, kept.warm, island_index,
                                           deferrable ? OnFailure::Return : OnFailure::FallBack);
    if (solve_result->status == LcpStatus::Cancelled) return abandon();
    // A penetration within the slop asks the velocity LCP to separate the contact
    // (b = f/h < 0), and where friction locks a wedge that LCP may have no solution: the
    // peg of peg_in_hole_jam.json at mu = 2, 2e-7 m into its wall at step 2, ends on a
    // secondary ray with every method and every stage of the fallback chain. With b >= 0
    // a convex island's has one (Anitescu-Potra 1997: z >= 0, M z >= 0, z'M z = 0 give
    // z'q = theta'b >= 0, so Lemke's method ends on a solution), so the island is solved
    // again with all of its penetration left to the recovery push, which is frictionless
    // (a group's largest side then has b = 0, its others below, as Egan (29) allows). When
    // that fails too, the problem kept as the failed step's is this second one.
    if (solve_result->status != LcpStatus::Solved && deferrable) {
      recovering = true;
      in.stepper.recovery_depth_m.swap(kept.deferred_depth_m);
      assemble_stewart_trinkle(in.stepper, &kept.problem);
      solve_result = &solve(problem, kept.warm, island_index, OnFailure::FallBack);
      if (solve_result->status == LcpStatus::Cancelled) return abandon();
      stats.deferred_penetrations += solve_result->status == LcpStatus::Solved;
    }
    const LcpResult& result = *solve_result;
    columns = kept.solved.columns;
    solved = result.status == LcpStatus::Solved;
    stats.warm_starts += result.warm;
    stats.warm_paths += result.warm_path;
    if (solved) {
      z = result.z;
      // Kept apart: the recovery push's solve below writes the island's result.
      if (warm) kept.basis.z_basic = result.basis.z_basic;
    } else {
      FailedSolve failed{state_.step, state_.time_s, island_index, result.status,
                         ContactProblemFile{problem, std::nullopt, std::nullopt}};
      if (!in.groups.groups.empty()) failed.problem.groups = in.groups;
      if (options_.on_failure == FailurePolicy::Stop) throw SolverFailure(std::move(failed));
      kept.failed = std::move(failed);
      ++stats.failures;
    }
  }
  stats.solve_us += microseconds_since(t0);

  // (z) => velocities, Lloyd (2): v = M^-1 (N~ theta + D~ phi + k~_x), and the impulses
  t0 = Clock::now();
  const VecX& v = kept.solver.velocity(problem, z, columns);
  set_island_velocities(island, v, &state_.bodies);
  decode_impulses(problem, z, in, island, island_index, *p.collision, &kept.impulses,
                  &kept.side_impulses);
  stats.integrate_us += microseconds_since(t0);

  // (velocities, depths) => pseudo-velocities that push out and are not kept. Without
  // a solved step there is nothing to push against; a failed push is tried next step.
  if (!recovering || !solved) return true;
  t0 = Clock::now();
  ++stats.recoveries;
  const ContactProblem& pseudo = kept.pseudo;
  recovery_problem(problem, v, in.stepper.recovery_depth_m, h,
                   scene_.settings.penetration_recovery_speed_mps, &kept.pseudo);
  const VecX v_solved = v;  // the island's solver forms the push's velocity next
  // The push starts from the step's answer basis (empty without warm starts). Its LCP is the
  // step's with mu = 0 and a deeper b, so the contacts that push are mostly those that
  // carried force, and a grouped island's max search starts from the sides that carried it
  // instead of one side of every group: on the 40-box pile's step 130 (565 contacts, 1,820
  // groups) the cold push solved 2,385 planes (n = 14,310) in 1,628 pivots, half the step.
  const LcpResult& push = solve(pseudo, kept.basis, island_index, OnFailure::FallBack);
  if (push.status == LcpStatus::Cancelled) return abandon();
  if (push.status == LcpStatus::Solved) {
    const VecX u = kept.solver.velocity(pseudo, push.z, kept.solved.columns) - v_solved;
    for (size_t k = 0; k < island.bodies.size(); ++k) {
      p.recovery[island.bodies[k]] = u.segment<6>(6 * k);
    }
  }
  stats.solve_us += microseconds_since(t0);
  return true;
}

// (contact LCP, warm basis) => solve_island's result, valid until the island's next solve;
// its pivots, fallbacks and rescues into the island's stats
const LcpResult& World::solve(const ContactProblem& problem, const LcpBasis& warm, int island_index,
                              OnFailure on_failure) {
  Pipeline::IslandStorage& kept = pipeline_->per_island[island_index];
  IslandSolve& solved = kept.solved;
  StepStats& stats = kept.stats;
  solve_island(problem, &kept.input.groups, scene_.settings, pipeline_->lemke, warm, on_failure,
               &kept.solver, &solved);
  stats.pivots += solved.pivots;
  stats.fallbacks += solved.fell_back;
  if (solved.rescued_by) ++stats.rescues[static_cast<int>(*solved.rescued_by)];
  stats.selections += solved.selections;
  stats.selection_budgets_exhausted += solved.budgets_exhausted;
  return solved.result;
}

// (velocities, recovery pseudo-velocities) => poses, Egan (4)
void World::integrate_poses() {
  const auto t0 = Clock::now();
  const Pipeline& p = *pipeline_;
  for (size_t k = 0; k < scene_.bodies.size(); ++k) {
    if (!scene_.bodies[k].fixed) {
      integrate_pose(&state_.bodies[k], scene_.settings.time_step_s, p.recovery[k]);
    }
  }
  state_.time_s += scene_.settings.time_step_s;
  stats_.integrate_us += microseconds_since(t0);
}

}  // namespace pivot
