// Recordings: write one while stepping from Python (the same files as `pivot run --record`)
// and read one back as arrays of shape (frames, bodies, ...), or as a pandas DataFrame.
#include "bindings.hpp"
#include "recording_writer.hpp"

namespace pivot::python {

RecordingWriterHandle::RecordingWriterHandle(const std::string& path, const World& world,
                                             const std::string& scene_path, int record_every,
                                             bool contact_log) {
  if (record_every < 1) throw py::value_error("record_every must be >= 1");
  writer_ =
      std::make_unique<RecordingWriter>(path, world.scene(), scene_path, record_every, contact_log);
}

RecordingWriter& RecordingWriterHandle::writer() {
  if (!writer_) throw std::runtime_error("the recording is already finished or abandoned");
  return *writer_;
}

void RecordingWriterHandle::record(const World& world) {
  writer().record(world.state(), world.scene().settings, world.scene().materials, world.collision(),
                  world.impulses());
}

void RecordingWriterHandle::finish() {
  writer().finish();
  writer_.reset();
}

namespace {

// (F, B, cols) array from the recorded frames: fill(body_state, double* row).
template <class Fill>
py::array_t<double> frames_array(const Recording& rec, size_t cols, Fill&& fill) {
  const size_t frames = rec.frames.size();
  const size_t bodies = rec.info.bodies.size();
  py::array_t<double> a({static_cast<py::ssize_t>(frames), static_cast<py::ssize_t>(bodies),
                         static_cast<py::ssize_t>(cols)});
  double* out = a.mutable_data();
  for (size_t f = 0; f < frames; ++f) {
    for (size_t b = 0; b < bodies; ++b)
      fill(rec.frames[f].bodies[b], out + (f * bodies + b) * cols);
  }
  return a;
}

// The CSV's long table (one row per frame and body, its column names) as a DataFrame.
py::object to_dataframe(const Recording& rec) {
  const py::module_ pandas = py::module_::import("pandas");  // ImportError says what to install
  const size_t rows = rec.frames.size() * rec.info.bodies.size();
  py::array_t<long long> step(static_cast<py::ssize_t>(rows));
  py::array_t<double> t(static_cast<py::ssize_t>(rows));
  py::list body;
  std::vector<py::array_t<double>> cols;
  for (int c = 0; c < 13; ++c) cols.emplace_back(static_cast<py::ssize_t>(rows));
  size_t r = 0;
  for (const RecordedFrame& frame : rec.frames) {
    for (size_t b = 0; b < frame.bodies.size(); ++b, ++r) {
      const BodyState& s = frame.bodies[b];
      step.mutable_at(r) = frame.step;
      t.mutable_at(r) = frame.time_s;
      body.append(rec.info.bodies[b]);
      const Quat& q = s.pose.orientation;
      const double values[13] = {s.pose.position.x(),
                                 s.pose.position.y(),
                                 s.pose.position.z(),
                                 q.w(),
                                 q.x(),
                                 q.y(),
                                 q.z(),
                                 s.twist.linear.x(),
                                 s.twist.linear.y(),
                                 s.twist.linear.z(),
                                 s.twist.angular.x(),
                                 s.twist.angular.y(),
                                 s.twist.angular.z()};
      for (int c = 0; c < 13; ++c) cols[c].mutable_at(r) = values[c];
    }
  }
  static const char* const names[13] = {"px", "py", "pz", "qw", "qx", "qy", "qz",
                                        "vx", "vy", "vz", "wx", "wy", "wz"};
  py::dict data;
  data["step"] = step;
  data["t"] = t;
  data["body"] = body;
  for (int c = 0; c < 13; ++c) data[names[c]] = cols[c];
  return pandas.attr("DataFrame")(data);
}

}  // namespace

void bind_recording(py::module_& m) {
  py::class_<RecordingWriterHandle>(
      m, "RecordingWriter",
      "Writes a recording: path (CSV), path.json (sidecar) and, with contact_log,\n"
      "path.contacts.csv, the files of `pivot run --record`. Nothing appears at those paths\n"
      "until finish(); as a context manager it finishes on leaving the block and abandons\n"
      "(removes the temporary files) when the block raises.\n\n"
      "    with pivot.RecordingWriter('out.csv', world) as rec:\n"
      "        rec.record(world)           # the initial state\n"
      "        world.step(500, recorder=rec)")
      .def(py::init<const std::string&, const World&, const std::string&, int, bool>(),
           py::arg("path"), py::arg("world"), py::arg("scene_path") = "",
           py::arg("record_every") = 1, py::arg("contact_log") = false,
           "Opens the temporary files for world's scene; scene_path is written to the sidecar.")
      .def("record", &RecordingWriterHandle::record, py::arg("world"),
           "Records world's state (and with contact_log its last contacts) when its step count\n"
           "is a multiple of record_every.")
      .def("finish", &RecordingWriterHandle::finish,
           "Flushes, closes and renames the files into place.")
      .def("abandon", &RecordingWriterHandle::abandon,
           "Removes the temporary files; the old files at path stay as they were.")
      .def_property_readonly(
          "frames", [](RecordingWriterHandle& h) { return h.writer().frames(); },
          "Frames recorded so far.")
      .def(
          "__enter__", [](RecordingWriterHandle& h) -> RecordingWriterHandle& { return h; },
          py::return_value_policy::reference)
      .def("__exit__", [](RecordingWriterHandle& h, const py::object& type, const py::object&,
                          const py::object&) {
        if (type.is_none()) {
          h.finish();
        } else {
          h.abandon();
        }
        return false;
      });

  py::class_<Recording>(m, "Recording",
                        "A recording read back: F frames of B bodies (read_recording).")
      .def_property_readonly(
          "body_names", [](const Recording& r) { return r.info.bodies; },
          "Body names, in the order of the arrays' second axis.")
      .def_property_readonly(
          "info",
          [](const Recording& r) {
            py::dict d;
            d["pivot_version"] = r.info.pivot_version;
            d["scene_path"] = r.info.scene_path;
            d["time_step"] = r.info.time_step_s;
            d["friction_directions"] = r.info.friction_directions;
            d["method"] = r.info.solver;
            d["nonconvex"] = r.info.nonconvex;
            d["record_every"] = r.info.record_every;
            d["contact_log"] = r.info.contact_log;
            return d;
          },
          "The sidecar's settings as a dict.")
      .def_property_readonly(
          "steps",
          [](const Recording& r) {
            py::array_t<long long> a(static_cast<py::ssize_t>(r.frames.size()));
            for (size_t f = 0; f < r.frames.size(); ++f) a.mutable_at(f) = r.frames[f].step;
            return a;
          },
          "(F,) step numbers")
      .def_property_readonly(
          "times",
          [](const Recording& r) {
            py::array_t<double> a(static_cast<py::ssize_t>(r.frames.size()));
            for (size_t f = 0; f < r.frames.size(); ++f) a.mutable_at(f) = r.frames[f].time_s;
            return a;
          },
          "(F,) [s]")
      .def_property_readonly(
          "positions",
          [](const Recording& r) {
            return frames_array(r, 3,
                                [](const BodyState& s, double* o) { put3(o, s.pose.position); });
          },
          "(F,B,3) [m]")
      .def_property_readonly(
          "orientations",
          [](const Recording& r) {
            return frames_array(r, 4, [](const BodyState& s, double* o) {
              const Quat& q = s.pose.orientation;
              o[0] = q.w(), o[1] = q.x(), o[2] = q.y(), o[3] = q.z();
            });
          },
          "(F,B,4) unit quaternions w, x, y, z")
      .def_property_readonly(
          "linear_velocities",
          [](const Recording& r) {
            return frames_array(r, 3,
                                [](const BodyState& s, double* o) { put3(o, s.twist.linear); });
          },
          "(F,B,3) [m/s]")
      .def_property_readonly(
          "angular_velocities",
          [](const Recording& r) {
            return frames_array(r, 3,
                                [](const BodyState& s, double* o) { put3(o, s.twist.angular); });
          },
          "(F,B,3) [rad/s]")
      .def(
          "state",
          [](const Recording& r, long frame) {
            if (frame < 0 || frame >= static_cast<long>(r.frames.size())) {
              throw py::index_error("no frame " + std::to_string(frame) + " in a recording of " +
                                    std::to_string(r.frames.size()));
            }
            return recorded_state(r, static_cast<size_t>(frame));
          },
          py::arg("frame"), "The world state of frame k, for World.set_state (replay).")
      .def("to_dataframe", &to_dataframe,
           "The recording as a pandas DataFrame, one row per frame and body, with the CSV's\n"
           "columns (step, t, body, px..pz, qw..qz, vx..vz, wx..wz). Needs pandas.")
      .def("__len__", [](const Recording& r) { return r.frames.size(); });

  m.def("read_recording", &read_recording, py::arg("path"),
        py::call_guard<py::gil_scoped_release>(),
        "Reads and validates a recording (CSV + sidecar). Raises InputError 'file:line:\n"
        "message' for anything malformed.");
}

}  // namespace pivot::python
