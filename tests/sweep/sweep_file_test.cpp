// Sweep files: sampling, targets and every located error, exact to the character.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "pivot/error.hpp"
#include "sweep/sweep_fixture.hpp"

namespace pivot {
namespace {

using test::parse_test_sweep;

double number(const SweepValue& v) { return std::get<double>(v); }

// Parses members after a line holding "scene": the error's line counts from the file's
// first line ("{" is line 1, "scene" line 2, members from line 3).
std::string error_of(const std::string& test_name, const std::string& members) {
  try {
    parse_test_sweep(test_name, members);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(SweepFile, GridRunsEveryCombinationLastParameterFastest) {
  const Sweep sweep = parse_test_sweep("grid", R"(
  "duration": 0.1,
  "parameters": [
    {"target": "mu", "values": [0.1, 0.2, 0.3]},
    {"target": "h", "range": {"from": 0.01, "to": 0.005, "count": 2}}
  ])");
  ASSERT_EQ(sweep_size(sweep), 6);
  const std::vector<std::pair<double, double>> expected = {
      {0.1, 0.01}, {0.1, 0.005}, {0.2, 0.01}, {0.2, 0.005}, {0.3, 0.01}, {0.3, 0.005}};
  for (std::int64_t i = 0; i < 6; ++i) {
    const SweepSample s = sweep_sample(sweep, i);
    EXPECT_EQ(number(s.values[0]), expected[static_cast<std::size_t>(i)].first) << i;
    EXPECT_EQ(number(s.values[1]), expected[static_cast<std::size_t>(i)].second) << i;
    EXPECT_EQ(*s.friction_override, expected[static_cast<std::size_t>(i)].first);
    EXPECT_EQ(s.scene.settings.time_step_s, expected[static_cast<std::size_t>(i)].second);
  }
  EXPECT_THROW(sweep_sample(sweep, 6), std::out_of_range);
}

TEST(SweepFile, RangeIsEvenlySpacedWithExactEnds) {
  const Sweep sweep = parse_test_sweep("range", R"(
  "duration": 0.1,
  "parameters": [{"target": "mu.ice", "range": {"from": 0.1, "to": 0.7, "count": 4}}])");
  const std::vector<SweepValue>& v = sweep.parameters[0].values;
  ASSERT_EQ(v.size(), 4u);
  EXPECT_EQ(number(v[0]), 0.1);
  EXPECT_NEAR(number(v[1]), 0.3, 1e-15);
  EXPECT_NEAR(number(v[2]), 0.5, 1e-15);
  EXPECT_EQ(number(v[3]), 0.7);
  EXPECT_EQ(sweep_sample(sweep, 3).scene.materials[1].friction, 0.7);
}

TEST(SweepFile, NamedTargetsChangeTheScene) {
  const Sweep sweep = parse_test_sweep("named", R"(
  "duration": 0.1,
  "parameters": [
    {"target": "d", "values": [8]},
    {"target": "method", "values": ["standard"]},
    {"target": "nonconvex", "values": ["sum"]},
    {"target": "mu.rubber", "values": [0.6]},
    {"target": "box.offset.x", "values": [0.25]},
    {"target": "box.rotate.z", "values": [90]},
    {"target": "wrench0.force.y", "values": [-3]},
    {"target": "wrench0.torque.z", "values": [2]},
    {"target": "wrench0.t1", "values": [0.5]},
    {"name": "half", "target": ["/bodies/1/shape/half_extents/0", "/bodies/1/shape/half_extents/1"],
     "values": [0.2]}
  ])");
  const Scene scene = sweep_sample(sweep, 0).scene;
  EXPECT_EQ(scene.settings.friction_directions, 8);
  EXPECT_EQ(scene.settings.solver, LcpMethod::Standard);
  EXPECT_EQ(scene.settings.nonconvex, NonconvexFormulation::Sum);
  EXPECT_EQ(scene.materials[0].friction, 0.6);
  EXPECT_EQ(scene.initial_states[1].pose.position, Vec3(0.25, 0, 0.1));
  // 90 degrees about z: x goes to y.
  EXPECT_NEAR((scene.initial_states[1].pose.orientation * Vec3::UnitX() - Vec3::UnitY()).norm(),
              0.0, 1e-15);
  EXPECT_EQ(scene.wrenches[0].force_n, Vec3(5, -3, 0));
  EXPECT_EQ(scene.wrenches[0].torque_nm, Vec3(0, 0, 2));
  EXPECT_EQ(scene.wrenches[0].t1_s, 0.5);
  const auto& box = std::get<Box>(scene.bodies[1].shape);
  EXPECT_EQ(box.half_extents_m, Vec3(0.2, 0.2, 0.1));
  EXPECT_EQ(sweep.parameters[9].target,
            "/bodies/1/shape/half_extents/0 /bodies/1/shape/half_extents/1");
}

TEST(SweepFile, AbsentSettingsAndWrenchVectorsAreWrittenIn) {
  // No "settings" object and a wrench without force or torque: the targets still apply.
  const std::string scene = test::temp_file("sweep_scene_bare.json", R"({
  "bodies": [{"name": "ball", "shape": {"type": "sphere", "radius": 0.1}}],
  "wrenches": [{"body": "ball"}]})");
  const Sweep sweep = parse_sweep(test::sweep_text(scene, R"(
  "duration": 0.1,
  "parameters": [{"target": "d", "values": [6]}, {"target": "wrench0.force.z", "values": [2]},
                 {"target": "wrench0.torque.x", "values": [3]}])"),
                                  "sweep.json", "");
  const Scene s = sweep_sample(sweep, 0).scene;
  EXPECT_EQ(s.settings.friction_directions, 6);
  EXPECT_EQ(s.wrenches[0].force_n, Vec3(0, 0, 2));
  EXPECT_EQ(s.wrenches[0].torque_nm, Vec3(3, 0, 0));
}

TEST(SweepFile, RandomSamplingDrawsFromTheIndexAlone) {
  const std::string members = R"(
  "duration": 0.1,
  "sampling": "random",
  "samples": 4000,
  "seed": 7,
  "parameters": [
    {"target": "mu", "uniform": {"low": 0.2, "high": 0.6}},
    {"target": "box.offset.y", "normal": {"mean": 0.5, "std": 0.1}},
    {"target": "method", "values": ["standard", "reduced"]}
  ])";
  const Sweep sweep = parse_test_sweep("random", members);
  const Sweep again = parse_test_sweep("random", members);
  ASSERT_EQ(sweep_size(sweep), 4000);
  double sum_u = 0, sum_n = 0, sum_n2 = 0;
  int standard = 0;
  for (std::int64_t i = 0; i < 4000; ++i) {
    const SweepSample s = sweep_sample(sweep, i);
    const double u = number(s.values[0]), n = number(s.values[1]);
    EXPECT_GE(u, 0.2);
    EXPECT_LT(u, 0.6);
    sum_u += u;
    sum_n += n;
    sum_n2 += (n - 0.5) * (n - 0.5);
    standard += std::get<std::string>(s.values[2]) == "standard";
  }
  // Sample means within 4 standard errors: uniform sd 0.4 / sqrt(12), normal sd 0.1,
  // a fair coin sd 0.5; 4000 draws.
  EXPECT_NEAR(sum_u / 4000, 0.4, 4 * 0.4 / std::sqrt(12.0) / std::sqrt(4000.0));
  EXPECT_NEAR(sum_n / 4000, 0.5, 4 * 0.1 / std::sqrt(4000.0));
  // The variance estimate's sd is sigma^2 sqrt(2 / n).
  EXPECT_NEAR(sum_n2 / 4000, 0.01, 4 * 0.01 * std::sqrt(2.0 / 4000));
  EXPECT_NEAR(standard, 2000, 4 * 0.5 * std::sqrt(4000.0));
  // The same index gives the same values, whatever was drawn before.
  for (std::int64_t i : {3999, 17, 0, 17}) {
    EXPECT_EQ(sweep_sample(again, i).values, sweep_sample(sweep, i).values);
  }
  EXPECT_NE(sweep_sample(sweep, 1).values, sweep_sample(sweep, 2).values);
}

TEST(SweepFile, TheSeedChangesTheDraws) {
  const auto draw = [](int seed) {
    const Sweep sweep = parse_test_sweep("seed" + std::to_string(seed), R"(
  "duration": 0.1, "sampling": "random", "samples": 1, "seed": )" + std::to_string(seed) +
                                                                            R"(,
  "parameters": [{"target": "mu", "uniform": {"low": 0, "high": 1}}])");
    return number(sweep_sample(sweep, 0).values[0]);
  };
  EXPECT_EQ(draw(1), draw(1));
  EXPECT_NE(draw(1), draw(2));
}

TEST(SweepFile, ColumnsNameParametersOutcomesPredicatesAndTimingLast) {
  const Sweep sweep = parse_test_sweep("columns", R"(
  "duration": 0.1,
  "parameters": [{"name": "friction", "target": "mu", "values": [0.1]}],
  "outcomes": {"poses": ["box"], "predicates": {"moved": "box.x > 0.01"}})");
  EXPECT_EQ(sweep_columns(sweep),
            (std::vector<std::string>{"index", "friction", "box.x", "box.y", "box.z", "box.qw",
                                      "box.qx", "box.qy", "box.qz", "steps", "pivots",
                                      "max_penetration_m", "failures", "moved", "solve_ms"}));
}

TEST(SweepFile, ShippedSweepsLoad) {
  const std::filesystem::path dir = std::filesystem::path(PIVOT_SOURCE_DIR) / "examples/sweeps";
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".json") continue;
    ++count;
    const Sweep sweep = read_sweep_file(entry.path().string());
    EXPECT_GT(sweep_size(sweep), 0) << entry.path();
  }
  EXPECT_GE(count, 1);
}

// ---- located errors -------------------------------------------------------------------

TEST(SweepFileErrors, StructureAndTypes) {
  EXPECT_EQ(error_of("e1", R"(  "duration": 1, "repeat": 2)"),
            "sweep.json:3:18: unknown key 'repeat' in the sweep (expected one of: $schema, "
            "version, description, scene, duration, sampling, samples, seed, parameters, "
            "outcomes)");
  EXPECT_EQ(error_of("e2", R"(  "duration": -1)"),
            "sweep.json:3:15: 'duration' must be positive, found -1");
  EXPECT_EQ(error_of("e3", R"(  "parameters": [])"),
            "sweep.json:1:1: missing key 'duration' in the sweep");
  EXPECT_EQ(error_of("e4", R"(  "duration": 1, "samples": 5)"),
            "sweep.json:3:18: 'samples' needs \"sampling\": \"random\" (a grid's size is the "
            "product of its parameters' value counts)");
  EXPECT_EQ(error_of("e5", R"(  "duration": 1, "sampling": "random")"),
            "sweep.json:1:1: missing key 'samples' in the sweep (random sampling needs it)");
  EXPECT_EQ(error_of("e6", R"(  "duration": 1, "sampling": "sobol")"),
            "sweep.json:3:30: unknown sampling 'sobol' (expected one of: grid, random)");
  EXPECT_EQ(error_of("e7", R"(  "duration": 1,)"),
            "sweep.json:4:1: syntax error while parsing object key - unexpected '}'; expected "
            "string literal");
  EXPECT_EQ(error_of("e8", R"(  "duration": 1,
  "parameters": [{"target": "mu", "values": [0.1], "range": {"from": 0, "to": 1, "count": 2}}])"),
            "sweep.json:4:18: parameter 'mu' needs exactly one of 'values', 'range', "
            "'uniform', 'normal' (found 2)");
  EXPECT_EQ(error_of("e9", R"(  "duration": 1,
  "parameters": [{"target": "h", "values": ["fast"]}])"),
            "sweep.json:4:45: expected a number for 'values[0]', found a string");
  EXPECT_EQ(
      error_of("e10", R"(  "duration": 1,
  "parameters": [{"target": "mu", "uniform": {"low": 0.5, "high": 0.5}}])"),
      "sweep.json:4:67: 'high' in parameter 'mu' must be greater than 'low' (0.5), found 0.5");
  EXPECT_EQ(error_of("e11", R"(  "duration": 1,
  "parameters": [{"target": "mu", "values": [0.1]}, {"target": "mu", "values": [0.2]}])"),
            "sweep.json:4:53: column 'mu' of parameters[1] is already taken; give the parameter "
            "a 'name'");
}

TEST(SweepFileErrors, Targets) {
  EXPECT_EQ(error_of("t1", R"(  "duration": 1,
  "parameters": [{"target": "gravity", "values": [1]}])"),
            "sweep.json:4:29: unknown target 'gravity' (expected mu, mu.MATERIAL, d, h, method, "
            "nonconvex, BODY.offset.x|y|z, BODY.rotate.x|y|z, wrenchN.force.x|y|z, "
            "wrenchN.torque.x|y|z, wrenchN.t0, wrenchN.t1, or JSON pointers such as "
            "/bodies/1/mass)");
  EXPECT_EQ(error_of("t2", R"(  "duration": 1,
  "parameters": [{"target": "crate.offset.x", "values": [1]}])"),
            "sweep.json:4:29: unknown body 'crate' in target 'crate.offset.x' (bodies of the "
            "scene: ground, box)");
  EXPECT_EQ(error_of("t3", R"(  "duration": 1,
  "parameters": [{"target": "mu.steel", "values": [1]}])"),
            "sweep.json:4:29: unknown material 'steel' in target 'mu.steel' (materials of the "
            "scene: rubber, ice)");
  EXPECT_EQ(error_of("t4", R"(  "duration": 1,
  "parameters": [{"target": "wrench1.t0", "values": [1]}])"),
            "sweep.json:4:29: target 'wrench1.t0' names wrench 1, but the scene has 1 wrench "
            "(numbered from 0)");
  EXPECT_EQ(error_of("t5", R"(  "duration": 1, "outcomes": {"poses": ["crate"]})"),
            "sweep.json:3:41: unknown body 'crate' in 'poses' (bodies of the scene: ground, box)");
}

TEST(SweepFileErrors, PointersMustNameANumberOrNameOfTheScene) {
  const std::string scene = test::sweep_scene_file("p");
  EXPECT_EQ(error_of("p", R"(  "duration": 1,
  "parameters": [{"target": "/bodies/2/mass", "values": [1]}])"),
            "sweep.json:4:29: pointer '/bodies/2/mass' in parameters[0] names nothing in scene '" +
                scene + "'");
  EXPECT_EQ(error_of("p", R"(  "duration": 1,
  "parameters": [{"target": "/bodies/1/shape", "values": [1]}])"),
            "sweep.json:4:29: pointer '/bodies/1/shape' in parameters[0] names an object in "
            "scene '" +
                scene + "'; a parameter sets one number or name");
  EXPECT_EQ(error_of("p", R"(  "duration": 1,
  "parameters": [{"target": "/bodies/~2", "values": [1]}])"),
            "sweep.json:4:29: pointer '/bodies/~2' in parameters[0] is not a JSON pointer "
            "(RFC 6901: '~' must be followed by 0 or 1)");
  EXPECT_EQ(error_of("p", R"(  "duration": 1,
  "parameters": [{"target": ["/bodies/1/name", "/bodies/1/position/0"], "values": [1]}])"),
            "sweep.json:4:48: pointer '/bodies/1/position/0' in parameters[0] names a number, "
            "the pointers before it strings");
}

TEST(SweepFileErrors, ValuesTheSceneRefusesAreReportedAtTheValue) {
  const std::string scene = test::sweep_scene_file("v");
  EXPECT_EQ(error_of("v", R"(  "duration": 1,
  "parameters": [{"target": "h", "values": [0.01, -0.01]}])"),
            "sweep.json:4:51: value -0.01 of parameter 'h' is refused by scene '" + scene +
                "': 'time_step' in settings must be positive, found -0.01");
  EXPECT_EQ(error_of("v", R"(  "duration": 1,
  "parameters": [{"target": "d", "range": {"from": 2, "to": 5, "count": 3}}])"),
            "sweep.json:4:43: value 3.5 of parameter 'd' is refused by scene '" + scene +
                "': expected an integer for 'friction_directions', found 3.5");
  EXPECT_EQ(error_of("v", R"(  "duration": 1,
  "parameters": [{"target": "/bodies/1/shape/half_extents/2", "uniform": {"low": 0, "high": 1}}])"),
            "sweep.json:4:82: value 0 of parameter '/bodies/1/shape/half_extents/2' is refused "
            "by scene '" +
                scene +
                "': 'half_extents[2]' in box shape of body 'box' must be "
                "positive, found 0");
  EXPECT_EQ(error_of("v", R"(  "duration": 1,
  "parameters": [{"target": "method", "values": ["fastest"]}])"),
            "sweep.json:4:50: value fastest of parameter 'method' is refused by scene '" + scene +
                "': unknown solver 'fastest' (expected one of: standard, structural, reduced)");
  EXPECT_EQ(error_of("v", R"(  "duration": 1,
  "parameters": [{"target": "mu", "values": [-0.1]}])"),
            "sweep.json:4:46: value -0.1 of parameter 'mu' must not be negative (a friction "
            "coefficient)");
}

TEST(SweepFileErrors, ACombinationOrDrawTheSceneRefusesNamesSampleAndParameter) {
  const std::string scene = test::sweep_scene_file("combo");
  // Each value alone is fine with the scene's t0 = 0, t1 = 0.2; t0 = 0.15 with t1 = 0.12
  // is not.
  const Sweep grid = parse_test_sweep("combo", R"(  "duration": 1,
  "parameters": [{"target": "wrench0.t1", "values": [0.12, 0.4]},
                 {"target": "wrench0.t0", "values": [0.1, 0.15]}])");
  try {
    validate_sweep_samples(grid);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "sweep.json:5:18: sample 1: value 0.15 of parameter 'wrench0.t0' is refused by "
              "scene '" +
                  scene +
                  "': 't1' in wrenches[0] must be greater than 't0' (0.15), "
                  "found 0.12");
  }
  const Sweep normal = parse_test_sweep("combo", R"(  "duration": 1,
  "sampling": "random", "samples": 100,
  "parameters": [{"target": "mu.ice", "normal": {"mean": 0.1, "std": 0.1}}])");
  try {
    validate_sweep_samples(normal);
    FAIL() << "no error";
  } catch (const InputError& e) {
    // The first draw below zero: a sample within 100 draws of a 1-in-6 event.
    EXPECT_EQ(e.line(), 5);
    EXPECT_EQ(e.column(), 18);
    EXPECT_NE(e.message().find("of parameter 'mu.ice' is refused by scene"), std::string::npos);
    EXPECT_NE(e.message().find("'friction' in material 'ice' must not be negative"),
              std::string::npos);
  }
}

}  // namespace
}  // namespace pivot
