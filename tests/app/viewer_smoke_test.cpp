// Runs the real pivot-viewer in a real window under Xvfb (Mesa software GL) and reads
// back the screenshot it writes.
#include <gtest/gtest.h>
#include <stb_image.h>

#include <cstdlib>
#include <string>

namespace {

std::string temp_path(const std::string& name) {
  return std::string(::testing::TempDir()) + name;
}

// Mesa's software driver is dlopen'd and unloaded with allocations still live, which
// LeakSanitizer reports from an "<unknown module>" that no suppression can name. Leak
// checking is therefore off for the viewer process only; libpivot's code is leak-checked
// by the unit tests, and the viewer stays under AddressSanitizer and UBSan.
int run_viewer(const std::string& args) {
  const char* asan = std::getenv("ASAN_OPTIONS");
  const std::string env = "ASAN_OPTIONS=" + std::string(asan ? asan : "") + ":detect_leaks=0 ";
  const std::string command = env + PIVOT_XVFB_RUN + " -a -s '-screen 0 1280x800x24' " +
                              PIVOT_VIEWER_PATH + " " + args;
  return std::system(command.c_str());
}

}  // namespace

TEST(ViewerSmoke, OpensWindowAndWritesNonBlankScreenshot) {
  const std::string png = temp_path("viewer_smoke.png");
  std::remove(png.c_str());
  ASSERT_EQ(run_viewer("--frames 5 --screenshot " + png), 0);
  int w = 0, h = 0, channels = 0;
  unsigned char* pixels = stbi_load(png.c_str(), &w, &h, &channels, 3);
  ASSERT_NE(pixels, nullptr) << "no readable PNG at " << png;
  EXPECT_EQ(w, 1280);
  EXPECT_EQ(h, 800);
  // The clear colour fills the corner opposite the panel; the ImGui panel at the top
  // left must differ from it, so the frame is neither blank nor a single colour.
  const unsigned char* corner = pixels + ((h - 1) * w + (w - 1)) * 3;
  EXPECT_NEAR(corner[0], 0.18 * 255, 2);
  EXPECT_NEAR(corner[1], 0.20 * 255, 2);
  EXPECT_NEAR(corner[2], 0.24 * 255, 2);
  int differing = 0;
  for (int y = 10; y < 60; ++y) {
    for (int x = 10; x < 200; ++x) {
      const unsigned char* p = pixels + (y * w + x) * 3;
      if (std::abs(p[0] - corner[0]) + std::abs(p[1] - corner[1]) + std::abs(p[2] - corner[2]) > 20) {
        ++differing;
      }
    }
  }
  stbi_image_free(pixels);
  EXPECT_GT(differing, 500) << "the ImGui panel is missing from the screenshot";
}

TEST(ViewerSmoke, RejectsNegativeFrameCountWithUsageError) {
  EXPECT_NE(run_viewer("--frames -3 2>/dev/null"), 0);
}
