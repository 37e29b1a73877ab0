#include "render_command.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "camera.hpp"
#include "offscreen_context.hpp"
#include "pivot/error.hpp"
#include "pivot/recording.hpp"
#include "pivot/scene.hpp"
#include "pivot/world.hpp"
#include "screenshot.hpp"
#include "video_export.hpp"
#include "world_drawing.hpp"

namespace pivot::render {

namespace {

using viewer::OrbitCamera;

constexpr int kMinSide_px = 16;
constexpr int kMaxSide_px = 8192;  // GL_MAX_RENDERBUFFER_SIZE of llvmpipe and common GPUs

struct RenderOptions {
  std::string input;
  std::string video_path;
  std::string png_path;
  std::string size = "1280x720";
  int fps = 30;
  std::string camera = "scene";
  double duration_s = 5.0;
  std::optional<double> time_s;
};

// "WxH" => width, height; throws naming the option.
std::pair<int, int> parse_size(const std::string& text) {
  int w = 0, h = 0;
  char x = 0, rest = 0;
  if (std::sscanf(text.c_str(), "%d%c%d%c", &w, &x, &h, &rest) != 3 || x != 'x' ||
      w < kMinSide_px || h < kMinSide_px || w > kMaxSide_px || h > kMaxSide_px) {
    throw std::invalid_argument("--size '" + text + "': expected WIDTHxHEIGHT in pixels, each " +
                                std::to_string(kMinSide_px) + " to " + std::to_string(kMaxSide_px) +
                                " (e.g. 1280x720)");
  }
  return {w, h};
}

// The named views turn the scene's camera about its target; numbers place the eye (and
// the target) in world coordinates [m].
OrbitCamera parse_camera(const std::string& text, OrbitCamera camera) {
  constexpr double kLowView_rad = 0.2;  // front and side views look slightly down
  if (text == "scene") return camera;
  if (text == "front") {  // from -y
    camera.yaw_rad = -0.5 * kPi;
    camera.pitch_rad = kLowView_rad;
    return camera;
  }
  if (text == "side") {  // from +x
    camera.yaw_rad = 0.0;
    camera.pitch_rad = kLowView_rad;
    return camera;
  }
  if (text == "top") {
    camera.pitch_rad = 0.49 * kPi;
    return camera;
  }
  std::vector<double> v;
  std::istringstream in(text);
  for (std::string word; std::getline(in, word, ',');) {
    size_t used = 0;
    try {
      v.push_back(std::stod(word, &used));
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != word.size() || !std::isfinite(v.back())) {
      v.clear();
      break;
    }
  }
  if (v.size() != 3 && v.size() != 6) {
    throw std::invalid_argument(
        "--camera '" + text +
        "': unknown camera (scene, front, side, top, or the eye EX,EY,EZ, optionally "
        "followed by the target TX,TY,TZ, in metres)");
  }
  const Vec3 target = v.size() == 6 ? Vec3(v[3], v[4], v[5]) : camera.target;
  if ((Vec3(v[0], v[1], v[2]) - target).norm() < 1e-6) {
    throw std::invalid_argument("--camera '" + text + "': the eye is at the target");
  }
  camera.look_at(Vec3(v[0], v[1], v[2]), target);
  return camera;
}

// An output's folder must exist before minutes of rendering are spent on it.
void check_output(const std::string& option, const std::string& path) {
  if (path.empty()) return;
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty() && !std::filesystem::is_directory(parent)) {
    throw std::invalid_argument(option + " " + path + ": no directory " + parent.string());
  }
}

// What is rendered: a world whose state is either simulated or set from a recording.
struct Source {
  std::string scene_path;
  Scene scene;
  std::optional<Recording> recording;
};

Source load_source(const std::string& input) {
  Source source;
  if (!std::filesystem::exists(input)) throw InputError(input, 0, 0, "no such file");
  if (std::filesystem::path(input).extension() == ".csv") {
    source.recording = read_recording(input);
    if (source.recording->frames.empty()) throw InputError(input, 0, 0, "holds no frames");
    // A recording names the scene it was made from, as the viewer's replay reads it.
    source.scene_path = source.recording->info.scene_path;
    if (source.scene_path.empty() || !std::filesystem::exists(source.scene_path)) {
      throw InputError(input, 0, 0,
                       "its scene '" + source.scene_path +
                           "' cannot be found (the path is as the recording's sidecar gives "
                           "it, relative to the working directory)");
    }
    source.scene = read_scene_file(source.scene_path).scene;
    try {
      check_recording_matches(*source.recording, source.scene);
    } catch (const std::invalid_argument& e) {
      throw InputError(input, 0, 0, e.what());
    }
  } else {
    source.scene_path = input;
    source.scene = read_scene_file(input).scene;
  }
  return source;
}

// The state shown at each frame: frame k of a video at fps is at time t0 + k / fps.
class Timeline {
 public:
  Timeline(const Source& source, World* world, double duration_s)
      : recording_(source.recording ? &*source.recording : nullptr), world_(world) {
    const double h = world->settings().time_step_s;
    end_s_ = recording_ ? recording_->frames.back().time_s
                        : static_cast<double>(std::llround(duration_s / h)) * h;
    start_s_ = recording_ ? recording_->frames.front().time_s : 0.0;
    if (recording_) world_->set_state(recorded_state(*recording_, 0));
  }
  double start_s() const { return start_s_; }
  double end_s() const { return end_s_; }

  // Moves the world to the state at time t (not before the one shown): a simulation steps
  // to the nearest step; a replay shows the last recorded frame at or before t.
  void go_to(double t_s) {
    if (recording_) {
      const std::vector<RecordedFrame>& frames = recording_->frames;
      while (frame_ + 1 < frames.size() && frames[frame_ + 1].time_s <= t_s + kTimeSlop_s) {
        ++frame_;
      }
      world_->set_state(recorded_state(*recording_, frame_));
      return;
    }
    const double h = world_->settings().time_step_s;
    const std::int64_t step = std::llround(t_s / h);
    while (world_->state().step < step) world_->step();
  }

 private:
  static constexpr double kTimeSlop_s = 1e-9;  // recorded times are printed to 17 digits
  const Recording* recording_;
  World* world_;
  size_t frame_ = 0;
  double start_s_ = 0.0, end_s_ = 0.0;
};

int run_render(const RenderOptions& o) {
  if (o.video_path.empty() && o.png_path.empty()) {
    throw std::invalid_argument("nothing to write: give --video FILE.mp4 and/or --png FILE.png");
  }
  const auto [width, height] = parse_size(o.size);
  check_output("--video", o.video_path);
  check_output("--png", o.png_path);
  if (!o.video_path.empty() && !viewer::VideoExport::available()) {
    throw std::runtime_error(
        "--video needs the ffmpeg program on the PATH (Debian package "
        "ffmpeg); --png writes single frames without it");
  }
  const Source source = load_source(o.input);
  WorldOptions options;
  options.on_failure = FailurePolicy::Continue;  // a picture of what happens, failures too
  World world(source.scene, options);
  // The view the viewer opens the scene with, from the scene's initial state.
  const std::vector<BodyState> initial = world.state().bodies;
  Timeline timeline(source, &world, o.duration_s);
  const double png_time_s = o.time_s.value_or(timeline.end_s());
  if (png_time_s < timeline.start_s() - 1e-9 || png_time_s > timeline.end_s() + 1e-9) {
    std::ostringstream range;
    range << "--time " << png_time_s << ": outside the " << (source.recording ? "recording" : "run")
          << " (" << timeline.start_s() << " to " << timeline.end_s() << " s)";
    throw std::invalid_argument(range.str());
  }
  const OrbitCamera camera =
      parse_camera(o.camera, viewer::camera_for_scene(source.scene, initial));

  OffscreenContext context(width, height);
  viewer::Renderer renderer;
  std::string error;
  if (!renderer.init(PIVOT_SHADER_DIR, &error)) throw std::runtime_error(error);
  viewer::WorldDrawing drawing(&renderer);
  drawing.set_scene(source.scene);
  viewer::SeeThrough see_through;
  see_through.alpha = viewer::default_alphas(source.scene, initial, drawing.body_meshes());
  const viewer::Overlays overlays;
  const double newtons_per_metre = viewer::default_force_scale(source.scene, camera.distance_m);
  const auto draw = [&] {
    drawing.begin_frame(camera, width, height);
    drawing.draw(world, viewer::contact_views(world), camera, overlays, see_through,
                 newtons_per_metre);
  };

  const auto start = std::chrono::steady_clock::now();
  int frames = 0;
  viewer::VideoExport video;
  if (!o.video_path.empty()) {
    if (!video.start(o.video_path, width, height, o.fps, &error)) throw std::runtime_error(error);
    const double span_s = timeline.end_s() - timeline.start_s();
    const auto count = static_cast<int>(std::floor(span_s * o.fps + 1e-6)) + 1;
    for (int k = 0; k < count; ++k) {
      const double t = timeline.start_s() + static_cast<double>(k) / o.fps;
      timeline.go_to(t);
      draw();
      ++frames;
      if (!video.add_frame(viewer::read_back_buffer(width, height), width, height, &error)) {
        throw std::runtime_error(error);
      }
    }
    if (!video.finish(&error)) throw std::runtime_error(error);
  }
  const double elapsed_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!o.png_path.empty()) {
    if (!o.video_path.empty()) {
      // Back to the PNG's time: a replay seeks; a simulation runs again from the start.
      world.reset();
      timeline = Timeline(source, &world, o.duration_s);
    }
    timeline.go_to(png_time_s);
    draw();
    if (!viewer::write_screenshot(o.png_path, width, height, &error)) {
      throw std::runtime_error(error);
    }
    std::printf("png        %s (%dx%d, t = %.6g s)\n", o.png_path.c_str(), width, height,
                world.state().time_s);
  }
  if (!o.video_path.empty()) {
    std::printf("video      %s (%d frames, %dx%d, %d fps, t = %.6g .. %.6g s)\n",
                o.video_path.c_str(), frames, width, height, o.fps, timeline.start_s(),
                timeline.end_s());
    std::printf("speed      %.1f frames/s (simulation, drawing, read back and encoding; %s)\n",
                frames / std::max(elapsed_s, 1e-9), context.renderer_name().c_str());
  }
  return 0;
}

}  // namespace

void add_render_command(CLI::App& app, int* exit_code) {
  auto o = std::make_shared<RenderOptions>();
  CLI::App* render = app.add_subcommand(
      "render",
      "Draw a recording (FILE.csv) or a scene run headless into a video and/or a PNG, "
      "offscreen (no display needed)");
  render->add_option("INPUT", o->input, "A recording (CSV + .json sidecar) or a scene (JSON)")
      ->required();
  render->add_option("--video", o->video_path, "Write an MP4 video (needs ffmpeg)");
  render->add_option("--png", o->png_path, "Write one frame as a PNG (the last, or at --time)");
  render->add_option("--size", o->size, "Frame size WIDTHxHEIGHT [px] (default 1280x720)");
  render->add_option("--fps", o->fps, "Video frames per second of simulated time (default 30)")
      ->check(CLI::Range(1, 240));
  render->add_option("--camera", o->camera,
                     "scene (the scene's view, as the viewer opens it) | front | side | top | "
                     "EX,EY,EZ[,TX,TY,TZ] (eye and target [m])");
  render->add_option("--duration", o->duration_s, "A scene: simulated time [s] (default 5)")
      ->check(CLI::PositiveNumber);
  render->add_option("--time", o->time_s, "The PNG's time [s] (default: the end)");
  render->callback([o, exit_code] { *exit_code = run_render(*o); });
}

}  // namespace pivot::render
