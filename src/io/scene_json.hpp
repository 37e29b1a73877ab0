// The scene format's JSON for the parts a recording's sidecar also writes (its
// setting_changes), so both write them one way (docs/scene-format.md).
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "pivot/scene.hpp"

namespace pivot {

nlohmann::ordered_json settings_to_json(const SceneSettings& settings);
nlohmann::ordered_json materials_to_json(const std::vector<Material>& materials);

}  // namespace pivot
