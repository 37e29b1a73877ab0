// The block stacks of Lloyd's Fig. 9 (scenes/block_stack_*.json, block_tower_10.json): the
// contacts they claim and rest without drift.
#include <gtest/gtest.h>

#include <string>

#include "pivot/world.hpp"
#include "support/shipped_scene.hpp"

namespace pivot {
namespace {

using test::run_until;
using test::shipped_scene;

struct StackCase {
  const char* file;
  int contacts;  // 4 on the ground, 4 per aligned interface, 8 per interface turned 45 degrees
};

class BlockStack : public ::testing::TestWithParam<StackCase> {};

TEST_P(BlockStack, RestsWithoutDrift) {
  World world(shipped_scene(GetParam().file));
  const WorldState start = world.state();
  world.step();
  EXPECT_EQ(world.last_stats().contacts, GetParam().contacts);
  // Stewart-Trinkle holds resting contact exactly (the LCP's complementarity, not a
  // penalty), so over 2 s (200 steps) the blocks move by round-off only: 1e-9 m.
  run_until(&world, 2.0);
  for (size_t k = 0; k < start.bodies.size(); ++k) {
    const BodyState& now = world.state().bodies[k];
    EXPECT_LT((now.pose.position - start.bodies[k].pose.position).norm(), 1e-9)
        << world.scene().bodies[k].name;
    EXPECT_LT(now.pose.orientation.angularDistance(start.bodies[k].pose.orientation), 1e-9)
        << world.scene().bodies[k].name;
  }
  EXPECT_EQ(world.last_stats().contacts, GetParam().contacts);
  EXPECT_EQ(world.last_stats().fallbacks, 0);
}

INSTANTIATE_TEST_SUITE_P(Scenes, BlockStack,
                         ::testing::Values(StackCase{"block_stack_5.json", 20},
                                           StackCase{"block_stack_rotated_3.json", 20},
                                           StackCase{"block_stack_rotated_5.json", 36},
                                           StackCase{"block_tower_10.json", 40}),
                         [](const ::testing::TestParamInfo<StackCase>& info) {
                           return test::scene_test_name(info.param.file);
                         });

}  // namespace
}  // namespace pivot
