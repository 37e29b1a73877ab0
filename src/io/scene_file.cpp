// Scene files (docs/scene-format.md): JSON read into a Scene with every problem reported
// at its line and column, and a Scene written back as JSON.
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "io/json_source_map.hpp"
#include "io/scene_json.hpp"
#include "pivot/error.hpp"
#include "pivot/geometry.hpp"
#include "pivot/scene.hpp"

namespace pivot {
namespace {

using Json = nlohmann::ordered_json;  // keeps keys in file order, for messages and output

constexpr int kFormatVersion = 1;
constexpr double kDefaultDensity = 1000.0;      // [kg/m^3], water
constexpr char kDefaultMaterial[] = "default";  // what a body without "material" uses
constexpr double kDefaultFriction = 0.5;        // of "default" when the file defines none
// Quaternions and normals further than this from unit length are normalised with a
// warning, closer ones silently: 1e-6 is above the rounding of 8 significant digits.
constexpr double kUnitTolerance = 1e-6;

// |v|, also when squaring a component overflows: with one of 6e307 the plain norm is inf
// and v / inf the zero vector, a quaternion the writer wrote and no reader takes
// (scene_file fuzz). The plain norm where it is finite, so every other file reads as before.
template <class V>
double overflow_safe_norm(const V& v) {
  const double norm = v.norm();
  return std::isfinite(norm) ? norm : v.stableNorm();
}

// ---- reading ---------------------------------------------------------------------------

std::string in_quotes(const std::string& text) { return "'" + text + "'"; }

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

std::string format_number(double x) {
  std::ostringstream out;
  out << x;
  return out.str();
}

std::string a_type(const Json& j) {
  switch (j.type()) {
    case Json::value_t::null:
      return "null";
    case Json::value_t::boolean:
      return "a boolean";
    case Json::value_t::string:
      return "a string";
    case Json::value_t::array:
      return "an array";
    case Json::value_t::object:
      return "an object";
    default:
      return "a number";
  }
}

// The text being read: its name, where its values are, and the warnings so far.
class Document {
 public:
  Document(const std::string& text, std::string file) : file_(std::move(file)), map_(text) {}

  [[noreturn]] void fail(TextPosition at, const std::string& message) const {
    throw InputError(file_, at.line, at.column, message);
  }
  void warn(TextPosition at, const std::string& message) {
    warnings_.push_back(file_ + ":" + std::to_string(at.line) + ":" + std::to_string(at.column) +
                        ": " + message);
  }
  const JsonSourceMap& map() const { return map_; }
  std::vector<std::string>& warnings() { return warnings_; }

 private:
  std::string file_;
  JsonSourceMap map_;
  std::vector<std::string> warnings_;
};

// One value of the document with the names messages give it: label is the key as written
// ("mass", "position[1]"), context the object around it ("body 'peg'").
class Value {
 public:
  Value(Document* doc, const Json* json, std::string pointer, std::string label,
        std::string context)
      : doc_(doc),
        json_(json),
        pointer_(std::move(pointer)),
        label_(std::move(label)),
        context_(std::move(context)) {}

  const Json& json() const { return *json_; }
  Document& doc() const { return *doc_; }
  const std::string& pointer() const { return pointer_; }
  const std::string& label() const { return label_; }
  const std::string& context() const { return context_; }
  TextPosition position() const { return doc_->map().value(pointer_); }

  [[noreturn]] void fail(const std::string& message) const { doc_->fail(position(), message); }
  void warn(const std::string& message) const { doc_->warn(position(), message); }
  // "'mass' in body 'peg' must be positive, found -2"
  [[noreturn]] void fail_range(const std::string& rule) const {
    fail(in_quotes(label_) + " in " + context_ + " " + rule + ", found " + json_->dump());
  }
  [[noreturn]] void fail_type(const std::string& expected) const {
    fail("expected " + expected + " for " + in_quotes(label_) + ", found " + a_type(*json_));
  }

  double number() const {
    if (!json_->is_number()) fail_type("a number");
    return json_->get<double>();
  }
  double positive() const {
    const double x = number();
    if (!(x > 0.0)) fail_range("must be positive");
    return x;
  }
  double non_negative() const {
    const double x = number();
    if (x < 0.0) fail_range("must not be negative");
    return x;
  }
  int integer(int min_value, int max_value) const {
    if (json_->is_number() && !json_->is_number_integer()) {
      fail("expected an integer for " + in_quotes(label_) + ", found " + json_->dump());
    }
    if (!json_->is_number()) fail_type("an integer");
    const double x = json_->get<double>();  // exact enough to compare with int bounds
    if (x < min_value) fail_range("must be at least " + std::to_string(min_value));
    if (x > max_value) fail_range("must be at most " + std::to_string(max_value));
    return static_cast<int>(json_->get<std::int64_t>());
  }
  bool boolean() const {
    if (!json_->is_boolean()) fail_type("true or false");
    return json_->get<bool>();
  }
  std::string string() const {
    if (!json_->is_string()) fail_type("a string");
    return json_->get<std::string>();
  }

  std::vector<Value> elements() const {
    if (!json_->is_array()) fail_type("an array");
    std::vector<Value> out;
    for (std::size_t i = 0; i < json_->size(); ++i) {
      out.emplace_back(doc_, &(*json_)[i], json_pointer_child(pointer_, std::to_string(i)),
                       label_ + "[" + std::to_string(i) + "]", context_);
    }
    return out;
  }
  // Exactly n numbers.
  std::vector<double> numbers(std::size_t n) const {
    const std::string what = std::to_string(n) + " numbers";
    if (!json_->is_array()) fail_type("an array of " + what);
    if (json_->size() != n)
      fail("expected " + what + " for " + in_quotes(label_) + ", found " +
           std::to_string(json_->size()));
    std::vector<double> out;
    for (const Value& element : elements()) out.push_back(element.number());
    return out;
  }
  Vec3 vec3() const {
    const std::vector<double> x = numbers(3);
    return Vec3(x[0], x[1], x[2]);
  }
  // [w, x, y, z], normalised; zero is an error, a norm off 1 a warning.
  Quat quaternion() const {
    const std::vector<double> x = numbers(4);
    Quat q(x[0], x[1], x[2], x[3]);
    const double norm = overflow_safe_norm(q.coeffs());
    if (!(norm > 0.0)) fail_range("must be a unit quaternion [w, x, y, z]");
    if (std::abs(norm - 1.0) > kUnitTolerance)
      warn(in_quotes(label_) + " in " + context_ + " has norm " + format_number(norm) +
           "; normalised");
    q.coeffs() /= norm;
    return q;
  }
  // A direction: non-zero, normalised with a warning when its length is off 1.
  Vec3 unit_vector() const {
    const Vec3 v = vec3();
    const double norm = overflow_safe_norm(v);
    if (!(norm > 0.0)) fail_range("must not be zero");
    if (std::abs(norm - 1.0) > kUnitTolerance)
      warn(in_quotes(label_) + " in " + context_ + " has length " + format_number(norm) +
           "; normalised");
    return v / norm;
  }

 private:
  Document* doc_;
  const Json* json_;
  std::string pointer_;
  std::string label_;
  std::string context_;
};

// A JSON object whose members are read by name. allow() rejects unknown and repeated keys;
// members are Values in this object's context.
class Object {
 public:
  Object(const Value& value, std::string context) : value_(value), context_(std::move(context)) {
    if (!value.json().is_object()) value.fail_type("an object");
  }

  const std::string& context() const { return context_; }
  void set_context(std::string context) { context_ = std::move(context); }

  void allow(std::initializer_list<const char*> keys) const {
    std::vector<std::string> allowed(keys.begin(), keys.end());
    for (const auto& member : value_.json().items()) {
      const std::string pointer = json_pointer_child(value_.pointer(), member.key());
      if (std::find(allowed.begin(), allowed.end(), member.key()) == allowed.end()) {
        value_.doc().fail(value_.doc().map().key(pointer),
                          "unknown key " + in_quotes(member.key()) + " in " + context_ +
                              " (expected one of: " + join(allowed) + ")");
      }
      if (const auto again = value_.doc().map().repeated_key(pointer)) {
        value_.doc().fail(*again, "duplicate key " + in_quotes(member.key()) + " in " + context_);
      }
    }
  }

  std::optional<Value> get(const std::string& key) const {
    const auto found = value_.json().find(key);
    if (found == value_.json().end()) return std::nullopt;
    return Value(&value_.doc(), &*found, json_pointer_child(value_.pointer(), key), key, context_);
  }
  Value need(const std::string& key) const {
    std::optional<Value> v = get(key);
    if (!v) value_.fail("missing key " + in_quotes(key) + " in " + context_);
    return *v;
  }
  TextPosition key_position(const std::string& key) const {
    return value_.doc().map().key(json_pointer_child(value_.pointer(), key));
  }
  [[noreturn]] void fail_at_key(const std::string& key, const std::string& message) const {
    value_.doc().fail(key_position(key), message);
  }

 private:
  Value value_;
  std::string context_;
};

// The body frame moves to the centre of mass: shapes shift by -c, so world placement is
// kept when the pose moves by +R c. Only meshes and compounds have c != 0.
Shape shifted(Shape shape, const Vec3& offset) {
  if (auto* mesh = std::get_if<ConvexMesh>(&shape)) {
    for (Vec3& v : mesh->vertices) v += offset;
  } else if (auto* compound = std::get_if<Compound>(&shape)) {
    for (CompoundPiece& piece : compound->pieces) piece.local.position += offset;
  }
  return shape;
}

// Principal moments must be positive and obey the triangle inequality (I1 + I2 >= I3):
// otherwise no distribution of mass has them. Returns what is wrong, or "".
std::string inertia_problem(const Mat3& I) {
  const double scale = I.cwiseAbs().maxCoeff();
  if ((I - I.transpose()).cwiseAbs().maxCoeff() > 1e-9 * scale) return "is not symmetric";
  const Vec3 moments = Eigen::SelfAdjointEigenSolver<Mat3>(I).eigenvalues();  // ascending
  const std::string listed = "(principal moments " + format_number(moments[0]) + ", " +
                             format_number(moments[1]) + ", " + format_number(moments[2]) + ")";
  if (!(moments[0] > 0.0)) return "is not positive definite " + listed;
  if (moments[0] + moments[1] < moments[2] * (1.0 - 1e-9)) {
    return "violates the triangle inequality " + listed + ": no rigid body has it";
  }
  return "";
}

class SceneReader {
 public:
  explicit SceneReader(Document* doc) : doc_(doc) {}

  Scene read(const Json& root) {
    const Value top_value(doc_, &root, "", "scene", "the scene");
    if (!root.is_object())
      top_value.fail("a scene file holds one JSON object, found " + a_type(root));
    const Object top(top_value, "the scene");
    top.allow({"$schema", "version", "description", "settings", "materials", "bodies", "wrenches",
               "camera"});
    if (const auto v = top.get("version")) {
      const int version = v->integer(1, 1 << 30);
      if (version != kFormatVersion) {
        v->fail("unsupported scene version " + std::to_string(version) +
                " (this pivot reads version " + std::to_string(kFormatVersion) + ")");
      }
    }
    if (const auto v = top.get("$schema")) v->string();
    if (const auto v = top.get("description")) scene_.description = v->string();
    if (const auto v = top.get("settings")) read_settings(*v);
    if (const auto v = top.get("materials")) {
      for (const Value& m : v->elements()) read_material(m);
    }
    for (const Value& b : top.need("bodies").elements()) read_body(b);
    if (const auto v = top.get("wrenches")) {
      for (const Value& w : v->elements()) read_wrench(w);
    }
    if (const auto v = top.get("camera")) read_camera(*v);
    return std::move(scene_);
  }

 private:
  void read_settings(const Value& value) {
    const Object obj(value, "settings");
    obj.allow({"gravity", "time_step", "friction_directions", "solver", "nonconvex",
               "friction_override", "contact_margin", "penetration_recovery_speed"});
    SceneSettings& s = scene_.settings;
    if (const auto v = obj.get("gravity")) s.gravity_mps2 = v->vec3();
    if (const auto v = obj.get("time_step")) s.time_step_s = v->positive();
    if (const auto v = obj.get("friction_directions")) {
      s.friction_directions = v->integer(kMinFrictionDirections, kMaxFrictionDirections);
    }
    if (const auto v = obj.get("solver")) {
      if (!parse_lcp_method(v->string(), &s.solver)) {
        v->fail("unknown solver " + in_quotes(v->string()) +
                " (expected one of: standard, structural, reduced)");
      }
    }
    if (const auto v = obj.get("nonconvex")) {
      if (!parse_nonconvex_formulation(v->string(), &s.nonconvex)) {
        v->fail("unknown nonconvex formulation " + in_quotes(v->string()) +
                " (expected one of: max, sum, off)");
      }
    }
    if (const auto v = obj.get("friction_override")) s.friction_override = v->non_negative();
    if (const auto v = obj.get("contact_margin")) s.contact_margin_m = v->non_negative();
    if (const auto v = obj.get("penetration_recovery_speed")) {
      s.penetration_recovery_speed_mps = v->positive();
    }
  }

  // Names something by its "name" member when it has one, else by its place in the list.
  static std::string name_or_place(const Value& value, const std::string& kind) {
    const Json& j = value.json();
    if (j.is_object() && j.contains("name") && j["name"].is_string()) {
      return kind + " " + in_quotes(j["name"].get<std::string>());
    }
    return value.label();
  }

  void read_material(const Value& value) {
    Object obj(value, name_or_place(value, "material"));
    obj.allow({"name", "friction"});
    Material m;
    const Value name = obj.need("name");
    m.name = name.string();
    if (m.name.empty()) name.fail_range("must not be empty");
    if (material_index_.count(m.name)) name.fail("duplicate material name " + in_quotes(m.name));
    m.friction = obj.need("friction").non_negative();
    material_index_[m.name] = static_cast<int>(scene_.materials.size());
    scene_.materials.push_back(m);
  }

  // Index of the material called name, or -1. "default" always exists: when the file
  // does not define it, it is added with friction 0.5 the first time a body uses it.
  int material_index(const std::string& name) {
    const auto found = material_index_.find(name);
    if (found != material_index_.end()) return found->second;
    if (name != kDefaultMaterial) return -1;
    material_index_[name] = static_cast<int>(scene_.materials.size());
    scene_.materials.push_back({name, kDefaultFriction});
    return material_index_[name];
  }

  void read_body(const Value& value) {
    const std::string context = name_or_place(value, "body");
    const Object obj(value, context);
    obj.allow({"name", "shape", "material", "fixed", "density", "mass", "inertia", "position",
               "orientation", "linear_velocity", "angular_velocity"});
    Body body;
    BodyState state;
    const Value name = obj.need("name");
    body.name = name.string();
    if (body.name.empty()) name.fail_range("must not be empty");
    if (const auto first = body_index_.find(body.name); first != body_index_.end()) {
      const TextPosition at = body_name_position_[first->second];
      name.fail("duplicate body name " + in_quotes(body.name) + " (first defined at line " +
                std::to_string(at.line) + ", column " + std::to_string(at.column) + ")");
    }
    if (const auto v = obj.get("fixed")) body.fixed = v->boolean();
    const Value shape_value = obj.need("shape");
    body.shape = read_shape(shape_value, context);
    const auto material = obj.get("material");
    body.material = material_index(material ? material->string() : kDefaultMaterial);
    if (body.material < 0) {
      std::vector<std::string> defined;
      for (const Material& m : scene_.materials) defined.push_back(m.name);
      material->fail(
          "unknown material " + in_quotes(material->string()) + " in " + context +
          (defined.empty() ? " (no materials defined)" : " (defined: " + join(defined) + ")"));
    }
    if (const auto v = obj.get("position")) state.pose.position = v->vec3();
    if (const auto v = obj.get("orientation")) state.pose.orientation = v->quaternion();

    Vec3 com_shift = Vec3::Zero();
    if (body.fixed) {
      // Fixed bodies never move: mass and velocity mean nothing for them.
      for (const char* key :
           {"density", "mass", "inertia", "linear_velocity", "angular_velocity"}) {
        if (obj.get(key)) {
          doc_->warn(obj.key_position(key),
                     in_quotes(key) + " in " + context + " is ignored: the body is fixed");
        }
      }
    } else {
      if (std::holds_alternative<HalfSpace>(body.shape)) {
        shape_value.fail(context + " has a half_space shape and must be fixed (\"fixed\": true)");
      }
      com_shift = read_mass(obj, &body);
      if (const auto v = obj.get("linear_velocity")) state.twist.linear = v->vec3();
      if (const auto v = obj.get("angular_velocity")) state.twist.angular = v->vec3();
    }
    body.shape = shifted(std::move(body.shape), -com_shift);
    state.pose.position += state.pose.orientation * com_shift;

    body_index_[body.name] = static_cast<int>(scene_.bodies.size());
    body_name_position_.push_back(name.position());
    com_shift_.push_back(com_shift);
    scene_.bodies.push_back(std::move(body));
    scene_.initial_states.push_back(state);
  }

  // Mass and inertia of a dynamic body: explicit ("mass" and "inertia"), or from the shape
  // at a density or scaled to a mass. Returns the centre of mass in the frame the shape was
  // written in (zero when explicit: the body origin is then taken as the centre of mass).
  Vec3 read_mass(const Object& obj, Body* body) {
    const auto density = obj.get("density");
    const auto mass = obj.get("mass");
    const auto inertia = obj.get("inertia");
    if (density && mass) {
      obj.fail_at_key("mass", in_quotes("mass") + " and " + in_quotes("density") + " in " +
                                  obj.context() + " conflict: give one of them");
    }
    if (inertia && !mass)
      obj.fail_at_key(
          "inertia", in_quotes("inertia") + " in " + obj.context() + " needs " + in_quotes("mass"));
    if (mass && inertia) {
      body->mass_kg = mass->positive();
      body->inertia_body_kgm2 = read_inertia(*inertia);
      return Vec3::Zero();
    }
    MassProperties mp =
        compute_mass_properties(body->shape, density ? density->positive() : kDefaultDensity);
    if (mass) {
      const double given = mass->positive();
      mp.inertia_kgm2 *= given / mp.mass_kg;
      mp.mass_kg = given;
    }
    const bool finite =
        std::isfinite(mp.mass_kg) && mp.inertia_kgm2.allFinite() && mp.center_of_mass_m.allFinite();
    if (!finite || !(mp.mass_kg > 0.0) || !inertia_problem(mp.inertia_kgm2).empty()) {
      obj.need("shape").fail("the mass properties of " + obj.context() +
                             " computed from its shape are not usable (mass " +
                             format_number(mp.mass_kg) +
                             " kg): check the shape's size and the density");
    }
    body->mass_kg = mp.mass_kg;
    body->inertia_body_kgm2 = mp.inertia_kgm2;
    return mp.center_of_mass_m;
  }

  // Three principal moments (a diagonal tensor) or three rows of three numbers.
  static Mat3 read_inertia(const Value& v) {
    if (!v.json().is_array() || v.json().size() != 3) {
      v.fail(
          "expected 3 numbers or 3 rows of 3 numbers for " + in_quotes(v.label()) + ", found " +
          (v.json().is_array() ? std::to_string(v.json().size()) + " entries" : a_type(v.json())));
    }
    Mat3 I = Mat3::Zero();
    const std::vector<Value> rows = v.elements();
    if (rows[0].json().is_array()) {
      for (int r = 0; r < 3; ++r) I.row(r) = rows[r].vec3().transpose();
    } else {
      I.diagonal() = v.vec3();
    }
    const std::string problem = inertia_problem(I);
    if (!problem.empty()) v.fail(in_quotes(v.label()) + " in " + v.context() + " " + problem);
    return 0.5 * (I + I.transpose());
  }

  // A shape object with its type read; the context names the type ("box shape of body 'b'").
  struct ShapeObject {
    Object obj;
    Value type_value;
    std::string type;
  };
  static ShapeObject open_shape(const Value& value, const std::string& owner) {
    Object obj(value, "shape of " + owner);
    const Value type_value = obj.need("type");
    const std::string type = type_value.string();
    obj.set_context(type + " shape of " + owner);
    return {obj, type_value, type};
  }

  // owner: what the shape belongs to ("body 'peg'", "pieces[1] of body 'peg'").
  Shape read_shape(const Value& value, const std::string& owner) {
    const ShapeObject shape = open_shape(value, owner);
    const Object& obj = shape.obj;
    if (shape.type == "half_space") {
      obj.allow({"type", "normal", "offset"});
      HalfSpace half_space;
      half_space.normal = obj.need("normal").unit_vector();
      if (const auto v = obj.get("offset")) half_space.offset_m = v->number();
      return half_space;
    }
    if (shape.type == "compound") {
      obj.allow({"type", "pieces"});
      const Value pieces = obj.need("pieces");
      Compound compound;
      for (const Value& p : pieces.elements()) {
        const std::string piece_owner = p.label() + " of " + owner;
        const Object piece_obj(p, piece_owner);
        piece_obj.allow({"shape", "position", "orientation"});
        CompoundPiece piece;
        piece.shape = read_piece_shape(piece_obj.need("shape"), piece_owner);
        if (const auto v = piece_obj.get("position")) piece.local.position = v->vec3();
        if (const auto v = piece_obj.get("orientation")) piece.local.orientation = v->quaternion();
        compound.pieces.push_back(std::move(piece));
      }
      if (compound.pieces.empty()) pieces.fail_range("must not be empty");
      return compound;
    }
    if (auto convex = read_convex(shape)) {
      return std::visit([](auto& s) -> Shape { return std::move(s); }, *convex);
    }
    shape.type_value.fail(
        "unknown shape type " + in_quotes(shape.type) +
        " (expected one of: box, sphere, cylinder, capsule, convex, half_space, compound)");
  }

  ConvexShape read_piece_shape(const Value& value, const std::string& owner) {
    const ShapeObject shape = open_shape(value, owner);
    if (auto convex = read_convex(shape)) return std::move(*convex);
    shape.type_value.fail(
        "unknown shape type " + in_quotes(shape.type) +
        " for a compound piece (expected one of: box, sphere, cylinder, capsule, convex)");
  }

  // The convex shapes, allowed both as a body's shape and as a compound piece.
  static std::optional<ConvexShape> read_convex(const ShapeObject& shape) {
    const Object& obj = shape.obj;
    if (shape.type == "box") {
      obj.allow({"type", "half_extents"});
      const Value half = obj.need("half_extents");
      half.numbers(3);
      const std::vector<Value> extents = half.elements();
      Box box;
      for (int k = 0; k < 3; ++k)
        box.half_extents_m[k] = extents[static_cast<std::size_t>(k)].positive();
      return box;
    }
    if (shape.type == "sphere") {
      obj.allow({"type", "radius"});
      return Sphere{obj.need("radius").positive()};
    }
    if (shape.type == "cylinder") {
      obj.allow({"type", "radius", "half_length"});
      return Cylinder{obj.need("radius").positive(), obj.need("half_length").positive()};
    }
    if (shape.type == "capsule") {
      obj.allow({"type", "radius", "half_length"});
      return Capsule{obj.need("radius").positive(), obj.need("half_length").positive()};
    }
    if (shape.type == "convex") {
      obj.allow({"type", "vertices"});
      const Value vertices = obj.need("vertices");
      std::vector<Vec3> points;
      for (const Value& v : vertices.elements()) points.push_back(v.vec3());
      try {
        return make_convex_mesh(points);
      } catch (const std::invalid_argument& e) {
        vertices.fail(in_quotes("vertices") + " in " + obj.context() + ": " + e.what());
      }
    }
    return std::nullopt;
  }

  void read_wrench(const Value& value) {
    const Object obj(value, value.label());
    obj.allow({"body", "force", "torque", "point", "t0", "t1"});
    ExternalWrench w;
    const Value body = obj.need("body");
    const auto found = body_index_.find(body.string());
    if (found == body_index_.end())
      body.fail("unknown body " + in_quotes(body.string()) + " in " + obj.context());
    w.body = found->second;
    if (scene_.bodies[w.body].fixed) {
      body.fail(in_quotes("body") + " in " + obj.context() + " names fixed body " +
                in_quotes(body.string()) + ", which cannot move");
    }
    if (const auto v = obj.get("force")) w.force_n = v->vec3();
    if (const auto v = obj.get("torque")) w.torque_nm = v->vec3();
    // Written in the frame the body's shape was written in; stored about the centre of mass.
    if (const auto v = obj.get("point")) w.point_m = v->vec3() - com_shift_[w.body];
    if (const auto v = obj.get("t0")) w.t0_s = v->non_negative();
    if (const auto v = obj.get("t1")) {
      w.t1_s = v->number();
      if (!(w.t1_s > w.t0_s))
        v->fail_range("must be greater than 't0' (" + format_number(w.t0_s) + ")");
    }
    scene_.wrenches.push_back(w);
  }

  void read_camera(const Value& value) {
    const Object obj(value, "camera");
    obj.allow({"eye", "target", "up", "yaw_deg", "pitch_deg", "distance"});
    CameraHint camera;
    if (const auto v = obj.get("target")) camera.target_m = v->vec3();
    const bool orbit = obj.get("yaw_deg") || obj.get("pitch_deg") || obj.get("distance");
    if (orbit) {
      for (const char* key : {"eye", "up"}) {
        if (obj.get(key)) {
          obj.fail_at_key(key, in_quotes(key) +
                                   " in camera conflicts with yaw_deg, pitch_deg and distance: "
                                   "give eye (and up) or the three of them");
        }
      }
      // World z up, yaw about z from the x axis, pitch above the horizontal (as the viewer).
      const double yaw = obj.need("yaw_deg").number() * kPi / 180.0;
      const Value pitch_value = obj.need("pitch_deg");
      const double pitch_deg = pitch_value.number();
      if (!(std::abs(pitch_deg) < 90.0)) pitch_value.fail_range("must be between -90 and 90");
      const double pitch = pitch_deg * kPi / 180.0;
      const Value distance_value = obj.need("distance");
      const double distance = distance_value.positive();
      camera.eye_m =
          camera.target_m + distance * Vec3(std::cos(pitch) * std::cos(yaw),
                                            std::cos(pitch) * std::sin(yaw), std::sin(pitch));
      if (!camera.eye_m.allFinite()) distance_value.fail_range("puts the eye at infinity");
    } else {
      const Value eye = obj.need("eye");
      camera.eye_m = eye.vec3();
      if (camera.eye_m == camera.target_m)
        eye.fail(in_quotes("eye") + " in camera coincides with " + in_quotes("target"));
      if (const auto v = obj.get("up")) {
        const Vec3 up = v->vec3();
        if (!(up.norm() > 0.0)) v->fail_range("must not be zero");
        // On unit vectors: |up| |view| overflows for an eye 1e308 away (a scene with
        // "distance": 1e308 was read, written as eye and up, and then refused; fuzz).
        const Vec3 view = camera.target_m - camera.eye_m;
        if (!(up.stableNormalized().cross(view.stableNormalized()).norm() > 1e-9)) {
          v->fail(in_quotes("up") + " in camera is parallel to the view direction");
        }
        camera.up = up.normalized();
      }
    }
    scene_.camera = camera;
  }

  Document* doc_;
  Scene scene_;
  std::map<std::string, int> material_index_;
  std::map<std::string, int> body_index_;
  std::vector<TextPosition> body_name_position_;
  std::vector<Vec3> com_shift_;  // per body: its centre of mass in the frame the file used
};

// nlohmann reports where it stopped reading: past a syntax error, or behind a number too
// large for a double, which only its SAX interface reports with a position.
class SyntaxErrorLocator : public nlohmann::json_sax<Json> {
 public:
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return true; }
  bool key(string_t&) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t position, const std::string& token,
                   const Json::exception& error) override {
    // Overflow (406) is reported behind the number; everything else at the last character read.
    offset = error.id == 406 ? position - token.size() : position - 1;
    message = error.what();
    message.erase(0, message.find("] ") + 2);  // "[json.exception.parse_error.101] "
    const std::string located = "parse error at line ";
    if (message.compare(0, located.size(), located) == 0) message.erase(0, message.find(": ") + 2);
    return false;
  }

  std::size_t offset = 0;
  std::string message;
};

Json parse_json(const std::string& text, const std::string& file_name) {
  try {
    return Json::parse(text);
  } catch (const Json::exception&) {
    SyntaxErrorLocator locator;
    Json::sax_parse(text, &locator);
    const TextPosition at = LineIndex(text).at(locator.offset);
    throw InputError(file_name, at.line, at.column, locator.message);
  }
}

// ---- writing ---------------------------------------------------------------------------

Json to_json(const Vec3& v) { return Json::array({v.x(), v.y(), v.z()}); }
Json to_json(const Quat& q) { return Json::array({q.w(), q.x(), q.y(), q.z()}); }

Json shape_json(const Box& s) {
  return {{"type", "box"}, {"half_extents", to_json(s.half_extents_m)}};
}
Json shape_json(const Sphere& s) { return {{"type", "sphere"}, {"radius", s.radius_m}}; }
Json shape_json(const Cylinder& s) {
  return {{"type", "cylinder"}, {"radius", s.radius_m}, {"half_length", s.half_length_m}};
}
Json shape_json(const Capsule& s) {
  return {{"type", "capsule"}, {"radius", s.radius_m}, {"half_length", s.half_length_m}};
}
Json shape_json(const ConvexMesh& s) {
  Json vertices = Json::array();
  for (const Vec3& v : s.vertices) vertices.push_back(to_json(v));
  return {{"type", "convex"}, {"vertices", vertices}};
}
Json shape_json(const HalfSpace& s) {
  return {{"type", "half_space"}, {"normal", to_json(s.normal)}, {"offset", s.offset_m}};
}
Json shape_json(const Compound& s) {
  Json pieces = Json::array();
  for (const CompoundPiece& piece : s.pieces) {
    pieces.push_back(
        {{"shape", std::visit([](const auto& p) { return shape_json(p); }, piece.shape)},
         {"position", to_json(piece.local.position)},
         {"orientation", to_json(piece.local.orientation)}});
  }
  return {{"type", "compound"}, {"pieces", pieces}};
}

// One line: {"a": 1, "b": [1, 2]}.
std::string inline_json(const Json& j) {
  if (!j.is_structured()) return j.dump();
  std::string out = j.is_object() ? "{" : "[";
  bool first = true;
  for (auto it = j.begin(); it != j.end(); ++it) {
    out += first ? "" : ", ";
    if (j.is_object()) out += Json(it.key()).dump() + ": ";
    out += inline_json(*it);
    first = false;
  }
  return out + (j.is_object() ? "}" : "]");
}

// Like nlohmann's dump(2), but anything that fits in the rest of a 100-column line (a
// vector, a matrix row, a material, a small shape) stays on one line. column: where the
// value starts.
constexpr std::size_t kLineWidth = 100;
void write_json(const Json& j, std::size_t indent, std::size_t column, std::string* out) {
  const std::string flat = inline_json(j);
  if (!j.is_structured() || j.empty() || column + flat.size() <= kLineWidth) {
    *out += flat;
    return;
  }
  const std::string pad(indent + 2, ' ');
  *out += j.is_object() ? "{\n" : "[\n";
  std::size_t k = 0;
  for (auto it = j.begin(); it != j.end(); ++it) {
    std::string head = pad;
    if (j.is_object()) head += Json(it.key()).dump() + ": ";
    *out += head;
    write_json(*it, indent + 2, head.size(), out);
    *out += ++k < j.size() ? ",\n" : "\n";
  }
  *out += std::string(indent, ' ') + (j.is_object() ? "}" : "]");
}

}  // namespace

LoadedScene parse_scene(const std::string& json_text, const std::string& file_name) {
  const Json root = parse_json(json_text, file_name);
  Document doc(json_text, file_name);
  LoadedScene loaded;
  loaded.scene = SceneReader(&doc).read(root);
  loaded.warnings = std::move(doc.warnings());
  return loaded;
}

LoadedScene read_scene_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, 0, 0, std::string("cannot open: ") + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  return parse_scene(text.str(), path);
}

Json settings_to_json(const SceneSettings& s) {
  Json settings = {{"gravity", to_json(s.gravity_mps2)},
                   {"time_step", s.time_step_s},
                   {"friction_directions", s.friction_directions},
                   {"solver", to_string(s.solver)},
                   {"nonconvex", to_string(s.nonconvex)},
                   {"penetration_recovery_speed", s.penetration_recovery_speed_mps}};
  if (s.friction_override) settings["friction_override"] = *s.friction_override;
  if (s.contact_margin_m) settings["contact_margin"] = *s.contact_margin_m;
  return settings;
}

Json materials_to_json(const std::vector<Material>& materials) {
  Json j = Json::array();
  for (const Material& m : materials) j.push_back({{"name", m.name}, {"friction", m.friction}});
  return j;
}

std::string scene_to_json(const Scene& scene) {
  Json j;
  j["version"] = kFormatVersion;
  if (!scene.description.empty()) j["description"] = scene.description;
  j["settings"] = settings_to_json(scene.settings);
  j["materials"] = materials_to_json(scene.materials);
  j["bodies"] = Json::array();
  for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
    const Body& body = scene.bodies[i];
    const BodyState& state = scene.initial_states.at(i);
    Json b = {
        {"name", body.name},
        {"shape", std::visit([](const auto& shape) { return shape_json(shape); }, body.shape)},
        {"material", scene.materials.at(static_cast<std::size_t>(body.material)).name}};
    if (body.fixed) {
      b["fixed"] = true;
    } else {
      b["mass"] = body.mass_kg;
      const Mat3 I = 0.5 * (body.inertia_body_kgm2 + body.inertia_body_kgm2.transpose());
      b["inertia"] =
          Json::array({to_json(Vec3(I.row(0))), to_json(Vec3(I.row(1))), to_json(Vec3(I.row(2)))});
    }
    b["position"] = to_json(state.pose.position);
    b["orientation"] = to_json(state.pose.orientation);
    if (!body.fixed && !state.twist.linear.isZero(0.0))
      b["linear_velocity"] = to_json(state.twist.linear);
    if (!body.fixed && !state.twist.angular.isZero(0.0))
      b["angular_velocity"] = to_json(state.twist.angular);
    j["bodies"].push_back(b);
  }
  if (!scene.wrenches.empty()) {
    j["wrenches"] = Json::array();
    for (const ExternalWrench& w : scene.wrenches) {
      Json wj = {{"body", scene.bodies.at(static_cast<std::size_t>(w.body)).name},
                 {"force", to_json(w.force_n)},
                 {"torque", to_json(w.torque_nm)},
                 {"point", to_json(w.point_m)},
                 {"t0", w.t0_s}};
      if (std::isfinite(w.t1_s)) wj["t1"] = w.t1_s;
      j["wrenches"].push_back(wj);
    }
  }
  if (scene.camera) {
    j["camera"] = {{"eye", to_json(scene.camera->eye_m)},
                   {"target", to_json(scene.camera->target_m)},
                   {"up", to_json(scene.camera->up)}};
  }
  std::string out;
  write_json(j, 0, 0, &out);
  return out + "\n";
}

void write_scene_file(const Scene& scene, const std::string& path) {
  const std::string text = scene_to_json(scene);
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out) {
      std::remove(temporary.c_str());
      throw std::runtime_error("cannot write scene file " + path + ": " + std::strerror(errno));
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    std::remove(temporary.c_str());
    throw std::runtime_error("cannot write scene file " + path + ": " + reason);
  }
}

}  // namespace pivot
