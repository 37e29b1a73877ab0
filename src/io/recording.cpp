// Recordings: CSV rows written as the run goes, renamed into place at the end.
#include "pivot/recording.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "io/scene_json.hpp"
#include "pivot/error.hpp"

namespace pivot {

namespace {

const char* const kCsvHeader =
    "step,t,body,px,py,pz,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz";
const char* const kContactHeader =
    "step,t,body_a,body_b,px,py,pz,nx,ny,nz,gap,normal_impulse,fx,fy,fz";

// %.17g round-trips every double, so a recording replays bit for bit.
void put(std::FILE* f, double x) { std::fprintf(f, ",%.17g", x); }

void rename_or_throw(const std::string& from, const std::string& to) {
  if (std::rename(from.c_str(), to.c_str()) != 0) {
    throw std::runtime_error("cannot rename " + from + " to " + to + ": " + std::strerror(errno));
  }
}

void write_file_atomically(const std::string& path, const std::string& text) {
  const std::string temp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
    if (!out) {
      std::remove(temp.c_str());
      throw std::runtime_error("cannot write " + temp);
    }
  }
  rename_or_throw(temp, path);
}

std::FILE* open_or_throw(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) {
    throw std::runtime_error("cannot create " + path + ": " + std::strerror(errno));
  }
  return f;
}

// The settings and materials as one sidecar entry's members, compared as text to find
// changes (a recording is not the step's hot path).
std::string settings_entry(const SceneSettings& settings, const std::vector<Material>& materials) {
  nlohmann::ordered_json j;
  j["settings"] = settings_to_json(settings);
  j["materials"] = materials_to_json(materials);
  return j.dump();
}

}  // namespace

struct RecordingWriter::Files {
  std::FILE* csv = nullptr;
  std::FILE* contacts = nullptr;
  // Closes both; false when a flush failed.
  bool close() {
    const bool flushed = (csv == nullptr || std::fflush(csv) == 0) &&
                         (contacts == nullptr || std::fflush(contacts) == 0);
    if (csv != nullptr) std::fclose(csv);
    if (contacts != nullptr) std::fclose(contacts);
    csv = nullptr;
    contacts = nullptr;
    return flushed;
  }
  ~Files() { close(); }
};

RecordingWriter::RecordingWriter(const std::string& path, const Scene& scene,
                                 const std::string& scene_path, int record_every, bool contact_log)
    : path_(path) {
  if (record_every < 1) throw std::invalid_argument("record_every must be >= 1");
  const std::string suffix = ".tmp." + std::to_string(::getpid());
  temp_csv_ = path + suffix;
  info_.pivot_version = PIVOT_VERSION;
  info_.scene_path = scene_path;
  for (const Body& b : scene.bodies) info_.bodies.push_back(b.name);
  info_.time_step_s = scene.settings.time_step_s;
  info_.friction_directions = scene.settings.friction_directions;
  info_.solver = to_string(scene.settings.solver);
  info_.nonconvex = to_string(scene.settings.nonconvex);
  info_.record_every = record_every;
  info_.contact_log = contact_log;
  sidecar_scene_json_ = scene_to_json(scene);
  settings_json_ = settings_entry(scene.settings, scene.materials);
  files_ = std::make_unique<Files>();
  files_->csv = open_or_throw(temp_csv_);
  std::fprintf(files_->csv, "%s\n", kCsvHeader);
  if (contact_log) {
    temp_contacts_ = path + ".contacts.csv" + suffix;
    files_->contacts = open_or_throw(temp_contacts_);
    std::fprintf(files_->contacts, "%s\n", kContactHeader);
  }
}

RecordingWriter::~RecordingWriter() {
  if (finished_) return;
  files_.reset();
  std::remove(temp_csv_.c_str());
  if (!temp_contacts_.empty()) std::remove(temp_contacts_.c_str());
}

void RecordingWriter::record(const WorldState& s, const SceneSettings& settings,
                             const std::vector<Material>& materials,
                             const CollisionResult& collision,
                             const std::vector<ContactImpulse>& impulses) {
  std::string entry = settings_entry(settings, materials);
  if (entry != settings_json_) {
    // The step that led to s (s.step - 1) was the first taken with them.
    const std::int64_t step = std::max<std::int64_t>(0, s.step - 1);
    nlohmann::ordered_json change = nlohmann::ordered_json::parse(entry);
    nlohmann::ordered_json j;
    j["step"] = step;
    j["settings"] = change["settings"];
    j["materials"] = change["materials"];
    changes_json_.push_back(j.dump());
    settings_json_ = std::move(entry);
  }
  if (s.step % info_.record_every != 0) return;
  std::FILE* const csv = files_->csv;
  std::FILE* const contacts = files_->contacts;
  for (size_t k = 0; k < s.bodies.size(); ++k) {
    const BodyState& b = s.bodies[k];
    std::fprintf(csv, "%lld,%.17g,%s", static_cast<long long>(s.step), s.time_s,
                 info_.bodies[k].c_str());
    for (int i = 0; i < 3; ++i) put(csv, b.pose.position[i]);
    put(csv, b.pose.orientation.w());
    put(csv, b.pose.orientation.x());
    put(csv, b.pose.orientation.y());
    put(csv, b.pose.orientation.z());
    for (int i = 0; i < 3; ++i) put(csv, b.twist.linear[i]);
    for (int i = 0; i < 3; ++i) put(csv, b.twist.angular[i]);
    std::fputc('\n', csv);
  }
  if (contacts != nullptr) {
    for (const ContactImpulse& impulse : impulses) {
      const Contact& c = collision.contacts[impulse.contact];
      std::fprintf(contacts, "%lld,%.17g,%s,%s", static_cast<long long>(s.step), s.time_s,
                   info_.bodies[c.body_a].c_str(), info_.bodies[c.body_b].c_str());
      for (int i = 0; i < 3; ++i) put(contacts, c.point[i]);
      for (int i = 0; i < 3; ++i) put(contacts, c.normal[i]);
      put(contacts, c.gap_m);
      put(contacts, impulse.normal_ns);
      for (int i = 0; i < 3; ++i) put(contacts, impulse.friction_ns[i]);
      std::fputc('\n', contacts);
    }
  }
  ++frames_;
}

void RecordingWriter::finish() {
  if (finished_) return;
  const bool flushed = files_->close();
  if (!flushed) throw std::runtime_error("cannot write recording " + temp_csv_);
  info_.frames = frames_;
  nlohmann::ordered_json sidecar;
  sidecar["format"] = "pivot-recording 1";
  sidecar["pivot_version"] = info_.pivot_version;
  sidecar["scene_path"] = info_.scene_path;
  sidecar["bodies"] = info_.bodies;
  sidecar["time_step_s"] = info_.time_step_s;
  sidecar["friction_directions"] = info_.friction_directions;
  sidecar["solver"] = info_.solver;
  sidecar["nonconvex"] = info_.nonconvex;
  sidecar["record_every"] = info_.record_every;
  sidecar["frames"] = info_.frames;
  sidecar["contact_log"] = info_.contact_log;
  if (!changes_json_.empty()) {
    nlohmann::ordered_json changes = nlohmann::ordered_json::array();
    for (const std::string& change : changes_json_) {
      changes.push_back(nlohmann::ordered_json::parse(change));
    }
    sidecar["setting_changes"] = changes;
  }
  sidecar["scene"] = nlohmann::ordered_json::parse(sidecar_scene_json_);
  // The sidecar goes first: a CSV in place always has its sidecar beside it.
  write_file_atomically(path_ + ".json", sidecar.dump(2) + "\n");
  rename_or_throw(temp_csv_, path_);
  if (!temp_contacts_.empty()) {
    rename_or_throw(temp_contacts_, path_ + ".contacts.csv");
  }
  finished_ = true;
}

namespace {

// nlohmann's get<int>() casts a floating-point value (1.1e301) to int, undefined behaviour
// out of range: a count must be a JSON integer that fits.
template <typename Int>
Int sidecar_integer(const nlohmann::json& j, const char* key, const std::string& path) {
  const nlohmann::json& v = j.at(key);
  const bool fits =
      v.is_number_unsigned()
          ? v.get<std::uint64_t>() <= static_cast<std::uint64_t>(std::numeric_limits<Int>::max())
          : v.is_number_integer() && v.get<std::int64_t>() >= std::numeric_limits<Int>::min() &&
                v.get<std::int64_t>() <= std::numeric_limits<Int>::max();
  if (!fits) {
    throw InputError(path, 0, 0, std::string("sidecar's '") + key + "' is not an integer in range");
  }
  return v.get<Int>();
}

// The sidecar's setting_changes, each read by the scene reader as the sidecar's scene with
// the change's settings and materials, so they are checked as a scene file's are.
std::vector<SettingChange> read_setting_changes(const nlohmann::json& j, const std::string& path) {
  std::vector<SettingChange> changes;
  try {
    for (const nlohmann::json& entry : j.at("setting_changes")) {
      const std::string place = "setting change " + std::to_string(changes.size() + 1);
      SettingChange change;
      change.step = sidecar_integer<std::int64_t>(entry, "step", path);
      if (change.step < 0 || (!changes.empty() && change.step <= changes.back().step)) {
        throw InputError(path, 0, 0, place + ": steps must increase from 0");
      }
      nlohmann::json scene = j.at("scene");
      scene["settings"] = entry.at("settings");
      scene["materials"] = entry.at("materials");
      try {
        LoadedScene loaded = parse_scene(scene.dump(), path);
        change.settings = loaded.scene.settings;
        change.materials = std::move(loaded.scene.materials);
      } catch (const InputError& e) {
        throw InputError(path, 0, 0, place + ": " + e.message());
      }
      changes.push_back(std::move(change));
    }
  } catch (const nlohmann::json::exception& e) {
    throw InputError(path, 0, 0, std::string("bad setting_changes: ") + e.what());
  }
  return changes;
}

RecordingInfo read_sidecar(const std::string& csv_path) {
  const std::string path = csv_path + ".json";
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, 0, 0, "cannot open the recording's sidecar");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw InputError(path, 0, 0, std::string("not valid JSON: ") + e.what());
  }
  RecordingInfo info;
  try {
    if (j.at("format").get<std::string>() != "pivot-recording 1") {
      throw InputError(path, 0, 0, "format is not 'pivot-recording 1'");
    }
    info.pivot_version = j.at("pivot_version").get<std::string>();
    info.scene_path = j.at("scene_path").get<std::string>();
    info.bodies = j.at("bodies").get<std::vector<std::string>>();
    info.time_step_s = j.at("time_step_s").get<double>();
    info.friction_directions = sidecar_integer<int>(j, "friction_directions", path);
    info.solver = j.at("solver").get<std::string>();
    info.nonconvex = j.at("nonconvex").get<std::string>();
    info.record_every = sidecar_integer<int>(j, "record_every", path);
    info.frames = sidecar_integer<std::int64_t>(j, "frames", path);
    info.contact_log = j.at("contact_log").get<bool>();
  } catch (const nlohmann::json::exception& e) {
    throw InputError(path, 0, 0, std::string("bad sidecar: ") + e.what());
  }
  if (info.bodies.empty()) throw InputError(path, 0, 0, "sidecar lists no bodies");
  if (j.contains("setting_changes")) info.setting_changes = read_setting_changes(j, path);
  if (info.record_every < 1 || info.frames < 0) {
    throw InputError(path, 0, 0, "sidecar has record_every < 1 or frames < 0");
  }
  return info;
}

double parse_number(const std::string& token, const std::string& path, int line,
                    const char* column) {
  if (token.empty()) throw InputError(path, line, 0, std::string("empty ") + column);
  char* end = nullptr;
  errno = 0;
  const double x = std::strtod(token.c_str(), &end);
  if (end != token.c_str() + token.size() || errno == ERANGE || !std::isfinite(x)) {
    throw InputError(path, line, 0,
                     std::string("expected a finite number for ") + column + ", found '" + token + "'");
  }
  return x;
}

}  // namespace

Recording read_recording(const std::string& path) {
  Recording rec;
  rec.info = read_sidecar(path);
  std::ifstream file(path, std::ios::binary);
  if (!file) throw InputError(path, 0, 0, "cannot open recording");
  std::stringstream in;
  in << file.rdbuf();
  // The writer ends every row with a newline: a file that does not end in one was cut
  // inside a row, even if what is left of the row still parses ("-2.4525e-05" -> "-2.45").
  const std::string& text = in.str();
  if (!text.empty() && text.back() != '\n') {
    const auto lines = std::count(text.begin(), text.end(), '\n') + 1;
    throw InputError(path, static_cast<int>(lines), 0, "file ends inside a row (truncated?)");
  }
  std::string line;
  int line_number = 1;
  if (!std::getline(in, line) || line != kCsvHeader) {
    throw InputError(path, 1, 0, std::string("expected the header '") + kCsvHeader + "'");
  }
  static const char* const kColumns[] = {"step", "t",  "body", "px", "py", "pz", "qw", "qx",
                                         "qy",   "qz", "vx",   "vy", "vz", "wx", "wy", "wz"};
  const size_t m = rec.info.bodies.size();
  std::vector<std::string> fields;
  while (std::getline(in, line)) {
    ++line_number;
    fields.clear();
    std::stringstream row(line);
    std::string field;
    while (std::getline(row, field, ',')) fields.push_back(field);
    if (fields.size() != 16) {
      throw InputError(path, line_number, 0,
                       "expected 16 comma-separated fields, found " + std::to_string(fields.size()));
    }
    const size_t k = rec.frames.empty() || rec.frames.back().bodies.size() == m
                         ? 0
                         : rec.frames.back().bodies.size();
    if (fields[2] != rec.info.bodies[k]) {
      throw InputError(path, line_number, 0,
                       "expected body '" + rec.info.bodies[k] + "', found '" + fields[2] + "'");
    }
    const double step = parse_number(fields[0], path, line_number, "step");
    const double t = parse_number(fields[1], path, line_number, "t");
    if (k == 0) {
      // From 2^63 on a step does not fit the int64 it is kept in.
      if (step != std::floor(step) || step < 0 || step >= 0x1p63) {
        throw InputError(path, line_number, 0, "step must be a non-negative integer below 2^63");
      }
      if (!rec.frames.empty() && static_cast<std::int64_t>(step) <= rec.frames.back().step) {
        throw InputError(path, line_number, 0, "steps must increase");
      }
      rec.frames.push_back({static_cast<std::int64_t>(step), t, {}});
      rec.frames.back().bodies.reserve(m);
    } else if (step != static_cast<double>(rec.frames.back().step) ||
               t != rec.frames.back().time_s) {
      throw InputError(path, line_number, 0, "step and t differ from the frame's first row");
    }
    double x[13];
    for (int i = 0; i < 13; ++i) x[i] = parse_number(fields[3 + i], path, line_number, kColumns[3 + i]);
    BodyState s;
    s.pose.position = Vec3(x[0], x[1], x[2]);
    s.pose.orientation = Quat(x[3], x[4], x[5], x[6]);
    if (std::abs(s.pose.orientation.norm() - 1.0) > 1e-9) {
      throw InputError(path, line_number, 0, "quaternion is not unit length");
    }
    s.twist.linear = Vec3(x[7], x[8], x[9]);
    s.twist.angular = Vec3(x[10], x[11], x[12]);
    rec.frames.back().bodies.push_back(s);
  }
  if (!rec.frames.empty() && rec.frames.back().bodies.size() != m) {
    throw InputError(path, line_number, 0,
                     "last frame has " + std::to_string(rec.frames.back().bodies.size()) + " of " +
                         std::to_string(m) + " bodies (truncated?)");
  }
  if (static_cast<std::int64_t>(rec.frames.size()) != rec.info.frames) {
    throw InputError(path, line_number, 0,
                     "has " + std::to_string(rec.frames.size()) + " frames, the sidecar says " +
                         std::to_string(rec.info.frames));
  }
  return rec;
}

}  // namespace pivot
