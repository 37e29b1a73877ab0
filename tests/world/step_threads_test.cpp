// Islands stepped on several threads (WorldOptions::threads, src/world/step_workers): the
// workers hand out every island exactly once, and a World gives the same step, to the bit,
// on any number of threads: islands share no bodies and their outputs are merged in island
// order, so nothing a thread does can change another island's arithmetic.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "pivot/world.hpp"
#include "support/scene_builder.hpp"
#include "support/shipped_scene.hpp"
#include "world/step_workers.hpp"

namespace pivot {
namespace {

TEST(StepWorkers, CallsEveryIndexExactlyOnceForAnyCountAndThreads) {
  StepWorkers workers;
  // The thread count changes between jobs (a viewer's option may), so workers are
  // stopped and started between them too.
  for (int round = 0; round < 20; ++round) {
    for (int threads : {1, 2, 3, 4, 2}) {
      for (int count : {0, 1, 2, 3, 5, 64, 101}) {
        const auto calls = std::make_unique<std::atomic<int>[]>(count + 1);
        const auto f = [&](int i) { calls[i].fetch_add(1, std::memory_order_relaxed); };
        workers.run(count, threads, f);
        for (int i = 0; i < count; ++i) {
          ASSERT_EQ(calls[i].load(), 1)
              << "index " << i << " of " << count << " on " << threads << " threads";
        }
      }
    }
  }
}

// Uneven work: one index far longer than the rest (a pile's big island among small ones).
// Every index still runs once, and the job returns only when the long one has.
TEST(StepWorkers, WaitsForTheLongestIndex) {
  StepWorkers workers;
  std::vector<double> out(40, 0.0);
  const auto f = [&](int i) {
    double x = 0.0;
    const int n = i == 3 ? 2000000 : 1000;
    for (int k = 1; k <= n; ++k) x += 1.0 / k;
    out[i] = x;
  };
  workers.run(40, 2, f);
  for (int i = 0; i < 40; ++i) EXPECT_GT(out[i], 7.0) << i;  // H(1000) = 7.49
  EXPECT_GT(out[3], 15.0);                                   // H(2e6) = 15.08
}

// Columns of two boxes on the ground, 3 x 3, each tossed with its own spin and drift so
// that they fall, hit, slide, tip and some touch their neighbours: islands that split and
// merge, warm starts and cold paths, recoveries.
Scene tossed_columns() {
  test::SceneBuilder b;
  b.ground(0.5);
  const Vec3 size(0.2, 0.2, 0.2);
  int k = 0;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j, ++k) {
      const Vec3 at(0.26 * i, 0.26 * j, 0.1 + 0.03 * k);
      const Quat turn(Eigen::AngleAxisd(0.15 * k, Vec3(1.0, 0.5 * i, 0.3 * j).normalized()));
      b.box("low" + std::to_string(k), size, 1.0, 0.5, at, turn)
          .velocity(Vec3(0.3 * (i - 1), 0.25 * (j - 1), -0.5), Vec3(0.0, 0.0, 2.0 * (k % 3) - 2.0));
      b.box("high" + std::to_string(k), size, 1.0, 0.5, at + Vec3(0.02 * i, 0.0, 0.25 + 0.02 * j))
          .velocity(Vec3(-0.2 * (j - 1), 0.1 * i, 0.0), Vec3(1.5 * (i - 1), 0.0, 0.0));
    }
  }
  return b.scene();
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

void expect_same_impulses(const std::vector<ContactImpulse>& a,
                          const std::vector<ContactImpulse>& b, const std::string& where) {
  ASSERT_EQ(a.size(), b.size()) << where;
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(a[i].island, b[i].island) << where;
    ASSERT_EQ(a[i].contact, b[i].contact) << where;
    ASSERT_EQ(a[i].group, b[i].group) << where;
    ASSERT_TRUE(same_bits(a[i].normal_ns, b[i].normal_ns)) << where << ", impulse " << i;
    for (int r = 0; r < 3; ++r) ASSERT_TRUE(same_bits(a[i].friction_ns[r], b[i].friction_ns[r]));
  }
}

// Steps one World per thread count side by side and asserts every step's bodies, impulses
// and counts equal the one-thread World's to the bit; *islands: the islands stepped.
void compare_threads(const Scene& scene, int steps, long* islands) {
  std::vector<std::unique_ptr<World>> worlds;
  for (int threads : {1, 2, 3}) {
    WorldOptions options;
    options.threads = threads;
    worlds.push_back(std::make_unique<World>(scene, options));
  }
  *islands = 0;
  for (int k = 0; k < steps; ++k) {
    const StepStats one = worlds[0]->step();
    *islands += one.islands;
    for (size_t w = 1; w < worlds.size(); ++w) {
      const std::string where =
          "step " + std::to_string(k) + ", " + std::to_string(w + 1) + " threads";
      const StepStats& s = worlds[w]->step();
      ASSERT_EQ(s.islands, one.islands) << where;
      ASSERT_EQ(s.contacts, one.contacts) << where;
      ASSERT_EQ(s.pivots, one.pivots) << where;
      ASSERT_EQ(s.warm_starts, one.warm_starts) << where;
      ASSERT_EQ(s.recoveries, one.recoveries) << where;
      ASSERT_EQ(s.fallbacks + s.failures, one.fallbacks + one.failures) << where;
      for (size_t b = 0; b < scene.bodies.size(); ++b) {
        const BodyState& x = worlds[0]->state().bodies[b];
        const BodyState& y = worlds[w]->state().bodies[b];
        for (int r = 0; r < 3; ++r) {
          ASSERT_TRUE(same_bits(x.pose.position[r], y.pose.position[r])) << where << ", body " << b;
          ASSERT_TRUE(same_bits(x.twist.linear[r], y.twist.linear[r])) << where << ", body " << b;
          ASSERT_TRUE(same_bits(x.twist.angular[r], y.twist.angular[r])) << where << ", body " << b;
        }
        ASSERT_TRUE(same_bits(x.pose.orientation.w(), y.pose.orientation.w())) << where;
      }
      expect_same_impulses(worlds[0]->impulses(), worlds[w]->impulses(), where);
      expect_same_impulses(worlds[0]->side_impulses(), worlds[w]->side_impulses(), where);
    }
  }
}

TEST(StepThreads, TossedColumnsStepTheSameOnAnyNumberOfThreads) {
  long islands = 0;
  compare_threads(tossed_columns(), 150, &islands);
  EXPECT_GT(islands, 150 * 5);  // several islands a step: the threads had islands to share
}

// The shipped bin pile's first 0.35 s: 40 bodies falling into the bin and into one
// another, islands merging, grouped islands (max formulation), warm paths, recoveries
// (55 island solves, 23 recoveries, 21 warm paths with one thread).
TEST(StepThreads, BinPileLandingStepsTheSameOnAnyNumberOfThreads) {
  long islands = 0;
  compare_threads(test::shipped_scene("bin_pile_40.json"), 35, &islands);
  EXPECT_GT(islands, 35);
}

TEST(StepThreads, ACancelledStepLeavesTheStartStateOnTwoThreads) {
  std::atomic<bool> cancel{false};
  WorldOptions options;
  options.threads = 2;
  options.lemke.cancel = &cancel;
  World world(tossed_columns(), options);
  for (int k = 0; k < 20; ++k) world.step();
  const WorldState before = world.state();
  cancel = true;
  const StepStats& s = world.step();
  EXPECT_TRUE(s.cancelled);
  for (size_t b = 0; b < before.bodies.size(); ++b) {
    EXPECT_EQ(world.state().bodies[b].pose.position, before.bodies[b].pose.position);
    EXPECT_EQ(world.state().bodies[b].twist.linear, before.bodies[b].twist.linear);
  }
  EXPECT_EQ(world.state().step, before.step);
  EXPECT_TRUE(world.impulses().empty());
}

// Failed solves (a pivot budget of one, every solve cold) come out in island order on any
// number of threads: the same list with FailurePolicy::Continue, and under Stop the same
// island's failure is thrown, the first in island order, as when islands ran in turn.
TEST(StepThreads, FailedSolvesComeInIslandOrderOnAnyNumberOfThreads) {
  const auto options = [](int threads, FailurePolicy policy) {
    WorldOptions o;
    o.threads = threads;
    o.on_failure = policy;
    o.warm_start = false;
    o.lemke.max_pivots = 1;
    return o;
  };
  World one(tossed_columns(), options(1, FailurePolicy::Continue));
  World two(tossed_columns(), options(2, FailurePolicy::Continue));
  int failures = 0;
  for (int k = 0; k < 30; ++k) {
    const StepStats s = one.step();
    ASSERT_EQ(two.step().failures, s.failures) << "step " << k;
    failures += s.failures;
    ASSERT_EQ(one.failed_solves().size(), two.failed_solves().size());
    for (size_t f = 0; f < one.failed_solves().size(); ++f) {
      EXPECT_EQ(one.failed_solves()[f].island, two.failed_solves()[f].island);
      EXPECT_EQ(one.failed_solves()[f].status, two.failed_solves()[f].status);
    }
  }
  EXPECT_GT(failures, 10);

  const auto thrown_island = [&](int threads) {
    World world(tossed_columns(), options(threads, FailurePolicy::Stop));
    for (int k = 0; k < 30; ++k) {
      try {
        world.step();
      } catch (const SolverFailure& e) {
        return std::to_string(k) + ":" + std::to_string(e.failed().island);
      }
    }
    return std::string("none");
  };
  const std::string first = thrown_island(1);
  EXPECT_NE(first, "none");
  EXPECT_EQ(thrown_island(2), first);
  EXPECT_EQ(thrown_island(3), first);
}

TEST(StepThreads, FewerThanOneThreadIsAnError) {
  WorldOptions options;
  options.threads = 0;
  World world(tossed_columns(), options);
  try {
    world.step();
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "threads must be >= 1, got 0");
  }
}

}  // namespace
}  // namespace pivot
