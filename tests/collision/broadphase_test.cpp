#include "collision/broadphase.hpp"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

namespace pivot {
namespace {

BodyBounds bounded(const Vec3& centre, double half, bool fixed = false) {
  BodyBounds b;
  b.fixed = fixed;
  b.min = centre - Vec3::Constant(half);
  b.max = centre + Vec3::Constant(half);
  return b;
}

BodyBounds plane(const Vec3& normal, double offset) {
  BodyBounds b;
  b.fixed = true;
  b.half_space = true;
  b.normal = normal;
  b.offset = offset;
  return b;
}

using Pairs = std::vector<std::pair<int, int>>;

TEST(Broadphase, PairsBoxesWithinTheMarginOnly) {
  std::vector<BodyBounds> bounds = {
      bounded(Vec3(0, 0, 0), 0.5), bounded(Vec3(1.004, 0, 0), 0.5),  // 4 mm from body 0
      bounded(Vec3(3, 0, 0), 0.5),                                   // far from both
  };
  Broadphase broadphase(bounds);
  EXPECT_EQ(broadphase.find_pairs(bounds, 0.005), (Pairs{{0, 1}}));
  EXPECT_EQ(broadphase.find_pairs(bounds, 0.001), (Pairs{}));
}

TEST(Broadphase, KeepsItsTreesAcrossMovesAndSkipsFixedPairs) {
  std::vector<BodyBounds> bounds = {
      bounded(Vec3(0, 0, 0), 0.5, true),
      bounded(Vec3(0.9, 0, 0), 0.5, true),  // overlaps body 0, but both are fixed
      bounded(Vec3(10, 0, 0), 0.5),
      bounded(Vec3(20, 0, 0), 0.5),
  };
  Broadphase broadphase(bounds);
  EXPECT_EQ(broadphase.find_pairs(bounds, 0.0), (Pairs{}));
  bounds[2] = bounded(Vec3(0, 0.95, 0), 0.5);  // moved onto the fixed pair
  bounds[3] = bounded(Vec3(0, 1.9, 0), 0.5);   // and onto body 2
  EXPECT_EQ(broadphase.find_pairs(bounds, 0.0), (Pairs{{0, 2}, {1, 2}, {2, 3}}));
  bounds[3] = bounded(Vec3(20, 0, 0), 0.5);  // and away again
  EXPECT_EQ(broadphase.find_pairs(bounds, 0.0), (Pairs{{0, 2}, {1, 2}}));
}

TEST(Broadphase, HalfSpacesMeetBoxesThatReachThePlane) {
  std::vector<BodyBounds> bounds = {
      plane(Vec3::UnitZ(), 0.0), bounded(Vec3(0, 0, 0.503), 0.5),  // 3 mm above the ground
      bounded(Vec3(-5, 0, 0.51), 0.5),                             // 10 mm above
      bounded(Vec3(5, 0, 0.4), 0.5, true),  // fixed, on the fixed ground: skipped
  };
  Broadphase broadphase(bounds);
  EXPECT_EQ(broadphase.find_pairs(bounds, 0.005), (Pairs{{0, 1}}));
  EXPECT_EQ(broadphase.find_pairs(bounds, 0.02), (Pairs{{0, 1}, {0, 2}}));
}

}  // namespace
}  // namespace pivot
