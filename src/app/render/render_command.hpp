// `pivot render INPUT`: frames of a recording (replayed) or of a scene (simulated headless)
// drawn offscreen with the viewer's drawing (src/app/draw) and written as an MP4 video
// (through ffmpeg) and/or a PNG, on a machine without a display.
#pragma once

#include <CLI/CLI.hpp>

namespace pivot::render {

void add_render_command(CLI::App& app, int* exit_code);

}  // namespace pivot::render
