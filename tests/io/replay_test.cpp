// Recordings back into world states: the viewer's replay.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "pivot/recording.hpp"
#include "support/record_world.hpp"
#include "support/scene_builder.hpp"

namespace pivot {
namespace {

using test::SceneBuilder;

Scene falling_box(const std::string& name = "box") {
  return SceneBuilder()
      .ground(0.5)
      .box(name, Vec3(0.2, 0.2, 0.2), 1.0, 0.5, Vec3(0, 0, 1.0))
      .scene();
}

Recording record_steps(const Scene& scene, int steps) {
  const std::string path = (std::filesystem::temp_directory_path() / "replay_test.csv").string();
  World world(scene);
  RecordingWriter writer(path, world.scene(), "", 1, false);
  test::record(&writer, world);
  for (int k = 0; k < steps; ++k) {
    world.step();
    test::record(&writer, world);
  }
  writer.finish();
  return read_recording(path);
}

TEST(Replay, RecordedStateSteppedOnceGivesTheNextRecordedFrame) {
  // Replay and simulation agree bit for bit: the recording keeps every double exactly and
  // the step is deterministic, so continuing from any frame reproduces the recording.
  const Scene scene = falling_box();
  const Recording rec = record_steps(scene, 60);
  check_recording_matches(rec, scene);
  World world(scene);
  for (size_t frame : {size_t{0}, size_t{30}, size_t{59}}) {
    world.set_state(recorded_state(rec, frame));
    EXPECT_EQ(world.state().step, rec.frames[frame].step);
    world.step();
    const WorldState next = recorded_state(rec, frame + 1);
    EXPECT_EQ(world.state().time_s, next.time_s);
    EXPECT_EQ(world.state().bodies[1].pose.position, next.bodies[1].pose.position);
    EXPECT_EQ(world.state().bodies[1].twist.linear, next.bodies[1].twist.linear);
  }
}

// A session in which mu and d were moved live (the viewer's sliders): the sidecar notes
// each change with the step it took effect, and stepping the scene again with those
// changes gives every recorded frame bit for bit. A 3 N push on a 1 kg box: at mu 0.5
// (4.9 N of friction) it sticks, under the 0.2 override (1.96 N) it slides, then with the
// override off and every material at 0.1 it slides faster.
TEST(Replay, SettingsChangedLiveReplayBitForBit) {
  const Scene scene =
      SceneBuilder().ground(0.5).box("box", Vec3(0.2, 0.2, 0.2), 1.0, 0.5, Vec3(0, 0, 0.1)).scene();
  const Vec6 push = (Vec6() << 3.0, 0.0, 0.0, 0.0, 0.0, 0.0).finished();
  const std::string path = (std::filesystem::temp_directory_path() / "live_settings.csv").string();
  {
    World live(scene);
    live.set_applied_wrench(1, push);
    RecordingWriter writer(path, live.scene(), "", 1, false);
    test::record(&writer, live);
    for (int k = 0; k < 60; ++k) {
      if (k == 20) {
        live.settings().friction_override = 0.2;
        live.settings().friction_directions = 8;
      }
      if (k == 40) {
        live.settings().friction_override.reset();
        for (Material& m : live.materials()) m.friction = 0.1;
      }
      live.step();
      test::record(&writer, live);
    }
    writer.finish();
  }
  const Recording rec = read_recording(path);
  ASSERT_EQ(rec.info.setting_changes.size(), 2u);
  const SettingChange& first = rec.info.setting_changes[0];
  EXPECT_EQ(first.step, 20);
  EXPECT_EQ(first.settings.friction_override, 0.2);
  EXPECT_EQ(first.settings.friction_directions, 8);
  const SettingChange& second = rec.info.setting_changes[1];
  EXPECT_EQ(second.step, 40);
  EXPECT_FALSE(second.settings.friction_override.has_value());
  for (const Material& m : second.materials) EXPECT_EQ(m.friction, 0.1);

  World again(scene);
  again.set_applied_wrench(1, push);
  for (size_t frame = 1; frame < rec.frames.size(); ++frame) {
    apply_setting_changes(rec, again.state().step, &again.settings(), &again.materials());
    again.step();
    const WorldState want = recorded_state(rec, frame);
    ASSERT_EQ(again.state().step, want.step);
    const BodyState& got = again.state().bodies[1];
    const BodyState& box = want.bodies[1];
    EXPECT_EQ(got.pose.position, box.pose.position) << "frame " << frame;
    EXPECT_EQ(got.pose.orientation.coeffs(), box.pose.orientation.coeffs()) << "frame " << frame;
    EXPECT_EQ(got.twist.linear, box.twist.linear) << "frame " << frame;
    EXPECT_EQ(got.twist.angular, box.twist.angular) << "frame " << frame;
  }
  // The changes moved the box: it stuck for 20 steps, then slid, faster after step 40.
  const auto speed = [&](size_t frame) { return rec.frames[frame].bodies[1].twist.linear.x(); };
  EXPECT_LT(std::abs(speed(20)), 1e-9);
  EXPECT_GT(speed(40), 0.1);
  EXPECT_GT(speed(60) - speed(40), speed(40));
}

TEST(Replay, RecordingOfAnotherSceneIsRefusedNamingTheBody) {
  const Recording rec = record_steps(falling_box(), 2);
  try {
    check_recording_matches(rec, falling_box("crate"));
    FAIL() << "a recording of another scene was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "the recording is not of this scene: body 1 is 'box' in the recording and "
                 "'crate' in the scene");
  }
  Scene bigger = falling_box();
  bigger.bodies.push_back(bigger.bodies[1]);
  bigger.bodies.back().name = "lid";
  EXPECT_THROW(check_recording_matches(rec, bigger), std::invalid_argument);
  EXPECT_THROW(recorded_state(rec, 3), std::invalid_argument);
}

}  // namespace
}  // namespace pivot
