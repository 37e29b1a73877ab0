#include "layout.hpp"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "move_into_place.hpp"

namespace pivot::viewer {

std::string layout_file_path() {
  // The XDG base directory specification: an empty or relative XDG_CONFIG_HOME is ignored.
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  if (xdg != nullptr && xdg[0] == '/') return std::string(xdg) + "/pivot/imgui.ini";
  const char* home = std::getenv("HOME");
  if (home != nullptr && home[0] != '\0') return std::string(home) + "/.config/pivot/imgui.ini";
  return "";
}

LayoutFile::LayoutFile(std::string path) : path_(std::move(path)) {
  ImGui::GetIO().IniFilename = nullptr;  // ImGui would write ./imgui.ini in place
  std::error_code ec;
  if (!path_.empty() && std::filesystem::exists(path_, ec)) {
    ImGui::LoadIniSettingsFromDisk(path_.c_str());
  }
}

void LayoutFile::save(bool force) {
  ImGuiIO& io = ImGui::GetIO();
  if (path_.empty() || (!force && !io.WantSaveIniSettings)) return;
  io.WantSaveIniSettings = false;
  size_t size = 0;
  const char* text = ImGui::SaveIniSettingsToMemory(&size);
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path_).parent_path(), ec);
  const std::string temp = path_ + ".tmp";
  {
    std::ofstream out(temp, std::ios::binary);
    out.write(text, static_cast<std::streamsize>(size));
    if (!out) return;
  }
  std::string error;
  move_into_place(temp, path_, &error);
}

void fit_next_panel_in_display(const char* name, int flags) {
  // ImGui's internal API: the only way to know a panel's coming size before it is drawn.
  ImGuiWindow* window = ImGui::FindWindowByName(name);
  if (window == nullptr) return;
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  const ImVec2 size = (flags & ImGuiWindowFlags_AlwaysAutoResize) != 0
                          ? ImGui::CalcWindowNextAutoFitSize(window)
                          : window->SizeFull;
  const ImVec2 pos = window->Pos;
  const ImVec2 fitted_size(std::min(size.x, display.x), std::min(size.y, display.y));
  const ImVec2 fitted_pos(std::clamp(pos.x, 0.0f, std::max(0.0f, display.x - fitted_size.x)),
                          std::clamp(pos.y, 0.0f, std::max(0.0f, display.y - fitted_size.y)));
  if (fitted_size.x != size.x || fitted_size.y != size.y) ImGui::SetNextWindowSize(fitted_size);
  if (fitted_pos.x != pos.x || fitted_pos.y != pos.y) ImGui::SetNextWindowPos(fitted_pos);
}

PanelRect current_panel_rect() {
  const ImVec2 pos = ImGui::GetWindowPos();
  const ImVec2 size = ImGui::GetWindowSize();
  return {pos.x, pos.y, size.x, size.y};
}

}  // namespace pivot::viewer
