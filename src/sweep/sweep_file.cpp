// Sweep files (docs/sweeps.md): JSON read into a Sweep with every problem reported at its
// line and column, including targets that name nothing in the base scene and values the
// scene refuses, before any sample runs.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <map>
#include <set>
#include <sstream>

#include "io/json_source_map.hpp"
#include "pivot/error.hpp"
#include "pivot/sweep.hpp"
#include "sweep/columns.hpp"
#include "sweep/scene_edit.hpp"

namespace pivot {
namespace {

using sweep::Json;

constexpr int kFormatVersion = 1;
// Far beyond any sweep that finishes, and small enough that indices stay exact in a double
// (Python, CSV readers).
constexpr std::int64_t kMaxSamples = std::int64_t(1) << 40;
// Each point is checked against the scene when the file is read.
constexpr int kMaxRangeCount = 10000;

const char* const kTargets =
    "mu, mu.MATERIAL, d, h, method, nonconvex, BODY.offset.x|y|z, BODY.rotate.x|y|z, "
    "wrenchN.force.x|y|z, wrenchN.torque.x|y|z, wrenchN.t0, wrenchN.t1, or JSON pointers "
    "such as /bodies/1/mass";

std::string in_quotes(const std::string& text) { return "'" + text + "'"; }

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

std::string a_type(const Json& j) {
  if (j.is_null()) return "null";
  if (j.is_boolean()) return "a boolean";
  if (j.is_string()) return "a string";
  if (j.is_array()) return "an array";
  if (j.is_object()) return "an object";
  return "a number";
}

// The sweep file's text with positions: each error names the place it is about.
class SweepText {
 public:
  SweepText(const std::string& text, std::string file) : file_(std::move(file)), map_(text) {}

  const std::string& file() const { return file_; }
  TextPosition at(const std::string& pointer) const { return map_.value(pointer); }
  [[noreturn]] void fail(const std::string& pointer, const std::string& message) const {
    const TextPosition p = at(pointer);
    throw InputError(file_, p.line, p.column, message);
  }
  [[noreturn]] void fail_key(const std::string& pointer, const std::string& message) const {
    const TextPosition p = map_.key(pointer);
    throw InputError(file_, p.line, p.column, message);
  }

  // An object whose keys are all among `keys`, none repeated.
  void check_object(const Json& j, const std::string& pointer, const std::string& context,
                    std::initializer_list<const char*> keys) const {
    if (!j.is_object()) fail(pointer, "expected an object for " + context + ", found " + a_type(j));
    const std::vector<std::string> allowed(keys.begin(), keys.end());
    for (const auto& member : j.items()) {
      const std::string child = json_pointer_child(pointer, member.key());
      if (std::find(allowed.begin(), allowed.end(), member.key()) == allowed.end()) {
        fail_key(child, "unknown key " + in_quotes(member.key()) + " in " + context +
                            " (expected one of: " + join(allowed) + ")");
      }
      if (const auto again = map_.repeated_key(child)) {
        throw InputError(file_, again->line, again->column,
                         "duplicate key " + in_quotes(member.key()) + " in " + context);
      }
    }
  }
  const Json& need(const Json& object, const std::string& pointer, const std::string& key,
                   const std::string& context) const {
    const auto found = object.find(key);
    if (found == object.end()) fail(pointer, "missing key " + in_quotes(key) + " in " + context);
    return *found;
  }
  double number(const Json& j, const std::string& pointer, const std::string& label) const {
    if (!j.is_number()) fail(pointer, "expected a number for " + label + ", found " + a_type(j));
    return j.get<double>();
  }
  std::int64_t integer(const Json& j, const std::string& pointer, const std::string& label,
                       std::int64_t min_value, std::int64_t max_value) const {
    if (!j.is_number_integer()) {
      fail(pointer, "expected an integer for " + label + ", found " +
                        (j.is_number() ? j.dump() : a_type(j)));
    }
    if (j.is_number_unsigned() ? j.get<std::uint64_t>() > std::uint64_t(max_value)
                               : j.get<std::int64_t>() > max_value) {
      fail(pointer,
           label + " must be at most " + std::to_string(max_value) + ", found " + j.dump());
    }
    if (!j.is_number_unsigned() && j.get<std::int64_t>() < min_value) {
      fail(pointer,
           label + " must be at least " + std::to_string(min_value) + ", found " + j.dump());
    }
    return j.get<std::int64_t>();
  }
  std::string string(const Json& j, const std::string& pointer, const std::string& label) const {
    if (!j.is_string()) fail(pointer, "expected a string for " + label + ", found " + a_type(j));
    return j.get<std::string>();
  }

 private:
  std::string file_;
  JsonSourceMap map_;
};

// nlohmann's syntax error at the line and column where it stopped reading.
Json parse_json(const std::string& text, const std::string& file) {
  try {
    return Json::parse(text);
  } catch (const Json::parse_error& e) {
    std::string message = e.what();
    message.erase(0, message.find("] ") + 2);  // "[json.exception.parse_error.101] "
    const std::string located = "parse error at line ";
    if (message.compare(0, located.size(), located) == 0) message.erase(0, message.find(": ") + 2);
    const TextPosition at = LineIndex(text).at(e.byte > 0 ? e.byte - 1 : 0);
    throw InputError(file, at.line, at.column, message);
  }
}

std::string read_text(const std::string& path, const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, 0, 0, "cannot open " + what + ": " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

class SweepReader {
 public:
  SweepReader(const SweepText& text, std::string base_dir)
      : text_(text), base_dir_(std::move(base_dir)) {}

  Sweep read(const Json& root) {
    sweep_.file = text_.file();
    text_.check_object(root, "", "the sweep",
                       {"$schema", "version", "description", "scene", "duration", "sampling",
                        "samples", "seed", "parameters", "outcomes"});
    if (const auto v = root.find("version"); v != root.end()) {
      if (text_.integer(*v, "/version", "'version'", 1, 1 << 30) != kFormatVersion) {
        text_.fail("/version", "unsupported sweep version " + v->dump() +
                                   " (this pivot reads version " + std::to_string(kFormatVersion) +
                                   ")");
      }
    }
    if (const auto v = root.find("$schema"); v != root.end())
      text_.string(*v, "/$schema", "'$schema'");
    if (const auto v = root.find("description"); v != root.end())
      text_.string(*v, "/description", "'description'");
    read_scene(text_.need(root, "", "scene", "the sweep"));
    const Json& duration = text_.need(root, "", "duration", "the sweep");
    sweep_.duration_s = text_.number(duration, "/duration", "'duration'");
    if (!(sweep_.duration_s > 0.0))
      text_.fail("/duration", "'duration' must be positive, found " + duration.dump());
    read_sampling(root);
    if (const auto v = root.find("parameters"); v != root.end()) {
      if (!v->is_array())
        text_.fail("/parameters", "expected an array for 'parameters', found " + a_type(*v));
      for (std::size_t i = 0; i < v->size(); ++i) read_parameter((*v)[i], i);
    }
    if (const auto v = root.find("outcomes"); v != root.end()) read_outcomes(*v);
    check_columns();
    return std::move(sweep_);
  }

 private:
  void read_scene(const Json& value) {
    const std::string written = text_.string(value, "/scene", "'scene'");
    const std::filesystem::path path(written);
    sweep_.scene_file = path.is_absolute() || base_dir_.empty()
                            ? written
                            : (std::filesystem::path(base_dir_) / path).lexically_normal().string();
    std::ifstream in(sweep_.scene_file, std::ios::binary);
    if (!in) {
      text_.fail("/scene",
                 "cannot open scene " + in_quotes(sweep_.scene_file) + ": " + std::strerror(errno));
    }
    sweep_.scene_text = read_text(sweep_.scene_file, "scene");
    // The base scene's own errors name the scene file, line and column.
    const LoadedScene base = parse_scene(sweep_.scene_text, sweep_.scene_file);
    base_json_ = Json::parse(sweep_.scene_text);
    for (const Body& body : base.scene.bodies) body_names_.push_back(body.name);
  }

  void read_sampling(const Json& root) {
    std::string sampling = "grid";
    if (const auto v = root.find("sampling"); v != root.end()) {
      sampling = text_.string(*v, "/sampling", "'sampling'");
      if (sampling != "grid" && sampling != "random") {
        text_.fail("/sampling",
                   "unknown sampling " + in_quotes(sampling) + " (expected one of: grid, random)");
      }
    }
    const auto samples = root.find("samples");
    if (sampling == "random") {
      sweep_.sampling = SweepSampling::Random;
      if (samples == root.end())
        text_.fail("", "missing key 'samples' in the sweep (random sampling needs it)");
      sweep_.random_samples = text_.integer(*samples, "/samples", "'samples'", 1, kMaxSamples);
    } else if (samples != root.end()) {
      text_.fail_key("/samples",
                     "'samples' needs \"sampling\": \"random\" (a grid's size is "
                     "the product of its parameters' value counts)");
    }
    if (const auto v = root.find("seed"); v != root.end()) {
      sweep_.seed = static_cast<std::uint64_t>(
          text_.integer(*v, "/seed", "'seed'", 0, std::numeric_limits<std::int64_t>::max()));
    }
  }

  void read_parameter(const Json& j, std::size_t i) {
    const std::string pointer = "/parameters/" + std::to_string(i);
    std::string context = "parameters[" + std::to_string(i) + "]";
    text_.check_object(j, pointer, context,
                       {"name", "target", "values", "range", "uniform", "normal"});
    SweepParameter p;
    const TextPosition at = text_.at(pointer);
    p.line = at.line;
    p.column = at.column;
    const Json& target = text_.need(j, pointer, "target", context);
    resolve_target(target, pointer + "/target", context, &p);
    p.name = p.target;
    if (const auto v = j.find("name"); v != j.end()) {
      p.name = text_.string(*v, pointer + "/name", "'name'");
      if (p.name.empty())
        text_.fail(pointer + "/name", "'name' in " + context + " must not be empty");
    }
    context = "parameter " + in_quotes(p.name);
    int given = 0;
    for (const char* key : {"values", "range", "uniform", "normal"}) given += j.contains(key);
    if (given != 1) {
      text_.fail(pointer,
                 context + " needs exactly one of 'values', 'range', 'uniform', 'normal' (found " +
                     std::to_string(given) + ")");
    }
    if (const auto v = j.find("values"); v != j.end()) {
      read_values(*v, pointer + "/values", context, &p);
    } else if (const auto r = j.find("range"); r != j.end()) {
      read_range(*r, pointer + "/range", context, &p);
    } else if (const auto u = j.find("uniform"); u != j.end()) {
      p.distribution = SweepDistribution::Uniform;
      read_pair(*u, pointer + "/uniform", context, "low", "high", &p);
      if (!(p.a < p.b)) {
        text_.fail(pointer + "/uniform/high",
                   "'high' in " + context + " must be greater than 'low' (" +
                       sweep::format_double(p.a) + "), found " + sweep::format_double(p.b));
      }
    } else {
      p.distribution = SweepDistribution::Normal;
      read_pair(j["normal"], pointer + "/normal", context, "mean", "std", &p);
      if (!(p.b > 0.0)) {
        text_.fail(pointer + "/normal/std",
                   "'std' in " + context + " must be positive, found " + sweep::format_double(p.b));
      }
    }
    sweep_.parameters.push_back(std::move(p));
  }

  // Turns a target as written into what it changes in the base scene.
  void resolve_target(const Json& target, const std::string& pointer, const std::string& context,
                      SweepParameter* p) {
    if (target.is_array()) {
      if (target.empty()) text_.fail(pointer, "'target' in " + context + " lists no pointers");
      std::vector<std::string> written;
      for (std::size_t k = 0; k < target.size(); ++k) {
        const std::string at = pointer + "/" + std::to_string(k);
        written.push_back(text_.string(target[k], at, "'target[" + std::to_string(k) + "]'"));
        if (written.back().empty() || written.back()[0] != '/') {
          text_.fail(at, "'target[" + std::to_string(k) + "]' in " + context +
                             " must be a JSON pointer such as /bodies/1/mass, found " +
                             in_quotes(written.back()));
        }
        add_scene_pointer(written.back(), at, context, p);
      }
      p->target = join(written);
      p->target.erase(std::remove(p->target.begin(), p->target.end(), ','), p->target.end());
      return;
    }
    p->target = text_.string(target, pointer, "'target'");
    const std::string& t = p->target;
    if (!t.empty() && t[0] == '/') {
      add_scene_pointer(t, pointer, context, p);
      return;
    }
    p->kind = SweepTargetKind::Value;
    numeric_ = true;
    if (t == "mu") {
      p->kind = SweepTargetKind::FrictionOverride;
      return;
    }
    const std::map<std::string, std::pair<std::string, bool>> settings = {
        {"d", {"/settings/friction_directions", true}},
        {"h", {"/settings/time_step", true}},
        {"method", {"/settings/solver", false}},
        {"nonconvex", {"/settings/nonconvex", false}}};
    if (const auto s = settings.find(t); s != settings.end()) {
      p->pointers = {s->second.first};
      numeric_ = s->second.second;
      return;
    }
    if (t.compare(0, 3, "mu.") == 0) {
      const std::string material = t.substr(3);
      std::vector<std::string> defined;
      const Json& materials = base_json_.value("materials", Json::array());
      for (std::size_t k = 0; k < materials.size(); ++k) {
        if (materials[k].value("name", "") == material) {
          p->pointers = {"/materials/" + std::to_string(k) + "/friction"};
          return;
        }
        defined.push_back(materials[k].value("name", ""));
      }
      text_.fail(pointer, "unknown material " + in_quotes(material) + " in target " + in_quotes(t) +
                              " (materials of the scene: " + join(defined) + ")");
    }
    const std::size_t last_dot = t.rfind('.');
    const std::size_t dot = last_dot == std::string::npos || last_dot == 0
                                ? std::string::npos
                                : t.rfind('.', last_dot - 1);
    const std::string axis = last_dot == std::string::npos ? "" : t.substr(last_dot + 1);
    const int axis_index = axis == "x" ? 0 : axis == "y" ? 1 : axis == "z" ? 2 : -1;
    const std::string head = dot == std::string::npos ? t.substr(0, last_dot) : t.substr(0, dot);
    const std::string middle =
        dot == std::string::npos ? "" : t.substr(dot + 1, last_dot - dot - 1);
    if (head.compare(0, 6, "wrench") == 0 && head.size() > 6 &&
        std::all_of(head.begin() + 6, head.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      const std::size_t count = base_json_.value("wrenches", Json::array()).size();
      const std::string n = head.substr(6);
      if (n.size() > 9 || std::stoul(n) >= count) {
        text_.fail(pointer, "target " + in_quotes(t) + " names wrench " + n +
                                ", but the scene has " + std::to_string(count) +
                                (count == 1 ? " wrench" : " wrenches") + " (numbered from 0)");
      }
      const std::string wrench = "/wrenches/" + n;
      if (dot == std::string::npos && (axis == "t0" || axis == "t1")) {
        p->pointers = {wrench + "/" + axis};
        return;
      }
      if ((middle == "force" || middle == "torque") && axis_index >= 0) {
        p->pointers = {wrench + "/" + middle + "/" + std::to_string(axis_index)};
        return;
      }
    }
    if ((middle == "offset" || middle == "rotate") && axis_index >= 0) {
      const std::string body = t.substr(0, dot);
      const auto found = std::find(body_names_.begin(), body_names_.end(), body);
      if (found == body_names_.end()) {
        text_.fail(pointer, "unknown body " + in_quotes(body) + " in target " + in_quotes(t) +
                                " (bodies of the scene: " + join(body_names_) + ")");
      }
      const std::string b = "/bodies/" + std::to_string(found - body_names_.begin());
      p->kind =
          middle == "offset" ? SweepTargetKind::PositionOffset : SweepTargetKind::RotationOffset;
      p->pointers = {b + (middle == "offset" ? "/position" : "/orientation")};
      p->axis = axis_index;
      return;
    }
    text_.fail(pointer, "unknown target " + in_quotes(t) + " (expected " + kTargets + ")");
  }

  // A pointer the file wrote: it must name a number or a name in the base scene.
  void add_scene_pointer(const std::string& written, const std::string& pointer,
                         const std::string& context, SweepParameter* p) {
    p->kind = SweepTargetKind::Value;
    Json::json_pointer scene_pointer;
    try {
      scene_pointer = Json::json_pointer(written);
    } catch (const Json::exception&) {
      text_.fail(pointer, "pointer " + in_quotes(written) + " in " + context +
                              " is not a JSON pointer (RFC 6901: '~' must be followed by 0 or 1)");
    }
    if (!base_json_.contains(scene_pointer)) {
      text_.fail(pointer, "pointer " + in_quotes(written) + " in " + context +
                              " names nothing in scene " + in_quotes(sweep_.scene_file));
    }
    const Json& target = base_json_.at(scene_pointer);
    if (!target.is_number() && !target.is_string()) {
      text_.fail(pointer, "pointer " + in_quotes(written) + " in " + context + " names " +
                              a_type(target) + " in scene " + in_quotes(sweep_.scene_file) +
                              "; a parameter sets one number or name");
    }
    const bool numeric = target.is_number();
    if (!p->pointers.empty() && numeric != numeric_) {
      text_.fail(pointer, "pointer " + in_quotes(written) + " in " + context + " names " +
                              a_type(target) + ", the pointers before it " +
                              (numeric_ ? "numbers" : "strings"));
    }
    numeric_ = numeric;
    p->pointers.push_back(written);
  }

  bool numeric(const SweepParameter& p) const {
    return p.kind != SweepTargetKind::Value || numeric_;
  }

  SweepValue read_value(const Json& j, const std::string& pointer, const std::string& label,
                        const SweepParameter& p) const {
    if (numeric(p)) return text_.number(j, pointer, label);
    return text_.string(j, pointer, label);
  }

  void read_values(const Json& j, const std::string& pointer, const std::string& context,
                   SweepParameter* p) {
    if (!j.is_array() || j.empty()) {
      text_.fail(pointer, "expected a non-empty array for 'values' in " + context + ", found " +
                              (j.is_array() ? "an empty array" : a_type(j)));
    }
    for (std::size_t k = 0; k < j.size(); ++k) {
      const std::string at = pointer + "/" + std::to_string(k);
      p->values.push_back(read_value(j[k], at, "'values[" + std::to_string(k) + "]'", *p));
      check_value(*p, p->values.back(), at);
    }
  }

  void read_range(const Json& j, const std::string& pointer, const std::string& context,
                  SweepParameter* p) {
    text_.check_object(j, pointer, "'range' of " + context, {"from", "to", "count"});
    if (!numeric(*p)) text_.fail(pointer, context + " takes names: give them as 'values'");
    const double from = text_.number(text_.need(j, pointer, "from", "'range' of " + context),
                                     pointer + "/from", "'from'");
    const double to = text_.number(text_.need(j, pointer, "to", "'range' of " + context),
                                   pointer + "/to", "'to'");
    const auto count = text_.integer(text_.need(j, pointer, "count", "'range' of " + context),
                                     pointer + "/count", "'count'", 1, kMaxRangeCount);
    for (std::int64_t k = 0; k < count; ++k) {
      // Both ends exact; the points between evenly spaced.
      const double t = count == 1 ? 0.0 : static_cast<double>(k) / static_cast<double>(count - 1);
      const double x = k == count - 1 && count > 1 ? to : from + (to - from) * t;
      p->values.emplace_back(x);
      check_value(*p, p->values.back(),
                  k == 0           ? pointer + "/from"
                  : k == count - 1 ? pointer + "/to"
                                   : pointer);
    }
  }

  void read_pair(const Json& j, const std::string& pointer, const std::string& context,
                 const char* first, const char* second, SweepParameter* p) {
    const std::string where = in_quotes(pointer.substr(pointer.rfind('/') + 1)) + " of " + context;
    text_.check_object(j, pointer, where, {first, second});
    if (!numeric(*p)) text_.fail(pointer, context + " takes names: give them as 'values'");
    p->a =
        text_.number(text_.need(j, pointer, first, where), pointer + "/" + first, in_quotes(first));
    p->b = text_.number(text_.need(j, pointer, second, where), pointer + "/" + second,
                        in_quotes(second));
    if (p->distribution == SweepDistribution::Uniform) {
      // The scene's limits are intervals, so both ends valid means every draw is.
      check_value(*p, p->a, pointer + "/" + first);
      check_value(*p, p->b, pointer + "/" + second);
    }
  }

  // The value applied alone to the base scene must give a scene the loader accepts.
  void check_value(const SweepParameter& p, const SweepValue& value, const std::string& pointer) {
    const std::string context = "parameter " + in_quotes(p.name.empty() ? p.target : p.name);
    if (p.kind == SweepTargetKind::FrictionOverride) {
      if (std::get<double>(value) < 0.0) {
        text_.fail(pointer, "value " + sweep::format_value(value) + " of " + context +
                                " must not be negative (a friction coefficient)");
      }
      return;
    }
    Json scene = base_json_;
    sweep::apply_value(p, value, &scene);
    try {
      sweep::read_edited_scene(scene, sweep_.scene_file);
    } catch (const InputError& e) {
      text_.fail(pointer, "value " + sweep::format_value(value) + " of " + context +
                              " is refused by scene " + in_quotes(sweep_.scene_file) + ": " +
                              e.message());
    }
  }

  void read_outcomes(const Json& j) {
    text_.check_object(j, "/outcomes", "'outcomes'", {"poses", "predicates"});
    if (const auto v = j.find("poses"); v != j.end()) {
      if (!v->is_array())
        text_.fail("/outcomes/poses",
                   "expected an array of body names for 'poses', found " + a_type(*v));
      for (std::size_t k = 0; k < v->size(); ++k) {
        const std::string at = "/outcomes/poses/" + std::to_string(k);
        const std::string body = text_.string((*v)[k], at, "'poses[" + std::to_string(k) + "]'");
        if (std::find(body_names_.begin(), body_names_.end(), body) == body_names_.end()) {
          text_.fail(at, "unknown body " + in_quotes(body) +
                             " in 'poses' (bodies of the scene: " + join(body_names_) + ")");
        }
        sweep_.pose_bodies.push_back(body);
      }
    }
    if (const auto v = j.find("predicates"); v != j.end()) {
      if (!v->is_object())
        text_.fail("/outcomes/predicates",
                   "expected an object of name: \"COLUMN OP NUMBER\" for 'predicates', found " +
                       a_type(*v));
      const std::vector<std::string> columns = sweep::outcome_columns(sweep_);
      for (const auto& member : v->items()) {
        const std::string at = json_pointer_child("/outcomes/predicates", member.key());
        read_predicate(member.key(), member.value(), at, columns);
      }
    }
  }

  void read_predicate(const std::string& name, const Json& j, const std::string& pointer,
                      const std::vector<std::string>& columns) {
    const std::string text = text_.string(j, pointer, "predicate " + in_quotes(name));
    std::istringstream in(text);
    SweepPredicate p;
    p.name = name;
    std::string threshold, rest;
    in >> p.column >> p.op >> threshold >> rest;
    char* end = nullptr;
    p.threshold = std::strtod(threshold.c_str(), &end);
    const bool op_ok = p.op == "<" || p.op == "<=" || p.op == ">" || p.op == ">=";
    if (!op_ok || threshold.empty() || *end != '\0' || !rest.empty() ||
        !std::isfinite(p.threshold)) {
      text_.fail(pointer, "predicate " + in_quotes(name) +
                              " must read 'COLUMN OP NUMBER' with OP one of <, <=, >, >=, found " +
                              in_quotes(text));
    }
    if (std::find(columns.begin(), columns.end(), p.column) == columns.end()) {
      text_.fail(pointer, "unknown column " + in_quotes(p.column) + " in predicate " +
                              in_quotes(name) + " (expected one of: " + join(columns) + ")");
    }
    sweep_.predicates.push_back(p);
  }

  // Column names are the table's header: no two alike.
  void check_columns() {
    std::set<std::string> seen;
    const std::vector<std::string> columns = sweep_columns(sweep_);
    for (std::size_t k = 0; k < columns.size(); ++k) {
      if (seen.insert(columns[k]).second) continue;
      const std::size_t parameter = k - 1;
      if (parameter < sweep_.parameters.size()) {
        text_.fail("/parameters/" + std::to_string(parameter),
                   "column " + in_quotes(columns[k]) + " of parameters[" +
                       std::to_string(parameter) +
                       "] is already taken; give the parameter a 'name'");
      }
      text_.fail("/outcomes", "column " + in_quotes(columns[k]) + " appears twice in the table");
    }
    if (sweep_size(sweep_) > kMaxSamples) {
      text_.fail("/parameters", "the grid has more than 2^40 samples");
    }
  }

  const SweepText& text_;
  std::string base_dir_;
  Sweep sweep_;
  Json base_json_;
  std::vector<std::string> body_names_;
  bool numeric_ = true;  // the parameter being read sets numbers (true) or names
};

}  // namespace

Sweep parse_sweep(const std::string& text, const std::string& file_name,
                  const std::string& base_dir) {
  const Json root = parse_json(text, file_name);
  const SweepText located(text, file_name);
  Sweep sweep = SweepReader(located, base_dir).read(root);
  sweep.text = text;
  return sweep;
}

Sweep read_sweep_file(const std::string& path) {
  return parse_sweep(read_text(path, "sweep file"), path,
                     std::filesystem::path(path).parent_path().string());
}

}  // namespace pivot
