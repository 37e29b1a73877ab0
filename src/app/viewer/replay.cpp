// Replay of a recording in the viewer: the recorded states shown on a timeline, played at
// the recorded pace times the speed slider. The world does not step meanwhile.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "viewer_app.hpp"

namespace pivot::viewer {

bool ViewerApp::open_replay(const std::string& path) {
  try {
    Recording recording = read_recording(path);
    // A recording names the scene it was made from; open that one when it is not loaded.
    const std::string& scene = recording.info.scene_path;
    if (!scene.empty() && scene != scene_path_ && std::filesystem::exists(scene) && !load(scene)) {
      return false;
    }
    if (!world_) throw std::invalid_argument("no scene loaded to replay " + path + " in");
    check_recording_matches(recording, world_->scene());
    if (recording.frames.empty()) throw std::invalid_argument(path + " holds no frames");
    stop_recording();
    release();
    playing_ = false;
    replay_ = std::move(recording);
    replay_playing_ = false;
    replay_clock_s_ = 0.0;
    std::snprintf(replay_path_, sizeof(replay_path_), "%s", path.c_str());
    load_replay_plots();
    show_replay_frame(0);
    return true;
  } catch (const std::exception& e) {
    error_ = e.what();
    return false;
  }
}

void ViewerApp::close_replay() {
  if (!replay_) return;
  replay_.reset();
  replay_playing_ = false;
  plots_.clear();  // the replay's rows; the simulation's start again from the state shown
  record_plot_row();
}

void ViewerApp::show_replay_frame(int frame) {
  replay_frame_ = std::clamp(frame, 0, static_cast<int>(replay_->frames.size()) - 1);
  world_->set_state(recorded_state(*replay_, static_cast<size_t>(replay_frame_)));
}

void ViewerApp::advance_replay(double wall_dt_s) {
  if (!replay_playing_) return;
  const double frame_s = replay_->info.time_step_s * replay_->info.record_every;
  replay_clock_s_ += std::min(wall_dt_s, 0.1) * speed_;
  int frame = replay_frame_;
  while (replay_clock_s_ >= frame_s) {
    replay_clock_s_ -= frame_s;
    ++frame;
  }
  const int last = static_cast<int>(replay_->frames.size()) - 1;
  if (frame >= last) replay_playing_ = false;
  if (frame != replay_frame_) show_replay_frame(frame);
}

void ViewerApp::draw_replay_panel() {
  int width = 0, height = 0;
  glfwGetWindowSize(window_, &width, &height);
  // Kept at the bottom right corner as it grows when a recording opens.
  ImGui::SetNextWindowPos(ImVec2(static_cast<float>(width) - 10, static_cast<float>(height) - 10),
                          ImGuiCond_Always, ImVec2(1.0f, 1.0f));
  begin_panel("Replay", nullptr, ImGuiWindowFlags_AlwaysAutoResize);
  if (!replay_) {
    ImGui::SetNextItemWidth(300);
    ImGui::InputText("##recording", replay_path_, sizeof(replay_path_));
    ImGui::SameLine();
    if (ImGui::Button("Open")) open_replay(replay_path_);
    end_panel();
    return;
  }
  if (ImGui::Button(replay_playing_ ? "Pause" : "Play")) {
    if (replay_frame_ + 1 >= static_cast<int>(replay_->frames.size())) show_replay_frame(0);
    replay_playing_ = !replay_playing_;
  }
  ImGui::SameLine();
  if (ImGui::Button("Close")) {
    close_replay();
    end_panel();
    return;
  }
  ImGui::SameLine();
  ImGui::Text("t = %.3f s", replay_->frames[replay_frame_].time_s);
  int frame = replay_frame_;
  ImGui::SetNextItemWidth(300);
  if (ImGui::SliderInt("frame", &frame, 0, static_cast<int>(replay_->frames.size()) - 1)) {
    replay_playing_ = false;
    show_replay_frame(frame);
  }
  end_panel();
}

}  // namespace pivot::viewer
