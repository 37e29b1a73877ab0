// Trajectory recordings: one CSV row per body per recorded step (step, t, body, position,
// quaternion, linear and angular velocity) plus a JSON sidecar (scene, settings, Pivot
// version), and an optional contact log. Written to temporary files that are renamed into
// place only when the recording is finished, so a crash never leaves a truncated file
// over a good one. Read back (validated) for replay.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "pivot/contact.hpp"
#include "pivot/scene.hpp"

namespace pivot {

// Settings and materials changed during a recorded session (the viewer's sliders, a
// script's `set`): from `step` on, the steps were taken with these.
struct SettingChange {
  std::int64_t step = 0;  // the first step taken with them
  SceneSettings settings;
  std::vector<Material> materials;
};

struct RecordingInfo {
  std::string pivot_version;
  std::string scene_path;            // as given to the program; may be empty
  std::vector<std::string> bodies;   // names, in the CSV's body order
  double time_step_s = 0.0;
  int friction_directions = 0;
  std::string solver;
  std::string nonconvex;
  int record_every = 1;              // a row set every this many steps
  std::int64_t frames = 0;           // recorded steps (row sets)
  bool contact_log = false;
  // In step order; before the first, the scene's own (the sidecar's scene). The sidecar
  // writes "setting_changes" only when there are some.
  std::vector<SettingChange> setting_changes;
};

// Writes <path> (CSV), <path>.json (sidecar) and, when asked, <path>.contacts.csv.
// Nothing appears at those paths until finish(); a writer destroyed without finish()
// (an exception, a crash) removes its temporary files and leaves the old ones untouched.
class RecordingWriter {
 public:
  // Opens the temporary files. Throws std::runtime_error when they cannot be created.
  RecordingWriter(const std::string& path, const Scene& scene, const std::string& scene_path,
                  int record_every, bool contact_log);
  ~RecordingWriter();
  RecordingWriter(const RecordingWriter&) = delete;
  RecordingWriter& operator=(const RecordingWriter&) = delete;

  // Called after every step (and once before the first) with the step's outcome: records
  // the state, and with a contact log the step's contacts and impulses, when state.step is
  // a multiple of record_every. settings and materials are those the step used; when they
  // differ from the last ones, the sidecar notes the change at that step (every call).
  void record(const WorldState& state, const SceneSettings& settings,
              const std::vector<Material>& materials, const CollisionResult& collision,
              const std::vector<ContactImpulse>& impulses);
  // Flushes, closes and renames everything into place. Throws std::runtime_error.
  void finish();

  const std::string& path() const { return path_; }
  std::int64_t frames() const { return frames_; }

 private:
  struct Files;  // the open temporary files

  std::string path_;
  std::string temp_csv_;
  std::string temp_contacts_;
  RecordingInfo info_;
  std::string sidecar_scene_json_;
  std::string settings_json_;  // the settings and materials in force, as the sidecar writes them
  std::vector<std::string> changes_json_;  // the sidecar's setting_changes, in step order
  std::unique_ptr<Files> files_;
  std::int64_t frames_ = 0;
  bool finished_ = false;
};

struct RecordedFrame {
  std::int64_t step = 0;
  double time_s = 0.0;
  std::vector<BodyState> bodies;  // in RecordingInfo::bodies order
};

struct Recording {
  RecordingInfo info;
  std::vector<RecordedFrame> frames;
};

// Reads and validates <path> and its sidecar; throws InputError "file:line: message" for
// anything malformed (wrong header, a body row out of order, a non-number, a non-unit
// quaternion, a missing sidecar, row counts that disagree with the sidecar).
Recording read_recording(const std::string& path);

// Replay: a recording belongs to a scene when it lists the scene's bodies by name, in the
// scene's order. Throws std::invalid_argument naming the first body that differs.
void check_recording_matches(const Recording& recording, const Scene& scene);
// The world state of recorded frame k (0 <= k < frames.size()), for World::set_state.
WorldState recorded_state(const Recording& recording, size_t frame);

// Replaying a session by stepping again: before taking step `step`, the settings and
// materials the recorded session changed to at that step, if it changed them then.
void apply_setting_changes(const Recording& recording, std::int64_t step, SceneSettings* settings,
                           std::vector<Material>* materials);

}  // namespace pivot
