#include "collision/collide.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <variant>

namespace pivot {

namespace {

// Shape => pieces: a compound's pieces in order, any other shape as piece 0.
struct PieceMaker {
  std::vector<PieceGeometry>* pieces;
  void operator()(const HalfSpace& h) const { pieces->push_back(make_half_space_geometry(h)); }
  void operator()(const Compound& c) const {
    if (c.pieces.empty()) throw std::invalid_argument("compound has no pieces");
    for (size_t k = 0; k < c.pieces.size(); ++k) {
      pieces->push_back(
          make_piece_geometry(c.pieces[k].shape, c.pieces[k].local, static_cast<int>(k)));
    }
  }
  template <typename ConvexKind>
  void operator()(const ConvexKind& shape) const {
    pieces->push_back(make_piece_geometry(ConvexShape(shape), Pose{}, 0));
  }
};

std::vector<PieceGeometry> make_body_geometry(const Body& body) {
  std::vector<PieceGeometry> pieces;
  try {
    std::visit(PieceMaker{&pieces}, body.shape);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument("body '" + body.name + "': " + e.what());
  }
  return pieces;
}

std::vector<BodyBounds> initial_bounds(const std::vector<Body>& bodies) {
  std::vector<BodyBounds> bounds(bodies.size());
  for (size_t i = 0; i < bodies.size(); ++i) {
    bounds[i].fixed = bodies[i].fixed;
    bounds[i].half_space = std::holds_alternative<HalfSpace>(bodies[i].shape);
  }
  return bounds;
}

bool boxes_within(const PosedPiece& a, const PosedPiece& b, double margin) {
  return (a.aabb_min.array() <= b.aabb_max.array() + margin).all() &&
         (b.aabb_min.array() <= a.aabb_max.array() + margin).all();
}

bool box_reaches_plane(const PosedPiece& bounded, const PosedPiece& plane, double margin) {
  const Vec3 centre = 0.5 * (bounded.aabb_min + bounded.aabb_max);
  const Vec3 half = 0.5 * (bounded.aabb_max - bounded.aabb_min);
  return plane.normal.dot(centre) - plane.normal.cwiseAbs().dot(half) <= plane.offset + margin;
}

// Whether the pieces' boxes (or a box and a half-space) come within the margin.
bool pieces_may_touch(const PosedPiece& a, const PosedPiece& b, double margin) {
  const bool plane_a = a.geometry->kind == PieceKind::HalfSpace;
  const bool plane_b = b.geometry->kind == PieceKind::HalfSpace;
  if (plane_a && plane_b) return false;
  if (plane_a) return box_reaches_plane(b, a, margin);
  if (plane_b) return box_reaches_plane(a, b, margin);
  return boxes_within(a, b, margin);
}

// Pieces of a compound that share a corner or an edge (a plate of bars on the ground)
// give the same contact twice; one of them is enough, and Lemke is spared a redundant row.
// Points and gaps within 1e-9 of the pieces' size, and normals within 1e-9, are the same.
void drop_duplicates(size_t first, double size_m, std::vector<Contact>* contacts) {
  const double same = 1e-9 * size_m;
  size_t kept = first;
  for (size_t k = first; k < contacts->size(); ++k) {
    const Contact& c = (*contacts)[k];
    bool seen = false;
    for (size_t j = first; j < kept && !seen; ++j) {
      const Contact& d = (*contacts)[j];
      seen = (c.point - d.point).norm() <= same && (c.normal - d.normal).norm() <= 1e-9 &&
             std::abs(c.gap_m - d.gap_m) <= same;
    }
    if (!seen) (*contacts)[kept++] = c;
  }
  contacts->resize(kept);
}

// One side of a group as a convex contact: the group's vertex against the side's plane.
Contact side_contact(const ContactGroup& group, const ContactSide& side) {
  Contact c;
  c.point = side.point;
  c.normal = side.normal;
  c.gap_m = side.gap_m;
  c.feature_a = group.vertex_on_a ? group.feature_a : side.feature;
  c.feature_b = group.vertex_on_a ? side.feature : group.feature_b;
  c.plane = group.vertex_on_a ? ContactPlane::FaceOfB : ContactPlane::FaceOfA;
  return c;
}

}  // namespace

CollisionPipeline::CollisionPipeline(const std::vector<Body>& bodies)
    : bounds_(initial_bounds(bodies)), broadphase_(bounds_) {
  bodies_.resize(bodies.size());
  posed_.resize(bodies.size());
  for (size_t i = 0; i < bodies.size(); ++i) {
    bodies_[i].fixed = bodies[i].fixed;
    bodies_[i].pieces = make_body_geometry(bodies[i]);
    for (const PieceGeometry& g : bodies_[i].pieces) {
      bodies_[i].has_polyhedron = bodies_[i].has_polyhedron || g.kind == PieceKind::Polyhedron;
      bodies_[i].size_m = std::max(bodies_[i].size_m, g.size_m);
    }
    posed_[i].resize(bodies_[i].pieces.size());
  }
}

void CollisionPipeline::pose_bodies(const std::vector<BodyState>& states) {
  for (size_t i = 0; i < bodies_.size(); ++i) {
    BodyBounds& b = bounds_[i];
    b.min = Vec3::Constant(std::numeric_limits<double>::infinity());
    b.max = -b.min;
    for (size_t k = 0; k < posed_[i].size(); ++k) {
      PosedPiece& p = posed_[i][k];
      p.set_pose(bodies_[i].pieces[k], states[i].pose);
      if (b.half_space) {
        b.normal = p.normal;
        b.offset = p.offset;
      } else {
        b.min = b.min.cwiseMin(p.aabb_min);
        b.max = b.max.cwiseMax(p.aabb_max);
      }
    }
  }
}

void CollisionPipeline::collide_pair(int k, const CollisionSettings& settings) {
  PairSlot& slot = slots_[k];
  try {
    collide_pair(&slot, settings);
  } catch (...) {
    slot.error = std::current_exception();
  }
}

void CollisionPipeline::collide_pair(PairSlot* slot, const CollisionSettings& settings) {
  const int a = slot->a, b = slot->b;
  const double margin = pair_margin_m(bounds_[a], a, bounds_[b], b, settings.margin_m);
  std::vector<Contact>& contacts = slot->contacts;
  contacts.clear();
  slot->group_buffer.recycle(&slot->groups);
  slot->error = nullptr;
  for (PosedPiece& pa : posed_[a]) {
    for (PosedPiece& pb : posed_[b]) {
      if (!pieces_may_touch(pa, pb, margin)) continue;
      piece_contacts(pa, pb, margin, &slot->narrowphase, &contacts);
    }
  }
  if (posed_[a].size() > 1 || posed_[b].size() > 1) {
    drop_duplicates(0, std::max(bodies_[a].size_m, bodies_[b].size_m), &contacts);
  }
  if (bodies_[a].has_polyhedron && bodies_[b].has_polyhedron) {
    const bool off = settings.nonconvex == NonconvexFormulation::Off;
    std::vector<ContactGroup>& groups = off ? slot->off_groups : slot->groups;
    for (bool vertex_on_a : {true, false}) {
      const int v = vertex_on_a ? a : b, e = vertex_on_a ? b : a;
      const GroupBodies pair{&posed_[v], &posed_[e], bounds_[e].min, bounds_[e].max, vertex_on_a,
                             a,          b};
      add_nonconvex_groups(pair, margin, stamp_, 0, &contacts, &slot->group_buffer, &groups,
                           &slot->nonconvex);
    }
    if (off) {
      // Off is the plain Stewart-Trinkle model Egan et al. start from: each side of a group
      // is its own half-space, extended beyond its face (their Fig. 1 artifact). Without
      // this the vertex would have no contact at all where its clipped manifold is empty.
      for (const ContactGroup& g : slot->off_groups) {
        for (const ContactSide& side : g.sides) contacts.push_back(side_contact(g, side));
      }
      slot->group_buffer.recycle(&slot->off_groups);
    }
  }
  for (Contact& c : contacts) {
    c.body_a = a;
    c.body_b = b;
  }
}

bool CollisionPipeline::share_reach(const std::vector<std::pair<int, int>>& pairs) {
  const auto offer = [](BodyBounds* to, int from, double closing) {
    if (closing > to->transfer_m) {
      to->second_transfer_m = to->transfer_m;
      to->transfer_m = closing;
      to->transfer_from = from;
    } else {
      to->second_transfer_m = std::max(to->second_transfer_m, closing);
    }
  };
  for (const auto& [i, j] : pairs) {
    if (bounds_[i].fixed || bounds_[j].fixed) continue;  // a fixed body passes nothing on
    const double closing = closing_m(bounds_[i].motion, bounds_[j].motion);
    offer(&bounds_[i], j, closing);
    offer(&bounds_[j], i, closing);
  }
  bool raised = false;
  for (BodyBounds& b : bounds_) {
    raised = raised || b.transfer_m > 0.0;
    b.reach_m += b.transfer_m;
  }
  return raised;
}

int CollisionPipeline::prepare(const std::vector<BodyState>& states,
                               const CollisionSettings& settings) {
  if (states.size() != bodies_.size()) {
    throw std::invalid_argument("collision: " + std::to_string(states.size()) + " states for " +
                                std::to_string(bodies_.size()) + " bodies");
  }
  if (!(settings.margin_m >= 0.0)) throw std::invalid_argument("collision: margin_m must be >= 0");
  const std::vector<StepMotion>& motion = settings.body_motion;
  if (!motion.empty() && motion.size() != bodies_.size()) {
    throw std::invalid_argument("collision: " + std::to_string(motion.size()) + " motions for " +
                                std::to_string(bodies_.size()) + " bodies");
  }
  for (size_t i = 0; i < bounds_.size(); ++i) {
    BodyBounds& b = bounds_[i];
    b.motion = motion.empty() || b.fixed ? StepMotion{} : motion[i];
    b.reach_m = reach_m(b.motion);
    if (!std::isfinite(b.reach_m) || !(b.motion.rotation_m >= 0.0)) {
      throw std::invalid_argument("collision: body " + std::to_string(i) +
                                  ": body_motion must be finite with rotation_m >= 0");
    }
    b.transfer_m = b.second_transfer_m = 0.0;
    b.transfer_from = -1;
  }
  ++stamp_;
  pose_bodies(states);
  const std::vector<std::pair<int, int>>* pairs =
      &broadphase_.find_pairs(bounds_, settings.margin_m);
  // One round: the pairs the shared reaches add are not shared again.
  if (share_reach(*pairs)) pairs = &broadphase_.find_pairs(bounds_, settings.margin_m);
  pairs_ = static_cast<int>(pairs->size());
  if (slots_.size() < pairs->size()) slots_.resize(pairs->size());
  for (int k = 0; k < pairs_; ++k) {
    const auto [i, j] = (*pairs)[k];
    slots_[k].a = bodies_[i].fixed ? j : i;
    slots_[k].b = bodies_[i].fixed ? i : j;
    // Posed here, not on demand in collide_pair, where pairs sharing a body may run at
    // once: every polyhedron of the pair's bodies (the group finder looks at a compound's
    // other pieces too). Posing depends on the pose alone, so the contacts are the same.
    for (int body : {i, j}) {
      for (PosedPiece& piece : posed_[body]) piece.pose_polyhedron(stamp_);
    }
  }
  return pairs_;
}

const CollisionResult& CollisionPipeline::gather() {
  result_.contacts.clear();
  group_buffer_.recycle(&result_.groups);
  for (int k = 0; k < pairs_; ++k) {
    if (slots_[k].error) std::rethrow_exception(slots_[k].error);
  }
  for (int k = 0; k < pairs_; ++k) {
    const PairSlot& slot = slots_[k];
    result_.contacts.insert(result_.contacts.end(), slot.contacts.begin(), slot.contacts.end());
    for (const ContactGroup& g : slot.groups) group_buffer_.add(&result_.groups) = g;
  }
  return result_;
}

const CollisionResult& CollisionPipeline::run(const std::vector<BodyState>& states,
                                              const CollisionSettings& settings) {
  const int pairs = prepare(states, settings);
  for (int k = 0; k < pairs; ++k) collide_pair(k, settings);
  return gather();
}

CollisionDetector::CollisionDetector(const std::vector<Body>& bodies)
    : pipeline_(std::make_unique<CollisionPipeline>(bodies)) {}
CollisionDetector::~CollisionDetector() = default;
CollisionDetector::CollisionDetector(CollisionDetector&&) noexcept = default;
CollisionDetector& CollisionDetector::operator=(CollisionDetector&&) noexcept = default;

const CollisionResult& CollisionDetector::detect(const std::vector<BodyState>& states,
                                                 const CollisionSettings& settings) {
  return pipeline_->run(states, settings);
}

CollisionResult collide(const std::vector<Body>& bodies, const std::vector<BodyState>& states,
                        const CollisionSettings& settings) {
  CollisionPipeline pipeline(bodies);
  return pipeline.run(states, settings);
}

}  // namespace pivot
