// The last step of every file the viewer writes (screenshots, videos, plots, its layout):
// the complete temporary file renamed over the target, so a crash or a failed write never
// leaves a truncated file where a good one was.
#pragma once

#include <string>

namespace pivot::viewer {

// Renames temp to path. On failure removes temp and returns false with *error set.
bool move_into_place(const std::string& temp, const std::string& path, std::string* error);

}  // namespace pivot::viewer
