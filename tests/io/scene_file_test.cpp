#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "pivot/error.hpp"
#include "pivot/geometry.hpp"
#include "pivot/scene.hpp"
#include "support/shipped_scene.hpp"

namespace pivot {
namespace {

LoadedScene load(const std::string& text) { return parse_scene(text, "s.json"); }

// "line:column" of the first occurrence of needle, counted independently of the reader
// (the texts here are ASCII).
std::string at(const std::string& text, const std::string& needle) {
  const std::size_t offset = text.find(needle);
  EXPECT_NE(offset, std::string::npos) << needle;
  const std::size_t line_start =
      text.rfind('\n', offset) == std::string::npos ? 0 : text.rfind('\n', offset) + 1;
  const long line = 1 + std::count(text.begin(), text.begin() + static_cast<long>(offset), '\n');
  return std::to_string(line) + ":" + std::to_string(offset - line_start + 1);
}

void expect_error(const std::string& text, const std::string& message) {
  try {
    load(text);
    ADD_FAILURE() << "no error, expected: " << message;
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), message);
  }
}

// A one-body scene with `body` spliced into the body object after its name and shape.
std::string with_body(const std::string& extra,
                      const std::string& shape = R"({"type": "box", "half_extents": [1, 1, 1]})") {
  return "{\"bodies\": [\n  {\"name\": \"peg\", \"shape\": " + shape + extra + "}\n]}\n";
}

TEST(SceneFile, MinimalSceneGetsDocumentedDefaults) {
  const LoadedScene loaded = load(with_body(""));
  const Scene& scene = loaded.scene;
  EXPECT_TRUE(loaded.warnings.empty());
  ASSERT_EQ(scene.bodies.size(), 1u);
  const Body& peg = scene.bodies[0];
  EXPECT_EQ(peg.name, "peg");
  EXPECT_FALSE(peg.fixed);
  // Density 1000 kg/m^3 on a 2 m cube: 8000 kg, m (2^2 + 2^2) / 12 about each axis.
  EXPECT_DOUBLE_EQ(peg.mass_kg, 8000.0);
  EXPECT_TRUE(peg.inertia_body_kgm2.isApprox(Mat3::Identity() * 8000.0 * 8.0 / 12.0, 1e-14));
  ASSERT_EQ(scene.materials.size(), 1u);
  EXPECT_EQ(scene.materials[0].name, "default");
  EXPECT_EQ(scene.materials[0].friction, 0.5);
  EXPECT_EQ(peg.material, 0);
  EXPECT_EQ(scene.initial_states[0].pose.position, Vec3::Zero());
  EXPECT_TRUE(scene.initial_states[0].pose.orientation.isApprox(Quat::Identity(), 0.0));
  EXPECT_EQ(scene.settings.gravity_mps2, Vec3(0, 0, -9.81));
  EXPECT_EQ(scene.settings.time_step_s, 0.01);
  EXPECT_EQ(scene.settings.friction_directions, 4);
  EXPECT_EQ(scene.settings.solver, LcpMethod::Reduced);
  EXPECT_EQ(scene.settings.nonconvex, NonconvexFormulation::Max);
  EXPECT_FALSE(scene.settings.contact_margin_m.has_value());
  EXPECT_FALSE(scene.settings.friction_override.has_value());
  EXPECT_FALSE(scene.camera.has_value());
  EXPECT_TRUE(scene.wrenches.empty());
  // Naming "default" is the same as naming nothing.
  const Scene named = load(with_body(R"(, "material": "default")")).scene;
  ASSERT_EQ(named.materials.size(), 1u);
  EXPECT_EQ(named.materials[0].friction, 0.5);
}

TEST(SceneFile, ReadsSettingsMaterialsAndState) {
  const LoadedScene loaded = load(R"({
  "version": 1,
  "description": "two bodies",
  "settings": {"gravity": [0, -9.8, 0], "time_step": 0.002, "friction_directions": 8,
               "solver": "structural", "nonconvex": "sum", "contact_margin": 0.004,
               "friction_override": 0.3},
  "materials": [{"name": "steel", "friction": 0.3}, {"name": "ice", "friction": 0}],
  "bodies": [
    {"name": "ground", "shape": {"type": "half_space", "normal": [0, 1, 0], "offset": -1}, "fixed": true,
     "material": "steel"},
    {"name": "puck", "shape": {"type": "cylinder", "radius": 0.1, "half_length": 0.02}, "material": "ice",
     "mass": 2, "position": [1, 2, 3], "orientation": [0, 1, 0, 0],
     "linear_velocity": [4, 0, 0], "angular_velocity": [0, 0, 5]}
  ]
})");
  const Scene& scene = loaded.scene;
  EXPECT_TRUE(loaded.warnings.empty());
  EXPECT_EQ(scene.description, "two bodies");
  EXPECT_EQ(scene.settings.gravity_mps2, Vec3(0, -9.8, 0));
  EXPECT_EQ(scene.settings.time_step_s, 0.002);
  EXPECT_EQ(scene.settings.friction_directions, 8);
  EXPECT_EQ(scene.settings.solver, LcpMethod::Structural);
  EXPECT_EQ(scene.settings.nonconvex, NonconvexFormulation::Sum);
  EXPECT_EQ(*scene.settings.contact_margin_m, 0.004);
  EXPECT_EQ(contact_margin_m(scene), 0.004);
  EXPECT_EQ(scene.settings.friction_override, 0.3);  // the double 0.3, not a float near it
  // Written and read back, the override stays (a saved scene keeps the viewer's global mu).
  EXPECT_EQ(parse_scene(scene_to_json(scene), "again.json").scene.settings.friction_override, 0.3);
  ASSERT_EQ(scene.materials.size(), 2u);  // no implicit "default": every body names one
  EXPECT_EQ(scene.materials[1].name, "ice");
  EXPECT_EQ(scene.materials[1].friction, 0.0);

  const Body& ground = scene.bodies[0];
  EXPECT_TRUE(ground.fixed);
  EXPECT_EQ(ground.mass_kg, 0.0);
  EXPECT_EQ(ground.material, 0);
  const HalfSpace& plane = std::get<HalfSpace>(ground.shape);
  EXPECT_EQ(plane.normal, Vec3(0, 1, 0));
  EXPECT_EQ(plane.offset_m, -1.0);

  const Body& puck = scene.bodies[1];
  EXPECT_EQ(puck.material, 1);
  // "mass" alone: the shape's inertia scaled to 2 kg.
  const double r = 0.1, h = 0.02;
  EXPECT_EQ(puck.mass_kg, 2.0);
  EXPECT_NEAR(puck.inertia_body_kgm2(2, 2), 2.0 * r * r / 2, 1e-15);
  EXPECT_NEAR(puck.inertia_body_kgm2(0, 0), 2.0 * (3 * r * r + 4 * h * h) / 12, 1e-15);
  const BodyState& state = scene.initial_states[1];
  EXPECT_EQ(state.pose.position, Vec3(1, 2, 3));
  EXPECT_TRUE(state.pose.orientation.isApprox(Quat(0, 1, 0, 0), 0.0));
  EXPECT_EQ(state.twist.linear, Vec3(4, 0, 0));
  EXPECT_EQ(state.twist.angular, Vec3(0, 0, 5));
}

TEST(SceneFile, ReadsEveryShapeType) {
  const Scene scene = load(R"({"bodies": [
    {"name": "a", "shape": {"type": "sphere", "radius": 0.5}},
    {"name": "b", "shape": {"type": "capsule", "radius": 0.1, "half_length": 0.3}},
    {"name": "c", "shape": {"type": "convex", "vertices": [[-1, -1, -1], [1, -1, -1], [-1, 1, -1], [1, 1, -1],
                                                          [-1, -1, 1], [1, -1, 1], [-1, 1, 1], [1, 1, 1], [0, 0, 0]]}},
    {"name": "d", "shape": {"type": "compound", "pieces": [
      {"shape": {"type": "box", "half_extents": [0.5, 0.5, 0.5]}, "position": [-0.5, 0, 0]},
      {"shape": {"type": "cylinder", "radius": 0.5, "half_length": 0.5}, "position": [0.5, 0, 0],
       "orientation": [1, 0, 0, 0]}]}}
  ]})")
                          .scene;
  EXPECT_EQ(std::get<Sphere>(scene.bodies[0].shape).radius_m, 0.5);
  EXPECT_EQ(std::get<Capsule>(scene.bodies[1].shape).half_length_m, 0.3);
  const ConvexMesh& mesh = std::get<ConvexMesh>(scene.bodies[2].shape);
  EXPECT_EQ(mesh.vertices.size(), 8u);  // the centre point is not on the hull
  EXPECT_EQ(mesh.faces.size(), 6u);
  const Compound& compound = std::get<Compound>(scene.bodies[3].shape);
  ASSERT_EQ(compound.pieces.size(), 2u);
  EXPECT_TRUE(std::holds_alternative<Box>(compound.pieces[0].shape));
  EXPECT_TRUE(std::holds_alternative<Cylinder>(compound.pieces[1].shape));
}

TEST(SceneFile, ExplicitInertiaIsKeptAsGiven) {
  const Scene diagonal = load(with_body(R"(, "mass": 3, "inertia": [1, 2, 2.5])")).scene;
  EXPECT_EQ(diagonal.bodies[0].mass_kg, 3.0);
  EXPECT_EQ(diagonal.bodies[0].inertia_body_kgm2, Mat3(Vec3(1, 2, 2.5).asDiagonal()));
  const Scene full =
      load(with_body(R"(, "mass": 3, "inertia": [[2, 0.1, 0], [0.1, 2, 0], [0, 0, 3]])")).scene;
  Mat3 I;
  I << 2, 0.1, 0, 0.1, 2, 0, 0, 0, 3;
  EXPECT_EQ(full.bodies[0].inertia_body_kgm2, I);
  // Explicit mass properties: the body origin is taken as the centre of mass, so an
  // off-centre shape is not moved.
  const Scene kept =
      load(with_body(
               R"(, "mass": 1, "inertia": [1, 1, 1], "position": [0, 0, 1])",
               R"({"type": "convex", "vertices": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]})"))
          .scene;
  EXPECT_EQ(std::get<ConvexMesh>(kept.bodies[0].shape).vertices[0], Vec3::Zero());
  EXPECT_EQ(kept.initial_states[0].pose.position, Vec3(0, 0, 1));
}

TEST(SceneFile, CompoundBodyMovesToItsCentreOfMassKeepingWorldPlacement) {
  // Two unequal boxes: the centre of mass is off the written origin. After loading, the
  // body origin is the centre of mass and every piece is where the file put it in the world.
  const std::string text = R"({"bodies": [{"name": "hammer", "position": [1, 2, 3],
    "orientation": [0.8775825618903728, 0, 0, 0.479425538604203],
    "shape": {"type": "compound", "pieces": [
      {"shape": {"type": "box", "half_extents": [0.1, 0.1, 0.1]}, "position": [0, 0, 0]},
      {"shape": {"type": "box", "half_extents": [0.3, 0.3, 0.3]}, "position": [1, 0, 0]}]}}],
    "wrenches": [{"body": "hammer", "force": [0, 0, 1], "point": [1, 0, 0]}]})";
  const Scene scene = load(text).scene;
  const Body& body = scene.bodies[0];
  const Pose& pose = scene.initial_states[0].pose;
  const Quat written(0.8775825618903728, 0, 0, 0.479425538604203);
  const Compound& compound = std::get<Compound>(body.shape);
  // Masses 8 kg and 216 kg at x = 0 and 1: centre at x = 216 / 224.
  const double c = 216.0 / 224.0;
  EXPECT_NEAR(compound.pieces[0].local.position.x(), -c, 1e-15);
  EXPECT_NEAR(compound.pieces[1].local.position.x(), 1 - c, 1e-15);
  EXPECT_LT((pose.position - (Vec3(1, 2, 3) + written * Vec3(c, 0, 0))).norm(), 1e-15);
  for (int k = 0; k < 2; ++k) {
    const Vec3 world = pose.to_world(compound.pieces[static_cast<std::size_t>(k)].local.position);
    EXPECT_LT((world - (Vec3(1, 2, 3) + written * Vec3(k, 0, 0))).norm(), 1e-15);
  }
  EXPECT_LT(compute_mass_properties(body.shape, 1.0).center_of_mass_m.norm(), 1e-15);
  // The wrench point was written in the same frame as the pieces: it moves with them.
  EXPECT_NEAR(scene.wrenches[0].point_m.x(), 1 - c, 1e-15);
}

TEST(SceneFile, ConvexBodyMovesToItsCentroid) {
  const Scene scene =
      load(with_body(
               R"(, "position": [0, 0, 1])",
               R"({"type": "convex", "vertices": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]})"))
          .scene;
  const ConvexMesh& mesh = std::get<ConvexMesh>(scene.bodies[0].shape);
  EXPECT_LT((mesh.vertices[0] - Vec3(-0.25, -0.25, -0.25)).norm(), 1e-15);
  EXPECT_LT((scene.initial_states[0].pose.position - Vec3(0.25, 0.25, 1.25)).norm(), 1e-15);
}

TEST(SceneFile, FixedBodyHasNoMassAndWarnsAboutIgnoredKeys) {
  const std::string text =
      with_body(R"(, "fixed": true, "density": 5, "linear_velocity": [1, 0, 0])");
  const LoadedScene loaded = load(text);
  EXPECT_EQ(loaded.scene.bodies[0].mass_kg, 0.0);
  EXPECT_EQ(loaded.scene.bodies[0].inertia_body_kgm2, Mat3::Zero());
  EXPECT_EQ(loaded.scene.initial_states[0].twist.linear, Vec3::Zero());
  ASSERT_EQ(loaded.warnings.size(), 2u);
  EXPECT_EQ(loaded.warnings[0], "s.json:" + at(text, "\"density\"") +
                                    ": 'density' in body 'peg' is ignored: the body is fixed");
  EXPECT_EQ(loaded.warnings[1],
            "s.json:" + at(text, "\"linear_velocity\"") +
                ": 'linear_velocity' in body 'peg' is ignored: the body is fixed");
}

TEST(SceneFile, NonUnitQuaternionAndNormalAreNormalisedWithWarning) {
  const std::string text = R"({"bodies": [
  {"name": "tilted", "shape": {"type": "sphere", "radius": 1}, "orientation": [2, 0, 0, 0]},
  {"name": "ground", "fixed": true, "shape": {"type": "half_space", "normal": [0, 0, 0.5]}}]})";
  const LoadedScene loaded = load(text);
  EXPECT_TRUE(loaded.scene.initial_states[0].pose.orientation.isApprox(Quat::Identity(), 0.0));
  EXPECT_EQ(std::get<HalfSpace>(loaded.scene.bodies[1].shape).normal, Vec3::UnitZ());
  ASSERT_EQ(loaded.warnings.size(), 2u);
  EXPECT_EQ(loaded.warnings[0],
            "s.json:2:79: 'orientation' in body 'tilted' has norm 2; normalised");
  EXPECT_EQ(
      loaded.warnings[1],
      "s.json:3:79: 'normal' in half_space shape of body 'ground' has length 0.5; normalised");
  // Rounding of a unit quaternion written to 9 digits is below the warning threshold.
  EXPECT_TRUE(
      load(with_body(R"(, "orientation": [0.707106781, 0, 0, 0.707106781])")).warnings.empty());
}

TEST(SceneFile, HugeQuaternionAndNormalAreNormalisedNotZeroed) {
  // Squared, 6e307 overflows: q / |q| was the zero quaternion, which the writer wrote and
  // no reader takes (scene_file fuzz, the orientation of a body of a bin pile scene).
  const std::string text = R"({"bodies": [
  {"name": "tilted", "shape": {"type": "sphere", "radius": 1}, "orientation": [0.23, -6e307, -0.58, 0.45]},
  {"name": "ground", "fixed": true, "shape": {"type": "half_space", "normal": [0, 0, 1e308]}}]})";
  const LoadedScene loaded = load(text);
  EXPECT_TRUE(loaded.scene.initial_states[0].pose.orientation.isApprox(Quat(0, -1, 0, 0), 1e-15));
  // stableNorm scales before it squares: the quotient is 1 within round-off, not exactly.
  EXPECT_TRUE(
      std::get<HalfSpace>(loaded.scene.bodies[1].shape).normal.isApprox(Vec3::UnitZ(), 1e-15));
  const LoadedScene again = parse_scene(scene_to_json(loaded.scene), "rewritten.json");
  EXPECT_TRUE(again.scene.initial_states[0].pose.orientation.isApprox(Quat(0, -1, 0, 0), 1e-15));
}

TEST(SceneFile, CameraOrbitHintGivesTheViewersEye) {
  const Scene scene =
      load(
          R"({"bodies": [], "camera": {"target": [0, 0, 1], "yaw_deg": 90, "pitch_deg": 30, "distance": 2}})")
          .scene;
  ASSERT_TRUE(scene.camera.has_value());
  // Yaw about z from the x axis, pitch above the horizontal, as the viewer's orbit camera.
  EXPECT_LT((scene.camera->eye_m - Vec3(0, 2 * std::sqrt(3.0) / 2, 1 + 2 * 0.5)).norm(), 1e-15);
  EXPECT_EQ(scene.camera->up, Vec3::UnitZ());
}

TEST(SceneFile, DefaultContactMarginFloorIsHowFarARestingBodyFallsInOneStep) {
  // |g| h^2, whatever the bodies' velocities: those are the stepper's per-step reach.
  const Scene scene = load(R"({"settings": {"time_step": 0.01, "gravity": [0, 0, -10]}, "bodies": [
    {"name": "a", "shape": {"type": "sphere", "radius": 0.5}, "linear_velocity": [0, 1, 0], "angular_velocity": [4, 0, 0]}]})")
                          .scene;
  EXPECT_NEAR(contact_margin_m(scene), 10 * 0.01 * 0.01, 1e-15);
  EXPECT_EQ(scene.settings.penetration_recovery_speed_mps, 0.5);
}

TEST(SceneFile, PenetrationRecoverySpeedIsReadCheckedAndWritten) {
  const Scene scene =
      load(R"({"settings": {"penetration_recovery_speed": 0.3}, "bodies": []})").scene;
  EXPECT_EQ(scene.settings.penetration_recovery_speed_mps, 0.3);
  EXPECT_EQ(
      parse_scene(scene_to_json(scene), "w.json").scene.settings.penetration_recovery_speed_mps,
      0.3);
  expect_error(R"({"settings": {"penetration_recovery_speed": 0}, "bodies": []})",
               "s.json:1:45: 'penetration_recovery_speed' in settings must be positive, found 0");
}

TEST(SceneFile, FrictionOverrideMustNotBeNegative) {
  expect_error(R"({"settings": {"friction_override": -0.1}, "bodies": []})",
               "s.json:1:36: 'friction_override' in settings must not be negative, found -0.1");
}

TEST(SceneFile, SyntaxErrorsGiveLineAndColumn) {
  expect_error("{\"bodies\": [],\n}",
               "s.json:2:1: syntax error while parsing object key - unexpected '}'; expected "
               "string literal");
  expect_error("{\"bodies\": [\n  {\"name\": }\n]}",
               "s.json:2:12: syntax error while parsing value - unexpected '}'; expected '[', '{', "
               "or a literal");
  expect_error("",
               "s.json:1:1: syntax error while parsing value - unexpected end of input; expected "
               "'[', '{', or a literal");
  expect_error("{\"bodies\": [],\n \"settings\": {\"time_step\": 1e400}}",
               "s.json:2:28: number overflow parsing '1e400'");
  expect_error("[1, 2]", "s.json:1:1: a scene file holds one JSON object, found an array");
}

TEST(SceneFile, UnknownKeysAreErrorsListingTheExpectedOnes) {
  const std::string body = with_body(R"(, "frction": 0.1)");
  expect_error(body,
               "s.json:" + at(body, "\"frction\"") +
                   ": unknown key 'frction' in body 'peg' (expected one of: name, shape, material, "
                   "fixed, density, "
                   "mass, inertia, position, orientation, linear_velocity, angular_velocity)");
  const std::string shape = with_body("", R"({"type": "box", "radius": 1})");
  expect_error(shape, "s.json:" + at(shape, "\"radius\"") +
                          ": unknown key 'radius' in box shape of body 'peg' (expected one of: "
                          "type, half_extents)");
  const std::string settings = R"({"bodies": [], "settings": {"timestep": 0.1}})";
  expect_error(
      settings,
      "s.json:1:29: unknown key 'timestep' in settings (expected one of: gravity, time_step, "
      "friction_directions, solver, nonconvex, friction_override, contact_margin, "
      "penetration_recovery_speed)");
  const std::string top = R"({"bodies": [], "setings": {}})";
  expect_error(top,
               "s.json:1:16: unknown key 'setings' in the scene (expected one of: $schema, "
               "version, description, "
               "settings, materials, bodies, wrenches, camera)");
  const std::string twice = with_body(R"(, "mass": 1, "mass": 2)");
  expect_error(twice,
               "s.json:" + at(twice, "\"mass\": 2") + ": duplicate key 'mass' in body 'peg'");
}

TEST(SceneFile, TypeErrorsNameTheKeyAndWhatWasFound) {
  const std::string mass = with_body(R"(, "mass": "heavy")");
  expect_error(
      mass, "s.json:" + at(mass, "\"heavy\"") + ": expected a number for 'mass', found a string");
  const std::string element = with_body(R"(, "position": [0, "1", 0])");
  expect_error(element, "s.json:" + at(element, "\"1\"") +
                            ": expected a number for 'position[1]', found a string");
  const std::string length = with_body(R"(, "position": [0, 1])");
  expect_error(length,
               "s.json:" + at(length, "[0, 1]") + ": expected 3 numbers for 'position', found 2");
  const std::string vector = with_body(R"(, "position": {"x": 1})");
  expect_error(vector, "s.json:" + at(vector, "{\"x\"") +
                           ": expected an array of 3 numbers for 'position', found an object");
  const std::string fixed = with_body(R"(, "fixed": "yes")");
  expect_error(fixed, "s.json:" + at(fixed, "\"yes\"") +
                          ": expected true or false for 'fixed', found a string");
  const std::string shape = with_body("", "null");
  expect_error(shape,
               "s.json:" + at(shape, "null") + ": expected an object for 'shape', found null");
  const std::string bodies = R"({"bodies": {}})";
  expect_error(bodies, "s.json:1:12: expected an array for 'bodies', found an object");
  const std::string d = R"({"bodies": [], "settings": {"friction_directions": 4.5}})";
  expect_error(d, "s.json:1:52: expected an integer for 'friction_directions', found 4.5");
  const std::string inertia = with_body(R"(, "mass": 1, "inertia": [1, 2])");
  expect_error(inertia,
               "s.json:" + at(inertia, "[1, 2]") +
                   ": expected 3 numbers or 3 rows of 3 numbers for 'inertia', found 2 entries");
}

TEST(SceneFile, RangeErrorsSayTheRuleAndTheValue) {
  const std::string mass = with_body(R"(, "mass": -2)");
  expect_error(mass,
               "s.json:" + at(mass, "-2") + ": 'mass' in body 'peg' must be positive, found -2");
  const std::string zero = with_body("", R"({"type": "box", "half_extents": [1, 0, 1]})");
  expect_error(zero,
               "s.json:" + at(zero, "0, 1]") +
                   ": 'half_extents[1]' in box shape of body 'peg' must be positive, found 0");
  const std::string radius = with_body("", R"({"type": "sphere", "radius": -0.5})");
  expect_error(radius, "s.json:" + at(radius, "-0.5") +
                           ": 'radius' in sphere shape of body 'peg' must be positive, found -0.5");
  const std::string density = with_body(R"(, "density": 0)");
  expect_error(density, "s.json:" + at(density, "0}") +
                            ": 'density' in body 'peg' must be positive, found 0");
  expect_error(R"({"bodies": [], "settings": {"time_step": 0}})",
               "s.json:1:42: 'time_step' in settings must be positive, found 0");
  expect_error(R"({"bodies": [], "settings": {"friction_directions": 1}})",
               "s.json:1:52: 'friction_directions' in settings must be at least 2, found 1");
  expect_error(R"({"bodies": [], "materials": [{"name": "ice", "friction": -0.1}]})",
               "s.json:1:58: 'friction' in material 'ice' must not be negative, found -0.1");
  expect_error(R"({"bodies": [], "version": 2})",
               "s.json:1:27: unsupported scene version 2 (this pivot reads version 1)");
  expect_error(R"({"bodies": [], "settings": {"friction_directions": 5000}})",
               "s.json:1:52: 'friction_directions' in settings must be at most 256, found 5000");
  // A size whose volume overflows to infinity: the computed mass is caught, not stored.
  const std::string huge =
      with_body("", R"({"type": "box", "half_extents": [1e200, 1e200, 1e200]})");
  expect_error(huge,
               "s.json:" + at(huge, "{\"type\"") +
                   ": the mass properties of body 'peg' computed from its shape are not usable "
                   "(mass inf kg): check the shape's size and the density");
  const std::string quaternion = with_body(R"(, "orientation": [0, 0, 0, 0])");
  expect_error(
      quaternion,
      "s.json:" + at(quaternion, "[0, 0, 0, 0]") +
          ": 'orientation' in body 'peg' must be a unit quaternion [w, x, y, z], found [0,0,0,0]");
}

TEST(SceneFile, InconsistentBodiesAreRejected) {
  const std::string text = R"({"bodies": [
  {"name": "peg", "shape": {"type": "sphere", "radius": 1}},
  {"name": "peg", "shape": {"type": "sphere", "radius": 1}}]})";
  expect_error(text, "s.json:3:12: duplicate body name 'peg' (first defined at line 2, column 12)");
  expect_error(with_body(R"(, "material": "stel")"),
               "s.json:2:84: unknown material 'stel' in body 'peg' (no materials defined)");
  expect_error(
      R"({"materials": [{"name": "steel", "friction": 0.3}, {"name": "rubber", "friction": 1}],
  "bodies": [{"name": "peg", "shape": {"type": "sphere", "radius": 1}, "material": "stel"}]})",
      "s.json:2:84: unknown material 'stel' in body 'peg' (defined: steel, rubber)");
  expect_error(
      R"({"bodies": [], "materials": [{"name": "a", "friction": 1}, {"name": "a", "friction": 2}]})",
      "s.json:1:69: duplicate material name 'a'");
  const std::string plane = with_body("", R"({"type": "half_space", "normal": [0, 0, 1]})");
  expect_error(
      plane, "s.json:2:28: body 'peg' has a half_space shape and must be fixed (\"fixed\": true)");
  const std::string both = with_body(R"(, "density": 2, "mass": 1)");
  expect_error(both, "s.json:" + at(both, "\"mass\"") +
                         ": 'mass' and 'density' in body 'peg' conflict: give one of them");
  const std::string inertia = with_body(R"(, "inertia": [1, 1, 1])");
  expect_error(inertia,
               "s.json:" + at(inertia, "\"inertia\"") + ": 'inertia' in body 'peg' needs 'mass'");
  expect_error(R"({"bodies": [{"shape": {"type": "sphere", "radius": 1}}]})",
               "s.json:1:13: missing key 'name' in bodies[0]");
  expect_error(R"({"bodies": [{"name": "x"}]})", "s.json:1:13: missing key 'shape' in body 'x'");
  expect_error(R"({"settings": {}})", "s.json:1:1: missing key 'bodies' in the scene");
}

TEST(SceneFile, NonPhysicalInertiaIsRejected) {
  const std::string negative = with_body(R"(, "mass": 1, "inertia": [1, -1, 1])");
  expect_error(
      negative,
      "s.json:" + at(negative, "[1, -1, 1]") +
          ": 'inertia' in body 'peg' is not positive definite (principal moments -1, 1, 1)");
  const std::string skew =
      with_body(R"(, "mass": 1, "inertia": [[1, 0.5, 0], [0, 1, 0], [0, 0, 1]])");
  expect_error(skew, "s.json:" + at(skew, "[[") + ": 'inertia' in body 'peg' is not symmetric");
  const std::string triangle = with_body(R"(, "mass": 1, "inertia": [1, 1, 3])");
  expect_error(triangle, "s.json:" + at(triangle, "[1, 1, 3]") +
                             ": 'inertia' in body 'peg' violates the triangle inequality "
                             "(principal moments 1, 1, 3): no "
                             "rigid body has it");
}

TEST(SceneFile, DegenerateAndUnknownShapesAreRejected) {
  const std::string flat = with_body(
      "", R"({"type": "convex", "vertices": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]]})");
  expect_error(flat, "s.json:" + at(flat, "[[") +
                         ": 'vertices' in convex shape of body 'peg': points are coplanar: the "
                         "hull has no volume");
  const std::string cube = with_body("", R"({"type": "cube"})");
  expect_error(
      cube,
      "s.json:" + at(cube, "\"cube\"") +
          ": unknown shape type 'cube' (expected one of: box, sphere, cylinder, capsule, convex, "
          "half_space, compound)");
  const std::string piece =
      with_body("", R"({"type": "compound", "pieces": [{"shape": {"type": "half_space"}}]})");
  expect_error(
      piece,
      "s.json:" + at(piece, "\"half_space\"") +
          ": unknown shape type 'half_space' for a compound piece (expected one of: box, sphere, "
          "cylinder, capsule, convex)");
  const std::string empty = with_body("", R"({"type": "compound", "pieces": []})");
  expect_error(empty, "s.json:" + at(empty, "[]") +
                          ": 'pieces' in compound shape of body 'peg' must not be empty, found []");
  const std::string piece_key = with_body(
      "",
      R"({"type": "compound", "pieces": [{"shape": {"type": "sphere", "radius": 1}, "rotation": [1, 0, 0, 0]}]})");
  expect_error(
      piece_key,
      "s.json:" + at(piece_key, "\"rotation\"") +
          ": unknown key 'rotation' in pieces[0] of body 'peg' (expected one of: shape, position, "
          "orientation)");
  const std::string normal =
      R"({"bodies": [{"name": "g", "fixed": true, "shape": {"type": "half_space", "normal": [0, 0, 0]}}]})";
  expect_error(
      normal,
      "s.json:1:84: 'normal' in half_space shape of body 'g' must not be zero, found [0,0,0]");
}

TEST(SceneFile, SettingsNamesAndWrenchesAreChecked) {
  expect_error(
      R"({"bodies": [], "settings": {"solver": "lemke"}})",
      "s.json:1:39: unknown solver 'lemke' (expected one of: standard, structural, reduced)");
  expect_error(R"({"bodies": [], "settings": {"nonconvex": "min"}})",
               "s.json:1:42: unknown nonconvex formulation 'min' (expected one of: max, sum, off)");
  const std::string bodies =
      R"({"bodies": [{"name": "g", "fixed": true, "shape": {"type": "sphere", "radius": 1}},
  {"name": "b", "shape": {"type": "sphere", "radius": 1}}],
  "wrenches": [)";
  expect_error(bodies + R"({"body": "c"}]})", "s.json:3:25: unknown body 'c' in wrenches[0]");
  expect_error(bodies + R"({"body": "g"}]})",
               "s.json:3:25: 'body' in wrenches[0] names fixed body 'g', which cannot move");
  expect_error(bodies + R"({"body": "b", "t0": 1, "t1": 0.5}]})",
               "s.json:3:45: 't1' in wrenches[0] must be greater than 't0' (1), found 0.5");
  expect_error(R"({"bodies": [], "camera": {"eye": [1, 1, 1], "yaw_deg": 10}})",
               "s.json:1:27: 'eye' in camera conflicts with yaw_deg, pitch_deg and distance: give "
               "eye (and up) or the "
               "three of them");
  expect_error(R"({"bodies": [], "camera": {"yaw_deg": 10, "pitch_deg": 90, "distance": 1}})",
               "s.json:1:55: 'pitch_deg' in camera must be between -90 and 90, found 90");
  expect_error(R"({"bodies": [], "camera": {"eye": [0, 0, 5], "up": [0, 0, 2]}})",
               "s.json:1:51: 'up' in camera is parallel to the view direction");
  expect_error(
      R"({"bodies": [], "camera": {"target": [1e308, 0, 0], "yaw_deg": 0, "pitch_deg": 0, "distance": 1e308}})",
      "s.json:1:94: 'distance' in camera puts the eye at infinity, found 1e+308");
}

// Found by the scene_file fuzzer: an orbit camera 1e308 away was read, written as eye, target
// and up, and the written file refused ('up' parallel to the view: |up| |view| overflowed).
TEST(SceneFile, AFarCameraReadsBackAsWritten) {
  const Scene scene =
      load(
          R"({"bodies": [], "camera": {"target": [0.047, -0.307, 0.136], "yaw_deg": 20, "pitch_deg": 35, "distance": 1e308}})")
          .scene;
  ASSERT_TRUE(scene.camera.has_value());
  const Scene again = parse_scene(scene_to_json(scene), "again.json").scene;
  ASSERT_TRUE(again.camera.has_value());
  EXPECT_EQ(again.camera->eye_m, scene.camera->eye_m);
  EXPECT_EQ(again.camera->up, scene.camera->up);
}

TEST(SceneFile, MissingFileIsReportedWithItsPath) {
  try {
    read_scene_file("/nonexistent/scene.json");
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "/nonexistent/scene.json: cannot open: No such file or directory");
  }
}

const char* const kRichScene = R"({
  "description": "every feature once",
  "settings": {"gravity": [0, 0, -9.81], "time_step": 0.005, "friction_directions": 6, "solver": "standard",
               "nonconvex": "off", "contact_margin": 0.01},
  "materials": [{"name": "wood", "friction": 0.4}],
  "bodies": [
    {"name": "ground", "fixed": true, "shape": {"type": "half_space", "normal": [0, 0, 1], "offset": 0}},
    {"name": "frame", "material": "wood", "position": [0.3, 0.1, 0.2],
     "orientation": [0.9238795325112867, 0, 0.3826834323650898, 0],
     "shape": {"type": "compound", "pieces": [
       {"shape": {"type": "box", "half_extents": [0.5, 0.1, 0.1]}, "position": [0, 0.4, 0]},
       {"shape": {"type": "convex", "vertices": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]},
        "position": [0.2, -0.3, 0], "orientation": [0.5, 0.5, 0.5, 0.5]}]},
     "angular_velocity": [0, 0, 1]},
    {"name": "ball", "shape": {"type": "sphere", "radius": 0.1}, "mass": 0.5, "inertia": [0.002, 0.002, 0.002],
     "linear_velocity": [1, 0, 0]},
    {"name": "pin", "shape": {"type": "capsule", "radius": 0.02, "half_length": 0.1}, "density": 7800}
  ],
  "wrenches": [{"body": "frame", "force": [1, 0, 0], "torque": [0, 0.5, 0], "point": [0, 0.4, 0], "t0": 0.5, "t1": 1.5},
               {"body": "ball", "force": [0, 2, 0]}],
  "camera": {"eye": [2, -3, 1.5], "target": [0, 0, 0.2], "up": [0, 0, 1]}
})";

TEST(SceneFile, WrittenSceneReadsBackToTheSameScene) {
  const Scene first = load(kRichScene).scene;
  const std::string text = scene_to_json(first);
  const LoadedScene second = parse_scene(text, "written.json");
  EXPECT_TRUE(second.warnings.empty());
  // The writer prints every double so that it reads back exactly: equal text, equal scene.
  EXPECT_EQ(scene_to_json(second.scene), text);
  // Spot checks that the text carries the scene, not just itself.
  const Scene& s = second.scene;
  ASSERT_EQ(s.bodies.size(), 4u);
  EXPECT_EQ(s.bodies[1].mass_kg, first.bodies[1].mass_kg);
  EXPECT_EQ(s.bodies[1].inertia_body_kgm2, first.bodies[1].inertia_body_kgm2);
  EXPECT_EQ(s.initial_states[1].pose.position, first.initial_states[1].pose.position);
  EXPECT_EQ(s.initial_states[2].twist.linear, Vec3(1, 0, 0));
  EXPECT_EQ(s.settings.nonconvex, NonconvexFormulation::Off);
  EXPECT_EQ(s.settings.solver, LcpMethod::Standard);
  EXPECT_EQ(s.wrenches[0].point_m, first.wrenches[0].point_m);
  EXPECT_EQ(s.wrenches[0].t1_s, 1.5);
  EXPECT_EQ(s.wrenches[1].t1_s, std::numeric_limits<double>::infinity());
  EXPECT_EQ(s.camera->eye_m, Vec3(2, -3, 1.5));
  EXPECT_EQ(
      std::get<ConvexMesh>(std::get<Compound>(s.bodies[1].shape).pieces[1].shape).vertices,
      std::get<ConvexMesh>(std::get<Compound>(first.bodies[1].shape).pieces[1].shape).vertices);
  // Vectors and matrix rows stay on one line.
  EXPECT_NE(text.find("\"gravity\": [0.0, 0.0, -9.81]"), std::string::npos) << text;
}

TEST(SceneFile, WriteSceneFileReplacesTheFileWhole) {
  const std::string path =
      (std::filesystem::temp_directory_path() / "pivot_scene_file_test.json").string();
  const Scene scene = load(kRichScene).scene;
  write_scene_file(scene, path);
  EXPECT_EQ(scene_to_json(read_scene_file(path).scene), scene_to_json(scene));
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
  std::remove(path.c_str());
  EXPECT_THROW(write_scene_file(scene, "/nonexistent/dir/scene.json"), std::runtime_error);
}

TEST(SceneFile, ShippedScenesLoadWithoutWarnings) {
  const std::vector<std::string> files = test::shipped_scene_files();
  for (const std::string& name : files) {
    const LoadedScene loaded = read_scene_file(std::string(PIVOT_SOURCE_DIR) + "/scenes/" + name);
    EXPECT_TRUE(loaded.warnings.empty()) << name << ": " << loaded.warnings.front();
    EXPECT_FALSE(loaded.scene.bodies.empty()) << name;
  }
  EXPECT_GE(files.size(), 3u);
}

TEST(SceneFile, BlockWithHoleIsFourBarsAroundASquareHole) {
  // scenes/block_with_hole.json: a 0.4 x 0.4 x 0.1 m block of density 2700 kg/m^3 with a
  // 0.12 x 0.12 m square hole, as four boxes. Its mass properties are the outer box's
  // minus the hole's, about the centre (the frame is symmetric, so nothing moves).
  const Scene scene =
      read_scene_file(std::string(PIVOT_SOURCE_DIR) + "/scenes/block_with_hole.json").scene;
  const auto block = std::find_if(scene.bodies.begin(), scene.bodies.end(),
                                  [](const Body& b) { return b.name == "block"; });
  ASSERT_NE(block, scene.bodies.end());
  EXPECT_EQ(std::get<Compound>(block->shape).pieces.size(), 4u);
  const MassProperties outer = compute_mass_properties(Box{Vec3(0.2, 0.2, 0.05)}, 2700.0);
  const MassProperties hole = compute_mass_properties(Box{Vec3(0.06, 0.06, 0.05)}, 2700.0);
  EXPECT_NEAR(block->mass_kg, outer.mass_kg - hole.mass_kg, 1e-12 * outer.mass_kg);
  EXPECT_LT((block->inertia_body_kgm2 - (outer.inertia_kgm2 - hole.inertia_kgm2)).norm(),
            1e-12 * outer.inertia_kgm2.norm());
  const std::size_t i = static_cast<std::size_t>(block - scene.bodies.begin());
  EXPECT_LT((scene.initial_states[i].pose.position - Vec3(0, 0, 0.05)).norm(), 1e-15);
}

}  // namespace
}  // namespace pivot
