// A small base scene (a box pushed over a plane) and sweep texts around it, for the sweep
// tests: a sample of it steps in well under a millisecond.
#pragma once

#include <string>

#include "pivot/sweep.hpp"
#include "support/run_program.hpp"

namespace pivot::test {

// Two materials, a box 0.1 m above its resting height on a half space, a 5 N push along x
// for 0.2 s.
inline const char* const kSweepScene = R"({
  "version": 1,
  "settings": {"time_step": 0.01},
  "materials": [{"name": "rubber", "friction": 0.8}, {"name": "ice", "friction": 0.05}],
  "bodies": [
    {"name": "ground", "fixed": true, "material": "ice",
     "shape": {"type": "half_space", "normal": [0, 0, 1]}},
    {"name": "box", "material": "rubber", "position": [0, 0, 0.1],
     "shape": {"type": "box", "half_extents": [0.1, 0.1, 0.1]}}
  ],
  "wrenches": [{"body": "box", "force": [5, 0, 0], "t0": 0, "t1": 0.2}]
})";

// The scene written once per test name (tests run in parallel), its path returned.
inline std::string sweep_scene_file(const std::string& test_name) {
  return temp_file("sweep_scene_" + test_name + ".json", kSweepScene);
}

// A sweep over the scene with the given members after "scene" (JSON text without braces).
inline std::string sweep_text(const std::string& scene_path, const std::string& members) {
  return "{\n  \"scene\": \"" + scene_path + "\",\n" + members + "\n}\n";
}

inline Sweep parse_test_sweep(const std::string& test_name, const std::string& members) {
  return parse_sweep(sweep_text(sweep_scene_file(test_name), members), "sweep.json", "");
}

}  // namespace pivot::test
