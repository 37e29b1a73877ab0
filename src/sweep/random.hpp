// The sweep's random numbers, the same on every machine: splitmix64 (Steele, Lea and
// Flood 2014) and our own transforms, never std::*_distribution, whose algorithms the C++
// standard leaves to each library.
#pragma once

#include <cmath>
#include <cstdint>

#include "pivot/math.hpp"

namespace pivot::sweep {

// splitmix64's output function: a bijection that scatters nearby inputs.
inline std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// One stream per (seed, sample index, parameter index): the draws of a sample depend on
// nothing else, so samples run in any order and on any worker give the same values.
class SplitMix64 {
 public:
  SplitMix64(std::uint64_t seed, std::uint64_t index, std::uint64_t parameter)
      : state_(mix64(mix64(mix64(seed + kGamma) ^ (index + kGamma)) ^ (parameter + kGamma))) {}

  std::uint64_t next() {
    state_ += kGamma;
    return mix64(state_);
  }
  // In [0, 1): the top 53 bits, so every value is a double exactly.
  double uniform01() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  // Box–Muller; u1 in (0, 1] keeps the logarithm finite. One normal per call (the second
  // of the pair is dropped) so a draw never depends on an earlier call.
  double normal() {
    const double u1 = static_cast<double>((next() >> 11) + 1) * 0x1.0p-53;
    const double u2 = uniform01();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * kPi * u2);
  }

 private:
  static constexpr std::uint64_t kGamma = 0x9E3779B97F4A7C15ULL;  // 2^64 / golden ratio
  std::uint64_t state_;
};

}  // namespace pivot::sweep
