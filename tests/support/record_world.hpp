// A world's last step into a recording, as the programs record it (the settings it used).
#pragma once

#include "pivot/recording.hpp"
#include "pivot/world.hpp"

namespace pivot::test {

inline void record(RecordingWriter* writer, World& world) {
  writer->record(world.state(), world.settings(), world.materials(), world.collision(),
                 world.impulses());
}

}  // namespace pivot::test
