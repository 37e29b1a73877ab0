// The collision stage of a step: broadphase => narrowphase per piece pair => nonconvex
// groups, for one model (bodies) across many states. CollisionDetector (pivot/contact.hpp)
// is this pipeline behind the public interface. Its pairs may be collided on several
// threads (the World's): prepare, collide_pair for every pair on any thread, gather.
#pragma once

#include <exception>
#include <utility>
#include <vector>

#include "collision/broadphase.hpp"
#include "collision/narrowphase.hpp"
#include "collision/nonconvex_groups.hpp"
#include "pivot/body.hpp"
#include "pivot/contact.hpp"

namespace pivot {

class CollisionPipeline {
 public:
  // Builds the collision geometry of every piece; throws std::invalid_argument naming the
  // body for a degenerate shape.
  explicit CollisionPipeline(const std::vector<Body>& bodies);
  CollisionPipeline(const CollisionPipeline&) = delete;
  CollisionPipeline& operator=(const CollisionPipeline&) = delete;

  // (poses) => contacts and groups, valid until the next call.
  const CollisionResult& run(const std::vector<BodyState>& states,
                             const CollisionSettings& settings);

  // run() in its three parts. (poses) => the candidate pairs, every polyhedron of a body
  // in one posed; returns how many pairs.
  int prepare(const std::vector<BodyState>& states, const CollisionSettings& settings);
  // (pair k) => its contacts and groups, into the pair's own slot: calls for different k
  // may run at once (they only read the posed bodies).
  void collide_pair(int k, const CollisionSettings& settings);
  // (every pair's slot) => contacts and groups in pair order, the same for any order of
  // the collide_pair calls. Throws what a pair's collision threw, the first pair's first.
  const CollisionResult& gather();

 private:
  struct BodyGeometry {
    bool fixed = false;
    bool has_polyhedron = false;
    double size_m = 0.0;  // largest piece size: the scale of relative tolerances
    std::vector<PieceGeometry> pieces;
  };

  // What one candidate pair found, and its scratch: a pair's collision touches nothing
  // else, so pairs may be collided at once.
  struct PairSlot {
    int a = -1, b = -1;  // body a is never fixed: a fixed body is always the pair's B
    std::vector<Contact> contacts;
    std::vector<ContactGroup> groups;  // Max and Sum
    GroupBuffer group_buffer;
    // NonconvexFormulation::Off: the groups found, before their sides become convex contacts.
    std::vector<ContactGroup> off_groups;
    NarrowphaseScratch narrowphase;
    NonconvexScratch nonconvex;
    std::exception_ptr error;
  };

  // (poses) => world pieces and body bounds
  void pose_bodies(const std::vector<BodyState>& states);
  // (one candidate pair) => its contacts and groups, into its slot
  void collide_pair(PairSlot* slot, const CollisionSettings& settings);
  // (candidate pairs) => each moving body's transfer (BodyBounds): a body at rest struck
  // by a fast one moves up to as far as the two close within the step, and its own
  // contacts (a box on the ground hit from above) must be seen too. Closing speeds and one
  // hop, not each body's own speed shared over its whole cluster: in a pile every body is
  // a candidate of every neighbour, and the reach of one box falling at 10 m/s (0.1 m a
  // step) given to all made every feature pair within 0.2 m a contact, 3,000 in a pile of
  // 40 (issue 21). Returns whether any body has a transfer (its box grew).
  bool share_reach(const std::vector<std::pair<int, int>>& pairs);

  std::vector<BodyGeometry> bodies_;
  std::vector<std::vector<PosedPiece>> posed_;
  std::vector<BodyBounds> bounds_;
  Broadphase broadphase_;
  std::vector<PairSlot> slots_;  // per candidate pair, kept from call to call
  int pairs_ = 0;                // this call's
  GroupBuffer group_buffer_;     // result_'s groups
  CollisionResult result_;
  int stamp_ = 0;
};

}  // namespace pivot
