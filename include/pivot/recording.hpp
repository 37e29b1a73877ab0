// Trajectory recordings: one CSV row per body per recorded step (step, t, body, position,
// quaternion, linear and angular velocity) plus a JSON sidecar (scene, settings, Pivot
// version), and an optional contact log. Written to temporary files that are renamed into
// place only when the recording is finished, so a crash never leaves a truncated file
// over a good one. Read back (validated) for replay.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "pivot/contact.hpp"
#include "pivot/scene.hpp"
#include "pivot/world.hpp"

namespace pivot {

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

  // Records the state (and, with a contact log, the world's last contacts and impulses)
  // when state.step is a multiple of record_every.
  void record(const World& world);
  // Flushes, closes and renames everything into place. Throws std::runtime_error.
  void finish();

  const std::string& path() const { return path_; }
  std::int64_t frames() const { return frames_; }

 private:
  void close_files();

  std::string path_;
  std::string temp_csv_;
  std::string temp_contacts_;
  RecordingInfo info_;
  std::string sidecar_scene_json_;
  std::FILE* csv_ = nullptr;
  std::FILE* contacts_ = nullptr;
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

}  // namespace pivot
