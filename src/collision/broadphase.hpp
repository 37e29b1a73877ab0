// Broadphase: which body pairs may be within the margin. Bounded bodies live in FCL's
// dynamic AABB trees (one for moving bodies, one for fixed ones, so fixed pairs are never
// visited), kept across steps and refitted with update(); half-spaces (unbounded) are
// tested against each body's box directly.
#pragma once

#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "pivot/contact.hpp"
#include "pivot/math.hpp"

namespace pivot {

struct BodyBounds {
  bool fixed = false;
  bool half_space = false;
  Vec3 min = Vec3::Zero(), max = Vec3::Zero();  // world box (bounded bodies) [m]
  Vec3 normal = Vec3::UnitZ();                  // world plane normal . x <= offset
  double offset = 0.0;                          // (half-spaces) [m]
  StepMotion motion;                            // in the coming step (zero when fixed)
  // The largest closing_m with a moving candidate neighbour (transfer_from), and the
  // largest with any other: what a struck body can pass on (CollisionSettings) [m].
  double transfer_m = 0.0, second_transfer_m = 0.0;
  int transfer_from = -1;
  double reach_m = 0.0;  // reach_m(motion) + transfer_m: how far the body's box is grown [m]
};

// What a's strikers other than `partner` can pass on to it.
inline double transfer_m(const BodyBounds& a, int partner) {
  return a.transfer_from == partner ? a.second_transfer_m : a.transfer_m;
}

// The distance within which bodies a and b report contacts: the floor, or as far as the
// two can close in one step, struck by their other neighbours, when that is more. Never
// more than a.reach_m + b.reach_m.
inline double pair_margin_m(const BodyBounds& a, int a_index, const BodyBounds& b, int b_index,
                            double floor_m) {
  return std::max(floor_m,
                  closing_m(a.motion, b.motion) + transfer_m(a, b_index) + transfer_m(b, a_index));
}

class Broadphase {
 public:
  // The bodies' kinds (fixed, half-space) are taken from the first bounds given; they must
  // not change afterwards.
  explicit Broadphase(const std::vector<BodyBounds>& bounds);
  ~Broadphase();

  // (world bounds and reaches of the bodies) => pairs (i, j), i < j, not both fixed, whose
  // boxes may come within pair_margin_m(i, j, floor_m) of each other, sorted. Each box is
  // grown by max(reach, floor / 2), so some pairs found are further apart than that.
  const std::vector<std::pair<int, int>>& find_pairs(const std::vector<BodyBounds>& bounds,
                                                     double floor_m);

 private:
  struct Trees;
  std::unique_ptr<Trees> trees_;
  std::vector<std::pair<int, int>> pairs_;
};

}  // namespace pivot
