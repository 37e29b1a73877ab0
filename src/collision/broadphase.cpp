#include "collision/broadphase.hpp"

#include <fcl/broadphase/broadphase_dynamic_AABB_tree.h>
#include <fcl/geometry/shape/sphere.h>

#include <algorithm>

namespace pivot {

namespace {

// A tree leaf. FCL would bound a rotated shape by the cube around its bounding sphere; we
// keep the tight box of the body (all pieces, grown by the margin) in the object's own
// AABB member instead, which is all the tree reads.
class Proxy : public fcl::CollisionObjectd {
 public:
  Proxy(const std::shared_ptr<fcl::CollisionGeometryd>& placeholder, int body)
      : fcl::CollisionObjectd(placeholder), body_(body) {}
  int body() const { return body_; }
  // Returns whether the box changed.
  bool set_box(const Vec3& lo, const Vec3& hi) {
    if (aabb.min_ == lo && aabb.max_ == hi) return false;
    aabb.min_ = lo;
    aabb.max_ = hi;
    return true;
  }

 private:
  int body_;
};

struct PairSink {
  std::vector<std::pair<int, int>>* pairs;
};

bool collect_pair(fcl::CollisionObjectd* o1, fcl::CollisionObjectd* o2, void* data) {
  const int a = static_cast<Proxy*>(o1)->body(), b = static_cast<Proxy*>(o2)->body();
  static_cast<PairSink*>(data)->pairs->emplace_back(std::min(a, b), std::max(a, b));
  return false;  // keep going
}

}  // namespace

struct Broadphase::Trees {
  fcl::DynamicAABBTreeCollisionManagerd moving, fixed;
  std::vector<std::unique_ptr<Proxy>> proxies;  // per body; null for half-spaces
  std::vector<int> half_spaces;
  std::vector<char> fixed_body;
};

Broadphase::Broadphase(const std::vector<BodyBounds>& bounds) : trees_(std::make_unique<Trees>()) {
  // One placeholder geometry for every proxy; only the proxies' boxes are ever read.
  const auto placeholder = std::make_shared<fcl::Sphered>(1.0);
  trees_->proxies.resize(bounds.size());
  trees_->fixed_body.resize(bounds.size());
  std::vector<fcl::CollisionObjectd*> moving, fixed;
  for (size_t i = 0; i < bounds.size(); ++i) {
    trees_->fixed_body[i] = bounds[i].fixed;
    if (bounds[i].half_space) {
      trees_->half_spaces.push_back(static_cast<int>(i));
      continue;
    }
    trees_->proxies[i] = std::make_unique<Proxy>(placeholder, static_cast<int>(i));
    trees_->proxies[i]->set_box(bounds[i].min, bounds[i].max);
    (bounds[i].fixed ? fixed : moving).push_back(trees_->proxies[i].get());
  }
  // Each update re-inserts this many leaves to keep the tree balanced as bodies move: FCL's
  // 10 a step were 5 % of a resting five-block stack's step, three times the tree's own
  // queries; a twentieth of the leaves a step keeps FCL's pace from 200 bodies on.
  trees_->moving.tree_incremental_balance_pass =
      std::clamp(static_cast<int>(moving.size()) / 20, 1, 10);
  trees_->moving.registerObjects(moving);
  trees_->fixed.registerObjects(fixed);
  trees_->moving.setup();
  trees_->fixed.setup();
}

Broadphase::~Broadphase() = default;

const std::vector<std::pair<int, int>>& Broadphase::find_pairs(
    const std::vector<BodyBounds>& bounds, double floor_m) {
  Trees& t = *trees_;
  bool fixed_moved = false;
  for (size_t i = 0; i < bounds.size(); ++i) {
    if (!t.proxies[i]) continue;
    const Vec3 grow = Vec3::Constant(std::max(bounds[i].reach_m, 0.5 * floor_m));
    const bool changed = t.proxies[i]->set_box(bounds[i].min - grow, bounds[i].max + grow);
    fixed_moved = fixed_moved || (changed && t.fixed_body[i]);
  }
  t.moving.update();  // refit the tree to the new boxes
  if (fixed_moved) t.fixed.update();

  pairs_.clear();
  PairSink sink{&pairs_};
  t.moving.collide(&sink, collect_pair);
  if (!t.moving.empty() && !t.fixed.empty()) t.moving.collide(&t.fixed, &sink, collect_pair);

  // Half-spaces: a body's box reaches within the margin of the plane.
  for (int h : t.half_spaces) {
    const Vec3& n = bounds[h].normal;
    for (size_t i = 0; i < bounds.size(); ++i) {
      if (!t.proxies[i] || (t.fixed_body[i] && t.fixed_body[h])) continue;
      const Vec3 centre = 0.5 * (bounds[i].min + bounds[i].max);
      const Vec3 half = 0.5 * (bounds[i].max - bounds[i].min);
      const double margin_m = pair_margin_m(bounds[i], static_cast<int>(i), bounds[h], h, floor_m);
      if (n.dot(centre) - n.cwiseAbs().dot(half) <= bounds[h].offset + margin_m) {
        pairs_.emplace_back(std::min<int>(h, static_cast<int>(i)),
                            std::max<int>(h, static_cast<int>(i)));
      }
    }
  }
  std::sort(pairs_.begin(), pairs_.end());
  return pairs_;
}

}  // namespace pivot
