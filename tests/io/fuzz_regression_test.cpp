// Inputs the fuzz targets of fuzz/ (docs/robustness.md) found to crash a reader, each
// refused now with an InputError naming the place. A test per input, named after what
// broke.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "pivot/error.hpp"
#include "pivot/recording.hpp"

namespace pivot {
namespace {

const char* const kSidecar = R"({"format": "pivot-recording 1", "pivot_version": "0.1.0",
 "scene_path": "", "bodies": ["ground", "block"], "time_step_s": 0.01,
 "friction_directions": 4, "solver": "reduced", "nonconvex": "max", "record_every": 1,
 "frames": 1, "contact_log": false})";
const char* const kHeader = "step,t,body,px,py,pz,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n";

// Writes a recording (CSV and sidecar) to a fresh temporary path and returns the path.
std::string write_recording(const std::string& name, const std::string& sidecar,
                            const std::string& csv) {
  const std::string path = (std::filesystem::temp_directory_path() / name).string();
  std::ofstream(path + ".json", std::ios::binary) << sidecar;
  std::ofstream(path, std::ios::binary) << csv;
  return path;
}

std::string read_error(const std::string& path) {
  try {
    read_recording(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

// nlohmann throws out_of_range, not parse_error, for a number beyond the range of a double
// (the fuzzer's 4...41e30044...); it escaped read_recording as a nlohmann exception.
TEST(FuzzRegression, RecordingSidecarWithAnOverflowingIntegerIsAnInputError) {
  const std::string path =
      write_recording("fuzz_sidecar_overflow.csv", R"({"scene_path": 4e30044})", "");
  EXPECT_EQ(read_error(path),
            path +
                ".json: not valid JSON: [json.exception.out_of_range.406] number overflow "
                "parsing '4e30044'");
}

// "record_every": 11e300 is a JSON float; nlohmann's get<int>() cast it to int (undefined
// behaviour, UBSan: "1.1e+301 is outside the range of representable values of type 'int'").
TEST(FuzzRegression, RecordingSidecarCountThatIsNotAnIntIsAnInputError) {
  std::string sidecar = kSidecar;
  sidecar.replace(sidecar.find("\"record_every\": 1"), 17, "\"record_every\": 11e300");
  const std::string path = write_recording("fuzz_record_every_float.csv", sidecar, kHeader);
  EXPECT_EQ(read_error(path), path + ".json: sidecar's 'record_every' is not an integer in range");
  sidecar = kSidecar;
  sidecar.replace(sidecar.find("\"frames\": 1"), 11, "\"frames\": 18446744073709551615");
  const std::string frames = write_recording("fuzz_frames_uint64.csv", sidecar, kHeader);
  EXPECT_EQ(read_error(frames), frames + ".json: sidecar's 'frames' is not an integer in range");
}

// A step of 1e300 was converted to int64 (undefined behaviour, UBSan: "1e+300 is outside
// the range of representable values of type 'long'").
TEST(FuzzRegression, RecordingStepBeyondInt64IsRefusedWithItsLine) {
  const std::string rows =
      "1e300,0,ground,0,0,0,1,0,0,0,0,0,0,0,0,0\n1e300,0,block,0,0,0,1,0,0,0,0,0,0,0,0,0\n";
  const std::string path = write_recording("fuzz_step_1e300.csv", kSidecar, kHeader + rows);
  EXPECT_EQ(read_error(path), path + ":2: step must be a non-negative integer below 2^63");
}

// The same conversion on a frame's second row: it is compared with the frame's step as a
// double now, so 2^63 on the second row is a mismatch rather than undefined behaviour.
TEST(FuzzRegression, RecordingStepBeyondInt64OnASecondRowIsAMismatch) {
  const std::string rows =
      "0,0,ground,0,0,0,1,0,0,0,0,0,0,0,0,0\n9223372036854775808,0,block,0,0,0,1,0,0,0,0,0,0,0,"
      "0,0\n";
  const std::string path = write_recording("fuzz_step_2p63.csv", kSidecar, kHeader + rows);
  EXPECT_EQ(read_error(path), path + ":3: step and t differ from the frame's first row");
}

}  // namespace
}  // namespace pivot
