// What collision detection hands to the stepper and the viewer: convex contacts, the
// nonconvex contact groups of Egan, Berard and Trinkle, and the detector that finds them.
// Everything here is plain data in world coordinates, so it can be drawn and printed as is.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "pivot/body.hpp"

namespace pivot {

// A feature of one convex piece of a body. Box: vertex i has coordinates (+-x, +-y, +-z)
// with bit 0, 1, 2 of i set for +; faces 0..5 are +x, -x, +y, -y, +z, -z; edges are
// numbered walking the faces in that order. ConvexMesh: vertex ids are those of the mesh;
// coplanar faces are merged and numbered in order of first appearance. Curved shapes:
// Sphere face 0; Capsule face 0 = +z cap, 1 = -z cap, 2 = side; Cylinder face 0 = +z disc,
// 1 = -z disc, 2 = side, edge 0 = +z rim, 1 = -z rim; HalfSpace face 0.
enum class FeatureType { Vertex, Edge, Face };
const char* to_string(FeatureType type);

struct Feature {
  FeatureType type = FeatureType::Face;
  int index = 0;  // vertex, edge or face id within the piece
  int piece = 0;  // index into Compound::pieces; 0 for a body that is a single shape
};
bool operator==(const Feature& a, const Feature& b);
bool operator!=(const Feature& a, const Feature& b);
// "v3", "e5", "f0", with "@p2" appended for compound pieces other than 0.
std::string describe(const Feature& feature);

// Whose flat face a contact's normal is, so that the plane turns with that body: the
// reference face of a clipped manifold (a polyhedron's face, a cylinder's end), a
// half-space. None: an edge-edge contact's or a curved surface's normal, which follows the
// witnesses instead.
enum class ContactPlane { None, FaceOfA, FaceOfB };

// The same plane seen with the bodies swapped.
inline ContactPlane opposite(ContactPlane plane) {
  switch (plane) {
    case ContactPlane::FaceOfA:
      return ContactPlane::FaceOfB;
    case ContactPlane::FaceOfB:
      return ContactPlane::FaceOfA;
    case ContactPlane::None:
      break;
  }
  return ContactPlane::None;
}

// A convex (Stewart-Trinkle) contact: one half-space constraint f + n.(dx_a - dx_b) >= 0.
// body_a is never a fixed body; body_b may be (when both move, body_a has the lower index).
// The witness on A is point + gap_m * normal.
struct Contact {
  int body_a = -1;
  int body_b = -1;
  Vec3 point = Vec3::Zero();    // on the surface of B, world frame [m]
  Vec3 normal = Vec3::UnitZ();  // unit, from B toward A: the direction that pushes A off B
  double gap_m = 0.0;           // signed gap f: > 0 separated, < 0 penetrating [m]
  Feature feature_a;
  Feature feature_b;
  ContactPlane plane = ContactPlane::None;
};

// One side of a nonconvex group: the plane of a face adjacent to the convex edge or vertex
// that the group's vertex meets (Egan Sec. VI: "sides of the group").
struct ContactSide {
  Vec3 normal = Vec3::UnitZ();  // unit, from B toward A, perpendicular to the side's face
  double gap_m = 0.0;           // signed distance f_i of the vertex from the side's plane [m]
  // B's witness, world frame [m]: the foot of the vertex on the side's plane when the sides
  // are B's faces (vertex_on_a), else the vertex; A's is point + gap_m * normal, as in Contact.
  Vec3 point = Vec3::Zero();
  Feature feature;  // the face, on the body that owns the edge or vertex
};

// Egan, Berard and Trinkle's nonconvex group: where a vertex meets a convex edge or vertex,
// the free space is the union of the half-spaces of the adjacent faces, so the constraint is
// max_i f_i >= 0 (Egan (29)), not one half-space per face. All faces adjacent to the edge or
// vertex are sides, also those far from the vertex: they bound the others (Egan Fig. 8).
// As in Contact, body_a is never fixed; vertex_on_a says which body holds the vertex (false
// when a fixed body's corner meets a moving body's edge).
struct ContactGroup {
  int body_a = -1;
  int body_b = -1;
  bool vertex_on_a = true;
  Vec3 point = Vec3::Zero();  // the vertex, world frame [m]
  Feature feature_a;          // the vertex (vertex_on_a) or the edge/vertex it meets
  Feature feature_b;
  std::vector<ContactSide> sides;

  // Side k as a plane contact between the group's bodies (Egan Sec. IV: one plane per side),
  // as the stepper solves it.
  Contact side_contact(int k) const;
};

// How a contact where a vertex meets a convex edge or corner (a nonconvex group) enters
// the LCP, after Egan, Berard and Trinkle. Collision (CollisionSettings below)
// reports groups for Max and Sum and none for Off.
enum class NonconvexFormulation {
  Max,  // Sec. IV: the free space is exactly the union of the sides' half-spaces
  Sum,  // Sec. V: fewer LCP rows, but admits a small triangle at each corner
  Off,  // every side is a separate half-space (collision reports no groups): the sides
        // act as if they extended forever (their Fig. 1 artifact)
};
const char* to_string(NonconvexFormulation formulation);
// Parses "max" | "sum" | "off"; returns false on anything else and leaves *formulation.
bool parse_nonconvex_formulation(const std::string& text, NonconvexFormulation* formulation);

// How a body can move in the coming step without contact impulses (the stepper's
// speculative reach, step_motion in src/dynamics): its translation h v with the velocity
// at the step's start and with the free-motion velocity at its end (gravity, wrenches),
// and how far its rotation can carry any of its points, h max(|w0|, |w1|) r [m].
struct StepMotion {
  Vec3 translation_now_m = Vec3::Zero();
  Vec3 translation_free_m = Vec3::Zero();
  double rotation_m = 0.0;
};
// How far any point of the body can move: the longer translation plus the rotation's reach.
double reach_m(const StepMotion& motion);
// How far two bodies can close on each other: their relative translation plus both
// rotations' reach. Gravity moves both alike: boxes falling side by side do not close.
double closing_m(const StepMotion& a, const StepMotion& b);

struct CollisionSettings {
  // Potential contacts: every feature pair of bodies a and b with gap
  //   f <= max(margin_m, closing_m(a, b) + transfer_a + transfer_b)
  // is reported (with f >= 0 when separated), so the stepper can stop penetration before
  // it happens. margin_m is the floor for every pair [m]. A moving body struck by another
  // moves up to as far as the two close, so its transfer is the largest closing_m with any
  // moving body it may touch other than the pair's partner (one hop: a transfer further
  // along a chain in the same step is caught by penetration recovery on the next).
  double margin_m = 0.005;
  // One entry per body, or empty when nothing moves (the floor alone).
  std::vector<StepMotion> body_motion;
  // Max and Sum differ only in the LCP the stepper builds, so both get the groups. Off
  // reports every side as a convex half-space, which shows Egan's artifact (Fig. 1): the
  // face next to a corner acts as if it extended forever.
  NonconvexFormulation nonconvex = NonconvexFormulation::Max;
};

// Grouped by body pair, the pairs in ascending order of their two indices, then by piece
// pair, so runs are reproducible.
struct CollisionResult {
  std::vector<Contact> contacts;
  std::vector<ContactGroup> groups;
};

class CollisionPipeline;

// Finds contacts for one model across many states. Keeps FCL's dynamic AABB tree and its
// scratch buffers between calls (Box2D keeps its broadphase in the world the same way),
// so a step allocates nothing once warm. Throws std::invalid_argument for a degenerate
// shape (non-positive size, a ConvexMesh without faces) naming the body.
class CollisionDetector {
 public:
  explicit CollisionDetector(const std::vector<Body>& bodies);
  ~CollisionDetector();
  CollisionDetector(CollisionDetector&&) noexcept;
  CollisionDetector& operator=(CollisionDetector&&) noexcept;

  // (poses of the bodies given at construction) => contacts and groups. states must have
  // one entry per body. The result stays valid until the next call.
  const CollisionResult& detect(const std::vector<BodyState>& states,
                                const CollisionSettings& settings);

 private:
  std::unique_ptr<CollisionPipeline> pipeline_;
};

// One-shot: builds a detector, runs it once.
CollisionResult collide(const std::vector<Body>& bodies, const std::vector<BodyState>& states,
                        const CollisionSettings& settings);

// The impulse a solved contact applied this step, for drawing and contact logs, with the
// friction cone the solver used for it.
struct ContactImpulse {
  int contact = -1;  // index into the step's CollisionResult::contacts
  int island = -1;
  double normal_ns = 0.0;           // theta [N s]
  Vec3 friction_ns = Vec3::Zero();  // sum_j phi_j t_j, world frame [N s]
  double mu = 0.0;                  // the friction coefficient used (mixed, or the override)
  // The solver's friction directions: t_j is first_direction turned about the contact
  // normal by 2 pi j / d, j = 0 .. d-1 (world frame, unit).
  int d = 0;
  Vec3 first_direction = Vec3::UnitX();
  // Of a group side's impulse (World::side_impulses; contact is then -1): the group's
  // index in CollisionResult::groups and the side's index in its sides.
  int group = -1;
  int side = -1;
};

}  // namespace pivot
