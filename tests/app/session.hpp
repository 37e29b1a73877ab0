// What the program tests of tests/app share: temporary paths per process, a viewer session
// under Xvfb, `pivot` run without a display, and PNGs read back (stb).
#pragma once

#include <string>
#include <vector>

namespace app_test {

// Per process, so two suites on one machine (a release and a sanitizer build) never read
// each other's recordings and screenshots.
std::string temp_path(const std::string& name);

// pivot-viewer ARGS under xvfb-run, its stderr and stdout to the files given; the exit
// status. Each session gets its own configuration directory (XDG_CONFIG_HOME), empty
// unless config_dir is given, so no session sees the panel layout another one saved.
int run_viewer(const std::string& args, const std::string& stderr_file = "/dev/null",
               const std::string& stdout_file = "/dev/null", std::string config_dir = "");

// pivot ARGS with no display at all (DISPLAY and WAYLAND_DISPLAY unset, Mesa's software
// rasteriser), its stderr and stdout to the files given; the exit status.
int run_pivot_without_display(const std::string& args, const std::string& stderr_file = "/dev/null",
                              const std::string& stdout_file = "/dev/null");

// Writes text to temp_path(name) and returns that path.
std::string write_script(const std::string& name, const std::string& text);
std::string read_text(const std::string& path);

struct Image {
  int w = 0, h = 0;
  std::vector<unsigned char> rgb;
  const unsigned char* at(int x, int y) const { return &rgb[(static_cast<size_t>(y) * w + x) * 3]; }
};
// An empty image (w = h = 0) when the file cannot be read.
Image load_png(const std::string& path);

}  // namespace app_test
