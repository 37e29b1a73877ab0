// Runs the real pivot-viewer in a real window under Xvfb (Mesa software GL), driven by a
// scripted session, and checks what it leaves behind: the screenshot's pixels and the
// recording.
#include <gtest/gtest.h>
#include <stb_image.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "app/session.hpp"
#include "pivot/recording.hpp"

using namespace app_test;

namespace {

// The sky colour the renderer clears to (0.78, 0.82, 0.88).
bool is_sky(const unsigned char* p) {
  return std::abs(p[0] - 199) <= 3 && std::abs(p[1] - 209) <= 3 && std::abs(p[2] - 224) <= 3;
}

// A lit body: the bodies have distinct saturated colours, while sky, ground grid and
// panel backgrounds are (near) grey, so the channel spread separates them.
bool is_coloured(const unsigned char* p) {
  return !is_sky(p) && std::max({p[0], p[1], p[2]}) - std::min({p[0], p[1], p[2]}) > 40;
}

// Share of coloured pixels in the rectangle given as fractions of the image size.
double coloured_fraction(const Image& image, double x0, double x1, double y0, double y1) {
  int coloured = 0, total = 0;
  for (int y = static_cast<int>(y0 * image.h); y < static_cast<int>(y1 * image.h); ++y) {
    for (int x = static_cast<int>(x0 * image.w); x < static_cast<int>(x1 * image.w); ++x) {
      coloured += is_coloured(image.at(x, y)) ? 1 : 0;
      ++total;
    }
  }
  return total > 0 ? static_cast<double>(coloured) / total : 0.0;
}

// The positions a script's `print state` wrote, one list of bodies per print.
std::vector<std::map<std::string, pivot::Vec3>> printed_states(const std::string& text) {
  std::vector<std::map<std::string, pivot::Vec3>> states;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string kind, name;
    words >> kind;
    if (kind == "state") states.emplace_back();
    if (kind != "body" || states.empty()) continue;
    pivot::Vec3 p;
    words >> name >> p.x() >> p.y() >> p.z();
    states.back()[name] = p;
  }
  return states;
}

std::string box_scene() { return std::string(PIVOT_SOURCE_DIR) + "/scenes/box_on_plane.json"; }

}  // namespace

TEST(ViewerSession, ScriptedRunRecordsAndDrawsTheStack) {
  const std::string png = temp_path("viewer_stack.png");
  const std::string csv = temp_path("viewer_stack.csv");
  std::remove(png.c_str());
  std::remove(csv.c_str());
  const std::string script = write_script("stack_session.txt",
      "load " + std::string(PIVOT_SOURCE_DIR) + "/scenes/block_stack_5.json\n"
      "pause            # only scripted steps below, so the counts are exact\n"
      "set mu 0.4\n"
      "set d 8\n"
      "step 20\n"
      "record start " + csv + "\n"
      "step 50\n"
      "record stop\n"
      "overlay cones on\n"
      "screenshot " + png + "\n"
      "quit\n");
  ASSERT_EQ(run_viewer("--script " + script), 0);

  // The recording holds the frame at record start and the 50 steps after it.
  const pivot::Recording rec = pivot::read_recording(csv);
  ASSERT_EQ(rec.frames.size(), 51u);
  EXPECT_EQ(rec.frames.front().step, 20);
  EXPECT_EQ(rec.frames.back().step, 70);
  EXPECT_EQ(rec.info.friction_directions, 8);
  ASSERT_EQ(rec.info.bodies.size(), 6u);
  // The stack rests: the top block has not moved by more than a millimetre.
  const pivot::Vec3 top0 = rec.frames.front().bodies[5].pose.position;
  const pivot::Vec3 top1 = rec.frames.back().bodies[5].pose.position;
  EXPECT_LT((top1 - top0).norm(), 1e-3);

  // The scene's camera hint frames the stack right of the controls panel and below the
  // stats panel (its target is shifted by a quarter of the view width), so the region
  // between the panels right of centre is mostly lit, coloured block; the ground left of
  // centre, below the controls, shows no body; the top edge shows sky.
  const Image image = load_png(png);
  ASSERT_EQ(image.w, 1280);
  ASSERT_EQ(image.h, 800);
  EXPECT_GT(coloured_fraction(image, 0.60, 0.75, 0.45, 0.80), 0.6)
      << "the stack is not where the camera hint puts it";
  EXPECT_LT(coloured_fraction(image, 0.30, 0.50, 0.60, 0.90), 0.01)
      << "coloured pixels on the ground left of the stack";
  EXPECT_TRUE(is_sky(image.at(image.w / 2, 5)));
}

TEST(ViewerSession, OpensDefaultSceneAndWritesScreenshotAfterFrames) {
  const std::string png = temp_path("viewer_default.png");
  std::remove(png.c_str());
  ASSERT_EQ(run_viewer("--frames 5 --screenshot " + png), 0);
  const Image image = load_png(png);
  ASSERT_EQ(image.w, 1280);
  // The default scene is the peg-in-hole; its camera hint puts the (coloured) peg right of
  // centre, above the grey block it stands in.
  EXPECT_GT(coloured_fraction(image, 0.66, 0.74, 0.42, 0.52), 0.5) << "no peg where the camera hint puts it";
  EXPECT_LT(coloured_fraction(image, 0.30, 0.50, 0.60, 0.90), 0.01);
}

TEST(ViewerSession, UnknownScriptActionNamesFileAndLine) {
  const std::string script = write_script("bad_session.txt", "pause\njump 3\n");
  const std::string err = temp_path("bad_session.err");
  EXPECT_EQ(run_viewer("--script " + script, err), 1);
  EXPECT_NE(read_text(err).find(script + ":2: unknown action 'jump'"), std::string::npos)
      << read_text(err);
}

// The threads slider changes how fast, never what: the bin pile's first 40 steps (its
// bodies falling as separate islands and landing on one another) on one thread and on
// two print the same state. A thread count below one is refused with its line. With no
// step budget: under the sanitizers the landing's steps 35 and 36 run past the viewer's
// default 1 s, and which of them is abandoned (and paused) moved with the machine's load,
// so the two runs printed states a step apart (CI, 2026-12-04).
TEST(ViewerSession, ThreadsChangeNothingTheSceneDoes) {
  std::vector<std::map<std::string, pivot::Vec3>> printed;
  for (const char* threads : {"1", "2"}) {
    const std::string name = std::string("threads_session_") + threads;
    const std::string out = temp_path(name + ".out");
    const std::string err = temp_path(name + ".err");
    const std::string script = write_script(
        name + ".txt", "load " + std::string(PIVOT_SOURCE_DIR) + "/scenes/bin_pile_40.json\n" +
                           "set threads " + threads + "\nset step_budget 0\nstep 40\n" +
                           "print state\nquit\n");
    ASSERT_EQ(run_viewer("--script " + script, err, out), 0) << read_text(err);
    EXPECT_EQ(read_text(err), "");  // no step abandoned
    const auto states = printed_states(read_text(out));
    ASSERT_EQ(states.size(), 1u) << read_text(out);
    printed.push_back(states[0]);
  }
  EXPECT_EQ(printed[0], printed[1]);
  const std::string err = temp_path("threads_zero.err");
  const std::string out = temp_path("threads_zero.out");
  const std::string script =
      write_script("threads_zero.txt", "load " + std::string(PIVOT_SOURCE_DIR) +
                                           "/scenes/block_stack_2.json\nset threads 0\nquit\n");
  EXPECT_NE(run_viewer("--script " + script, err, out), 0);
  EXPECT_NE(read_text(err).find(script + ":2: cannot set threads to '0'"), std::string::npos)
      << read_text(err);
}

// A solve that overruns the step budget abandons the step (the state stays where it was)
// and pauses, so the window answers whatever the solver does; without a budget the same
// step is taken. The stack's first step pivots, and a budget of 1 ns has passed before
// the solver's first look at the clock.
TEST(ViewerSession, AStepPastItsBudgetIsAbandonedAndPauses) {
  const std::string out = temp_path("budget_session.out");
  const std::string err = temp_path("budget_session.err");
  const std::string script =
      write_script("budget_session.txt", "load " + std::string(PIVOT_SOURCE_DIR) +
                                             "/scenes/block_stack_5.json\n"
                                             "print state\n"
                                             "set step_budget 0.000000001\n"
                                             "step 3\n"
                                             "print state\n"
                                             "set step_budget 0\n"
                                             "step 3\n"
                                             "print state\n"
                                             "quit\n");
  ASSERT_EQ(run_viewer("--script " + script, err, out), 0) << read_text(err);
  const auto states = printed_states(read_text(out));
  ASSERT_EQ(states.size(), 3u) << read_text(out);
  EXPECT_EQ(states[1], states[0]);
  EXPECT_NE(states[2], states[1]);  // the stack settles by micrometres under gravity
  EXPECT_NE(read_text(err).find("pivot-viewer: step 0 abandoned: its solve ran past the 1e-09 s "
                                "step budget; paused (play tries it again; a larger step budget, "
                                "0 for none, lets it finish)"),
            std::string::npos)
      << read_text(err);
}

TEST(ViewerSession, BadSceneKeepsViewerRunningAndFailsTheScript) {
  const std::string scene = temp_path("broken_scene.json");
  std::ofstream(scene) << "{\"bodies\": [ {\"name\": \"a\", \"shape\": {\"box\": {}}, \"frction\": 1} ]}";
  const std::string png = temp_path("viewer_after_error.png");
  const std::string script = write_script("bad_scene_session.txt",
      "load " + std::string(PIVOT_SOURCE_DIR) + "/scenes/box_on_plane.json\n"
      "load " + scene + "\n"
      "step 3\n"
      "screenshot " + png + "\n"
      "quit\n");
  const std::string err = temp_path("bad_scene.err");
  EXPECT_EQ(run_viewer("--script " + script, err), 1);
  const std::string message = read_text(err);
  EXPECT_NE(message.find(script + ":2: cannot load '" + scene + "': " + scene + ":1:"),
            std::string::npos) << message;
  // The previous scene kept running: the later actions still drew a frame.
  EXPECT_EQ(load_png(png).w, 1280);
}

TEST(ViewerSession, HandLiftsTheBoxAndTheReplayShowsTheRecordedFrames) {
  const std::string csv = temp_path("viewer_hand.csv");
  const std::string out = temp_path("viewer_hand.out");
  const std::string script = write_script("hand_session.txt",
      "load " + box_scene() + "\n"
      "pause\n"
      "record start " + csv + "\n"
      "drag box 0 0 0.6\n"
      "step 150\n"
      "print state\n"
      "drag off\n"
      "record stop\n"
      "replay open " + csv + "\n"
      "replay frame 150\n"
      "print state\n"
      "replay frame 0\n"
      "print state\n"
      "step 5          # refused silently while replaying: the state stays at frame 0\n"
      "print state\n"
      "quit\n");
  ASSERT_EQ(run_viewer("--script " + script, "/dev/null", out), 0);
  const auto states = printed_states(read_text(out));
  ASSERT_EQ(states.size(), 4u) << read_text(out);
  // The 2 Hz critically damped hand settles the box's centre at the spring's sag
  // g / (2 pi 2)^2 = 6.2 cm below the hand; after 1.5 s (4.5 time constants of
  // 1/omega = 0.08 s) it is there within a millimetre.
  const double sag = 9.81 / std::pow(2.0 * M_PI * 2.0, 2);
  EXPECT_NEAR(states[0].at("box").z(), 0.6 - sag, 1e-3);
  EXPECT_NEAR(states[0].at("box").x(), 0.0, 1e-9);
  // The replay shows exactly the recorded states: the lifted box, then the start.
  EXPECT_EQ(states[1].at("box"), states[0].at("box"));
  EXPECT_EQ(states[2].at("box"), pivot::Vec3(0, 0, 0.1));
  EXPECT_EQ(states[3].at("box"), pivot::Vec3(0, 0, 0.1));
}

TEST(ViewerSession, NudgeSlidesTheBoxAgainstFriction) {
  const std::string out = temp_path("viewer_nudge.out");
  const std::string script = write_script("nudge_session.txt",
      "load " + box_scene() + "\n"
      "pause\n"
      "nudge +x\n"
      "step 50\n"
      "nudge off\n"
      "print state\n"
      "quit\n");
  ASSERT_EQ(run_viewer("--script " + script, "/dev/null", out), 0);
  const auto states = printed_states(read_text(out));
  ASSERT_EQ(states.size(), 1u) << read_text(out);
  // A push of the box's weight along friction direction 0 (+x) against sliding friction
  // mu m g (mu = 0.5): a = (1 - mu) g. Symplectic Euler from rest gives
  // x_n = a h^2 n (n + 1) / 2 exactly; the LCP's friction is exact, so only round-off.
  const double a = 0.5 * 9.81, h = 0.01;
  EXPECT_NEAR(states[0].at("box").x(), a * h * h * 50 * 51 / 2, 1e-9);
  EXPECT_NEAR(states[0].at("box").y(), 0.0, 1e-12);
  EXPECT_NEAR(states[0].at("box").z(), 0.1, 1e-9);
}

TEST(ViewerSession, VideoExportWritesAnMp4OfTheDrawnFrames) {
  const std::string mp4 = temp_path("viewer_video.mp4");
  std::remove(mp4.c_str());
  const std::string script = write_script("video_session.txt",
      "load " + box_scene() + "\n"
      "video start " + mp4 + "\n"
      "wait 20\n"
      "video stop\n"
      "quit\n");
  ASSERT_EQ(run_viewer("--script " + script), 0);
  const std::string video = read_text(mp4);
  ASSERT_GT(video.size(), 1000u);
  EXPECT_EQ(video.substr(4, 4), "ftyp");  // an ISO media file, finished by ffmpeg
  EXPECT_FALSE(std::ifstream(mp4 + ".part").good()) << "the temporary file was left behind";
}

TEST(ViewerSession, ScriptActionsWithWrongWordsNameTheForms) {
  const std::string script = write_script("bad_forms.txt", "pause\nvideo go\n");
  const std::string err = temp_path("bad_forms.err");
  EXPECT_EQ(run_viewer("--script " + script, err), 1);
  EXPECT_NE(read_text(err).find(script +
                                ":2: 'video' takes 'video start' with 2 words, 'video stop' with "
                                "1 word"),
            std::string::npos)
      << read_text(err);
  const std::string replay = write_script("bad_replay.txt",
      "load " + box_scene() + "\nreplay open /nonexistent/rec.csv\nquit\n");
  EXPECT_EQ(run_viewer("--script " + replay, err), 1);
  EXPECT_NE(read_text(err).find(replay + ":2: cannot replay '/nonexistent/rec.csv': "),
            std::string::npos)
      << read_text(err);
}

namespace {

struct Rect {
  double x = 0, y = 0, w = 0, h = 0;
};

// What a script's `print panels` wrote: the window's size and each panel's rectangle.
struct PrintedPanels {
  double width = 0, height = 0;
  std::map<std::string, Rect> panels;
};

// One entry per `print panels`.
std::vector<PrintedPanels> printed_panels(const std::string& text) {
  std::vector<PrintedPanels> prints;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string kind;
    words >> kind;
    if (kind == "window") {
      prints.emplace_back();
      words >> prints.back().width >> prints.back().height;
    }
    if (kind != "panel" || prints.empty()) continue;
    // Names may hold spaces ("Help (F1)"): the last four words are the rectangle.
    std::vector<std::string> w;
    for (std::string word; words >> word;) w.push_back(word);
    if (w.size() < 5) continue;
    std::string name = w[0];
    for (size_t k = 1; k + 4 < w.size(); ++k) name += " " + w[k];
    const size_t n = w.size();
    prints.back().panels[name] = {std::stod(w[n - 4]), std::stod(w[n - 3]), std::stod(w[n - 2]),
                                  std::stod(w[n - 1])};
  }
  return prints;
}

}  // namespace

TEST(ViewerLayout, EveryPanelFitsInTheSmallestWindow) {
  // The fullest layout: a scene playing, a replay open (its panel grows), the help shown.
  const std::string csv = temp_path("layout.csv");
  const std::string out = temp_path("layout.out");
  const std::string script = write_script(
      "layout_session.txt", "load " + std::string(PIVOT_SOURCE_DIR) +
                                "/scenes/peg_in_hole.json\n"
                                "wait 2\n"
                                "print panels\n"
                                "record start " +
                                csv +
                                "\n"
                                "step 30\n"
                                "record stop\n"
                                "print panels     # the stats panel grew with the plots\n"
                                "replay open " +
                                csv +
                                "\n"
                                "replay frame 20\n"
                                "print panels     # the replay panel grew with its timeline\n"
                                "replay close\n"
                                "step 1\n"
                                "contact 3\n"
                                "plot show\n"
                                "wait 2\n"
                                "print panels     # a contact's panel opened\n"
                                "wait 5\n"
                                "print panels\n"
                                "quit\n");
  ASSERT_EQ(run_viewer("--size 1024 --script " + script, "/dev/null", out), 0);
  const std::vector<PrintedPanels> prints = printed_panels(read_text(out));
  ASSERT_EQ(prints.size(), 5u) << read_text(out);
  for (const char* name : {"Controls", "Stats", "Scenes", "Replay", "Contact", "Plots"}) {
    EXPECT_EQ(prints.back().panels.count(name), 1u) << name << " not drawn:\n" << read_text(out);
  }
  for (const PrintedPanels& printed : prints) {
    ASSERT_EQ(printed.width, 1024);
    ASSERT_EQ(printed.height, 640);
    for (const auto& [name, r] : printed.panels) {
      EXPECT_GE(r.x, 0) << name;
      EXPECT_GE(r.y, 0) << name;
      EXPECT_LE(r.x + r.w, printed.width) << name << " extends past the right edge";
      EXPECT_LE(r.y + r.h, printed.height) << name << " extends past the bottom edge";
    }
  }
}

TEST(ViewerLayout, PanelsAreRememberedInTheConfigDirectoryAndKeptInside) {
  const std::string config = temp_path("layout_config");
  std::filesystem::remove_all(config);
  const std::string ini = config + "/pivot/imgui.ini";
  const std::string out = temp_path("layout_remembered.out");
  const std::string script = write_script("layout_remembered.txt", "load " + box_scene() +
                                                                       "\n"
                                                                       "wait 5\n"
                                                                       "print panels\n"
                                                                       "quit\n");
  ASSERT_EQ(run_viewer("--size 1024 --script " + script, "/dev/null", out, config), 0);
  const std::string saved = read_text(ini);
  ASSERT_NE(saved.find("[Window][Stats]"), std::string::npos) << "no layout saved at " << ini;

  // The user moved Controls, and dragged Stats half out of the window (or it was placed in
  // a larger one): Controls comes back where it was left, Stats inside the window.
  std::ofstream(ini) << "[Window][Controls]\nPos=200,150\nSize=300,300\nCollapsed=0\n\n"
                        "[Window][Stats]\nPos=900,600\nSize=330,200\nCollapsed=0\n";
  ASSERT_EQ(run_viewer("--size 1024 --script " + script, "/dev/null", out, config), 0);
  const std::vector<PrintedPanels> prints = printed_panels(read_text(out));
  ASSERT_EQ(prints.size(), 1u) << read_text(out);
  const PrintedPanels& printed = prints.front();
  ASSERT_EQ(printed.panels.count("Controls"), 1u) << read_text(out);
  EXPECT_EQ(printed.panels.at("Controls").x, 200);
  EXPECT_EQ(printed.panels.at("Controls").y, 150);
  const Rect stats = printed.panels.at("Stats");
  EXPECT_LE(stats.x + stats.w, 1024);
  EXPECT_LE(stats.y + stats.h, 640);
}

namespace {

// The peg's blue (0.25, 0.55, 0.90), lit, in shade or seen through the grey block (about
// (66, 88, 114) there): blue above red by 30 and above green by 10. The sky (199, 209, 224),
// grey bodies, the grid and the red contact marks all fail it.
bool is_peg_blue(const unsigned char* p) {
  return p[2] >= p[0] + 30 && p[2] >= p[1] + 10 && !is_sky(p);
}

int peg_pixels_in(const Image& image, const Rect& r) {
  int count = 0;
  for (int y = std::max(0, static_cast<int>(r.y));
       y < std::min(image.h, static_cast<int>(r.y + r.h)); ++y) {
    for (int x = std::max(0, static_cast<int>(r.x));
         x < std::min(image.w, static_cast<int>(r.x + r.w)); ++x) {
      count += is_peg_blue(image.at(x, y)) ? 1 : 0;
    }
  }
  return count;
}

// The rectangles a script's `print screen BODY` wrote, by body.
std::map<std::string, Rect> printed_screen_rects(const std::string& text) {
  std::map<std::string, Rect> rects;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string kind, name;
    Rect r;
    if (words >> kind >> name >> r.x >> r.y >> r.w >> r.h && kind == "screen") rects[name] = r;
  }
  return rects;
}

}  // namespace

TEST(ViewerSeeThrough, ThePegShowsInsideTheBlockItsHoleHides) {
  const std::string see = temp_path("see_through.png");
  const std::string opaque = temp_path("opaque.png");
  const std::string cut = temp_path("section.png");
  const std::string out = temp_path("see_through.out");
  std::string text = "load " + std::string(PIVOT_SOURCE_DIR) + "/scenes/peg_in_hole.json\n";
  text += "step 40          # the peg half inserted\n";
  text += "print screen block\n";
  text += "screenshot " + see + "\n";
  text += "alpha block 1\n";
  text += "screenshot " + opaque + "\n";
  text += "section +x 0     # the camera looks from +x: the near half is cut away\n";
  text += "screenshot " + cut + "\n";
  text += "quit\n";
  ASSERT_EQ(run_viewer("--script " + write_script("see_through.txt", text), "/dev/null", out), 0);
  const auto rects = printed_screen_rects(read_text(out));
  ASSERT_EQ(rects.count("block"), 1u) << read_text(out);
  const Rect block = rects.at("block");
  // The block is drawn translucent by default (a container, see_through.hpp): the peg's
  // shaft inside it shows. Opaque, only the peg's head above the block shows in the
  // block's rectangle. The shaft is 0.1 m wide and 0.15 m deep in the block, about
  // 90 x 150 px at the scene's camera: more than 8000 px must appear. Cut open by the
  // section plane, the opaque block shows the (cut) shaft as well.
  const int seen = peg_pixels_in(load_png(see), block);
  const int hidden = peg_pixels_in(load_png(opaque), block);
  const int sectioned = peg_pixels_in(load_png(cut), block);
  EXPECT_GT(seen - hidden, 8000) << "translucent " << seen << ", opaque " << hidden;
  EXPECT_GT(sectioned - hidden, 8000) << "cut open " << sectioned << ", opaque " << hidden;
}

TEST(ViewerForces, ArrowsOfARestingBoxAddUpToItsWeightAtTheSetScale) {
  const std::string out = temp_path("forces.out");
  const std::string script =
      write_script("forces.txt", "load " + box_scene() +
                                     "\n"
                                     "step 50          # at rest on the ground\n"
                                     "set force_scale 200\n"
                                     "print forces\n"
                                     "quit\n");
  ASSERT_EQ(run_viewer("--script " + script, "/dev/null", out), 0);
  const std::string text = read_text(out);
  EXPECT_NE(text.find("force_scale 200 N/m"), std::string::npos) << text;
  // The 0.2 m wooden cube: 700 kg/m^3 * 0.008 m^3 = 5.6 kg, weight 54.936 N. Its contacts'
  // normal forces (impulse / h) carry the weight, so their arrows, all straight up from
  // the ground, are 54.936 N / 200 N/m = 0.27468 m long together. A resting box has no
  // friction force, so no friction arrow.
  double total_m = 0.0;
  int normals = 0;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string kind, part;
    int contact = 0;
    pivot::Vec3 from, to;
    if (!(words >> kind) || kind != "arrow") continue;
    words >> part >> contact >> from.x() >> from.y() >> from.z() >> to.x() >> to.y() >> to.z();
    EXPECT_EQ(part, "normal") << line;
    EXPECT_NEAR(from.z(), 0.0, 1e-9) << line;
    EXPECT_NEAR((to - from).normalized().z(), 1.0, 1e-9) << line;
    total_m += (to - from).norm();
    ++normals;
  }
  EXPECT_GE(normals, 1) << text;
  // The solver's impulses hold the weight to its complementarity tolerance (~1e-12).
  EXPECT_NEAR(total_m, 5.6 * 9.81 / 200.0, 1e-9) << text;
  EXPECT_NE(text.find("mu 0.50, sticks"), std::string::npos) << text;
}

namespace {

// What `print forces` writes after `steps` steps of a shipped scene.
std::string forces_after(const std::string& scene, int steps) {
  const std::string out = temp_path(scene + ".forces.out");
  const std::string script = write_script(
      scene + ".forces.txt", "load " + std::string(PIVOT_SOURCE_DIR) + "/scenes/" + scene +
                                 ".json\nstep " + std::to_string(steps) + "\nprint forces\nquit\n");
  EXPECT_EQ(run_viewer("--script " + script, "/dev/null", out), 0);
  return read_text(out);
}

}  // namespace

TEST(ViewerForces, AContactNamesTheUpperBodyFirst) {
  // block2 rests on block1. Between two moving bodies the contact's body A is the lower
  // index (block1) and its normal points from B toward A, down here: the description
  // reads the pair by that normal and gravity, not by index.
  const std::string text = forces_after("block_stack_2", 5);
  EXPECT_NE(text.find("contact block2 on block1: "), std::string::npos) << text;
  EXPECT_NE(text.find("contact block1 on ground: "), std::string::npos) << text;
  EXPECT_EQ(text.find("block1 on block2"), std::string::npos) << text;
  // The jammed peg presses on the hole's walls, horizontal normals: "against".
  const std::string jam = forces_after("peg_in_hole_jam", 100);
  EXPECT_NE(jam.find("contact peg against block: "), std::string::npos) << jam;
}

TEST(ViewerForces, GroupSidesShowTheForceTheSolverPutOnThem) {
  // Egan's Fig. 3b: point b's first step meets the fixed corner, a nonconvex group; the
  // solver pushes it off one side of the group. The scene has no gravity: the pair is
  // "against", neither on the other.
  const std::string text = forces_after("egan_corner", 1);
  EXPECT_NE(text.find("point_b against corner (group side): gap 1.00e+00 m, normal 0.25 N"),
            std::string::npos)
      << text;
}

namespace {

// A CSV the Plots panel exported: its header's names and its rows of numbers (NaN for an
// empty field).
struct PlotCsv {
  std::vector<std::string> names;
  std::vector<std::vector<double>> rows;
  size_t column(const std::string& name) const {
    return static_cast<size_t>(std::find(names.begin(), names.end(), name) - names.begin());
  }
};

PlotCsv read_plot_csv(const std::string& path) {
  PlotCsv csv;
  std::istringstream lines(read_text(path));
  std::string line;
  if (!std::getline(lines, line)) return csv;
  std::istringstream header(line);
  for (std::string name; std::getline(header, name, ',');) csv.names.push_back(name);
  while (std::getline(lines, line)) {
    std::vector<double> row;
    std::istringstream fields(line + ",");
    for (std::string field; std::getline(fields, field, ',');) {
      row.push_back(field.empty() ? std::nan("") : std::stod(field));
    }
    csv.rows.push_back(row);
  }
  return csv;
}

}  // namespace

TEST(ViewerPlots, ExportedSeriesEqualTheRecordingLiveAndInReplay) {
  const std::string rec = temp_path("plots_rec.csv");
  const std::string live = temp_path("plots_live.csv");
  const std::string replayed = temp_path("plots_replay.csv");
  const std::string script = write_script(
      "plots.txt", "load " + box_scene() +
                       "\n"
                       "step 10                # at rest: the ground carries the weight\n"
                       "record start " +
                       rec +
                       "\n"
                       "drag box 0.1 0 0.5     # the box lifted and swung: every component moves\n"
                       "step 40\n"
                       "record stop\n"
                       "plot export " +
                       live +
                       "\n"
                       "replay open " +
                       rec +
                       "\n"
                       "replay frame 40\n"
                       "plot export " +
                       replayed +
                       "\n"
                       "quit\n");
  ASSERT_EQ(run_viewer("--script " + script), 0);
  const pivot::Recording recording = pivot::read_recording(rec);
  ASSERT_EQ(recording.frames.size(), 41u);
  for (const std::string& path : {live, replayed}) {
    const PlotCsv csv = read_plot_csv(path);
    const size_t t = csv.column("t [s]"), x = csv.column("box x [m]"), z = csv.column("box z [m]"),
                 vx = csv.column("box vx [m/s]"), vz = csv.column("box vz [m/s]");
    ASSERT_LT(std::max({t, x, z, vx, vz}), csv.names.size())
        << path << ": " << read_text(path).substr(0, 300);
    // Both hold a row per step, live from the load (t = 0) on, in replay per recorded
    // frame; the last 41 carry the very values the recording wrote (both print 17
    // significant digits, so equality is exact).
    ASSERT_EQ(csv.rows.size(), path == live ? 51u : 41u) << path;
    const size_t first = csv.rows.size() - recording.frames.size();
    for (size_t k = 0; k < recording.frames.size(); ++k) {
      const pivot::RecordedFrame& frame = recording.frames[k];
      const pivot::BodyState& box = frame.bodies[1];
      const std::vector<double>& row = csv.rows[first + k];
      EXPECT_EQ(row[t], frame.time_s) << path << " row " << k;
      EXPECT_EQ(row[x], box.pose.position.x()) << path << " row " << k;
      EXPECT_EQ(row[z], box.pose.position.z()) << path << " row " << k;
      EXPECT_EQ(row[vx], box.twist.linear.x()) << path << " row " << k;
      EXPECT_EQ(row[vz], box.twist.linear.z()) << path << " row " << k;
    }
    EXPECT_GT(csv.rows.back()[z], 0.2) << "the box was not lifted";
  }
  // Live, the contact's force is plotted too: at rest the ground held the box's weight.
  const PlotCsv csv = read_plot_csv(live);
  const size_t ground = csv.column("box-ground normal [N]");
  ASSERT_LT(ground, csv.names.size()) << read_text(live).substr(0, 300);
  EXPECT_NEAR(csv.rows[10][ground], 5.6 * 9.81, 1e-6);
}

TEST(ViewerForces, TheSolverUsesTheMuAScriptSetsAndReloadDropsIt) {
  const std::string out = temp_path("mu.out");
  const std::string script =
      write_script("mu.txt", "load " + box_scene() +
                                 "\n"
                                 "set mu 0.3\n"
                                 "step 1\n"
                                 "print forces\n"
                                 "load " +
                                 box_scene() +
                                 "   # a reload: the scene's own friction again\n"
                                 "step 1\n"
                                 "print forces\n"
                                 "quit\n");
  ASSERT_EQ(run_viewer("--script " + script, "/dev/null", out), 0);
  const std::string text = read_text(out);
  // 0.3 as a double (17 digits: 0.29999999999999999), not as the float 0.30000001192...
  const size_t reload = text.find("force_scale", text.find("force_scale") + 1);
  ASSERT_NE(reload, std::string::npos) << text;
  EXPECT_NE(text.substr(0, reload).find("; mu 0.29999999999999999\n"), std::string::npos) << text;
  EXPECT_EQ(text.substr(0, reload).find("; mu 0.5"), std::string::npos) << text;
  // The wooden box on wooden ground: sqrt(0.5 * 0.5) = 0.5.
  EXPECT_NE(text.substr(reload).find("; mu 0.5\n"), std::string::npos) << text;
  EXPECT_EQ(text.substr(reload).find("; mu 0.29999"), std::string::npos) << text;
}

// The panel's friction controls as a script moves them: the global mu ticked (0.3), unticked
// (the materials' mix again) and the wood material's slider at 0.2; each reaches the solver.
TEST(ViewerForces, OverrideOnOffAndMaterialSlidersReachTheSolver) {
  const std::string out = temp_path("mu_on_off.out");
  const std::string script = write_script(
      "mu_on_off.txt", "load " + box_scene() +
                           "\nset mu 0.3\nstep 1\nprint forces\nset mu off\nstep 1\nprint forces\n"
                           "set mu:wood 0.2\nstep 1\nprint forces\nquit\n");
  ASSERT_EQ(run_viewer("--script " + script, "/dev/null", out), 0);
  const std::string text = read_text(out);
  std::vector<std::string> prints;  // one per print forces, each starting at its force_scale
  for (size_t at = text.find("force_scale"); at != std::string::npos;) {
    const size_t next = text.find("force_scale", at + 1);
    prints.push_back(text.substr(at, next == std::string::npos ? std::string::npos : next - at));
    at = next;
  }
  ASSERT_EQ(prints.size(), 3u) << text;
  char wood[64];  // wood on wood after the slider: sqrt(0.2 * 0.2), as the solver mixes it
  std::snprintf(wood, sizeof(wood), "; mu %.17g\n", std::sqrt(0.2 * 0.2));
  EXPECT_NE(prints[0].find("; mu 0.29999999999999999\n"), std::string::npos) << text;
  EXPECT_NE(prints[1].find("; mu 0.5\n"), std::string::npos) << text;
  EXPECT_EQ(prints[1].find("; mu 0.2999"), std::string::npos) << text;
  EXPECT_NE(prints[2].find(wood), std::string::npos) << text;
  EXPECT_EQ(prints[2].find("; mu 0.5\n"), std::string::npos) << text;
}

namespace {

// The cone overlay's green (0.3, 0.9, 0.3): its pixel count and the width of the region
// they span [px].
struct GreenPixels {
  int count = 0;
  int width = 0;
};

GreenPixels cone_pixels(const Image& image) {
  GreenPixels green;
  int lo = image.w, hi = -1;
  for (int y = 0; y < image.h; ++y) {
    for (int x = 0; x < image.w; ++x) {
      const unsigned char* p = image.at(x, y);
      if (p[1] > p[0] + 80 && p[1] > p[2] + 80) {
        ++green.count;
        lo = std::min(lo, x);
        hi = std::max(hi, x);
      }
    }
  }
  green.width = hi >= lo ? hi - lo + 1 : 0;
  return green;
}

}  // namespace

TEST(ViewerForces, ConesAreTheOnesTheSolverUsed) {
  // The resting box's four contacts with cones drawn from each contact's own mu and
  // friction directions: d = 16 draws four times the edges of d = 4; mu = 1 opens them
  // wider than mu = 0.2. The box is faint so that the edges inside it show too.
  std::string text =
      "load " + box_scene() + "\nalpha box 0.1\noverlay forces off\noverlay cones on\n";
  const std::vector<std::string> cases = {"set d 4\nset mu 0.5", "set d 16\nset mu 0.5",
                                          "set d 16\nset mu 0.2", "set d 16\nset mu 1"};
  std::vector<std::string> shots;
  for (size_t k = 0; k < cases.size(); ++k) {
    shots.push_back(temp_path("cones_" + std::to_string(k) + ".png"));
    text += cases[k] + "\nstep 1\nscreenshot " + shots.back() + "\n";
  }
  text += "quit\n";
  ASSERT_EQ(run_viewer("--script " + write_script("cones.txt", text)), 0);
  std::vector<GreenPixels> green;
  for (const std::string& shot : shots) green.push_back(cone_pixels(load_png(shot)));
  EXPECT_GT(green[0].count, 100);
  EXPECT_GT(green[1].count, 2 * green[0].count)
      << "d = 4: " << green[0].count << ", d = 16: " << green[1].count;
  EXPECT_GT(green[3].width, green[2].width + 20)
      << "mu 0.2: " << green[2].width << " px, mu 1: " << green[3].width;
}
