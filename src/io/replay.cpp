// Recorded frames back into world states and recorded setting changes back into settings,
// for replay.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "pivot/recording.hpp"

namespace pivot {

void check_recording_matches(const Recording& recording, const Scene& scene) {
  const std::vector<std::string>& names = recording.info.bodies;
  const size_t n = std::max(names.size(), scene.bodies.size());
  for (size_t k = 0; k < n; ++k) {
    const std::string recorded = k < names.size() ? "'" + names[k] + "'" : "none";
    const std::string in_scene =
        k < scene.bodies.size() ? "'" + scene.bodies[k].name + "'" : "none";
    if (recorded != in_scene) {
      throw std::invalid_argument("the recording is not of this scene: body " + std::to_string(k) +
                                  " is " + recorded + " in the recording and " + in_scene +
                                  " in the scene");
    }
  }
}

WorldState recorded_state(const Recording& recording, size_t frame) {
  if (frame >= recording.frames.size()) {
    throw std::invalid_argument("frame " + std::to_string(frame) + " of a recording of " +
                                std::to_string(recording.frames.size()) + " frames");
  }
  const RecordedFrame& f = recording.frames[frame];
  WorldState state;
  state.time_s = f.time_s;
  state.step = f.step;
  state.bodies = f.bodies;
  return state;
}

void apply_setting_changes(const Recording& recording, std::int64_t step, SceneSettings* settings,
                           std::vector<Material>* materials) {
  for (const SettingChange& change : recording.info.setting_changes) {
    if (change.step != step) continue;
    *settings = change.settings;
    *materials = change.materials;
  }
}

}  // namespace pivot
