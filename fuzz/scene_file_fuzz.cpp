// Fuzz target for the scene loader (parse_scene, src/io/scene_file.cpp): any bytes either
// load as a scene, whose JSON writes and reads back, or are refused with an InputError
// naming the place.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_check.hpp"
#include "pivot/scene.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::string name = "fuzz.json";
  pivot::fuzz::expect_parsed_or_input_error(
      [&] {
        const pivot::LoadedScene loaded = pivot::parse_scene(text, name);
        // What the writer makes of an accepted scene must be accepted again: the viewer
        // saves edited scenes this way.
        try {
          pivot::parse_scene(pivot::scene_to_json(loaded.scene), "rewritten.json");
        } catch (const pivot::InputError& e) {
          pivot::fuzz::fail(std::string("a written scene does not read back: ") + e.what());
        }
      },
      name);
  return 0;
}
