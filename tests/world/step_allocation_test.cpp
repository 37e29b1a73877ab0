// World::step allocates nothing once a scene's sizes have been seen (issue 14's rule, issue
// 15's lean pivot): every stage keeps its storage from step to step, the solver's tables
// and answers too (ContactSolver, one per island). Built into a binary of its own
// (pivot_allocation_tests) because it replaces the allocator: global operator new, and
// malloc, calloc and realloc wrapped at link time (-Wl,--wrap), which sees Eigen's vectors
// inside the static libpivot, since Eigen calls malloc itself rather than operator new.
#include <gtest/gtest.h>

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>
#include <ostream>
#include <string>
#include <vector>

#include "lcp/lemke_standard.hpp"
#include "pivot/world.hpp"
#include "support/scene_builder.hpp"
#include "support/shipped_scene.hpp"

namespace {

std::atomic<bool> g_counting{false};
std::atomic<long> g_allocations{0};

void count_allocation() {
  if (g_counting.load(std::memory_order_relaxed)) {
    g_allocations.fetch_add(1, std::memory_order_relaxed);
  }
}

}  // namespace

extern "C" {
void* __real_malloc(std::size_t size);
void* __real_calloc(std::size_t count, std::size_t size);
void* __real_realloc(void* p, std::size_t size);

void* __wrap_malloc(std::size_t size) {
  count_allocation();
  return __real_malloc(size);
}
void* __wrap_calloc(std::size_t count, std::size_t size) {
  count_allocation();
  return __real_calloc(count, size);
}
void* __wrap_realloc(void* p, std::size_t size) {
  count_allocation();
  return __real_realloc(p, size);
}
}

// Every form of global new goes through malloc (counted there); the aligned ones through
// aligned_alloc, which the wrap does not see, so they count themselves. Every delete is
// free, which GCC takes for a mismatch once it inlines the two.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void* operator new(std::size_t size) {
  if (void* p = std::malloc(size ? size : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) { return operator new(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  return std::malloc(size ? size : 1);
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  return std::malloc(size ? size : 1);
}
void* operator new(std::size_t size, std::align_val_t align) {
  count_allocation();
  const std::size_t a = static_cast<std::size_t>(align);
  if (void* p = std::aligned_alloc(a, (size + a - 1) / a * a)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size, std::align_val_t align) { return operator new(size, align); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
#pragma GCC diagnostic pop

namespace pivot {
namespace {

// The heap allocations made while f runs.
template <class F>
long allocations_during(F&& f) {
  g_allocations = 0;
  g_counting = true;
  f();
  g_counting = false;
  return g_allocations;
}

// The counter is what the step tests stand on: it must see an Eigen vector made inside
// libpivot (malloc, not operator new) and a std::vector (operator new) exactly once each.
TEST(AllocationCounter, SeesLibpivotsEigenVectorsAndStdContainersOnceEach) {
  volatile double sink = 0.0;
  EXPECT_EQ(allocations_during([&] { sink = sink + spread_cover(5, 0.0, 0).sum(); }), 1);
  EXPECT_EQ(allocations_during([&] {
              std::vector<double> v(5, 1.0);
              sink = sink + v[4];
            }),
            1);
  EXPECT_EQ(allocations_during([&] { sink = sink + 1.0; }), 0);
}

struct Case {
  const char* file;
  bool warm_start;
  int warm_up_steps;  // steps before counting: the sizes the step will meet are seen
  int counted_steps;
  int contacts;  // on every counted step: the scene in the state the case names
  bool pivots;   // every counted step pivots (a cold solve), else none does (warm)
  const char* what;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.file << ": " << c.what; }

class StepAllocation : public ::testing::TestWithParam<Case> {};

TEST_P(StepAllocation, NoneAfterWarmUp) {
  const Case& c = GetParam();
  WorldOptions options;
  options.warm_start = c.warm_start;
  World world(test::shipped_scene(c.file), options);
  for (int k = 0; k < c.warm_up_steps; ++k) world.step();
  long allocations = 0;
  for (int k = 0; k < c.counted_steps; ++k) {
    const StepStats* stats = nullptr;
    allocations += allocations_during([&] { stats = &world.step(); });
    // The case is the state it claims: its contacts, solved as claimed, no fallback.
    ASSERT_EQ(stats->contacts, c.contacts) << "step " << c.warm_up_steps + k;
    ASSERT_EQ(stats->fallbacks + stats->failures + stats->recoveries, 0);
    ASSERT_EQ(stats->pivots > 0, c.pivots) << "step " << c.warm_up_steps + k;
  }
  EXPECT_EQ(allocations, 0) << "over " << c.counted_steps << " steps after " << c.warm_up_steps;
}

// Lloyd's square peg pushed down the hole by its scripted 60 N (16 contacts with the walls)
// and seated on its head (28 contacts, from its 44th step on); the five-block stack and
// the ten-block tower at rest; the stacks again with every solve cold, a Lemke path of 16
// and 31 pivots a step, so the pivoting solver itself is allocation-free too.
INSTANTIATE_TEST_SUITE_P(
    Scenes, StepAllocation,
    ::testing::Values(Case{"peg_in_hole.json", true, 2, 40, 16, false, "peg pushed into the hole"},
                      Case{"peg_in_hole.json", true, 50, 100, 28, false, "peg seated"},
                      Case{"block_stack_5.json", true, 2, 200, 20, false, "stack at rest"},
                      Case{"block_tower_10.json", true, 2, 200, 40, false, "tower at rest"},
                      Case{"block_stack_5.json", false, 2, 50, 20, true, "stack, cold solves"},
                      Case{"block_tower_10.json", false, 2, 50, 40, true, "tower, cold solves"}),
    [](const ::testing::TestParamInfo<Case>& p) {
      return test::scene_test_name(p.param.file) + (p.param.warm_start ? "_" : "_Cold_") +
             std::to_string(p.param.warm_up_steps);
    });

// Nine columns of two boxes at rest, 0.3 m apart, stepped on two threads: nine islands a
// step shared by the caller and a worker, whose wake-ups and hand-outs allocate nothing.
TEST(StepAllocation, NoneOnTwoThreadsAfterWarmUp) {
  test::SceneBuilder b;
  b.ground(0.5);
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      const std::string name = std::to_string(3 * i + j);
      b.box("low" + name, Vec3(0.2, 0.2, 0.2), 1.0, 0.5, Vec3(0.3 * i, 0.3 * j, 0.1));
      b.box("high" + name, Vec3(0.2, 0.2, 0.2), 1.0, 0.5, Vec3(0.3 * i, 0.3 * j, 0.3));
    }
  }
  WorldOptions options;
  options.threads = 2;
  World world(b.scene(), options);
  for (int k = 0; k < 5; ++k) world.step();
  long allocations = 0;
  for (int k = 0; k < 100; ++k) {
    const StepStats* stats = nullptr;
    allocations += allocations_during([&] { stats = &world.step(); });
    ASSERT_EQ(stats->islands, 9) << "step " << 5 + k;
    ASSERT_EQ(stats->pivots + stats->fallbacks + stats->failures + stats->recoveries, 0);
  }
  EXPECT_EQ(allocations, 0) << "over 100 steps after 5";
}

}  // namespace
}  // namespace pivot
