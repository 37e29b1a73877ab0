// Wall time of the library's stages and solves, in the unit StepStats and LcpResult report
// it: one clock and one conversion for every file that times itself.
#pragma once

#include <chrono>

namespace pivot {

using Clock = std::chrono::steady_clock;

// Microseconds of wall time from `start` to now.
inline double microseconds_since(Clock::time_point start) {
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

}  // namespace pivot
