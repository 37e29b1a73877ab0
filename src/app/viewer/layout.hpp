// Where the viewer's panels go: kept inside the window whatever its size (from 1024 x 640
// up), and remembered between runs in ImGui's settings file in the user's configuration
// directory, never in the working directory.
#pragma once

#include <string>

namespace pivot::viewer {

// $XDG_CONFIG_HOME/pivot/imgui.ini, else $HOME/.config/pivot/imgui.ini; empty when neither
// variable is set (the layout is then not remembered).
std::string layout_file_path();

// ImGui's settings written by us rather than by ImGui, so that a crash mid-write leaves the
// previous complete file (a temporary file renamed into place).
class LayoutFile {
 public:
  // Loads the file if it exists. Call after ImGui::CreateContext().
  explicit LayoutFile(std::string path);
  // Writes the settings when ImGui says they changed (ImGui marks them at most every
  // io.IniSavingRate seconds), or always with force (at exit). Quiet on failure: a layout
  // that cannot be saved must not stop the viewer.
  void save(bool force);
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

struct PanelRect {
  float x = 0, y = 0, width = 0, height = 0;  // [px], from the top left of the window
};
// Call before ImGui::Begin(name, ..., flags): when the panel, at the size ImGui will give
// it this frame (its content's size for an auto-resizing panel), would reach past the
// display, moves (and if need be shrinks) it inside, however the user dragged it or the
// window was resized. A panel seen for the first time is placed by its own code.
void fit_next_panel_in_display(const char* name, int flags);
// Call between ImGui::Begin and End: the current panel's rectangle as drawn this frame.
PanelRect current_panel_rect();

}  // namespace pivot::viewer
