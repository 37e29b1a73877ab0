// Fuzz target for the recording reader (read_recording, src/io/recording.cpp). A recording
// is two files, so the input is the JSON sidecar, a line "--- csv", then the CSV (no such
// line: all of it is the sidecar and the CSV is empty). Both are written to a private
// directory and read back: a recording loads or is refused with an InputError naming the
// file (and, for the CSV, the line).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "fuzz_check.hpp"
#include "pivot/recording.hpp"

namespace {

// A private directory for the two files, removed when libFuzzer exits normally; after a
// crash it is left behind (libFuzzer saves the input elsewhere).
class TempRecording {
 public:
  TempRecording() {
    char dir[] = "/tmp/pivot-recording-fuzz-XXXXXX";
    if (::mkdtemp(dir) == nullptr) pivot::fuzz::fail("cannot create a temporary directory");
    dir_ = dir;
    path_ = dir_ + "/run.csv";
  }
  ~TempRecording() {
    std::remove(path_.c_str());
    std::remove((path_ + ".json").c_str());
    ::rmdir(dir_.c_str());
  }
  const std::string& path() const { return path_; }

 private:
  std::string dir_;
  std::string path_;
};

void write_file(const std::string& path, const std::string& text) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr || std::fwrite(text.data(), 1, text.size(), f) != text.size() ||
      std::fclose(f) != 0) {
    pivot::fuzz::fail("cannot write " + path);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  const std::string separator = "\n--- csv\n";
  const size_t split = input.find(separator);
  static const TempRecording recording;
  const std::string& path = recording.path();
  write_file(path + ".json", input.substr(0, split));
  write_file(path, split == std::string::npos ? "" : input.substr(split + separator.size()));
  try {
    const pivot::Recording rec = pivot::read_recording(path);
    for (const pivot::RecordedFrame& frame : rec.frames) {
      if (frame.bodies.size() != rec.info.bodies.size()) {
        pivot::fuzz::fail("a frame was read with the wrong number of bodies");
      }
    }
  } catch (const pivot::InputError& e) {
    // The sidecar is JSON read by nlohmann, which reports its position inside the
    // message; InputError then has no line (docs/robustness.md).
    const bool sidecar = e.file() == path + ".json";
    pivot::fuzz::check_input_error(e, sidecar ? path + ".json" : path, sidecar);
  } catch (const std::exception& e) {
    pivot::fuzz::fail(std::string("rejection is not a pivot::InputError: ") + e.what());
  }
  return 0;
}
