// The sweep's generator is splitmix64 exactly, so draws can be reproduced outside Pivot.
#include "sweep/random.hpp"

#include <gtest/gtest.h>

namespace pivot::sweep {
namespace {

TEST(SweepRandom, Mix64IsSplitMix64sOutputFunction) {
  // The first outputs of Vigna's splitmix64.c from state 0 are mix64(k * gamma), k = 1, 2.
  EXPECT_EQ(mix64(0x9E3779B97F4A7C15ULL), 0xE220A8397B1DCDAFULL);
  EXPECT_EQ(mix64(0x9E3779B97F4A7C15ULL * 2), 0x6E789E6AA1B965F4ULL);
}

TEST(SweepRandom, StreamsDependOnSeedIndexAndParameter) {
  const std::uint64_t base = SplitMix64(1, 2, 3).next();
  EXPECT_EQ(SplitMix64(1, 2, 3).next(), base);
  EXPECT_NE(SplitMix64(0, 2, 3).next(), base);
  EXPECT_NE(SplitMix64(1, 3, 3).next(), base);
  EXPECT_NE(SplitMix64(1, 2, 4).next(), base);
  // Swapping index and parameter gives another stream.
  EXPECT_NE(SplitMix64(1, 3, 2).next(), base);
}

TEST(SweepRandom, UniformIsInTheHalfOpenUnitInterval) {
  SplitMix64 rng(5, 0, 0);
  for (int k = 0; k < 100000; ++k) {
    const double u = rng.uniform01();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
  }
}

}  // namespace
}  // namespace pivot::sweep
