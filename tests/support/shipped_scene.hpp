// Loads the scene files shipped in scenes/ into a World for the tests that check them
// (tests/scenes/), so each test reads like the scene's claim: load, run, compare.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "pivot/world.hpp"

namespace pivot::test {

// scenes/<file_name> read with read_scene_file. A shipped scene loads without warnings:
// throws std::runtime_error listing them otherwise.
Scene shipped_scene(const std::string& file_name);

// The scene files of scenes/ (their names, sorted), the JSON schemas left out.
std::vector<std::string> shipped_scene_files();

// Index of the body called name; throws std::invalid_argument when there is none.
int body_index(const Scene& scene, const std::string& name);

// A parameterised test's name for a scene file: the file name without ".json".
std::string scene_test_name(const std::string& file_name);

// INSTANTIATE_TEST_SUITE_P's name generator for parameters whose `file` is a scene file.
struct SceneFileName {
  template <class Param>
  std::string operator()(const ::testing::TestParamInfo<Param>& param_info) const {
    return scene_test_name(param_info.param.file);
  }
};

// Steps until the world's time reaches t_s (within half a step).
void run_until(World* world, double t_s);

// Expects every body within tol_m of its position in start and within tol_rad of its
// orientation: the drift of a scene at rest.
void expect_no_drift(const World& world, const WorldState& start, double tol_m, double tol_rad);

}  // namespace pivot::test
