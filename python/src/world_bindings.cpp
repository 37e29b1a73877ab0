// The world: step it (the GIL released while it steps), read and write its state as numpy
// arrays, change its settings live, push bodies, and read the last step's contacts with the
// impulses the solver gave them.
#include <cmath>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <system_error>

#include "bindings.hpp"
#include "pivot/recording.hpp"
#include "pivot/world.hpp"
#include "recording_writer.hpp"

namespace pivot::python {

namespace {

// The last step's convex contacts (found at its start) with their impulses, one row each.
// Nonconvex groups' sides have rows of their own (last_group_sides); `groups` counts them.
struct Contacts {
  py::array_t<double> points, normals, gaps, normal_impulses, friction_impulses;
  py::array_t<int> body_a, body_b;
  py::array_t<int> group, side;  // group sides: indices in the step's groups; else -1
  int groups = 0;
};

// Rows of n contacts with zero impulses, group and side -1; `row(i)` gives the i-th row's
// point, normal, gap and bodies.
template <class Row>
Contacts contact_rows(size_t n, Row row) {
  Contacts c;
  c.points = make_rows(n, 3, [&](size_t i, double* r) { put3(r, row(i).point); });
  c.normals = make_rows(n, 3, [&](size_t i, double* r) { put3(r, row(i).normal); });
  c.friction_impulses = make_rows(n, 3, [](size_t, double* r) { Eigen::Map<Vec3>(r).setZero(); });
  c.gaps = py::array_t<double>(static_cast<py::ssize_t>(n));
  c.normal_impulses = py::array_t<double>(static_cast<py::ssize_t>(n));
  c.body_a = py::array_t<int>(static_cast<py::ssize_t>(n));
  c.body_b = py::array_t<int>(static_cast<py::ssize_t>(n));
  c.group = py::array_t<int>(static_cast<py::ssize_t>(n));
  c.side = py::array_t<int>(static_cast<py::ssize_t>(n));
  for (size_t i = 0; i < n; ++i) {
    const Contact contact = row(i);
    c.gaps.mutable_at(i) = contact.gap_m;
    c.normal_impulses.mutable_at(i) = 0.0;  // a contact of an island no method solved
    c.body_a.mutable_at(i) = contact.body_a;
    c.body_b.mutable_at(i) = contact.body_b;
    c.group.mutable_at(i) = -1;
    c.side.mutable_at(i) = -1;
  }
  return c;
}

void put_impulse(Contacts* c, size_t row, const ContactImpulse& impulse) {
  c->normal_impulses.mutable_at(row) = impulse.normal_ns;
  auto friction = c->friction_impulses.mutable_unchecked<2>();
  for (int j = 0; j < 3; ++j) friction(row, j) = impulse.friction_ns[j];
}

Contacts last_contacts(const World& world) {
  const CollisionResult& collision = world.collision();
  const std::vector<Contact>& contacts = collision.contacts;
  Contacts c = contact_rows(contacts.size(), [&](size_t i) { return contacts[i]; });
  for (const ContactImpulse& impulse : world.impulses()) put_impulse(&c, impulse.contact, impulse);
  c.groups = static_cast<int>(collision.groups.size());
  return c;
}

// The last step's nonconvex group sides (each a plane contact, Egan Sec. IV), group after
// group, with the impulses the solver gave them.
Contacts last_group_sides(const World& world) {
  const CollisionResult& collision = world.collision();
  std::vector<size_t> first_row;
  std::vector<std::pair<int, int>> rows;  // (group, side)
  for (size_t g = 0; g < collision.groups.size(); ++g) {
    first_row.push_back(rows.size());
    for (size_t k = 0; k < collision.groups[g].sides.size(); ++k) {
      rows.emplace_back(static_cast<int>(g), static_cast<int>(k));
    }
  }
  Contacts c = contact_rows(rows.size(), [&](size_t i) {
    return collision.groups[rows[i].first].side_contact(rows[i].second);
  });
  for (size_t i = 0; i < rows.size(); ++i) {
    c.group.mutable_at(i) = rows[i].first;
    c.side.mutable_at(i) = rows[i].second;
  }
  for (const ContactImpulse& impulse : world.side_impulses()) {
    put_impulse(&c, first_row[impulse.group] + impulse.side, impulse);
  }
  c.groups = static_cast<int>(collision.groups.size());
  return c;
}

// Per-body arrays of a state: (B,3) positions and velocities, (B,4) quaternions w x y z.
py::array_t<double> positions(const WorldState& s) {
  return make_rows(s.bodies.size(), 3,
                   [&](size_t i, double* r) { put3(r, s.bodies[i].pose.position); });
}
py::array_t<double> orientations(const WorldState& s) {
  return make_rows(s.bodies.size(), 4, [&](size_t i, double* r) {
    const Quat& q = s.bodies[i].pose.orientation;
    r[0] = q.w(), r[1] = q.x(), r[2] = q.y(), r[3] = q.z();
  });
}
py::array_t<double> linear_velocities(const WorldState& s) {
  return make_rows(s.bodies.size(), 3,
                   [&](size_t i, double* r) { put3(r, s.bodies[i].twist.linear); });
}
py::array_t<double> angular_velocities(const WorldState& s) {
  return make_rows(s.bodies.size(), 3,
                   [&](size_t i, double* r) { put3(r, s.bodies[i].twist.angular); });
}

template <class Set>
void set_rows(WorldState* s, const py::handle& value, size_t cols, const char* what, Set&& set) {
  const py::array_t<double> a = read_rows(value, s->bodies.size(), cols, what);
  for (size_t i = 0; i < s->bodies.size(); ++i) set(&s->bodies[i], a.data() + i * cols);
}

void set_orientations(WorldState* s, const py::handle& value) {
  const py::array_t<double> a = read_rows(value, s->bodies.size(), 4, "orientations");
  // All checked before any is written, so a refused array leaves the state as it was.
  // Round-off from a user's arithmetic is fine; anything else is a mistake to report.
  for (size_t i = 0; i < s->bodies.size(); ++i) {
    if (std::abs(Eigen::Map<const Eigen::Vector4d>(a.data() + 4 * i).norm() - 1.0) > 1e-6) {
      throw py::value_error("orientations must be unit quaternions (w, x, y, z)");
    }
  }
  for (size_t i = 0; i < s->bodies.size(); ++i) {
    const double* q = a.data() + 4 * i;
    s->bodies[i].pose.orientation = Quat(q[0], q[1], q[2], q[3]).normalized();
  }
}

// The Python World: a World and the folder where step() writes a failed solve's problem
// before raising SolverFailure (the library itself writes no files).
struct PyWorld : World {
  PyWorld(const Scene& scene, const WorldOptions& options, std::string dir)
      : World(scene, options), failure_dir(std::move(dir)) {}
  std::string failure_dir;
};

// World::step, a failed solve's problem written to world.failure_dir: raised as
// SolverFailure under on_failure='stop', kept going past under 'continue'.
const StepStats& step_or_raise(PyWorld& world) {
  try {
    const StepStats& stats = world.step();
    for (const FailedSolve& failed : world.failed_solves()) {
      write_failed_solve(failed, world.failure_dir);
    }
    return stats;
  } catch (const SolverFailure& e) {
    const std::string file = write_failed_solve(e.failed(), world.failure_dir);
    throw WrittenSolverFailure(std::string(e.what()) + "; problem written to " + file, file);
  }
}

StepStats step_world(PyWorld& world, long n, RecordingWriterHandle* recorder) {
  if (n < 1) throw py::value_error("step(n): n must be >= 1");
  StepStats last;
  py::gil_scoped_release release;
  for (long k = 0; k < n; ++k) {
    last = step_or_raise(world);
    if (last.cancelled) break;  // nothing moved: the step ran past step_time_limit
    if (recorder) recorder->record(world);
    // Ctrl-C stops a long step(n) between steps.
    if ((k + 1) % 1024 == 0 && k + 1 < n) {
      py::gil_scoped_acquire acquire;
      if (PyErr_CheckSignals() != 0) throw py::error_already_set();
    }
  }
  return last;
}

double read_friction(double mu) {
  if (!std::isfinite(mu) || mu < 0.0) throw py::value_error("mu must be finite and >= 0");
  return mu;
}

}  // namespace

void bind_world(py::module_& m) {
  py::class_<StepStats>(m, "StepStats", "What one step did (World.step returns the last one's).")
      .def_readonly("contacts", &StepStats::contacts, "convex contacts found at the step's start")
      .def_readonly("groups", &StepStats::groups, "nonconvex contact groups")
      .def_readonly("islands", &StepStats::islands, "islands with at least one contact")
      .def_readonly("pivots", &StepStats::pivots, "Lemke pivots, summed over islands")
      .def_readonly("warm_starts", &StepStats::warm_starts,
                    "islands answered by the previous step's basis (no pivot)")
      .def_readonly("warm_paths", &StepStats::warm_paths,
                    "islands answered by Lemke's path started at that basis")
      .def_readonly("fallbacks", &StepStats::fallbacks,
                    "solves the scene's method failed, handed to the fallback chain")
      .def_property_readonly(
          "rescues",
          [](const StepStats& s) {
            py::dict out;
            for (int k = 0; k < kFallbackStages; ++k) {
              out[to_string(static_cast<FallbackStage>(k))] = s.rescues[k];
            }
            return out;
          },
          "islands each fallback stage answered: {'structural': n, 'perturbed_cover': n, "
          "'merged_duplicates': n, 'regularised': n, 'standard': n, 'repaired_end': n}")
      .def_readonly("recoveries", &StepStats::recoveries, "islands pushed out of a penetration")
      .def_readonly("deferred_penetrations", &StepStats::deferred_penetrations,
                    "islands whose velocity LCP had no solution with a penetration in it (a "
                    "wedge friction locks), solved with all of it left to the recovery push")
      .def_readonly("substeps", &StepStats::substeps,
                    "substeps of h / substeps the step took: above 1 only when a body spins too "
                    "fast for h to resolve its rotation, when the step was retaken, or when it "
                    "was carried from a retaken one (counts summed over them)")
      .def_readonly("retaken", &StepStats::retaken,
                    "the step, taken whole, left a contact deeper than its linearisation "
                    "predicted and was taken again in substeps")
      .def_readonly("carried", &StepStats::carried,
                    "the step was taken, without a retake, in the substeps carried from a "
                    "retaken step (one fewer a step after it)")
      .def_property_readonly(
          "substep_cause", [](const StepStats& s) { return to_string(substep_cause(s)); },
          "why the step ran in substeps: 'none' (taken whole), 'fast_spin', 'retaken' or "
          "'carried'")
      .def_readonly("cancelled", &StepStats::cancelled,
                    "the step ran past step_time_limit and was abandoned: the state is its start")
      .def_readonly("failures", &StepStats::failures,
                    "islands no method solved (on_failure='continue' only)")
      .def_readonly("max_penetration", &StepStats::max_penetration_m, "[m]")
      .def_readonly("collision_us", &StepStats::collision_us, "stage wall time [us]: collision")
      .def_readonly("assembly_us", &StepStats::assembly_us, "stage wall time [us]: LCP assembly")
      .def_readonly("solve_us", &StepStats::solve_us, "stage wall time [us]: Lemke solves")
      .def_readonly("integrate_us", &StepStats::integrate_us, "stage wall time [us]: integration")
      .def("__repr__", [](const StepStats& s) {
        return "<pivot.StepStats: " + std::to_string(s.contacts) + " contacts, " +
               std::to_string(s.pivots) + " pivots>";
      });

  py::class_<Contacts>(
      m, "Contacts",
      "The last step's contacts, found at its start, as arrays of C rows (World.contacts:\n"
      "the convex contacts; World.group_sides: the sides of nonconvex groups):\n"
      "points (C,3) on body_b's surface [m], normals (C,3) unit from body_b toward\n"
      "body_a, gaps (C,) signed [m], body_a/body_b (C,) body indices (body_a never\n"
      "fixed), normal_impulses (C,) theta [N s], friction_impulses (C,3) world\n"
      "frame [N s], group/side (C,) a side's group and its index in it (-1 for convex\n"
      "contacts). groups counts the step's nonconvex groups.")
      .def_readonly("points", &Contacts::points, "(C,3) on body_b's surface, world frame [m]")
      .def_readonly("normals", &Contacts::normals, "(C,3) unit, from body_b toward body_a")
      .def_readonly("gaps", &Contacts::gaps, "(C,) signed gap: > 0 apart, < 0 penetrating [m]")
      .def_readonly("body_a", &Contacts::body_a, "(C,) body index, never a fixed body")
      .def_readonly("body_b", &Contacts::body_b, "(C,) body index")
      .def_readonly("normal_impulses", &Contacts::normal_impulses,
                    "(C,) theta along the normal [N s]; / h: mean force")
      .def_readonly("friction_impulses", &Contacts::friction_impulses, "(C,3) world frame [N s]")
      .def_readonly("group", &Contacts::group, "(C,) a side's group index; -1 for a convex contact")
      .def_readonly("side", &Contacts::side,
                    "(C,) a side's index in its group; -1 for a convex contact")
      .def_readonly("groups", &Contacts::groups,
                    "nonconvex groups of the step (their sides: World.group_sides)")
      .def("__len__", [](const Contacts& c) { return c.gaps.size(); });

  py::class_<WorldState>(m, "State",
                         "A copy of everything that changes in a world: time, step count, the\n"
                         "bodies' poses and velocities and the substeps carried into the next\n"
                         "step (World.get_state / set_state).")
      .def_readwrite("time", &WorldState::time_s, "[s]")
      .def_readwrite("step", &WorldState::step, "steps taken")
      .def_readwrite("carried_substeps", &WorldState::carried_substeps,
                     "the substeps the next step starts in, at least (1 to 64): a retaken "
                     "step's, one fewer a step after it")
      .def_property(
          "positions", &positions,
          [](WorldState& s, const py::handle& v) {
            set_rows(&s, v, 3, "positions", [](BodyState* b, const double* p) {
              b->pose.position = Vec3(p[0], p[1], p[2]);
            });
          },
          "(B,3) centre-of-mass positions, world frame [m] (a copy; assign to change).")
      .def_property("orientations", &orientations, &set_orientations,
                    "(B,4) unit quaternions w, x, y, z, body to world.")
      .def_property(
          "linear_velocities", &linear_velocities,
          [](WorldState& s, const py::handle& v) {
            set_rows(&s, v, 3, "linear_velocities", [](BodyState* b, const double* p) {
              b->twist.linear = Vec3(p[0], p[1], p[2]);
            });
          },
          "(B,3) centre-of-mass velocities, world frame [m/s].")
      .def_property(
          "angular_velocities", &angular_velocities,
          [](WorldState& s, const py::handle& v) {
            set_rows(&s, v, 3, "angular_velocities", [](BodyState* b, const double* p) {
              b->twist.angular = Vec3(p[0], p[1], p[2]);
            });
          },
          "(B,3) angular velocities, world frame [rad/s].")
      .def(
          "copy", [](const WorldState& s) { return s; }, "An independent copy.");

  // The library's World, the base of PyWorld: every binding below takes it.
  py::class_<World>(m, "_World");
  py::class_<PyWorld, World>(
      m, "World",
      "The simulation: a scene's bodies moved by Stewart-Trinkle time steps whose\n"
      "contact LCPs are solved by Lloyd's fast Lemke. Use one World from one thread\n"
      "at a time; separate Worlds step in parallel (step releases the GIL).")
      .def(py::init([](const LoadedScene& scene, const std::string& on_failure,
                       const std::string& failure_dir, bool warm_start, int max_pivots,
                       double step_time_limit, int threads) {
             WorldOptions options;
             if (on_failure == "stop") {
               options.on_failure = FailurePolicy::Stop;
             } else if (on_failure == "continue") {
               options.on_failure = FailurePolicy::Continue;
             } else {
               throw py::value_error("on_failure must be 'stop' or 'continue', got '" + on_failure +
                                     "'");
             }
             if (max_pivots < 0) throw py::value_error("max_pivots must be >= 0");
             options.warm_start = warm_start;
             options.lemke.max_pivots = max_pivots;
             if (!(step_time_limit >= 0.0) || !std::isfinite(step_time_limit)) {
               throw py::value_error("step_time_limit must be finite and >= 0");
             }
             options.step_time_limit_s = step_time_limit;
             if (threads < 1) throw py::value_error("threads must be >= 1");
             options.threads = threads;
             if (!failure_dir.empty()) {
               // Made now, as `pivot run --failure-dir` makes it: a wrong path is reported
               // before any step, not by the first failed solve.
               std::error_code error;
               std::filesystem::create_directories(failure_dir, error);
               if (error) {
                 throw std::runtime_error("cannot create failure_dir '" + failure_dir +
                                          "': " + error.message());
               }
             }
             return PyWorld(scene.scene, options, failure_dir);
           }),
           py::arg("scene"), py::kw_only(), py::arg("on_failure") = "stop",
           py::arg("failure_dir") = "", py::arg("warm_start") = true, py::arg("max_pivots") = 0,
           py::arg("step_time_limit") = 0.0, py::arg("threads") = 1,
           "A world at the scene's initial state. on_failure: 'stop' raises SolverFailure\n"
           "after writing the failed problem into failure_dir (default: the current directory;\n"
           "made when missing);\n"
           "'continue' moves that island without contact impulses. warm_start hands each\n"
           "solve the previous step's basis; max_pivots 0 picks Lemke's default limit.\n"
           "step_time_limit [s]: a step whose solves run longer is abandoned (StepStats.\n"
           "cancelled, the state unchanged) and step(n) returns; 0: no limit.\n"
           "threads: the threads a step's collision pairs and islands run on (the same result\n"
           "for any).")
      .def("step", &step_world, py::arg("n") = 1, py::arg("recorder") = nullptr,
           "Takes n time steps (the GIL released meanwhile) and returns the last one's\n"
           "StepStats (early, with cancelled set, when a step ran past step_time_limit).\n"
           "With a RecordingWriter, records the state after every step.\n"
           "Raises SolverFailure under on_failure='stop'.")
      .def("reset", &World::reset,
           "Back to the scene's initial state; applied wrenches are cleared.")
      .def_property_readonly(
          "time", [](const World& w) { return w.state().time_s; }, "[s]")
      .def_property_readonly(
          "step_count", [](const World& w) { return w.state().step; },
          "Steps taken since construction or reset().")
      .def("energy", &World::energy_j,
           "Kinetic plus potential energy in gravity (zero at the origin) [J].")
      .def_property_readonly(
          "scene",
          [](const World& w) {
            return LoadedScene{w.scene(), {}};
          },
          "The scene with the current settings and materials (a copy).")
      .def_property_readonly(
          "body_names", [](const World& w) { return names_of(w.scene().bodies); },
          "Body names, in the order of every per-body array.")
      .def_property_readonly("stats", &World::last_stats, "The last step's StepStats.")
      .def_property_readonly(
          "positions", [](const World& w) { return positions(w.state()); },
          "(B,3) centre-of-mass positions, world frame [m] (a copy).")
      .def_property_readonly(
          "orientations", [](const World& w) { return orientations(w.state()); },
          "(B,4) unit quaternions w, x, y, z, body to world (a copy).")
      .def_property_readonly(
          "linear_velocities", [](const World& w) { return linear_velocities(w.state()); },
          "(B,3) [m/s], world frame (a copy).")
      .def_property_readonly(
          "angular_velocities", [](const World& w) { return angular_velocities(w.state()); },
          "(B,3) [rad/s], world frame (a copy).")
      .def("get_state", &World::state, py::return_value_policy::copy,
           "A copy of the state, to step back to with set_state.")
      .def("set_state", &World::set_state, py::arg("state"),
           "Makes state the current one (step back, replay); it must have the scene's bodies.")
      .def_property(
          "h", [](World& w) { return w.settings().time_step_s; },
          [](World& w, double h) {
            if (!std::isfinite(h) || h <= 0.0) throw py::value_error("h must be finite and > 0");
            w.settings().time_step_s = h;
          },
          "Time step [s]; the next step uses it.")
      .def_property(
          "d", [](World& w) { return w.settings().friction_directions; },
          [](World& w, int d) {
            if (!valid_friction_directions(d)) {
              throw py::value_error("d must be in [" + std::to_string(kMinFrictionDirections) +
                                    ", " + std::to_string(kMaxFrictionDirections) + "]");
            }
            w.settings().friction_directions = d;
          },
          "Friction directions per contact.")
      .def_property(
          "method", [](World& w) { return std::string(to_string(w.settings().solver)); },
          [](World& w, const std::string& method) {
            if (!parse_lcp_method(method, &w.settings().solver)) {
              throw py::value_error("method must be standard, structural or reduced, got '" +
                                    method + "'");
            }
          },
          "Lemke method: 'standard', 'structural' or 'reduced' (same impulses).")
      .def_property(
          "nonconvex", [](World& w) { return std::string(to_string(w.settings().nonconvex)); },
          [](World& w, const std::string& mode) {
            if (!parse_nonconvex_formulation(mode, &w.settings().nonconvex)) {
              throw py::value_error("nonconvex must be max, sum or off, got '" + mode + "'");
            }
          },
          "Nonconvex contact groups: 'max', 'sum' or 'off' (Egan, Berard, Trinkle).")
      .def_property(
          "gravity",
          [](World& w) {
            py::array_t<double> g(3);
            put3(g.mutable_data(), w.settings().gravity_mps2);
            return g;
          },
          [](World& w, const py::handle& g) {
            w.settings().gravity_mps2 = read_vec3(g, "gravity");
          },
          "(3,) acceleration of every dynamic body, world frame [m/s^2].")
      .def_property(
          "mu", [](World& w) { return w.settings().friction_override; },
          [](World& w, std::optional<double> mu) {
            w.settings().friction_override =
                mu ? std::optional<double>(read_friction(*mu)) : std::nullopt;
          },
          "Friction coefficient for every contact, overriding the materials; None: the\n"
          "materials' own.")
      .def_property_readonly(
          "materials",
          [](World& w) {
            py::dict out;
            for (const Material& mat : w.materials()) out[py::str(mat.name)] = mat.friction;
            return out;
          },
          "{material name: friction coefficient} (a copy; set_material_friction changes one).")
      .def(
          "set_material_friction",
          [](World& w, const py::handle& material, double mu) {
            w.materials()[index_of(w.materials(), material, "material")].friction =
                read_friction(mu);
          },
          py::arg("material"), py::arg("mu"),
          "Sets a material's friction coefficient (by name or index); the next step uses it.")
      .def(
          "set_applied_wrench",
          [](World& w, const py::handle& body, const py::handle& force, const py::handle& torque) {
            Vec6 wrench;
            wrench << read_vec3(force, "force"), read_vec3(torque, "torque");
            w.set_applied_wrench(index_of(w.scene().bodies, body, "body"), wrench);
          },
          py::arg("body"), py::arg("force") = py::make_tuple(0, 0, 0),
          py::arg("torque") = py::make_tuple(0, 0, 0),
          "Force [N] through the body's centre of mass and torque about it [N m], world axes,\n"
          "added on every step until changed (body by name or index); ignored on fixed\n"
          "bodies. Zero after construction and reset().")
      .def("contacts", &last_contacts,
           "The last step's convex contacts and impulses as numpy arrays (Contacts); empty\n"
           "before the first step.")
      .def("group_sides", &last_group_sides,
           "The last step's nonconvex group sides (each a plane contact, Egan Sec. IV) and\n"
           "their impulses as numpy arrays (Contacts, with group and side set); empty\n"
           "before the first step.");
}

}  // namespace pivot::python
