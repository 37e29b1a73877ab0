// Reads back the current framebuffer, and writes it as a PNG.
#pragma once

#include <string>
#include <vector>

namespace pivot::viewer {

// The frame drawn, as RGB rows, bottom row first (GL's origin), width x height x 3 bytes:
// GL's default read buffer, the back buffer of a window or the colour attachment of an
// offscreen framebuffer.
std::vector<unsigned char> read_back_buffer(int width, int height);

// Writes the frame drawn (width x height) to path via a temporary file and a rename, so
// an interrupted write never leaves a truncated PNG. Returns false with *error set.
bool write_screenshot(const std::string& path, int width, int height, std::string* error);

}  // namespace pivot::viewer
