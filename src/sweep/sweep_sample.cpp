// One sample of a sweep: its values from the index alone, its scene, its run and its row.
#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include "pivot/error.hpp"
#include "pivot/sweep.hpp"
#include "pivot/world.hpp"
#include "sweep/columns.hpp"
#include "sweep/random.hpp"
#include "sweep/scene_edit.hpp"

namespace pivot {
namespace {

using sweep::Json;

bool is_listed(const SweepParameter& p) { return p.distribution == SweepDistribution::Values; }

std::int64_t listed_count(const SweepParameter& p) {
  return static_cast<std::int64_t>(p.values.size());
}

// Grid: the index in mixed radix over the listed parameters, the last fastest (nested
// loops in file order). Random: every parameter from its own stream.
std::vector<SweepValue> sample_values(const Sweep& sweep, std::int64_t index) {
  const std::size_t n = sweep.parameters.size();
  std::vector<SweepValue> values(n);
  std::int64_t rest = index;
  for (std::size_t k = n; k-- > 0;) {
    const SweepParameter& p = sweep.parameters[k];
    sweep::SplitMix64 rng(sweep.seed, static_cast<std::uint64_t>(index), k);
    if (is_listed(p) && sweep.sampling == SweepSampling::Grid) {
      values[k] = p.values[static_cast<std::size_t>(rest % listed_count(p))];
      rest /= listed_count(p);
    } else if (is_listed(p)) {
      const auto pick =
          static_cast<std::size_t>(rng.uniform01() * static_cast<double>(p.values.size()));
      values[k] = p.values[std::min(pick, p.values.size() - 1)];
    } else if (p.distribution == SweepDistribution::Uniform) {
      values[k] = p.a + (p.b - p.a) * rng.uniform01();
    } else {
      values[k] = p.a + p.b * rng.normal();
    }
  }
  return values;
}

// The first parameter (in file order) whose value, applied on top of those before it, makes
// the scene invalid: the one a located error names.
[[noreturn]] void blame(const Sweep& sweep, std::int64_t index,
                        const std::vector<SweepValue>& values, const InputError& whole) {
  Json scene = Json::parse(sweep.scene_text);
  for (std::size_t k = 0; k < values.size(); ++k) {
    const SweepParameter& p = sweep.parameters[k];
    if (p.kind == SweepTargetKind::FrictionOverride) continue;
    sweep::apply_value(p, values[k], &scene);
    try {
      sweep::read_edited_scene(scene, sweep.scene_file);
    } catch (const InputError& e) {
      throw InputError(sweep.file, p.line, p.column,
                       "sample " + std::to_string(index) + ": value " +
                           sweep::format_value(values[k]) + " of parameter '" + p.name +
                           "' is refused by scene '" + sweep.scene_file + "': " + e.message());
    }
  }
  throw whole;
}

}  // namespace

namespace sweep {

std::vector<std::string> outcome_columns(const Sweep& sweep) {
  std::vector<std::string> columns;
  for (const std::string& body : sweep.pose_bodies) {
    for (const char* part : {"x", "y", "z", "qw", "qx", "qy", "qz"})
      columns.push_back(body + "." + part);
  }
  for (const char* name : {"steps", "pivots", "max_penetration_m", "failures"})
    columns.push_back(name);
  return columns;
}

}  // namespace sweep

std::int64_t sweep_size(const Sweep& sweep) {
  if (sweep.sampling == SweepSampling::Random) return sweep.random_samples;
  std::int64_t size = 1;
  for (const SweepParameter& p : sweep.parameters) {
    // Saturates rather than overflows; the reader refuses sizes past 2^40.
    if (is_listed(p))
      size = size > (std::int64_t(1) << 50) / listed_count(p) ? std::int64_t(1) << 50
                                                              : size * listed_count(p);
  }
  return size;
}

std::vector<std::string> sweep_columns(const Sweep& sweep) {
  std::vector<std::string> columns = {"index"};
  for (const SweepParameter& p : sweep.parameters) columns.push_back(p.name);
  for (const std::string& c : sweep::outcome_columns(sweep)) columns.push_back(c);
  for (const SweepPredicate& p : sweep.predicates) columns.push_back(p.name);
  columns.push_back("solve_ms");
  return columns;
}

SweepSample sweep_sample(const Sweep& sweep, std::int64_t index) {
  const std::int64_t size = sweep_size(sweep);
  if (index < 0 || index >= size) {
    throw std::out_of_range("sample index " + std::to_string(index) + " is outside 0.." +
                            std::to_string(size - 1) + " of " + sweep.file);
  }
  SweepSample sample;
  sample.index = index;
  sample.values = sample_values(sweep, index);
  Json scene = Json::parse(sweep.scene_text);
  for (std::size_t k = 0; k < sample.values.size(); ++k) {
    const SweepParameter& p = sweep.parameters[k];
    if (p.kind == SweepTargetKind::FrictionOverride) {
      const double mu = std::get<double>(sample.values[k]);
      if (mu < 0.0) {
        throw InputError(sweep.file, p.line, p.column,
                         "sample " + std::to_string(index) + ": value " + sweep::format_double(mu) +
                             " of parameter '" + p.name +
                             "' must not be negative (a friction coefficient)");
      }
      sample.friction_override = mu;
    }
    sweep::apply_value(p, sample.values[k], &scene);
  }
  try {
    sample.scene = sweep::read_edited_scene(scene, sweep.scene_file);
  } catch (const InputError& e) {
    blame(sweep, index, sample.values, e);
  }
  return sample;
}

void validate_sweep_samples(const Sweep& sweep) {
  const std::int64_t size = sweep_size(sweep);
  for (std::int64_t index = 0; index < size; ++index) sweep_sample(sweep, index);
}

std::vector<std::string> run_sweep_sample(const Sweep& sweep, std::int64_t index,
                                          const std::string& failure_dir) {
  SweepSample sample = sweep_sample(sweep, index);
  WorldOptions options;
  // A failed solve is an outcome of the sample, counted in its row, not the end of the sweep.
  options.on_failure = FailurePolicy::Continue;
  if (sample.friction_override) sample.scene.settings.friction_override = sample.friction_override;
  World world(std::move(sample.scene), options);

  // As `pivot run --duration`: the nearest whole number of steps.
  const auto steps = static_cast<std::int64_t>(
      std::llround(sweep.duration_s / world.scene().settings.time_step_s));
  double pivots = 0.0, max_penetration_m = 0.0, failures = 0.0, solve_us = 0.0;
  for (std::int64_t k = 0; k < steps; ++k) {
    const StepStats& st = world.step();
    // Asked for: the problems of failed solves, for `pivot lcp solve`.
    for (const FailedSolve& failed : world.failed_solves()) write_failed_solve(failed, failure_dir);
    pivots += st.pivots;
    max_penetration_m = std::max(max_penetration_m, st.max_penetration_m);
    failures += st.failures;
    solve_us += st.solve_us;
  }

  std::map<std::string, double> outcome;
  for (const std::string& body : sweep.pose_bodies) {
    const auto& names = world.scene().bodies;
    const auto found =
        std::find_if(names.begin(), names.end(), [&](const Body& b) { return b.name == body; });
    const Pose& pose = world.state().bodies[static_cast<std::size_t>(found - names.begin())].pose;
    const double parts[] = {pose.position.x(),    pose.position.y(),    pose.position.z(),
                            pose.orientation.w(), pose.orientation.x(), pose.orientation.y(),
                            pose.orientation.z()};
    const char* names_of[] = {"x", "y", "z", "qw", "qx", "qy", "qz"};
    for (int k = 0; k < 7; ++k) outcome[body + "." + names_of[k]] = parts[k];
  }
  outcome["steps"] = static_cast<double>(steps);
  outcome["pivots"] = pivots;
  outcome["max_penetration_m"] = max_penetration_m;
  outcome["failures"] = failures;

  std::vector<std::string> row = {std::to_string(index)};
  for (const SweepValue& v : sample.values) row.push_back(sweep::format_value(v));
  for (const std::string& c : sweep::outcome_columns(sweep))
    row.push_back(sweep::format_double(outcome[c]));
  for (const SweepPredicate& p : sweep.predicates) {
    const double x = outcome[p.column];
    const bool holds = p.op == "<"    ? x < p.threshold
                       : p.op == "<=" ? x <= p.threshold
                       : p.op == ">"  ? x > p.threshold
                                      : x >= p.threshold;
    row.push_back(holds ? "1" : "0");
  }
  row.push_back(sweep::format_double(solve_us / 1000.0));
  return row;
}

}  // namespace pivot
