// `pivot render` run as a user runs it on a machine with no display (no DISPLAY, no Xvfb,
// EGL on Mesa's surfaceless platform with the llvmpipe rasteriser): its frame agrees with
// the viewer's screenshot of the same state, its videos have the frames and size asked
// for, and bad input is named.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "app/session.hpp"

using namespace app_test;

namespace {

std::string scene(const std::string& name) {
  return std::string(PIVOT_SOURCE_DIR) + "/scenes/" + name + ".json";
}

struct Rect {
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  bool contains(int x, int y) const { return x >= x0 && x < x1 && y >= y0 && y < y1; }
};

// The panels a script's `print panels` reported, widened by a pixel each side for the
// windows' borders.
std::vector<Rect> printed_panels(const std::string& text) {
  std::vector<Rect> rects;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string kind, name;
    double x = 0, y = 0, w = 0, h = 0;
    if (!(words >> kind >> name >> x >> y >> w >> h) || kind != "panel") continue;
    rects.push_back({static_cast<int>(x) - 1, static_cast<int>(y) - 1, static_cast<int>(x + w) + 2,
                     static_cast<int>(y + h) + 2});
  }
  return rects;
}

// Width, height and frame count of a video as ffprobe decodes it.
std::string probe(const std::string& video) {
  const std::string out = temp_path("probe.txt");
  const std::string command = std::string(PIVOT_FFPROBE) +
                              " -v error -select_streams v:0 -count_frames -show_entries "
                              "stream=width,height,nb_read_frames -of csv=p=0 " +
                              video + " >" + out + " 2>&1";
  EXPECT_EQ(std::system(command.c_str()), 0) << read_text(out);
  std::string text = read_text(out);
  text.erase(std::remove(text.begin(), text.end(), '\n'), text.end());
  return text;
}

}  // namespace

// The same state drawn by the viewer in a window under Xvfb and by `pivot render` with no
// display at all: both go through the one WorldDrawing with the same camera, see-through
// and force scale, on the same rasteriser (llvmpipe, one sample per pixel: the viewer asks
// a software renderer for no multisampling). Compared outside the viewer's ImGui panels
// (as `print panels` reports them) and the force scale bar (the top 60 rows). Measured on
// 672 868 pixels compared: 2 506 differ by 1 level of 255 (blending rounds differently into
// the window's RGB and the framebuffer object's RGBA), 7 by more than 2 (line pixels
// placed differently). The bound, 25 pixels off by more than 2 levels, leaves room for a
// few more such pixels, yet is below the smallest thing the drawing could get wrong: all
// contact crosses are 31 pixels of this frame, all force arrows 51, a camera 10 cm off
// changes 175 000. The panels are those of the screenshot's own frame (`print panels` after
// `screenshot` reports the frame the screenshot took): the Stats panel sizes itself to its
// draw-time line, which changes from frame to frame, and printed two frames before the
// screenshot it was once 507 pixels narrower than drawn (under ASan, on a loaded machine).
TEST(Render, FrameWithoutDisplayMatchesViewerScreenshot) {
  const std::string shot = temp_path("render_viewer_shot.png");
  const std::string frame = temp_path("render_frame.png");
  const std::string panels = temp_path("render_panels.txt");
  std::remove(shot.c_str());
  std::remove(frame.c_str());
  const std::string script = write_script("render_compare.txt", "load " + scene("peg_in_hole") +
                                                                    "\n"
                                                                    "step 50\n"
                                                                    "wait 2\n"
                                                                    "screenshot " +
                                                                    shot +
                                                                    "\n"
                                                                    "print panels\n"
                                                                    "quit\n");
  ASSERT_EQ(run_viewer("--script " + script, "/dev/null", panels), 0);
  const std::string err = temp_path("render_frame.err");
  ASSERT_EQ(
      run_pivot_without_display(
          "render " + scene("peg_in_hole") + " --duration 0.5 --size 1280x800 --png " + frame, err),
      0)
      << read_text(err);

  const Image viewer = load_png(shot), render = load_png(frame);
  ASSERT_EQ(viewer.w, 1280);
  ASSERT_EQ(viewer.h, 800);
  ASSERT_EQ(render.w, 1280);
  ASSERT_EQ(render.h, 800);
  const std::vector<Rect> hidden = printed_panels(read_text(panels));
  ASSERT_GE(hidden.size(), 2u) << read_text(panels);
  int compared = 0, differing = 0;
  for (int y = 60; y < render.h; ++y) {
    for (int x = 0; x < render.w; ++x) {
      if (std::any_of(hidden.begin(), hidden.end(),
                      [&](const Rect& r) { return r.contains(x, y); }))
        continue;
      ++compared;
      const unsigned char* a = viewer.at(x, y);
      const unsigned char* b = render.at(x, y);
      int worst = 0;
      for (int c = 0; c < 3; ++c) worst = std::max(worst, std::abs(a[c] - b[c]));
      differing += worst > 2 ? 1 : 0;
    }
  }
  ASSERT_GT(compared, render.w * render.h / 2) << "the panels hide most of the window";
  EXPECT_LE(differing, 25) << differing << " of " << compared << " pixels differ";
}

// Frame k of a video is at k / fps of simulated time, from the start to the end inclusive.
TEST(Render, SceneVideoHasOneFramePerTickAndTheSizeAsked) {
  const std::string mp4 = temp_path("render_box.mp4");
  std::remove(mp4.c_str());
  const std::string err = temp_path("render_box.err");
  ASSERT_EQ(run_pivot_without_display("render " + scene("box_on_plane") +
                                          " --duration 1 --fps 10 --size 320x240 --video " + mp4,
                                      err),
            0)
      << read_text(err);
  EXPECT_EQ(probe(mp4), "320,240,11");
  EXPECT_FALSE(std::filesystem::exists(mp4 + ".part"));
}

// A recording replayed: its 0.5 s at 20 frames per second, the last frame as a PNG.
TEST(Render, RecordingVideoAndLastFrame) {
  const std::string csv = temp_path("render_rec.csv");
  const std::string mp4 = temp_path("render_rec.mp4");
  const std::string png = temp_path("render_rec.png");
  std::remove(mp4.c_str());
  std::remove(png.c_str());
  const std::string err = temp_path("render_rec.err");
  ASSERT_EQ(run_pivot_without_display(
                "run " + scene("block_stack_5") + " --duration 0.5 --record " + csv, err),
            0)
      << read_text(err);
  const std::string out = temp_path("render_rec.out");
  ASSERT_EQ(run_pivot_without_display("render " + csv +
                                          " --fps 20 --size 400x300 --camera front --video " + mp4 +
                                          " --png " + png,
                                      err, out),
            0)
      << read_text(err);
  EXPECT_EQ(probe(mp4), "400,300,11");
  const Image image = load_png(png);
  ASSERT_EQ(image.w, 400);
  ASSERT_EQ(image.h, 300);
  EXPECT_NE(read_text(out).find("t = 0.5 s"), std::string::npos) << read_text(out);
}

// Bad input: one line naming the input or option and the problem, exit status 1, and the
// outputs untouched (here a PNG from an earlier run stays as it was).
TEST(Render, BadInputIsNamedAndLeavesOutputsAlone) {
  const std::string png = temp_path("render_kept.png");
  std::ofstream(png) << "earlier";
  const std::string err = temp_path("render_bad.err");
  const std::string box = scene("box_on_plane");
  const std::string missing = temp_path("no_such_scene.json");
  const std::string broken = temp_path("broken_scene.json");
  std::ofstream(broken) << "{\n  \"bodies\": [ }\n";
  const std::string bad_rec = temp_path("orphan.csv");
  std::ofstream(bad_rec) << "step,t\n";
  // A recording names its scene; here one that has gone since.
  const std::string gone_scene = temp_path("gone_scene.json");
  std::filesystem::copy_file(box, gone_scene, std::filesystem::copy_options::overwrite_existing);
  const std::string orphan_rec = temp_path("orphan_rec.csv");
  ASSERT_EQ(
      run_pivot_without_display("run " + gone_scene + " --duration 0.05 --record " + orphan_rec),
      0);
  std::filesystem::remove(gone_scene);
  const std::pair<std::string, std::string> cases[] = {
      {"render " + orphan_rec + " --png " + png,
       "pivot: error: " + orphan_rec + ": its scene '" + gone_scene + "' cannot be found"},
      {"render " + missing + " --png " + png, "pivot: error: " + missing + ": no such file"},
      {"render " + broken + " --png " + png, "pivot: error: " + broken + ":2:"},
      {"render " + box + " --size 12x --png " + png,
       "pivot: error: --size '12x': expected WIDTHxHEIGHT in pixels, each 16 to 8192"},
      {"render " + box + " --size 100000x10 --png " + png, "pivot: error: --size '100000x10'"},
      {"render " + box + " --camera fisheye --png " + png,
       "pivot: error: --camera 'fisheye': unknown camera (scene, front, side, top, or the eye"},
      {"render " + box + " --camera 1,2 --png " + png,
       "pivot: error: --camera '1,2': unknown camera"},
      {"render " + box,
       "pivot: error: nothing to write: give --video FILE.mp4 and/or --png FILE.png"},
      {"render " + box + " --duration 1 --time 2 --png " + png,
       "pivot: error: --time 2: outside the run (0 to 1 s)"},
      {"render " + box + " --png /no/such/dir/frame.png",
       "pivot: error: --png /no/such/dir/frame.png: no directory /no/such/dir"},
      {"render " + bad_rec + " --png " + png,
       "pivot: error: " + bad_rec + ".json: cannot open the recording's sidecar"},
  };
  for (const auto& [args, message] : cases) {
    EXPECT_EQ(run_pivot_without_display(args, err), 1) << args;
    const std::string text = read_text(err);
    EXPECT_EQ(text.rfind(message, 0), 0u) << args << "\n" << text;
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1) << text;
  }
  EXPECT_EQ(read_text(png), "earlier");
}
