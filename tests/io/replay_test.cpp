// Recordings back into world states: the viewer's replay.
#include <gtest/gtest.h>

#include <filesystem>

#include "pivot/recording.hpp"
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
  writer.record(world);
  for (int k = 0; k < steps; ++k) {
    world.step();
    writer.record(world);
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
