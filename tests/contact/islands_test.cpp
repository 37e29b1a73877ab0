#include "contact/islands.hpp"

#include <gtest/gtest.h>

#include "collision/collision_scene.hpp"

namespace pivot {
namespace {

using test::box;
using test::CollisionScene;
using test::pose_at;

TEST(Islands, TwoStacksOnOneFloorAreTwoIslands) {
  // The floor is fixed, so it does not join the stacks (Redon Sec. 2).
  CollisionScene s;
  s.add_ground();
  for (double x : {0.0, 3.0}) {
    for (int k = 0; k < 3; ++k) s.add("block", box(0.5, 0.5, 0.5), pose_at(Vec3(x, 0, 0.5 + k)));
  }
  const CollisionResult r = s.collide();
  IslandBuilder builder;
  const std::vector<Island>& islands = builder.build(s.bodies, r);
  ASSERT_EQ(islands.size(), 2u);
  EXPECT_EQ(islands[0].bodies, (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(islands[1].bodies, (std::vector<int>{4, 5, 6}));
  EXPECT_EQ(islands[0].contacts.size() + islands[1].contacts.size(), r.contacts.size());
  EXPECT_EQ(islands[0].contacts.size(), 12u);  // floor and two stacked faces, 4 each
  for (int k : islands[1].contacts) EXPECT_GE(r.contacts[k].body_a, 4);
}

TEST(Islands, ChainIsOneIslandAndLoneBodiesAreTheirOwn) {
  CollisionResult r;
  Contact ab, bc;
  ab.body_a = 0, ab.body_b = 1;
  bc.body_a = 2, bc.body_b = 1;
  r.contacts = {bc, ab};
  std::vector<Body> bodies(4);
  for (Body& b : bodies) b.mass_kg = 1.0;
  IslandBuilder builder;
  const std::vector<Island>& islands = builder.build(bodies, r);
  ASSERT_EQ(islands.size(), 2u);
  EXPECT_EQ(islands[0].bodies, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(islands[0].contacts, (std::vector<int>{0, 1}));
  EXPECT_EQ(islands[1].bodies, (std::vector<int>{3}));  // touches nothing
  EXPECT_TRUE(islands[1].contacts.empty());
}

TEST(Islands, GroupsConnectAndFixedBodiesBelongToNoIsland) {
  CollisionResult r;
  ContactGroup g;
  g.body_a = 2, g.body_b = 0;  // moving 2 on moving 0
  r.groups = {g};
  Contact on_fixed;
  on_fixed.body_a = 0, on_fixed.body_b = 1;  // body 1 is fixed
  Contact also_on_fixed;
  also_on_fixed.body_a = 3, also_on_fixed.body_b = 1;
  r.contacts = {on_fixed, also_on_fixed};
  std::vector<Body> bodies(4);
  bodies[1].fixed = true;
  IslandBuilder builder;
  const std::vector<Island>& islands = builder.build(bodies, r);
  ASSERT_EQ(islands.size(), 2u);
  EXPECT_EQ(islands[0].bodies, (std::vector<int>{0, 2}));
  EXPECT_EQ(islands[0].groups, (std::vector<int>{0}));
  EXPECT_EQ(islands[0].contacts, (std::vector<int>{0}));
  EXPECT_EQ(islands[1].bodies, (std::vector<int>{3}));
  EXPECT_EQ(islands[1].contacts, (std::vector<int>{1}));

  // The storage is reused: a second build with no contacts splits everything.
  const std::vector<Island>& alone = builder.build(bodies, CollisionResult{});
  ASSERT_EQ(alone.size(), 3u);
  EXPECT_TRUE(alone[0].contacts.empty());
  EXPECT_TRUE(alone[0].groups.empty());
}

TEST(Islands, RejectsContactsOnUnknownBodies) {
  CollisionResult r;
  Contact c;
  c.body_a = 5, c.body_b = 0;
  r.contacts = {c};
  IslandBuilder builder;
  EXPECT_THROW(builder.build(std::vector<Body>(2), r), std::invalid_argument);
}

}  // namespace
}  // namespace pivot
