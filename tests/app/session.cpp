#include "app/session.hpp"

#include <gtest/gtest.h>
#include <stb_image.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace app_test {

std::string temp_path(const std::string& name) {
  return std::string(::testing::TempDir()) + "pivot_viewer_" + std::to_string(getpid()) + "_" +
         name;
}

// Mesa's software driver is dlopen'd and unloaded with allocations still live, which
// LeakSanitizer reports from an "<unknown module>" that no suppression can name. Leak
// checking is therefore off for the viewer process only; libpivot's code is leak-checked
// by the unit tests, and the viewer stays under AddressSanitizer and UBSan.
int run_viewer(const std::string& args, const std::string& stderr_file,
               const std::string& stdout_file, std::string config_dir) {
  static int sessions = 0;
  const std::string session = std::to_string(++sessions);
  if (config_dir.empty()) {
    config_dir = temp_path("config_" + session);
    std::filesystem::remove_all(config_dir);
  }
  const char* asan = std::getenv("ASAN_OPTIONS");
  const std::string env = "ASAN_OPTIONS=" + std::string(asan ? asan : "") + ":detect_leaks=0 " +
                          "XDG_CONFIG_HOME=" + config_dir + " ";
  // The session's X authority file is ours, not xvfb-run's: without -f, xvfb-run keeps it
  // in a temporary directory it removes on exit, and when that removal fails it exits 5
  // and the viewer's own status is lost (seen in CI runs under ASan, twice in a row once).
  const std::string auth_file = temp_path("xauthority_" + session);
  std::ofstream{auth_file};
  const std::string command = env + PIVOT_XVFB_RUN + " -a -f " + auth_file +
                              " -s '-screen 0 1280x800x24' " + PIVOT_VIEWER_PATH + " " + args +
                              " 2>" + stderr_file + " >" + stdout_file;
  const int status = std::system(command.c_str());
  std::error_code ignored;
  std::filesystem::remove(auth_file, ignored);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string write_script(const std::string& name, const std::string& text) {
  const std::string path = temp_path(name);
  std::ofstream(path) << text;
  return path;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

Image load_png(const std::string& path) {
  Image image;
  int channels = 0;
  unsigned char* pixels = stbi_load(path.c_str(), &image.w, &image.h, &channels, 3);
  if (pixels != nullptr) {
    image.rgb.assign(pixels, pixels + static_cast<size_t>(image.w) * image.h * 3);
    stbi_image_free(pixels);
  }
  return image;
}

int run_pivot_without_display(const std::string& args, const std::string& stderr_file,
                              const std::string& stdout_file) {
  // Leak checking off for the same reason as the viewer's (Mesa's driver, above).
  const char* asan = std::getenv("ASAN_OPTIONS");
  const std::string command =
      "env -u DISPLAY -u WAYLAND_DISPLAY LIBGL_ALWAYS_SOFTWARE=1 "
      "ASAN_OPTIONS=" +
      std::string(asan ? asan : "") + ":detect_leaks=0 " + PIVOT_CLI_PATH + " " + args + " 2>" +
      stderr_file + " >" + stdout_file;
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace app_test
