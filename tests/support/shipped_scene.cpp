#include "support/shipped_scene.hpp"

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <utility>

namespace pivot::test {

Scene shipped_scene(const std::string& file_name) {
  LoadedScene loaded = read_scene_file(std::string(PIVOT_SOURCE_DIR) + "/scenes/" + file_name);
  if (!loaded.warnings.empty()) {
    std::string text = file_name + " loads with warnings:";
    for (const std::string& w : loaded.warnings) text += "\n  " + w;
    throw std::runtime_error(text);
  }
  return std::move(loaded.scene);
}

std::vector<std::string> shipped_scene_files() {
  std::vector<std::string> files;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(PIVOT_SOURCE_DIR) + "/scenes")) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() == ".json" && name.find(".schema.") == std::string::npos) {
      files.push_back(name);
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

int body_index(const Scene& scene, const std::string& name) {
  for (size_t k = 0; k < scene.bodies.size(); ++k) {
    if (scene.bodies[k].name == name) return static_cast<int>(k);
  }
  throw std::invalid_argument("no body '" + name + "' in the scene");
}

std::string scene_test_name(const std::string& file_name) {
  return file_name.substr(0, file_name.rfind(".json"));
}

void run_until(World* world, double t_s) {
  const double h = world->scene().settings.time_step_s;
  while (world->state().time_s < t_s - 0.5 * h) world->step();
}

void expect_no_drift(const World& world, const WorldState& start, double tol_m, double tol_rad) {
  for (size_t k = 0; k < start.bodies.size(); ++k) {
    const BodyState& now = world.state().bodies[k];
    EXPECT_LT((now.pose.position - start.bodies[k].pose.position).norm(), tol_m)
        << world.scene().bodies[k].name;
    EXPECT_LT(now.pose.orientation.angularDistance(start.bodies[k].pose.orientation), tol_rad)
        << world.scene().bodies[k].name;
  }
}

}  // namespace pivot::test
