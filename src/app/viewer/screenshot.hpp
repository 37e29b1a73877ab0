// Reads back the current framebuffer and writes it as a PNG.
#pragma once

#include <string>

namespace pivot::viewer {

// Writes the back buffer (width x height) to path via a temporary file and a rename, so
// an interrupted write never leaves a truncated PNG. Returns false with *error set.
bool write_screenshot(const std::string& path, int width, int height, std::string* error);

}  // namespace pivot::viewer
