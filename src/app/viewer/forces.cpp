// Contact forces in the viewer: arrows in newtons at a scale the user sets (with a bar to
// read it by), and the contact under the mouse described (ContactView).
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "viewer_app.hpp"

namespace pivot::viewer {

namespace {

constexpr double kPickRadius_px = 8.0;
constexpr double kClickSlop_px = 3.0;  // a press and release closer than this is a click

}  // namespace

std::vector<ForceArrow> ViewerApp::force_arrows_drawn() const {
  if (!overlays_.forces) return {};
  return force_arrows(contacts_, newtons_per_metre_);
}

void ViewerApp::print_forces() const {
  std::printf("force_scale %.17g N/m\n", newtons_per_metre_);
  for (const ContactView& c : contacts_) {
    std::printf("contact %s; mu %.17g\n", describe(c, *world_).c_str(), c.mu);
  }
  for (const ForceArrow& a : force_arrows_drawn()) {
    std::printf("arrow %s %d %.17g %.17g %.17g %.17g %.17g %.17g\n",
                a.friction ? "friction" : "normal", a.contact, a.from.x(), a.from.y(), a.from.z(),
                a.to.x(), a.to.y(), a.to.z());
  }
  std::fflush(stdout);
}

void ViewerApp::draw_force_scale_bar() {
  if (!overlays_.forces || contacts_.empty()) return;
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  // About 100 px long, for a round force; exact at the depth of the camera's target.
  const double metres_per_px = camera_.metres_per_pixel(static_cast<double>(display.y));
  const double force_n = round_up_125(100.0 * metres_per_px * newtons_per_metre_);
  const float length_px = static_cast<float>(force_n / newtons_per_metre_ / metres_per_px);
  // Top centre: between the Controls and Stats panels at their default places.
  const float x0 = 0.5f * (display.x - length_px), y = 34.0f;
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  const ImU32 colour = ImGui::ColorConvertFloat4ToU32(
      ImVec4(kNormalArrowColour[0], kNormalArrowColour[1], kNormalArrowColour[2], 1.0f));
  const ImU32 ink = IM_COL32(20, 20, 24, 255);
  draw->AddLine(ImVec2(x0, y), ImVec2(x0 + length_px, y), colour, 3.0f);
  draw->AddLine(ImVec2(x0, y - 5), ImVec2(x0, y + 5), ink, 1.5f);
  draw->AddLine(ImVec2(x0 + length_px, y - 5), ImVec2(x0 + length_px, y + 5), ink, 1.5f);
  char label[96];
  std::snprintf(label, sizeof(label), "%g N  (%g N per m of arrow)", force_n, newtons_per_metre_);
  draw->AddText(ImVec2(x0, y - 20), ink, label);
}

void ViewerApp::pick_contact(double x_px, double y_px, int width_px, int height_px) {
  hovered_contact_ = -1;
  double nearest = kPickRadius_px;
  for (size_t k = 0; k < contacts_.size(); ++k) {
    bool behind = false;
    const Eigen::Vector2d p = camera_.to_screen(contacts_[k].point, width_px, height_px, &behind);
    const double distance = std::hypot(p.x() - x_px, p.y() - y_px);
    if (!behind && distance < nearest) {
      nearest = distance;
      hovered_contact_ = static_cast<int>(k);
    }
  }
  if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
    press_x_ = x_px;
    press_y_ = y_px;
  }
  if (ImGui::IsMouseReleased(ImGuiMouseButton_Left) &&
      std::hypot(x_px - press_x_, y_px - press_y_) < kClickSlop_px) {
    if (hovered_contact_ >= 0) {
      pinned_contact_ = contacts_[static_cast<size_t>(hovered_contact_)];
    } else {
      pinned_contact_.reset();
    }
  }
}

void ViewerApp::draw_contact_info() {
  if (hovered_contact_ >= 0 && hovered_contact_ < static_cast<int>(contacts_.size())) {
    ImGui::BeginTooltip();
    ImGui::TextUnformatted(
        describe(contacts_[static_cast<size_t>(hovered_contact_)], *world_).c_str());
    ImGui::EndTooltip();
  }
  if (!pinned_contact_) return;
  // The pinned contact follows the step: the same pair's contact nearest where it was.
  const ContactView* now = nullptr;
  double nearest = 1e300;
  for (const ContactView& c : contacts_) {
    const double distance = (c.point - pinned_contact_->point).norm();
    if (c.body_a == pinned_contact_->body_a && c.body_b == pinned_contact_->body_b &&
        distance < nearest) {
      nearest = distance;
      now = &c;
    }
  }
  if (now != nullptr) pinned_contact_ = *now;
  const ContactView& c = *pinned_contact_;
  const Scene& scene = world_->scene();
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  // Above the replay panel at the bottom right.
  ImGui::SetNextWindowPos(ImVec2(display.x - 10, display.y - 100), ImGuiCond_FirstUseEver,
                          ImVec2(1.0f, 1.0f));
  bool open = true;
  begin_panel("Contact", &open, ImGuiWindowFlags_AlwaysAutoResize);
  ImGui::Text("%s on %s%s", scene.bodies[static_cast<size_t>(c.body_a)].name.c_str(),
              scene.bodies[static_cast<size_t>(c.body_b)].name.c_str(),
              c.group_side ? " (group side)" : "");
  if (now == nullptr) ImGui::TextDisabled("no longer in contact");
  ImGui::Text("gap       %.3e m", c.gap_m);
  ImGui::Text("normal    %.4g N", c.normal_n);
  ImGui::Text("friction  %.4g N  (%.2f of mu N)", c.friction_n.norm(),
              c.normal_n > 0 ? c.friction_n.norm() / (c.mu * c.normal_n) : 0.0);
  ImGui::Text("mu        %.3f  (d = %d)", c.mu, c.d);
  ImGui::Text("%s, slip %.2e m/s", state(c), c.slip_speed_mps);
  end_panel();
  if (!open) pinned_contact_.reset();
}

}  // namespace pivot::viewer
