// The Plots panel: per step, the total normal force per body pair, the selected body's
// position and velocity, energy, pivots and solve time, over the last seconds, live or
// along a replay (which has states only: positions, velocities and energy), drawn with
// ImGui's own PlotLines and exported to CSV.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "viewer_app.hpp"

namespace pivot::viewer {

namespace {

// The series a new session shows: what the contact does, and the energy.
bool shown_by_default(const std::string& name) {
  return name.find("normal [N]") != std::string::npos || name == "energy [J]";
}

}  // namespace

void ViewerApp::add_state_plot_values(std::vector<std::pair<std::string, double>>* values) const {
  values->emplace_back("energy [J]", world_->energy_j());
  if (plot_body_ < 0 || plot_body_ >= static_cast<int>(world_->scene().bodies.size())) return;
  const std::string& name = world_->scene().bodies[static_cast<size_t>(plot_body_)].name;
  const BodyState& s = world_->state().bodies[static_cast<size_t>(plot_body_)];
  static const char* kAxes[] = {"x", "y", "z"};
  for (int i = 0; i < 3; ++i)
    values->emplace_back(name + " " + kAxes[i] + " [m]", s.pose.position[i]);
  for (int i = 0; i < 3; ++i)
    values->emplace_back(name + " v" + kAxes[i] + " [m/s]", s.twist.linear[i]);
}

void ViewerApp::record_plot_row() {
  std::vector<std::pair<std::string, double>> values;
  add_state_plot_values(&values);
  const StepStats& stats = world_->last_stats();
  values.emplace_back("pivots", stats.pivots);
  values.emplace_back("solve [us]", stats.solve_us);
  // Total normal force per pair of bodies, group sides included (ContactView).
  std::map<std::string, double> pairs;
  for (const ContactView& c : contact_views(*world_)) {
    const std::vector<Body>& bodies = world_->scene().bodies;
    pairs[bodies[static_cast<size_t>(c.body_a)].name + "-" +
          bodies[static_cast<size_t>(c.body_b)].name + " normal [N]"] += c.normal_n;
  }
  for (const auto& [name, force] : pairs) values.emplace_back(name, force);
  plots_.add(world_->state().time_s, values);
}

void ViewerApp::load_replay_plots() {
  plots_.clear();
  for (size_t k = 0; k < replay_->frames.size(); ++k) {
    world_->set_state(recorded_state(*replay_, k));
    std::vector<std::pair<std::string, double>> values;
    add_state_plot_values(&values);
    plots_.add(world_->state().time_s, values);
  }
}

bool ViewerApp::export_plots(const std::string& path) {
  const double now = world_->state().time_s;
  std::string error;
  if (plots_.write_csv(path, now - static_cast<double>(plot_window_s_), now, &error)) return true;
  error_ = error;
  return false;
}

bool ViewerApp::select_plot_body(int body) {
  if (body < 0 || body >= static_cast<int>(world_->scene().bodies.size())) return false;
  plot_body_ = body;
  // The rows so far hold the previous body's series: start again (a replay re-reads its frames).
  if (replay_) {
    const int frame = replay_frame_;
    load_replay_plots();
    show_replay_frame(frame);
  } else {
    plots_.clear();
    record_plot_row();
  }
  return true;
}

void ViewerApp::draw_plots_panel() {
  int width = 0, height = 0;
  glfwGetWindowSize(window_, &width, &height);
  // Bottom centre, between the scene picker and the replay panel.
  ImGui::SetNextWindowPos(ImVec2(320, static_cast<float>(height) - 10), ImGuiCond_FirstUseEver,
                          ImVec2(0.0f, 1.0f));
  ImGui::SetNextWindowSize(ImVec2(330, 250), ImGuiCond_FirstUseEver);
  begin_panel("Plots");
  const std::vector<Body>& bodies = world_->scene().bodies;
  ImGui::SetNextItemWidth(110);
  if (ImGui::BeginCombo("body", plot_body_ >= 0
                                    ? bodies[static_cast<size_t>(plot_body_)].name.c_str()
                                    : "none")) {
    for (size_t k = 0; k < bodies.size(); ++k) {
      if (!bodies[k].fixed &&
          ImGui::Selectable(bodies[k].name.c_str(), static_cast<int>(k) == plot_body_)) {
        select_plot_body(static_cast<int>(k));
      }
    }
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(90);
  ImGui::SliderFloat("last [s]", &plot_window_s_, 0.1f,
                     static_cast<float>(PlotHistory::kKeptSeconds), "%.1f",
                     ImGuiSliderFlags_Logarithmic);
  if (ImGui::Button("Export CSV")) export_plots(plot_path_);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-1);
  ImGui::InputText("##plotpath", plot_path_, sizeof(plot_path_));

  const double now = world_->state().time_s;
  const size_t first = plots_.first_row_at(now - static_cast<double>(plot_window_s_));
  const size_t last = plots_.first_row_at(std::nextafter(now, 1e300));  // rows up to now
  for (size_t k = 0; k < plots_.names().size(); ++k) {
    const std::string& name = plots_.names()[k];
    auto shown = plot_shown_.find(name);
    if (shown == plot_shown_.end()) shown = plot_shown_.emplace(name, shown_by_default(name)).first;
    ImGui::Checkbox(name.c_str(), &shown->second);
    if (!shown->second || last <= first) continue;
    const std::vector<double>& series = plots_.series(k);
    std::vector<float> samples(series.begin() + static_cast<std::ptrdiff_t>(first),
                               series.begin() + static_cast<std::ptrdiff_t>(last));
    float lo = 1e30f, hi = -1e30f;
    for (const float v : samples) {
      if (std::isnan(v)) continue;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
    if (lo > hi) continue;
    if (hi - lo < 1e-9f * std::max(1.0f, std::abs(hi))) {  // a flat line, drawn mid-height
      lo -= 0.5f;
      hi += 0.5f;
    }
    char overlay[96];
    std::snprintf(overlay, sizeof(overlay), "%.4g  [%.3g, %.3g]",
                  static_cast<double>(samples.back()), static_cast<double>(lo),
                  static_cast<double>(hi));
    ImGui::PlotLines(("##" + name).c_str(), samples.data(), static_cast<int>(samples.size()), 0,
                     overlay, lo, hi, ImVec2(ImGui::GetContentRegionAvail().x, 50));
  }
  end_panel();
}

}  // namespace pivot::viewer
