#include "pivot/recording.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "pivot/error.hpp"
#include "support/record_world.hpp"
#include "support/run_program.hpp"
#include "support/scene_builder.hpp"

namespace pivot {
namespace {

using test::read_file;
using test::SceneBuilder;
using test::temp_file;

Scene falling_box() {
  return SceneBuilder().ground(0.5).box("box", Vec3(0.2, 0.2, 0.2), 1.0, 0.5, Vec3(0, 0, 1.0)).scene();
}

std::string fresh_path(const std::string& name) {
  const std::string path = (std::filesystem::temp_directory_path() / name).string();
  for (const char* suffix : {"", ".json", ".contacts.csv"}) std::remove((path + suffix).c_str());
  return path;
}

TEST(Recording, RoundTripsEveryStateBitForBit) {
  const std::string path = fresh_path("roundtrip.csv");
  World world(falling_box());
  RecordingWriter writer(path, world.scene(), "in-memory", 2, true);
  test::record(&writer, world);
  std::vector<WorldState> expected{world.state()};
  for (int k = 0; k < 60; ++k) {
    world.step();
    test::record(&writer, world);
    if (world.state().step % 2 == 0) expected.push_back(world.state());
  }
  writer.finish();
  const Recording rec = read_recording(path);
  ASSERT_EQ(rec.frames.size(), expected.size());
  EXPECT_EQ(rec.info.bodies, (std::vector<std::string>{"ground", "box"}));
  EXPECT_EQ(rec.info.record_every, 2);
  for (size_t f = 0; f < expected.size(); ++f) {
    EXPECT_EQ(rec.frames[f].step, expected[f].step);
    EXPECT_EQ(rec.frames[f].time_s, expected[f].time_s);
    for (size_t b = 0; b < 2; ++b) {
      EXPECT_EQ(rec.frames[f].bodies[b].pose.position, expected[f].bodies[b].pose.position);
      EXPECT_EQ(rec.frames[f].bodies[b].twist.linear, expected[f].bodies[b].twist.linear);
      EXPECT_EQ(rec.frames[f].bodies[b].pose.orientation.coeffs(),
                expected[f].bodies[b].pose.orientation.coeffs());
    }
  }
  // The box lands within 0.6 s: the contact log has rows with positive normal impulses.
  const std::string contacts = read_file(path + ".contacts.csv");
  EXPECT_EQ(contacts.rfind("step,t,body_a,body_b,px,py,pz,nx,ny,nz,gap,normal_impulse,fx,fy,fz\n", 0), 0u);
  EXPECT_NE(contacts.find(",box,ground,"), std::string::npos);
}

TEST(Recording, UnfinishedWriterLeavesThePreviousRecordingUntouched) {
  const std::string path = fresh_path("keep.csv");
  World world(falling_box());
  {
    RecordingWriter first(path, world.scene(), "", 1, false);
    test::record(&first, world);
    first.finish();
  }
  const std::string before = read_file(path);
  {
    RecordingWriter second(path, world.scene(), "", 1, false);
    for (int k = 0; k < 10; ++k) {
      world.step();
      test::record(&second, world);
    }
    // Destroyed without finish(), as when an exception unwinds a run.
  }
  EXPECT_EQ(read_file(path), before);
  EXPECT_EQ(read_recording(path).frames.size(), 1u);
  for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::temp_directory_path())) {
    EXPECT_EQ(entry.path().filename().string().rfind("keep.csv.tmp.", 0), std::string::npos)
        << "temporary file left behind: " << entry.path();
  }
}

TEST(Recording, ReaderRejectsATruncatedFrameWithFileAndLine) {
  const std::string path = fresh_path("truncated.csv");
  World world(falling_box());
  RecordingWriter writer(path, world.scene(), "", 1, false);
  test::record(&writer, world);
  world.step();
  test::record(&writer, world);
  writer.finish();
  // Drop the last row (the box of step 1): the last frame is incomplete.
  std::string text = read_file(path);
  text.erase(text.rfind('\n', text.size() - 2) + 1);
  std::ofstream(path) << text;
  try {
    read_recording(path);
    FAIL() << "truncated recording accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), path + ":4: last frame has 1 of 2 bodies (truncated?)");
  }
}

TEST(Recording, ReaderRejectsAFileCutInsideARow) {
  // A number cut short still parses ("-2.4525e-05" -> "-2.452"); the missing final newline
  // gives the truncation away.
  const std::string path = fresh_path("cut.csv");
  World world(falling_box());
  RecordingWriter writer(path, world.scene(), "", 1, false);
  test::record(&writer, world);
  writer.finish();
  std::string text = read_file(path);
  text.resize(text.size() - 3);
  std::ofstream(path) << text;
  try {
    read_recording(path);
    FAIL() << "cut recording accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), path + ":3: file ends inside a row (truncated?)");
  }
}

TEST(Recording, ReaderRejectsMalformedRowsWithExactMessages) {
  const std::string path = fresh_path("malformed.csv");
  World world(falling_box());
  RecordingWriter writer(path, world.scene(), "", 1, false);
  test::record(&writer, world);
  writer.finish();
  const std::string good = read_file(path);
  const std::string header = good.substr(0, good.find('\n') + 1);
  auto expect_error = [&](const std::string& body, const std::string& message) {
    std::ofstream(path) << header << body;
    try {
      read_recording(path);
      ADD_FAILURE() << "accepted: " << body;
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()), path + ":" + message);
    }
  };
  expect_error("0,0,ground,0,0,0,1,0,0,0,0,0,0,0,0\n", "2: expected 16 comma-separated fields, found 15");
  expect_error("0,0,box,0,0,0,1,0,0,0,0,0,0,0,0,0\n", "2: expected body 'ground', found 'box'");
  expect_error("0,0,ground,0,0,x,1,0,0,0,0,0,0,0,0,0\n", "2: expected a finite number for pz, found 'x'");
  expect_error("0,0,ground,0,0,0,2,0,0,0,0,0,0,0,0,0\n", "2: quaternion is not unit length");
  std::ofstream(path) << "step,t\n";
  try {
    read_recording(path);
    ADD_FAILURE() << "bad header accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(path + ":1: expected the header"), std::string::npos);
  }
}

}  // namespace
}  // namespace pivot
