#include "viewer_app.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <thread>

#include "pivot/error.hpp"
#include "pivot/geometry.hpp"
#include "screenshot.hpp"

namespace pivot::viewer {

namespace {

constexpr size_t kHistoryStates = 2000;  // step-back depth (20 s at h = 0.01)
// Draw times are summarised over fewer frames than the plots keep, so that a benchmark run
// of a few seconds can leave the first frames (shader compilation) out.
constexpr size_t kDrawTimeFrames = 100;
constexpr double kMaxComputePerFrame_s = 0.05;  // keep the window responsive
// A step whose solves run longer is abandoned and the simulation paused: the window
// answers again within this, whatever the solver does (issue 21: pile steps that pivoted
// for minutes froze it).
constexpr double kDefaultStepBudget_s = 1.0;
// A step's islands on every core, up to four: the result is the same on any number
// (WorldOptions::threads), so the viewer takes what the machine has.
int default_threads() {
  return static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 4u));
}

Eigen::Vector3f f(const Vec3& v) { return v.cast<float>(); }

void push_sample(std::vector<float>* samples, float value, size_t capacity) {
  if (samples->size() == capacity) samples->erase(samples->begin());
  samples->push_back(value);
}

}  // namespace

ViewerApp::ViewerApp(GLFWwindow* window, Renderer* renderer)
    : window_(window),
      renderer_(renderer),
      drawing_(renderer),
      ffmpeg_available_(VideoExport::available()) {
  last_frame_time_s_ = glfwGetTime();
}

ViewerApp::~ViewerApp() = default;

bool ViewerApp::load(const std::string& path) {
  try {
    LoadedScene loaded = read_scene_file(path);
    WorldOptions options;
    options.on_failure = FailurePolicy::Continue;
    options.step_time_limit_s = world_ ? world_->options().step_time_limit_s : kDefaultStepBudget_s;
    options.threads = world_ ? world_->options().threads : default_threads();
    auto world = std::make_unique<World>(loaded.scene, options);
    if (recording_) stop_recording();
    close_replay();
    release();
    nudge_ = Vec3::Zero();
    nudge_body_ = -1;
    world_ = std::move(world);
    scene_path_ = path;
    history_.clear();
    sim_lag_s_ = 0.0;
    error_.clear();
    if (!world_->scene().materials.empty()) mu_ = static_cast<float>(world_->scene().materials[0].friction);
    std::snprintf(path_buffer_, sizeof(path_buffer_), "%s", path.c_str());
    drawing_.set_scene(world_->scene());
    camera_ = camera_for_scene(world_->scene(), world_->state().bodies);
    const std::vector<TriangleMesh>& body_meshes = drawing_.body_meshes();
    see_through_.alpha = default_alphas(world_->scene(), world_->state().bodies, body_meshes);
    scene_bounds_ = Box3{};
    for (size_t k = 0; k < body_meshes.size(); ++k) {
      if (std::holds_alternative<HalfSpace>(world_->scene().bodies[k].shape)) continue;
      const Box3 b = mesh_bounds(body_meshes[k], world_->state().bodies[k].pose);
      scene_bounds_.lo = scene_bounds_.lo.cwiseMin(b.lo);
      scene_bounds_.hi = scene_bounds_.hi.cwiseMax(b.hi);
    }
    plots_.clear();
    plot_body_ = default_nudge_body();
    record_plot_row();
    newtons_per_metre_ = default_force_scale(world_->scene(), camera_.distance_m);
    contacts_.clear();
    pinned_contact_.reset();
    see_through_.section_normal = section_normal_facing_camera();
    see_through_.section_offset_m =
        see_through_.section_normal.dot(0.5 * (scene_bounds_.lo + scene_bounds_.hi));
    return true;
  } catch (const std::exception& e) {
    error_ = e.what();
    return false;
  }
}

void ViewerApp::set_script(std::vector<ScriptAction> script, std::string script_path) {
  script_ = std::move(script);
  script_path_ = std::move(script_path);
  script_next_ = 0;
  // A script's first actions run one per frame; were the world playing meanwhile, the
  // number of steps before them would depend on frame timing. Only the script's own
  // `play` or `step` moves a scripted world.
  if (!script_.empty()) playing_ = false;
}

bool ViewerApp::set_setting(const std::string& name, const std::string& value) {
  SceneSettings& s = world_->settings();
  try {
    // A friction coefficient, parsed as a double: the solver gets 0.3, not the float nearest.
    const auto friction = [&value](double* mu) {
      *mu = std::stod(value);
      return *mu >= 0.0 && std::isfinite(*mu);
    };
    double mu = 0.0;
    if (name == "mu" && value == "off") {
      s.friction_override.reset();  // the panel's "global mu" unticked
    } else if (name == "mu") {
      if (!friction(&mu)) return false;
      s.friction_override = mu;
    } else if (name.rfind("mu:", 0) == 0) {  // a material's slider: mu:NAME
      std::vector<Material>& materials = world_->materials();
      const auto m = std::find_if(materials.begin(), materials.end(),
                                  [&](const Material& x) { return x.name == name.substr(3); });
      if (m == materials.end() || !friction(&mu)) return false;
      m->friction = mu;
    } else if (name == "d") {
      const int d = std::stoi(value);
      if (!valid_friction_directions(d)) return false;
      s.friction_directions = d;
    } else if (name == "force_scale") {
      const double scale = std::stod(value);
      if (!(scale > 0.0) || !std::isfinite(scale)) return false;
      newtons_per_metre_ = scale;
    } else if (name == "h") {
      s.time_step_s = std::stod(value);
    } else if (name == "step_budget") {  // seconds of solving per step; 0: no limit
      const double budget = std::stod(value);
      if (!(budget >= 0.0) || !std::isfinite(budget)) return false;
      world_->options().step_time_limit_s = budget;
    } else if (name == "threads") {
      const int threads = std::stoi(value);
      if (threads < 1) return false;
      world_->options().threads = threads;
    } else if (name == "method") {
      return parse_lcp_method(value, &s.solver);
    } else if (name == "nonconvex") {
      return parse_nonconvex_formulation(value, &s.nonconvex);
    } else {
      return false;
    }
  } catch (const std::exception&) {
    return false;
  }
  return true;
}

Vec3 ViewerApp::section_normal_facing_camera() const {
  const Vec3 back = camera_.eye() - camera_.target;
  Eigen::Index axis = 0;
  back.cwiseAbs().maxCoeff(&axis);
  Vec3 n = Vec3::Zero();
  n[axis] = back[axis] >= 0 ? 1.0 : -1.0;
  return n;
}

bool ViewerApp::set_alpha(const std::string& who, const std::string& value) {
  float alpha = 0.0f;
  try {
    alpha = std::stof(value);
  } catch (const std::exception&) {
    return false;
  }
  if (!(alpha >= 0.0f && alpha <= 1.0f)) return false;
  const std::vector<Body>& bodies = world_->scene().bodies;
  const int named = body_named(who);
  if (named < 0 && who != "fixed" && who != "moving") return false;
  for (size_t k = 0; k < bodies.size(); ++k) {
    const bool chosen =
        named >= 0 ? static_cast<int>(k) == named : bodies[k].fixed == (who == "fixed");
    if (chosen) see_through_.alpha[k] = alpha;
  }
  see_through_.on = true;
  return true;
}

bool ViewerApp::set_section(const std::string& normal, const std::string& offset) {
  static const std::map<std::string, Vec3> kNormals = {
      {"+x", Vec3::UnitX()},  {"-x", -Vec3::UnitX()}, {"+y", Vec3::UnitY()},
      {"-y", -Vec3::UnitY()}, {"+z", Vec3::UnitZ()},  {"-z", -Vec3::UnitZ()}};
  const auto it = kNormals.find(normal);
  if (it == kNormals.end()) return false;
  try {
    see_through_.section_offset_m = std::stod(offset);
  } catch (const std::exception&) {
    return false;
  }
  see_through_.section_normal = it->second;
  see_through_.section = true;
  return true;
}

PanelRect ViewerApp::body_screen_rect(int body) const {
  int width = 0, height = 0;
  glfwGetFramebufferSize(window_, &width, &height);
  const Box3 box = mesh_bounds(drawing_.body_meshes()[static_cast<size_t>(body)],
                               world_->state().bodies[static_cast<size_t>(body)].pose);
  Eigen::Vector2d lo = Eigen::Vector2d::Constant(1e30), hi = Eigen::Vector2d::Constant(-1e30);
  for (int corner = 0; corner < 8; ++corner) {
    const Vec3 p((corner & 1) ? box.hi.x() : box.lo.x(), (corner & 2) ? box.hi.y() : box.lo.y(),
                 (corner & 4) ? box.hi.z() : box.lo.z());
    const Eigen::Vector2d q = camera_.to_screen(p, width, height);
    lo = lo.cwiseMin(q);
    hi = hi.cwiseMax(q);
  }
  return {static_cast<float>(lo.x()), static_cast<float>(lo.y()),
          static_cast<float>(hi.x() - lo.x()), static_cast<float>(hi.y() - lo.y())};
}

void ViewerApp::run_script_action() {
  if (script_wait_frames_ > 0) {
    --script_wait_frames_;
    return;
  }
  if (script_next_ >= script_.size()) return;
  const ScriptAction& a = script_[script_next_++];
  auto fail = [&](const std::string& message) {
    error_ = InputError(script_path_, a.line, 0, message).what();
    std::fprintf(stderr, "pivot-viewer: error: %s\n", error_.c_str());
    exit_code_ = 1;
  };
  if (a.verb == "load") {
    if (!load(a.args[0])) fail("cannot load '" + a.args[0] + "': " + error_);
  } else if (!world_ && a.verb != "quit" && a.verb != "wait" && a.verb != "screenshot" &&
             !(a.verb == "print" && a.args[0] == "panels")) {
    fail("no scene loaded");
  } else if (a.verb == "set") {
    if (!set_setting(a.args[0], a.args[1])) fail("cannot set " + a.args[0] + " to '" + a.args[1] + "'");
  } else if (a.verb == "play") {
    playing_ = true;
  } else if (a.verb == "pause") {
    playing_ = false;
  } else if (a.verb == "step") {
    const int n = std::max(0, std::atoi(a.args[0].c_str()));
    for (int k = 0; k < n && step_once(); ++k) {
    }
  } else if (a.verb == "wait") {
    script_wait_frames_ = std::max(0, std::atoi(a.args[0].c_str()));
  } else if (a.verb == "record") {
    if (a.args[0] == "start") {
      start_recording(a.args[1]);
    } else if (a.args[0] == "stop") {
      stop_recording();
    } else {
      fail("record takes start FILE or stop");
    }
  } else if (a.verb == "screenshot") {
    pending_screenshot_ = a.args[0];
  } else if (a.verb == "overlay") {
    const bool on = a.args[1] == "on";
    bool* flag = a.args[0] == "contacts"  ? &overlays_.contacts
                 : a.args[0] == "normals" ? &overlays_.normals
                 : a.args[0] == "forces"  ? &overlays_.forces
                 : a.args[0] == "cones"   ? &overlays_.cones
                 : a.args[0] == "groups"  ? &overlays_.groups
                 : a.args[0] == "frames"  ? &overlays_.frames
                 : a.args[0] == "islands" ? &overlays_.islands
                                          : nullptr;
    if (flag == nullptr) {
      fail("unknown overlay '" + a.args[0] + "'");
    } else {
      *flag = on;
    }
  } else if (a.verb == "drag") {
    if (a.args[0] == "off") {
      release();
    } else if (const int body = body_named(a.args[0]); body < 0 || world_->scene().bodies[body].fixed) {
      fail("no dynamic body named '" + a.args[0] + "'");
    } else {
      const Vec3 hand(std::atof(a.args[1].c_str()), std::atof(a.args[2].c_str()),
                      std::atof(a.args[3].c_str()));
      grab(body, world_->state().bodies[body].pose.position, hand, false);
    }
  } else if (a.verb == "nudge") {
    static const std::map<std::string, Vec3> kDirections = {
        {"+x", Vec3::UnitX()},  {"-x", -Vec3::UnitX()}, {"+y", Vec3::UnitY()},
        {"-y", -Vec3::UnitY()}, {"+z", Vec3::UnitZ()},  {"-z", -Vec3::UnitZ()},
        {"off", Vec3::Zero()}};
    const auto it = kDirections.find(a.args[0]);
    if (it == kDirections.end()) {
      fail("nudge takes +x, -x, +y, -y, +z, -z or off, not '" + a.args[0] + "'");
    } else {
      nudge_ = it->second;
    }
  } else if (a.verb == "video") {
    if (a.args[0] == "start") {
      if (!start_video(a.args[1])) fail(error_);
    } else {
      if (!stop_video()) fail(error_);
    }
  } else if (a.verb == "replay") {
    if (a.args[0] == "open") {
      if (!open_replay(a.args[1])) fail("cannot replay '" + a.args[1] + "': " + error_);
    } else if (!replay_) {
      fail("no replay is open");
    } else if (a.args[0] == "frame") {
      show_replay_frame(std::atoi(a.args[1].c_str()));
    } else if (a.args[0] == "play" || a.args[0] == "pause") {
      replay_playing_ = a.args[0] == "play";
    } else {
      close_replay();
    }
  } else if (a.verb == "alpha") {
    if (!set_alpha(a.args[0], a.args[1])) {
      fail("alpha takes fixed, moving or a body's name and a value in [0, 1], not '" + a.args[0] +
           " " + a.args[1] + "'");
    }
  } else if (a.verb == "section") {
    if (a.args[0] == "off") {
      see_through_.section = false;
    } else if (!set_section(a.args[0], a.args[1])) {
      fail("section takes +x, -x, +y, -y, +z or -z and an offset [m], or off");
    }
  } else if (a.verb == "print" && a.args[0] == "screen") {
    const int body = body_named(a.args[1]);
    if (body < 0) {
      fail("no body named '" + a.args[1] + "'");
    } else {
      const PanelRect r = body_screen_rect(body);
      std::printf("screen %s %g %g %g %g\n", a.args[1].c_str(), static_cast<double>(r.x),
                  static_cast<double>(r.y), static_cast<double>(r.width),
                  static_cast<double>(r.height));
      std::fflush(stdout);
    }
  } else if (a.verb == "plot") {
    if (a.args[0] == "show" || a.args[0] == "hide") {
      show_plots_ = a.args[0] == "show";
    } else if (a.args[0] == "export") {
      if (!export_plots(a.args[1])) fail(error_);
    } else if (a.args[0] == "body") {
      if (!select_plot_body(body_named(a.args[1]))) fail("no body named '" + a.args[1] + "'");
    } else {
      const float seconds = static_cast<float>(std::atof(a.args[1].c_str()));
      if (!(seconds > 0.0f))
        fail("plot window takes seconds > 0, not '" + a.args[1] + "'");
      else
        plot_window_s_ = seconds;
    }
  } else if (a.verb == "contact") {
    const int k = std::atoi(a.args[0].c_str());
    if (a.args[0] == "off") {
      pinned_contact_.reset();
    } else if (k < 0 || k >= static_cast<int>(contacts_.size())) {
      fail("no contact " + a.args[0] + " (the last step has " + std::to_string(contacts_.size()) +
           ")");
    } else {
      pinned_contact_ = contacts_[static_cast<size_t>(k)];
    }
  } else if (a.verb == "print" && a.args[0] == "forces") {
    print_forces();
  } else if (a.verb == "print" && a.args[0] == "panels") {
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    std::printf("window %g %g\n", static_cast<double>(display.x), static_cast<double>(display.y));
    for (const auto& [name, r] : panel_rects_) {
      std::printf("panel %s %g %g %g %g\n", name.c_str(), static_cast<double>(r.x),
                  static_cast<double>(r.y), static_cast<double>(r.width),
                  static_cast<double>(r.height));
    }
    std::fflush(stdout);
  } else if (a.verb == "print") {
    const WorldState& state = world_->state();
    std::printf("state step %lld t %.9g\n", static_cast<long long>(state.step), state.time_s);
    for (size_t k = 0; k < state.bodies.size(); ++k) {
      const Vec3& p = state.bodies[k].pose.position;
      std::printf("body %s %.9g %.9g %.9g\n", world_->scene().bodies[k].name.c_str(), p.x(), p.y(), p.z());
    }
    std::fflush(stdout);
  } else if (a.verb == "quit") {
    glfwSetWindowShouldClose(window_, GLFW_TRUE);
  }
}

bool ViewerApp::start_video(const std::string& path) {
  int width = 0, height = 0;
  glfwGetFramebufferSize(window_, &width, &height);
  std::string error;
  if (!video_.start(path, width, height, 60, &error)) {
    error_ = error;
    return false;
  }
  return true;
}

bool ViewerApp::stop_video() {
  std::string error;
  if (video_.finish(&error)) return true;
  error_ = error;
  exit_code_ = 1;
  return false;
}

void ViewerApp::start_recording(const std::string& path) {
  try {
    recording_ = std::make_unique<RecordingWriter>(path, world_->scene(), scene_path_, 1, false);
    record_frame();
  } catch (const std::exception& e) {
    error_ = e.what();
    exit_code_ = 1;
  }
}

void ViewerApp::stop_recording() {
  if (!recording_) return;
  try {
    recording_->finish();
  } catch (const std::exception& e) {
    error_ = e.what();
    exit_code_ = 1;
  }
  recording_.reset();
}

bool ViewerApp::step_once() {
  if (replay_) return false;  // a replay shows recorded states; close it to simulate again
  apply_hand_wrenches();
  history_.push_back(world_->state());
  if (history_.size() > kHistoryStates) history_.pop_front();
  if (world_->step().cancelled) {
    // Nothing moved: the state is the step's start. Paused, so the window stays usable;
    // play tries the step again (a slider moved meanwhile may make it easier).
    history_.pop_back();
    playing_ = false;
    char budget[32];
    std::snprintf(budget, sizeof(budget), "%g", world_->options().step_time_limit_s);
    error_ = "step " + std::to_string(world_->state().step) +
             " abandoned: its solve ran past the " + budget +
             " s step budget; paused (play tries it again; a larger step budget, 0 for none, "
             "lets it finish)";
    std::fprintf(stderr, "pivot-viewer: %s\n", error_.c_str());
    return false;
  }
  write_failed_solves();
  if (recording_) record_frame();
  record_plot_row();
  return true;
}

// (world after a step) => a frame of the recording, with the settings the step used
void ViewerApp::record_frame() {
  recording_->record(world_->state(), world_->settings(), world_->materials(), world_->collision(),
                     world_->impulses());
}

// The problems of islands the step could not solve go to the current directory, for
// `pivot lcp solve`; the step moved those islands without contact impulses.
void ViewerApp::write_failed_solves() {
  for (const FailedSolve& failed : world_->failed_solves()) {
    try {
      write_failed_solve(failed, "");
    } catch (const std::exception& e) {
      error_ = e.what();
    }
  }
}

void ViewerApp::advance_simulation(double wall_dt_s) {
  if (!world_ || !playing_) {
    sim_lag_s_ = 0.0;
    return;
  }
  const double h = world_->settings().time_step_s;
  sim_lag_s_ += std::min(wall_dt_s, 0.1) * speed_;
  const double start = glfwGetTime();
  int steps = 0;
  while (sim_lag_s_ >= h && glfwGetTime() - start < kMaxComputePerFrame_s) {
    if (!step_once()) break;
    sim_lag_s_ -= h;
    ++steps;
  }
  // Slower than real time: drop the backlog instead of spiralling.
  if (sim_lag_s_ > h) sim_lag_s_ = 0.0;
  if (wall_dt_s > 0) real_time_factor_ = 0.9 * real_time_factor_ + 0.1 * (steps * h / wall_dt_s);
}

void ViewerApp::handle_input() {
  ImGuiIO& io = ImGui::GetIO();
  double x = 0, y = 0;
  glfwGetCursorPos(window_, &x, &y);
  const double dx = x - last_mouse_x_, dy = y - last_mouse_y_;
  last_mouse_x_ = x;
  last_mouse_y_ = y;
  if (!io.WantCaptureMouse) {
    int w = 0, h = 0;
    glfwGetWindowSize(window_, &w, &h);
    if (glfwGetMouseButton(window_, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS && !io.KeyCtrl) {
      camera_.orbit(dx, dy);
    }
    if (glfwGetMouseButton(window_, GLFW_MOUSE_BUTTON_RIGHT) == GLFW_PRESS ||
        glfwGetMouseButton(window_, GLFW_MOUSE_BUTTON_MIDDLE) == GLFW_PRESS) {
      camera_.pan(dx, dy, h);
    }
    if (io.MouseWheel != 0.0f) camera_.zoom(io.MouseWheel);
  }
  if (world_ && !io.WantCaptureMouse) {
    int w = 0, h = 0;
    glfwGetWindowSize(window_, &w, &h);
    pick_contact(x, y, w, h);
  }
  if (world_ && !replay_) {
    int w = 0, h = 0;
    glfwGetWindowSize(window_, &w, &h);
    handle_hand_input(x, y, w, h);
  }
  if (io.WantCaptureKeyboard || !world_) return;
  if (replay_) {
    // The same keys walk the timeline.
    if (ImGui::IsKeyPressed(GLFW_KEY_SPACE, false)) replay_playing_ = !replay_playing_;
    if (ImGui::IsKeyPressed(GLFW_KEY_RIGHT)) show_replay_frame(replay_frame_ + 1);
    if (ImGui::IsKeyPressed(GLFW_KEY_LEFT)) show_replay_frame(replay_frame_ - 1);
    if (ImGui::IsKeyPressed(GLFW_KEY_F1, false)) show_help_ = !show_help_;
    return;
  }
  // Shortcuts follow MuJoCo's simulate where they overlap. ImGui 1.86 indexes keys by the
  // backend's native (GLFW) key codes.
  const bool ctrl = io.KeyCtrl;
  if (ImGui::IsKeyPressed(GLFW_KEY_SPACE, false)) playing_ = !playing_;
  if (ImGui::IsKeyPressed(GLFW_KEY_RIGHT)) {
    playing_ = false;
    step_once();
  }
  if (ImGui::IsKeyPressed(GLFW_KEY_LEFT) && !history_.empty()) {
    playing_ = false;
    world_->set_state(history_.back());
    history_.pop_back();
  }
  if (ImGui::IsKeyPressed(GLFW_KEY_BACKSPACE, false)) {
    world_->reset();
    history_.clear();
    record_plot_row();
  }
  if (ctrl && ImGui::IsKeyPressed(GLFW_KEY_L, false)) load(scene_path_);
  if (ctrl && ImGui::IsKeyPressed(GLFW_KEY_P, false)) pending_screenshot_ = "pivot-screenshot.png";
  if (ImGui::IsKeyPressed(GLFW_KEY_F1, false)) show_help_ = !show_help_;
  if (ImGui::IsKeyPressed(GLFW_KEY_F2, false)) show_plots_ = !show_plots_;
  // See through (MuJoCo's simulate toggles transparency with T too).
  if (ImGui::IsKeyPressed(GLFW_KEY_T, false)) see_through_.on = !see_through_.on;
  if (ImGui::IsKeyPressed(GLFW_KEY_X, false)) {
    if (!see_through_.section) see_through_.section_normal = section_normal_facing_camera();
    see_through_.section = !see_through_.section;
  }
  const double section_step_m = 0.02 * (scene_bounds_.hi - scene_bounds_.lo).maxCoeff();
  if (ImGui::IsKeyPressed(GLFW_KEY_LEFT_BRACKET)) see_through_.section_offset_m -= section_step_m;
  if (ImGui::IsKeyPressed(GLFW_KEY_RIGHT_BRACKET)) see_through_.section_offset_m += section_step_m;
}

void ViewerApp::draw_world() {
  drawing_.draw(*world_, contacts_, camera_, overlays_, see_through_, newtons_per_metre_, [this] {
    if (pinned_contact_) {  // the contact the Contact panel describes, marked larger
      const float r = static_cast<float>(0.006 * camera_.distance_m);
      for (int axis = 0; axis < 3; ++axis) {
        Eigen::Vector3f e = Eigen::Vector3f::Zero();
        e[axis] = r;
        renderer_->add_line(f(pinned_contact_->point) - e, f(pinned_contact_->point) + e,
                            Eigen::Vector4f(1, 1, 1, 1));
      }
    }
    draw_hand();
  });
}

bool ViewerApp::frame() {
  const double now = glfwGetTime();
  const double wall_dt = now - last_frame_time_s_;
  last_frame_time_s_ = now;
  run_script_action();
  handle_input();
  if (replay_) {
    advance_replay(wall_dt);
  } else if (world_) {
    advance_simulation(wall_dt);
  }
  if (world_) contacts_ = contact_views(*world_);

  draw_start_s_ = glfwGetTime();
  int width = 0, height = 0;
  glfwGetFramebufferSize(window_, &width, &height);
  drawing_.begin_frame(camera_, width, height);
  if (world_) draw_world();
  draw_panels();
  return !glfwWindowShouldClose(window_);
}

void ViewerApp::after_render() {
  // Without glFinish only the submission of GL commands would be timed; the swap waits for
  // the same work, so finishing it here adds little to the frame.
  glFinish();
  push_sample(&draw_ms_history_, static_cast<float>(1e3 * (glfwGetTime() - draw_start_s_)),
              kDrawTimeFrames);
  int width = 0, height = 0;
  glfwGetFramebufferSize(window_, &width, &height);
  std::string error;
  if (video_.active() && !video_.add_frame(read_back_buffer(width, height), width, height, &error)) {
    error_ = error;
    exit_code_ = 1;
    std::fprintf(stderr, "pivot-viewer: error: %s\n", error.c_str());
  }
  if (pending_screenshot_.empty()) return;
  if (!write_screenshot(pending_screenshot_, width, height, &error)) {
    error_ = error;
    exit_code_ = 1;
    std::fprintf(stderr, "pivot-viewer: error: %s\n", error.c_str());
  }
  pending_screenshot_.clear();
}

ViewerApp::DrawTimes ViewerApp::draw_times() const {
  DrawTimes times;
  if (draw_ms_history_.empty()) return times;
  std::vector<float> sorted = draw_ms_history_;
  std::sort(sorted.begin(), sorted.end());
  const size_t n = sorted.size();
  times.frames = static_cast<int>(n);
  times.median_ms = 0.5 * static_cast<double>(sorted[(n - 1) / 2] + sorted[n / 2]);
  // Nearest rank: the smallest sample with at least 95 % of the samples at or below it.
  times.p95_ms = sorted[(95 * n + 99) / 100 - 1];
  return times;
}

}  // namespace pivot::viewer
