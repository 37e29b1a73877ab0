// A RecordingWriter that Python can finish or abandon explicitly (a `with` block), since
// the moment Python destroys an object is not known: abandoning removes the temporary
// files, as the C++ destructor does after an exception.
#pragma once

#include <memory>
#include <string>

#include "pivot/recording.hpp"
#include "pivot/world.hpp"

namespace pivot::python {

class RecordingWriterHandle {
 public:
  RecordingWriterHandle(const std::string& path, const World& world, const std::string& scene_path,
                        int record_every, bool contact_log);
  // The open writer; RuntimeError once finished or abandoned.
  RecordingWriter& writer();
  // The world's last step with the settings it used.
  void record(const World& world);
  void finish();
  void abandon() { writer_.reset(); }

 private:
  std::unique_ptr<RecordingWriter> writer_;
};

}  // namespace pivot::python
