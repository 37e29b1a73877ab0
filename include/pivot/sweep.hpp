// Sweeps: one scene run many times with parameters varied, each run an outcome row
// (docs/sweeps.md, scenes/sweep.schema.json). A sample is a pure function of (sweep file,
// index): its values come from the index alone, in grid order or from a splitmix64 stream
// seeded by (seed, index, parameter), so any runner (threads, Slurm, Dask) gets the same row.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "pivot/scene.hpp"

namespace pivot {

// A number, or a name (solver method, nonconvex formulation).
using SweepValue = std::variant<double, std::string>;

// What a parameter changes in the base scene.
enum class SweepTargetKind {
  FrictionOverride,  // "mu": every contact's friction coefficient (SceneSettings::friction_override)
  Value,             // the scene values at `pointers` are replaced, all by the same value
  PositionOffset,    // added to component `axis` of the body position at pointers[0] [m]
  RotationOffset,    // the body orientation at pointers[0] turned about world axis `axis` [deg]
};

enum class SweepDistribution {
  Values,   // a list, or a range's evenly spaced points: SweepParameter::values
  Uniform,  // in [a, b)
  Normal,   // mean a, standard deviation b
};

struct SweepParameter {
  std::string name;    // its column in the table; the target when the file gives none
  std::string target;  // as written: "mu", "d", "peg.offset.x", "/bodies/1/mass", ... (pointers
                       // joined by a space when the file lists several)
  SweepTargetKind kind = SweepTargetKind::Value;
  std::vector<std::string> pointers;  // JSON pointers (RFC 6901) into the base scene file
  int axis = 0;                       // of an offset: 0 x, 1 y, 2 z
  SweepDistribution distribution = SweepDistribution::Values;
  std::vector<SweepValue> values;
  double a = 0.0, b = 0.0;
  int line = 0, column = 0;  // of the parameter in the sweep file, for errors
};

// "peg.z < -0.05": an outcome column compared with a number at the end of the run.
struct SweepPredicate {
  std::string name;  // its column
  std::string column;
  std::string op;  // <, <=, >, >=
  double threshold = 0.0;
};

enum class SweepSampling {
  Grid,    // every combination of the listed values; the last parameter varies fastest
  Random,  // `samples` draws; a list or range parameter picks one of its values
};

struct Sweep {
  std::string file;        // the sweep file as named, labels errors
  std::string text;        // its text, kept for the results' sidecar
  std::string scene_file;  // the base scene, resolved against the sweep file's folder
  std::string scene_text;
  double duration_s = 1.0;
  SweepSampling sampling = SweepSampling::Grid;
  std::int64_t random_samples = 0;
  std::uint64_t seed = 0;
  std::vector<SweepParameter> parameters;
  std::vector<std::string> pose_bodies;  // final pose columns: BODY.x .. BODY.qz
  std::vector<SweepPredicate> predicates;
};

// Reads and checks a sweep file: its keys, the base scene, every target (a JSON pointer
// to nothing is an error) and every listed value and distribution bound, each applied
// alone to the base scene and validated as a scene file. Throws InputError
// "file:line:column: message" at the offending part of the sweep file.
Sweep read_sweep_file(const std::string& path);
// The same from text; scene paths are resolved against base_dir.
Sweep parse_sweep(const std::string& text, const std::string& file_name,
                  const std::string& base_dir);

// How many samples: the product of the list and range sizes (grid) or `samples` (random).
std::int64_t sweep_size(const Sweep& sweep);

// The table's header: index, the parameters, the final poses, steps, pivots,
// max_penetration_m, failures, the predicates, and last the timing columns.
std::vector<std::string> sweep_columns(const Sweep& sweep);
// The last columns that differ between runs of the same sample: solve_ms.
constexpr int kSweepTimingColumns = 1;

struct SweepSample {
  std::int64_t index = 0;
  std::vector<SweepValue> values;  // one per parameter
  Scene scene;
  std::optional<double> friction_override;
};

// Sample index's values and scene. Throws InputError located at the parameter that makes
// the scene invalid, naming the sample, and std::out_of_range for an index past the end.
SweepSample sweep_sample(const Sweep& sweep, std::int64_t index);
// Builds every sample's scene (no stepping): a combination the scene refuses is reported
// before any sample runs.
void validate_sweep_samples(const Sweep& sweep);

// Runs sample index for the sweep's duration and returns its row, one cell per column,
// every number written in its shortest round-trip form. Failed solves are counted, their
// problem files written to failure_dir (empty: the current directory).
std::vector<std::string> run_sweep_sample(const Sweep& sweep, std::int64_t index,
                                          const std::string& failure_dir = "");

// ---- the results table (src/sweep/sweep_table.cpp) ---------------------------------------

// The rows of a results CSV written for this sweep, keyed by index, for --resume. Throws
// InputError when the header is not this sweep's or a row is malformed.
std::vector<std::vector<std::string>> read_sweep_table(const Sweep& sweep, const std::string& path);
// Writes rows (sorted by index) as CSV through a temporary file renamed over path, and
// path + ".json": the sweep file, the base scene, the columns and Pivot's version.
// git_hash may be empty. Throws std::runtime_error when a file cannot be written.
void write_sweep_table(const Sweep& sweep, const std::string& path,
                       std::vector<std::vector<std::string>> rows, const std::string& git_hash);
// One CSV line (no newline), quoting cells that hold a comma, a quote or a line break.
std::string csv_line(const std::vector<std::string>& cells);

}  // namespace pivot
