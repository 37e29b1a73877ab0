// Narrowphase: the contacts between two convex pieces (or a piece and a half-space).
// Polyhedra go through the separating-axis test and face clipping (manifold.hpp); spheres,
// capsules and planes use exact closed forms; cylinders, and capsules against polyhedra,
// take their signed distance from convex_distance.hpp (GJK, or the axis of least overlap)
// and then clip the supporting features, so a cylinder lying on a face gives its two line
// ends and a standing one its rim.
#pragma once

#include <vector>

#include "collision/manifold.hpp"
#include "collision/polyhedron.hpp"
#include "pivot/contact.hpp"

namespace pivot {

enum class PieceKind { Polyhedron, Sphere, Capsule, Cylinder, HalfSpace };

// Immutable collision geometry of one convex piece, or of a half-space.
struct PieceGeometry {
  PieceKind kind = PieceKind::Polyhedron;
  int piece = 0;                      // index in the compound (0 for a single shape)
  Pose local;                         // piece frame in the body frame
  Polyhedron polyhedron;              // Box and ConvexMesh
  double radius_m = 0.0;              // Sphere, Capsule, Cylinder
  double half_length_m = 0.0;         // Capsule, Cylinder (along the piece's z axis)
  Vec3 plane_normal = Vec3::UnitZ();  // HalfSpace, body frame
  double plane_offset_m = 0.0;
  Vec3 box_center = Vec3::Zero();  // piece-frame bounding box (not for half-spaces)
  Vec3 box_half = Vec3::Zero();
  double size_m = 0.0;  // bounding radius: the length scale of relative tolerances
};

// Throws std::invalid_argument (without the body's name; the caller adds it) for a
// non-positive size or a bad ConvexMesh.
PieceGeometry make_piece_geometry(const ConvexShape& shape, const Pose& local, int piece);
PieceGeometry make_half_space_geometry(const HalfSpace& half_space);

// A piece at one step's pose.
struct PosedPiece {
  const PieceGeometry* geometry = nullptr;
  Pose pose;  // world
  Mat3 rotation = Mat3::Identity();
  Vec3 aabb_min = Vec3::Zero(), aabb_max = Vec3::Zero();  // world bounds (not half-spaces)
  Vec3 normal = Vec3::UnitZ();  // HalfSpace: world plane normal . x = offset
  double offset = 0.0;
  PosedPolyhedron poly;  // Polyhedron kind; filled by pose_polyhedron()
  int poly_stamp = -1;   // which detection the posed polyhedron belongs to

  // Pose and bounds from the body's pose; the polyhedron is posed on demand.
  void set_pose(const PieceGeometry& geometry, const Pose& body_pose);
  void pose_polyhedron(int stamp);
  Vec3 axis() const { return rotation.col(2); }
  // max over the piece of direction . x
  double support(const Vec3& direction) const;
};

// Signed distance of a point from the piece's surface (< 0 inside) [m]. Polyhedra must be
// posed.
double signed_distance(const PosedPiece& piece, const Vec3& p);

struct NarrowphaseScratch {
  ClipScratch clip;
};

// (two posed pieces of bodies A and B) => their contacts with gap <= margin_m, appended to
// out with features set and body indices left to the caller. Polyhedra must be posed.
void piece_contacts(const PosedPiece& a, const PosedPiece& b, double margin_m,
                    NarrowphaseScratch* scratch, std::vector<Contact>* out);

}  // namespace pivot
