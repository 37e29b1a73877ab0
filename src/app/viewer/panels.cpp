// The viewer's ImGui panels, one function each (Box2D samples' DrawUI, MuJoCo simulate's
// Make*Section).
#include <imgui.h>

#include <algorithm>
#include <filesystem>

#include "viewer_app.hpp"

namespace pivot::viewer {

bool ViewerApp::begin_panel(const char* name, bool* open, int flags) {
  current_panel_ = name;
  fit_next_panel_in_display(name, flags);
  return ImGui::Begin(name, open, flags);
}

void ViewerApp::end_panel() {
  panel_rects_[current_panel_] = current_panel_rect();
  ImGui::End();
}

void ViewerApp::draw_panels() {
  panel_rects_.clear();
  draw_controls_panel();
  draw_stats_panel();
  draw_scene_picker();
  if (world_) draw_replay_panel();
  if (world_) {
    if (show_plots_) draw_plots_panel();
    draw_force_scale_bar();
    draw_contact_info();
  }
  if (show_help_) draw_help_overlay();
}

void ViewerApp::draw_controls_panel() {
  int width = 0, height = 0;
  glfwGetWindowSize(window_, &width, &height);
  // Down to the scene picker; the sections scroll when opened beyond that.
  ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(300, static_cast<float>(height) - 190), ImGuiCond_FirstUseEver);
  begin_panel("Controls");
  if (!error_.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.35f, 0.35f, 1.0f));
    ImGui::TextWrapped("%s", error_.c_str());
    ImGui::PopStyleColor();
  }
  if (!world_) {
    ImGui::Text("No scene loaded.");
    end_panel();
    return;
  }
  if (ImGui::Button(playing_ ? "Pause" : "Play")) playing_ = !playing_;
  ImGui::SameLine();
  if (ImGui::Button("Step")) {
    playing_ = false;
    step_once();
  }
  ImGui::SameLine();
  if (ImGui::Button("Back") && !history_.empty()) {
    playing_ = false;
    world_->set_state(history_.back());
    history_.pop_back();
  }
  ImGui::SameLine();
  if (ImGui::Button("Reset")) {
    world_->reset();
    history_.clear();
    record_plot_row();
  }
  ImGui::SameLine();
  if (ImGui::Button("Reload")) load(scene_path_);
  ImGui::Checkbox("plots (F2)", &show_plots_);
  ImGui::SameLine();
  ImGui::Checkbox("help (F1)", &show_help_);

  if (ImGui::CollapsingHeader("Simulation", ImGuiTreeNodeFlags_DefaultOpen))
    draw_simulation_section();
  if (ImGui::CollapsingHeader("See through", ImGuiTreeNodeFlags_DefaultOpen)) draw_view_section();
  if (ImGui::CollapsingHeader("Overlays", ImGuiTreeNodeFlags_DefaultOpen)) draw_overlays_section();
  if (ImGui::CollapsingHeader("Record")) draw_record_section();
  end_panel();
}

void ViewerApp::draw_simulation_section() {
  SceneSettings& s = world_->settings();
  float h_ms = static_cast<float>(1000.0 * s.time_step_s);
  if (ImGui::SliderFloat("h [ms]", &h_ms, 0.5f, 20.0f, "%.2f")) s.time_step_s = 1e-3 * static_cast<double>(h_ms);
  float speed = static_cast<float>(speed_);
  if (ImGui::SliderFloat("speed", &speed, 0.05f, 4.0f, "%.2fx")) speed_ = speed;
  // The override is the scene settings' (what the solver uses); the slider holds the value
  // it takes when ticked, and shows the override's own value while one is set.
  std::optional<double>& mu_override = s.friction_override;
  bool overriding = mu_override.has_value();
  if (mu_override) mu_ = static_cast<float>(*mu_override);
  if (ImGui::Checkbox("global mu", &overriding)) {
    mu_override = overriding ? std::optional<double>(mu_) : std::nullopt;
  }
  ImGui::SameLine();
  if (ImGui::SliderFloat("##mu", &mu_, 0.0f, 1.5f, "mu %.2f") && overriding) mu_override = mu_;
  if (ImGui::TreeNode("Materials")) {
    for (Material& m : world_->materials()) {
      float mu = static_cast<float>(m.friction);
      if (ImGui::SliderFloat(m.name.c_str(), &mu, 0.0f, 1.5f, "%.2f")) m.friction = mu;
    }
    ImGui::TreePop();
  }
  // Logarithmic: the small d users try most get most of the slider; Ctrl+click types any.
  ImGui::SliderInt("d", &s.friction_directions, kMinFrictionDirections, kMaxFrictionDirections,
                   "%d", ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
  // The threads a step's pairs and islands run on: the same result for any number.
  ImGui::SliderInt("threads", &world_->options().threads, 1, 8, "%d", ImGuiSliderFlags_AlwaysClamp);
  // The solve time after which a step is abandoned and play paused. A step that needs
  // more is abandoned again at every try, so this is the way past it (0: none).
  double& budget_s = world_->options().step_time_limit_s;
  float budget = static_cast<float>(budget_s);
  if (ImGui::SliderFloat("step budget", &budget, 0.0f, 60.0f, budget > 0.0f ? "%.1f s" : "none",
                         ImGuiSliderFlags_AlwaysClamp)) {
    budget_s = budget;
  }
  int method = static_cast<int>(s.solver);
  if (ImGui::Combo("solver", &method, "standard\0structural\0reduced\0")) {
    s.solver = static_cast<LcpMethod>(method);
  }
  int nonconvex = static_cast<int>(s.nonconvex);
  if (ImGui::Combo("nonconvex", &nonconvex, "max\0sum\0off\0")) {
    s.nonconvex = static_cast<NonconvexFormulation>(nonconvex);
  }
  float g[3] = {static_cast<float>(s.gravity_mps2.x()), static_cast<float>(s.gravity_mps2.y()),
                static_cast<float>(s.gravity_mps2.z())};
  if (ImGui::InputFloat3("gravity", g)) s.gravity_mps2 = Vec3(g[0], g[1], g[2]);
}

void ViewerApp::draw_view_section() {
  SeeThrough& st = see_through_;
  ImGui::Checkbox("translucent bodies (T)", &st.on);
  const std::vector<Body>& bodies = world_->scene().bodies;
  if (st.on && ImGui::TreeNode("opacity")) {
    for (size_t k = 0; k < bodies.size(); ++k) {
      if (std::holds_alternative<HalfSpace>(bodies[k].shape)) continue;
      ImGui::SliderFloat(bodies[k].name.c_str(), &st.alpha[k], 0.05f, 1.0f, "%.2f");
    }
    ImGui::TreePop();
  }
  if (ImGui::Checkbox("section plane (X)", &st.section) && st.section) {
    st.section_normal = section_normal_facing_camera();
  }
  if (!st.section) return;
  static const char* kNormals[] = {"+x", "-x", "+y", "-y", "+z", "-z"};
  Eigen::Index axis = 0;
  st.section_normal.cwiseAbs().maxCoeff(&axis);
  int normal = 2 * static_cast<int>(axis) + (st.section_normal[axis] < 0 ? 1 : 0);
  ImGui::SetNextItemWidth(60);
  if (ImGui::Combo("##normal", &normal, kNormals, 6)) {
    st.section_normal = Vec3::Zero();
    st.section_normal[normal / 2] = normal % 2 == 0 ? 1.0 : -1.0;
  }
  ImGui::SameLine();
  // Over the bodies' extent along the normal; [ and ] step it by 2 %.
  const Vec3& n = st.section_normal;
  const float a = static_cast<float>(n.dot(scene_bounds_.lo)),
              b = static_cast<float>(n.dot(scene_bounds_.hi));
  float offset = static_cast<float>(st.section_offset_m);
  if (ImGui::SliderFloat("offset [m]", &offset, std::min(a, b), std::max(a, b), "%.3f")) {
    st.section_offset_m = offset;
  }
}

void ViewerApp::draw_overlays_section() {
  ImGui::Checkbox("contacts", &overlays_.contacts);
  ImGui::SameLine();
  ImGui::Checkbox("normals", &overlays_.normals);
  ImGui::SameLine();
  ImGui::Checkbox("forces", &overlays_.forces);
  ImGui::Checkbox("cones", &overlays_.cones);
  ImGui::SameLine();
  ImGui::Checkbox("groups", &overlays_.groups);
  ImGui::SameLine();
  ImGui::Checkbox("frames", &overlays_.frames);
  ImGui::Checkbox("islands", &overlays_.islands);
  // Arrows: yellow the normal force, cyan the friction force, from the contact point.
  float scale = static_cast<float>(newtons_per_metre_);
  if (ImGui::SliderFloat("N per m", &scale, 0.01f, 1e5f, "%.3g", ImGuiSliderFlags_Logarithmic) &&
      scale > 0.0f) {
    newtons_per_metre_ = scale;
  }
}

void ViewerApp::draw_record_section() {
  if (!recording_) {
    if (ImGui::Button("Record")) start_recording("pivot-recording.csv");
  } else {
    if (ImGui::Button("Stop recording")) stop_recording();
    ImGui::SameLine();
    ImGui::Text("%lld frames", static_cast<long long>(recording_->frames()));
  }
  ImGui::SameLine();
  if (ImGui::Button("Screenshot")) pending_screenshot_ = "pivot-screenshot.png";
  if (!ffmpeg_available_) {
    ImGui::TextDisabled("video export needs ffmpeg");
  } else if (!video_.active()) {
    if (ImGui::Button("Video")) start_video(video_path_);
    ImGui::SameLine();
    ImGui::InputText("##video", video_path_, sizeof(video_path_));
  } else {
    if (ImGui::Button("Stop video")) stop_video();
    ImGui::SameLine();
    ImGui::Text("%d frames to %s", video_.frames(), video_.path().c_str());
  }
}

void ViewerApp::draw_stats_panel() {
  if (!world_) return;
  int width = 0, height = 0;
  glfwGetWindowSize(window_, &width, &height);
  // Anchored by its top right corner: the panel sizes itself to its lines.
  ImGui::SetNextWindowPos(ImVec2(static_cast<float>(width) - 10, 10), ImGuiCond_FirstUseEver,
                          ImVec2(1.0f, 0.0f));
  begin_panel("Stats", nullptr, ImGuiWindowFlags_AlwaysAutoResize);
  const StepStats& st = world_->last_stats();
  ImGui::Text("t = %.3f s  (step %lld)", world_->state().time_s,
              static_cast<long long>(world_->state().step));
  ImGui::Text("real-time factor %.2f", real_time_factor_);
  ImGui::Text("contacts %d  groups %d  islands %d", st.contacts, st.groups, st.islands);
  ImGui::Text("pivots %d  fallbacks %d  failures %d", st.pivots, st.fallbacks, st.failures);
  // Of the islands: answered by the last step's basis, or by Lemke's path started there.
  ImGui::Text("warm starts %d  warm paths %d", st.warm_starts, st.warm_paths);
  // The step ran as substeps: say why (docs/stewart-trinkle.md).
  const SubstepCause cause = substep_cause(st);
  if (cause != SubstepCause::None) ImGui::Text("substeps %d (%s)", st.substeps, describe(cause));
  ImGui::Text("solve %.1f us  collision %.1f us", st.solve_us, st.collision_us);
  ImGui::Text("max penetration %.2e m", st.max_penetration_m);
  const DrawTimes draw = draw_times();
  ImGui::Text("draw %.2f ms median, %.2f ms p95 (%d frames)", draw.median_ms, draw.p95_ms,
              draw.frames);
  end_panel();
}

void ViewerApp::draw_scene_picker() {
  int width = 0, height = 0;
  glfwGetWindowSize(window_, &width, &height);
  ImGui::SetNextWindowPos(ImVec2(10, static_cast<float>(height) - 170), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(300, 160), ImGuiCond_FirstUseEver);
  begin_panel("Scenes");
  const std::filesystem::path dir = scene_path_.empty()
                                        ? std::filesystem::path("scenes")
                                        : std::filesystem::path(scene_path_).parent_path();
  std::error_code ec;
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() == ".json" && name.find("schema") == std::string::npos) {
      files.push_back(entry.path().string());
    }
  }
  std::sort(files.begin(), files.end());
  for (const std::string& file : files) {
    if (ImGui::Selectable(std::filesystem::path(file).filename().string().c_str(), file == scene_path_)) {
      load(file);
    }
  }
  ImGui::InputText("##path", path_buffer_, sizeof(path_buffer_));
  ImGui::SameLine();
  if (ImGui::Button("Open")) load(path_buffer_);
  end_panel();
}

void ViewerApp::draw_help_overlay() {
  ImGui::SetNextWindowPos(ImVec2(320, 10), ImGuiCond_Always);
  begin_panel("Help (F1)", &show_help_, ImGuiWindowFlags_AlwaysAutoResize);
  ImGui::Text("Space        play / pause");
  ImGui::Text("Right arrow  single step");
  ImGui::Text("Left arrow   step back");
  ImGui::Text("Backspace    reset");
  ImGui::Text("Ctrl-L       reload scene from disk");
  ImGui::Text("Ctrl-P       screenshot (pivot-screenshot.png)");
  ImGui::Text("F2           plots over time (and their CSV export)");
  ImGui::Text("Left drag    orbit;  right/middle drag  pan;  wheel  zoom");
  ImGui::Text("Ctrl + left drag  pull a body by hand (a spring)");
  ImGui::Text("T            translucent bodies on / off");
  ImGui::Text("X            section plane on / off;  [ ]  move it");
  ImGui::Text("I/K J/L U/O  nudge the grabbed body (or the peg): ahead/back,");
  ImGui::Text("             left/right, up/down, with a force of its weight");
  ImGui::Text("Replay       Space play/pause, arrows step through the frames");
  end_panel();
}

}  // namespace pivot::viewer
