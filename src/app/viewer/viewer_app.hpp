// The viewer's state and per-frame work: a World stepped in real time (or as fast as the
// solver allows), drawn with overlays, edited through ImGui panels, driven optionally by a
// script. All physics is in libpivot; this only draws and edits settings.
#pragma once

// world_drawing.hpp brings glad, which must precede GLFW.
#include "world_drawing.hpp"
// clang-format off
#include <GLFW/glfw3.h>
// clang-format on

#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "camera.hpp"
#include "contact_view.hpp"
#include "layout.hpp"
#include "pivot/hand_spring.hpp"
#include "pivot/recording.hpp"
#include "pivot/world.hpp"
#include "plots.hpp"
#include "script.hpp"
#include "see_through.hpp"
#include "shape_mesh.hpp"
#include "video_export.hpp"

namespace pivot::viewer {

class ViewerApp {
 public:
  ViewerApp(GLFWwindow* window, Renderer* renderer);
  ~ViewerApp();

  // Loads a scene; on error keeps the previous one and shows the message in the window.
  // Returns false on error.
  bool load(const std::string& path);
  void set_script(std::vector<ScriptAction> script, std::string script_path);

  // One frame: script action, input, simulation, drawing, panels. Returns false to quit.
  bool frame();
  // Exit status for a scripted session: non-zero when an action failed.
  int exit_code() const { return exit_code_; }
  const std::string& last_error() const { return error_; }

  // After the frame is rendered (ImGui included): records the draw time, writes a
  // requested screenshot.
  void after_render();

  // The viewer's own drawing per frame (scene, overlays, ImGui; no simulation), wall time
  // from the first GL call to the finished frame [ms], over the last (up to 100) frames.
  struct DrawTimes {
    int frames = 0;
    double median_ms = 0.0;
    double p95_ms = 0.0;
  };
  DrawTimes draw_times() const;

 private:
  // (script) => settings, steps, recordings, screenshots
  void run_script_action();
  void handle_input();
  // (wall time) => steps, keeping up with real time when the solver allows
  void advance_simulation(double wall_dt_s);
  bool step_once();            // false: no step (replaying, or abandoned past the step budget)
  void write_failed_solves();  // after a step: the failed problems, as files in .
  void record_frame();
  // (bodies, overlays) => the 3-D view (WorldDrawing), with the pinned contact and the hand
  void draw_world();
  // The force arrows drawn: from each contact point, its normal and its friction force at
  // newtons_per_metre_ (what `print forces` reports); none with the forces overlay off.
  std::vector<ForceArrow> force_arrows_drawn() const;
  void print_forces() const;
  // A bar as long as a round force at the view's centre, labelled in newtons.
  void draw_force_scale_bar();
  // Hovered contact: a tooltip; clicked: a panel until closed or clicked away.
  void pick_contact(double x_px, double y_px, int width_px, int height_px);
  void draw_contact_info();

  // The Plots panel (plot_panel.cpp).
  void add_state_plot_values(std::vector<std::pair<std::string, double>>* values) const;
  // (world after a step) => a row of plots_
  void record_plot_row();
  // (replay's frames) => plots_, a row per frame, from the recorded states
  void load_replay_plots();
  // The rows shown (the last plot_window_s_ up to now) as CSV; false with error_ set.
  bool export_plots(const std::string& path);
  bool select_plot_body(int body);
  void draw_plots_panel();
  void draw_panels();
  void draw_controls_panel();
  // The Controls panel's sections.
  void draw_simulation_section();
  void draw_view_section();
  void draw_overlays_section();
  void draw_record_section();
  void draw_stats_panel();
  void draw_scene_picker();
  void draw_help_overlay();
  // Every panel is drawn between these two: begin_panel() keeps it inside the window
  // (layout.hpp), end_panel() records where it was drawn (for `print panels`).
  bool begin_panel(const char* name, bool* open = nullptr, int flags = 0);
  void end_panel();
  void start_recording(const std::string& path);
  void stop_recording();
  bool start_video(const std::string& path);
  bool stop_video();

  // The user's hand (hand.cpp): Ctrl + left drag pulls the body under the mouse with a
  // HandSpring; keys nudge the grabbed body (or the peg) with a force of its weight.
  void grab(int body, const Vec3& point_m, const Vec3& hand_m, bool by_mouse);
  void release();
  void handle_hand_input(double x_px, double y_px, int width_px, int height_px);
  // (hand, nudges) => the world's applied wrenches for the next step
  void apply_hand_wrenches();
  void draw_hand();
  int default_nudge_body() const;
  int body_named(const std::string& name) const;

  // Replay of a recording with a timeline (replay.cpp). While a replay is open the world
  // shows recorded states and does not step.
  bool open_replay(const std::string& path);
  void close_replay();
  void show_replay_frame(int frame);
  void advance_replay(double wall_dt_s);
  void draw_replay_panel();
  bool set_setting(const std::string& name, const std::string& value);
  bool set_alpha(const std::string& who, const std::string& value);
  bool set_section(const std::string& normal, const std::string& offset);
  // The section plane faces the camera: the signed world axis nearest the view's back.
  Vec3 section_normal_facing_camera() const;
  // The body's screen rectangle [px from the top left]: its mesh's bounding box projected.
  PanelRect body_screen_rect(int body) const;

  GLFWwindow* window_;
  Renderer* renderer_;
  OrbitCamera camera_;
  Overlays overlays_;
  SeeThrough see_through_;
  std::vector<ContactView> contacts_;  // of the last step, refreshed every frame
  double newtons_per_metre_ = 100.0;   // force arrows: this many newtons per metre of arrow
  int hovered_contact_ = -1;           // index into contacts_
  std::optional<ContactView> pinned_contact_;
  double press_x_ = 0.0, press_y_ = 0.0;  // where the left button went down, for a click
  Box3 scene_bounds_;  // of the bodies other than half-spaces at load: the section's range
  std::string scene_path_;
  std::unique_ptr<World> world_;
  WorldDrawing drawing_;            // the scene's meshes and the drawing of its state
  std::deque<WorldState> history_;  // for step back, most recent last
  std::unique_ptr<RecordingWriter> recording_;
  VideoExport video_;
  bool ffmpeg_available_ = false;
  char video_path_[512] = "pivot-video.mp4";

  struct Grab {
    int body = -1;
    HandSpring spring;
    double depth_m = 0.0;  // of the grabbed point along the view, kept while dragging
    bool by_mouse = false;  // else by a script's `drag`, released by `drag off` only
  };
  std::optional<Grab> grab_;
  int nudge_body_ = -1;
  Vec3 nudge_ = Vec3::Zero();      // scripted push, in units of the body's weight
  Vec3 key_nudge_ = Vec3::Zero();  // from the keys held this frame, same units

  std::optional<Recording> replay_;
  int replay_frame_ = 0;
  bool replay_playing_ = false;
  double replay_clock_s_ = 0.0;
  char replay_path_[512] = "pivot-recording.csv";
  std::vector<ScriptAction> script_;
  std::string script_path_;
  size_t script_next_ = 0;
  int script_wait_frames_ = 0;
  std::string pending_screenshot_;

  bool playing_ = true;
  bool show_help_ = false;
  bool show_plots_ = false;
  double speed_ = 1.0;
  double sim_lag_s_ = 0.0;
  double real_time_factor_ = 0.0;
  double last_frame_time_s_ = 0.0;
  float mu_ = 0.5f;  // the global mu slider's value; the override itself is the world's
  std::string error_;
  int exit_code_ = 0;
  char path_buffer_[512] = {0};

  std::string current_panel_;
  std::map<std::string, PanelRect> panel_rects_;  // the panels drawn in the last frame

  PlotHistory plots_;
  int plot_body_ = -1;  // whose position and velocity are plotted
  float plot_window_s_ = 10.0f;
  char plot_path_[512] = "pivot-plots.csv";
  std::map<std::string, bool> plot_shown_;  // by series name
  double draw_start_s_ = 0.0;
  std::vector<float> draw_ms_history_;
  double last_mouse_x_ = 0.0, last_mouse_y_ = 0.0;
};

}  // namespace pivot::viewer
