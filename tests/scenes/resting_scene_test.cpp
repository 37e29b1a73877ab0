// Scenes that claim to rest under gravity (Lloyd's Fig. 9 stacks, his single-body cases):
// the contacts they claim, and rest without drift.
#include <gtest/gtest.h>

#include <string>

#include "pivot/world.hpp"
#include "support/shipped_scene.hpp"

namespace pivot {
namespace {

using test::run_until;
using test::shipped_scene;

struct RestingCase {
  const char* file;
  int contacts;  // at rest; each scene's description counts them
};

class RestingScene : public ::testing::TestWithParam<RestingCase> {};

TEST_P(RestingScene, RestsWithoutDrift) {
  World world(shipped_scene(GetParam().file));
  const WorldState start = world.state();
  world.step();
  EXPECT_EQ(world.last_stats().contacts, GetParam().contacts);
  // Stewart-Trinkle holds resting contact exactly (the LCP's complementarity, not a
  // penalty), so over 2 s (200 steps) the bodies move by round-off only: 1e-9 m.
  run_until(&world, 2.0);
  test::expect_no_drift(world, start, 1e-9, 1e-9);
  EXPECT_EQ(world.last_stats().contacts, GetParam().contacts);
  EXPECT_EQ(world.last_stats().fallbacks, 0);
}

// Stacks: 4 contacts on the ground, 4 per aligned interface, 8 per interface turned 45
// degrees; the pyramid has 2 overlaps of 4.
INSTANTIATE_TEST_SUITE_P(Stacks, RestingScene,
                         ::testing::Values(RestingCase{"block_stack_1.json", 4},
                                           RestingCase{"block_stack_2.json", 8},
                                           RestingCase{"block_stack_rotated_2.json", 12},
                                           RestingCase{"block_stack_5.json", 20},
                                           RestingCase{"block_stack_rotated_3.json", 20},
                                           RestingCase{"block_stack_rotated_5.json", 36},
                                           RestingCase{"block_tower_10.json", 40},
                                           RestingCase{"block_pyramid_2_1.json", 16}),
                         test::SceneFileName());

// Lloyd's single-body cases that rest: a face on each plane of the corner (4 + 4 + 4), the
// octagon of a square on a square turned 45 degrees, a face on each side of the groove
// (4 + 4), the top rim of each of the hole's 16 staves.
INSTANTIATE_TEST_SUITE_P(SingleBodies, RestingScene,
                         ::testing::Values(RestingCase{"block_in_corner.json", 12},
                                           RestingCase{"face_on_face_rotated_45.json", 8},
                                           RestingCase{"block_in_v_groove.json", 8},
                                           RestingCase{"ball_in_rim.json", 16}),
                         test::SceneFileName());

}  // namespace
}  // namespace pivot
