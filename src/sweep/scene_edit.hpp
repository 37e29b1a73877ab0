// A sweep sample's scene: the base scene file's JSON with the parameters' values written
// in, read back by the scene loader so that it is checked exactly like a scene file.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "pivot/sweep.hpp"

namespace pivot::sweep {

using Json = nlohmann::ordered_json;  // keeps the scene's keys in file order

// Writes value into scene as the parameter's target says (nothing for the friction
// override). Numbers with an integral value are written as integers, so integer settings
// such as friction_directions accept them.
void apply_value(const SweepParameter& parameter, const SweepValue& value, Json* scene);

// The scene loader's reading of the edited JSON; throws its InputError.
Scene read_edited_scene(const Json& scene, const std::string& scene_file);

// "0.25", "reduced": a value as the table and the messages write it.
std::string format_value(const SweepValue& value);
// The shortest text that reads back to the same double (std::to_chars).
std::string format_double(double x);

}  // namespace pivot::sweep
