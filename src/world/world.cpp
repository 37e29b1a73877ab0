// World::step reads as the pipeline: wrenches => collision within each body's reach =>
// islands => assemble => solve => velocities (=> penetration recovery) => integrate, each
// stage timed into StepStats.
#include "pivot/world.hpp"

#include <chrono>
#include <cmath>
#include <stdexcept>

#include "contact/islands.hpp"
#include "dynamics/penetration_recovery.hpp"
#include "dynamics/rigid_body_motion.hpp"
#include "dynamics/stewart_trinkle.hpp"
#include "pivot/geometry.hpp"
#include "pivot/nonconvex.hpp"
#include "pivot/problem_file.hpp"
#include "stopwatch.hpp"
#include "world/contact_bases.hpp"

namespace pivot {

namespace {

// Box2D's default friction mixing: a slippery material makes the contact slippery and
// mixing is symmetric in the two bodies.
double mixed_friction(double mu_a, double mu_b) { return std::sqrt(mu_a * mu_b); }

// Egan Sec. IV asks gamma > |min(a_i, 0)| at the solution, a_i being the sides' rows
// (velocities, f/h included). Twice the largest approach speed any side sees without
// impulses, |q|_inf of the plane LCP, plus one, is the paper's "twice the distance the
// fastest point can travel" per unit time.
double max_formulation_gamma(const ContactProblem& planes) {
  const VecX q = contact_lcp_w(planes, VecX::Zero(planes.lcp_size()));
  return 1.0 + 2.0 * q.cwiseAbs().maxCoeff();
}

// Egan (24): epsilon caps each corner by a plane; a tenth of a millimetre is below what
// a viewer shows and far above round-off.
constexpr double kSummationEpsilon_m = 1e-4;

// The constant of the scene's formulation for an island's planes (PlaneGroups::parameter).
double formulation_parameter(NonconvexFormulation form, const ContactProblem& planes, double h_s) {
  return form == NonconvexFormulation::Max ? max_formulation_gamma(planes)
                                           : kSummationEpsilon_m / h_s;
}

}  // namespace

struct World::Pipeline {
  explicit Pipeline(const std::vector<Body>& bodies) : detector(bodies) {
    for (const Body& body : bodies) {
      const double r = body.fixed ? 0.0 : bounding_radius_m(body.shape);
      radius_m.push_back(std::isfinite(r) ? r : 0.0);
    }
  }

  CollisionDetector detector;
  CollisionSettings collision_settings;  // the current step's margins
  std::vector<double> radius_m;          // per body: bounding radius about the COM [m]
  IslandBuilder islands;
  const CollisionResult* collision = nullptr;
  const std::vector<Island>* island_list = nullptr;
  std::vector<Vec6> wrenches;  // per body, at the current time
  std::vector<Vec6> recovery;  // per body: the step's recovery pseudo-velocity
  StewartTrinkleInput input;
  std::vector<Contact> sides;  // the island's group sides as plane contacts
  PlaneGroups groups;          // groups of sides (indices in input.contacts), formulation
  std::vector<double> gaps_m;  // per contact row of the island
  ContactBases bases;          // the solved contacts' bases, this step's and the last
  LcpBasis warm;               // the island's warm start
  std::vector<BodyState> start;  // the step's starting states, restored when it is abandoned
  LemkeOptions lemke;            // WorldOptions::lemke with this step's deadline
};

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
  state_ = state;
  // The last step's contacts are gone, so are the impulses that index them.
  pipeline_->collision = nullptr;
  impulses_.clear();
  side_impulses_.clear();
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
  stats_ = StepStats{};
  stats_.time_step_s = scene_.settings.time_step_s;
  impulses_.clear();
  side_impulses_.clear();
  Pipeline& p = *pipeline_;
  p.start = state_.bodies;
  p.lemke = options_.lemke;
  if (options_.step_time_limit_s > 0.0) {
    p.lemke.deadline =
        Clock::now() + std::chrono::duration_cast<Clock::duration>(
                           std::chrono::duration<double>(options_.step_time_limit_s));
  }
  gather_wrenches();
  p.bases.begin_step();
  detect_contacts();
  for (int k = 0; k < static_cast<int>(p.island_list->size()); ++k) {
    if (!step_island(k)) return abandon_step();
  }
  integrate_poses();
  return stats_;
}

// (cancelled step) => the step's starting state back, no impulses; the warm-start bases
// recorded so far describe contacts of a step that did not happen
const StepStats& World::abandon_step() {
  Pipeline& p = *pipeline_;
  state_.bodies = p.start;
  impulses_.clear();
  side_impulses_.clear();
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

// (states, wrenches) => contacts and groups within each pair's reach, islands
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
    collision_settings.body_motion[k] =
        body.fixed ? StepMotion{}
                   : step_motion(body, state_.bodies[k], settings.gravity_mps2, p.wrenches[k],
                                 settings.time_step_s, p.radius_m[k]);
  }
  p.collision = &p.detector.detect(state_.bodies, collision_settings);
  const CollisionResult& collision = *p.collision;
  stats_.contacts = static_cast<int>(collision.contacts.size());
  stats_.groups = static_cast<int>(collision.groups.size());
  for (const Contact& c : collision.contacts) {
    stats_.max_penetration_m = std::max(stats_.max_penetration_m, -c.gap_m);
  }
  p.island_list = &p.islands.build(scene_.bodies, collision);
  p.recovery.assign(scene_.bodies.size(), Vec6::Zero());
  stats_.collision_us = microseconds_since(t0);
}

// (island bodies, contacts, groups) => contact LCP over planes => impulses => velocities,
// and the recovery pseudo-velocities when the island penetrates beyond the slop
bool World::step_island(int island_index) {
  Pipeline& p = *pipeline_;
  const Island& island = (*p.island_list)[island_index];
  const double h = scene_.settings.time_step_s;

  auto t0 = Clock::now();
  StewartTrinkleInput& in = p.input;
  gather_island_contacts(island_index);
  const bool recovering = recovery_depths(p.gaps_m, p.groups.groups, &in.recovery_depth_m);
  const ContactProblem problem = assemble_stewart_trinkle(in);
  stats_.assembly_us += microseconds_since(t0);

  t0 = Clock::now();
  VecX z = VecX::Zero(problem.lcp_size());
  bool solved = false;
  if (problem.num_contacts() > 0) {
    ++stats_.islands;
    // Warm start by contact features; a grouped island's max search picks its own bases.
    const bool warm = options_.warm_start && p.groups.groups.empty();
    if (warm) {
      p.bases.warm_basis(in.contacts, problem.d, &p.warm);
    } else {
      p.warm.z_basic.clear();
    }
    const LcpResult result = solve_with_fallback(problem, p.warm);
    if (result.status == LcpStatus::Cancelled) return false;
    solved = result.status == LcpStatus::Solved;
    stats_.warm_starts += result.warm;
    if (solved) {
      z = result.z;
      if (warm && !result.basis.z_basic.empty())
        p.bases.record(in.contacts, problem.d, result.basis);
    } else {
      report_failure(problem, island_index, result.status);
    }
  }
  stats_.solve_us += microseconds_since(t0);

  // (impulses) => velocities, Lloyd (2): v = M^-1 (N~ theta + D~ phi + k~_x)
  t0 = Clock::now();
  const VecX v = contact_velocity(problem, z);
  for (size_t k = 0; k < island.bodies.size(); ++k) {
    BodyState& s = state_.bodies[island.bodies[k]];
    s.twist.linear = v.segment<3>(6 * k);
    s.twist.angular = v.segment<3>(6 * k + 3);
  }
  const int n = problem.num_contacts();
  const int d = problem.d;
  // Contact i of the LCP: its impulse and the friction cone it was solved with.
  const auto decode = [&](int i) {
    ContactImpulse impulse;
    impulse.island = island_index;
    impulse.normal_ns = z(i);
    impulse.mu = in.mu[i];
    impulse.d = d;
    const std::vector<Vec3> t = friction_directions(in.contacts[i]->normal, d);
    impulse.first_direction = t[0];
    for (int j = 0; j < d; ++j) impulse.friction_ns += z(n + i * d + j) * t[j];
    return impulse;
  };
  int i = 0;  // the group sides come first (gather_island_contacts), in group order
  for (int g : island.groups) {
    for (size_t k = 0; k < p.collision->groups[g].sides.size(); ++k, ++i) {
      ContactImpulse impulse = decode(i);
      impulse.group = g;
      impulse.side = static_cast<int>(k);
      side_impulses_.push_back(impulse);
    }
  }
  for (; i < n; ++i) {
    ContactImpulse impulse = decode(i);
    impulse.contact = island.contacts[i - static_cast<int>(p.sides.size())];
    impulses_.push_back(impulse);
  }
  stats_.integrate_us += microseconds_since(t0);

  // (velocities, depths) => pseudo-velocities that push out and are not kept. Without
  // a solved step there is nothing to push against; a failed push is tried next step.
  if (!recovering || !solved) return true;
  t0 = Clock::now();
  ++stats_.recoveries;
  const ContactProblem pseudo = recovery_problem(problem, v, in.recovery_depth_m, h,
                                                 scene_.settings.penetration_recovery_speed_mps);
  const LcpResult push = solve_with_fallback(pseudo, LcpBasis{});
  if (push.status == LcpStatus::Cancelled) return false;
  if (push.status == LcpStatus::Solved) {
    const VecX u = contact_velocity(pseudo, push.z) - v;
    for (size_t k = 0; k < island.bodies.size(); ++k) {
      p.recovery[island.bodies[k]] = u.segment<6>(6 * k);
    }
  }
  stats_.solve_us += microseconds_since(t0);
  return true;
}

// (island) => the stepper's input: group sides first, as plane contacts (Egan Sec. IV-V:
// one plane per side), then the convex contacts, each with its mixed friction and gap
void World::gather_island_contacts(int island_index) {
  Pipeline& p = *pipeline_;
  const Island& island = (*p.island_list)[island_index];
  const SceneSettings& settings = scene_.settings;
  const CollisionResult& collision = *p.collision;
  StewartTrinkleInput& in = p.input;
  in.bodies = &scene_.bodies;
  in.states = &state_.bodies;
  in.island_bodies = island.bodies;
  in.gravity_mps2 = settings.gravity_mps2;
  in.h_s = settings.time_step_s;
  in.d = settings.friction_directions;
  in.contacts.clear();
  in.mu.clear();
  p.gaps_m.clear();
  p.sides.clear();
  p.groups.groups.clear();
  for (int g : island.groups) {
    const ContactGroup& group = collision.groups[g];
    std::vector<int> members;
    for (size_t k = 0; k < group.sides.size(); ++k) {
      members.push_back(static_cast<int>(p.sides.size()));
      p.sides.push_back(group.side_contact(static_cast<int>(k)));
    }
    p.groups.groups.push_back(members);
  }
  const auto add = [&](const Contact& contact) {
    const double mu_a = scene_.materials[scene_.bodies[contact.body_a].material].friction;
    const double mu_b = scene_.materials[scene_.bodies[contact.body_b].material].friction;
    in.contacts.push_back(&contact);
    in.mu.push_back(friction_override_ ? *friction_override_ : mixed_friction(mu_a, mu_b));
    p.gaps_m.push_back(contact.gap_m);
  };
  for (const Contact& plane : p.sides) add(plane);
  for (int c : island.contacts) add(collision.contacts[c]);
  in.applied_wrench.clear();
  for (int b : island.bodies) in.applied_wrench.push_back(p.wrenches[b]);
}

// (contact LCP) => impulses by the scene's method, else by the fallback chain
// (solve_contact_with_fallback). A grouped island's only fallback is its search with the
// standard method; the summation formulation is always standard: nothing to fall back to.
LcpResult World::solve_with_fallback(const ContactProblem& problem, const LcpBasis& warm) {
  Pipeline& p = *pipeline_;
  const SceneSettings& settings = scene_.settings;
  if (p.groups.groups.empty()) {
    FallbackResult chain = solve_contact_with_fallback(problem, settings.solver, p.lemke, warm);
    stats_.pivots += chain.result.pivots;
    stats_.fallbacks += chain.attempts > 0;
    if (chain.rescued_by) ++stats_.rescues[static_cast<int>(*chain.rescued_by)];
    return std::move(chain.result);
  }
  p.groups.form = settings.nonconvex;
  p.groups.parameter = formulation_parameter(p.groups.form, problem, settings.time_step_s);
  const auto solve = [&](LcpMethod method) {
    return solve_grouped_contact(problem, p.groups, method, p.lemke).lcp;
  };
  LcpResult result = solve(settings.solver);
  stats_.pivots += result.pivots;
  const bool standard_already =
      settings.solver == LcpMethod::Standard || settings.nonconvex == NonconvexFormulation::Sum;
  if (result.status != LcpStatus::Solved && result.status != LcpStatus::Cancelled &&
      !standard_already) {
    ++stats_.fallbacks;
    result = solve(LcpMethod::Standard);
    stats_.pivots += result.pivots;
    if (result.status == LcpStatus::Solved) {
      ++stats_.rescues[static_cast<int>(FallbackStage::Standard)];
    }
  }
  return result;
}

// (unsolved island problem) => its problem file, then SolverFailure or a counted failure
void World::report_failure(const ContactProblem& problem, int island_index, LcpStatus status) {
  const std::string file =
      (options_.failure_dir.empty() ? std::string(".") : options_.failure_dir) + "/failed-step-" +
      std::to_string(state_.step) + "-island-" + std::to_string(island_index) + ".contact";
  ContactProblemFile record{problem, std::nullopt, std::nullopt};
  if (!pipeline_->groups.groups.empty()) record.groups = pipeline_->groups;
  write_contact_problem(file, record);
  const std::string message =
      "step " + std::to_string(state_.step) + " (t = " + std::to_string(state_.time_s) +
      " s), island " + std::to_string(island_index) + " with " +
      std::to_string(problem.num_contacts()) + " contacts: no method solved the LCP (" +
      to_string(status) + "); problem written to " + file;
  if (options_.on_failure == FailurePolicy::Stop) throw SolverFailure(message, file);
  ++stats_.failures;
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
  ++state_.step;
  stats_.integrate_us += microseconds_since(t0);
}

}  // namespace pivot
