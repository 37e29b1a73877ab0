#include "collision/narrowphase.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>
#include <variant>

#include "collision/convex_distance.hpp"

namespace pivot {

namespace {

// A flat cylinder end touches a face along its whole rim; it is reported at 8 rim points
// (a regular octagon in the body frame): enough to stand on, few for the LCP.
constexpr int kRimPoints = 8;
// Directions closer than 1e-4 rad count as parallel (and perpendicular within 1e-4): far
// above the accuracy of GJK's normal at gaps >= 1e-6 m with the tolerance used below, so
// a capsule lying on a face keeps its two line ends from step to step.
constexpr double kParallelSin = 1e-4;
const double kParallelCos = std::sqrt(1.0 - kParallelSin * kParallelSin);
// Points closer than 1e-9 of the pair's size are one point; a flat axis within 1e-7 of it
// of the distance is the normal (convex_distance.cpp: GJK's direction is no better there).
constexpr double kMergeRel = 1e-9;
constexpr double kTouchingRel = 1e-7;

Feature vertex_feature(int index, int piece) { return {FeatureType::Vertex, index, piece}; }
Feature edge_feature(int index, int piece) { return {FeatureType::Edge, index, piece}; }
Feature face_feature(int index, int piece) { return {FeatureType::Face, index, piece}; }

// Cylinder and capsule faces and rims, as numbered in pivot/contact.hpp.
constexpr int kPlusCap = 0, kMinusCap = 1, kSide = 2;
constexpr int kPlusRim = 0, kMinusRim = 1;

// Contacts computed with the pieces swapped become contacts of (A, B): the point moves to
// the other witness and the normal turns round.
void flip_contacts(size_t first, std::vector<Contact>* out) {
  for (size_t i = first; i < out->size(); ++i) {
    Contact& c = (*out)[i];
    c.point += c.gap_m * c.normal;
    c.normal = -c.normal;
    std::swap(c.feature_a, c.feature_b);
    c.plane = opposite(c.plane);
  }
}

void push_contact(const Vec3& point_b, const Vec3& normal, double gap, const Feature& fa,
                  const Feature& fb, std::vector<Contact>* out) {
  Contact c;
  c.point = point_b;
  c.normal = normal;
  c.gap_m = gap;
  c.feature_a = fa;
  c.feature_b = fb;
  out->push_back(c);
}

Vec3 capsule_end(const PosedPiece& p, double sign) {
  return p.pose.position + sign * p.geometry->half_length_m * p.axis();
}

// Face of a capsule at segment parameter s in [0, 1] from the -z end to the +z end.
int capsule_face(double s) { return s <= 0.0 ? kMinusCap : s >= 1.0 ? kPlusCap : kSide; }

// Any unit vector when v is (nearly) zero.
Vec3 direction_or(const Vec3& v, const Vec3& fallback) {
  const double n = v.norm();
  return n > 0.0 ? Vec3(v / n) : fallback;
}

// ---- half-space B ---------------------------------------------------------------------

void half_space_contacts(const PosedPiece& a, const PosedPiece& h, double margin,
                         std::vector<Contact>* out) {
  const Vec3& n = h.normal;
  const int pa = a.geometry->piece;
  const Feature plane = face_feature(0, h.geometry->piece);
  auto emit_point = [&](const Vec3& p_a, double radius, const Feature& fa) {
    const double height = n.dot(p_a) - h.offset;
    if (height - radius <= margin) {
      push_contact(p_a - height * n, n, height - radius, fa, plane, out);
      out->back().plane = ContactPlane::FaceOfB;
    }
  };
  switch (a.geometry->kind) {
    case PieceKind::Polyhedron:
      for (int v : a.geometry->polyhedron.hull_vertices) {
        emit_point(a.poly.vertices[v], 0.0, vertex_feature(v, pa));
      }
      break;
    case PieceKind::Sphere:
      emit_point(a.pose.position, a.geometry->radius_m, face_feature(0, pa));
      break;
    case PieceKind::Capsule:
      emit_point(capsule_end(a, 1.0), a.geometry->radius_m, face_feature(kPlusCap, pa));
      emit_point(capsule_end(a, -1.0), a.geometry->radius_m, face_feature(kMinusCap, pa));
      break;
    case PieceKind::Cylinder: {
      const Vec3 axis = a.axis();
      const double r = a.geometry->radius_m;
      const bool flat = std::abs(axis.dot(n)) >= kParallelCos;
      // Without a lowest point (flat), all of the octagon; tilted, the lowest point and
      // the octagon's points within the margin away from it: a cylinder rocking on its
      // end would otherwise swing the far side of the rim through the plane unseen.
      const Vec3 down = flat ? Vec3::Zero() : Vec3(-(n - n.dot(axis) * axis).normalized());
      const double lowest_angle =
          std::atan2(down.dot(a.rotation.col(1)), down.dot(a.rotation.col(0)));
      for (int rim : {kPlusRim, kMinusRim}) {
        const Vec3 centre = capsule_end(a, rim == kPlusRim ? 1.0 : -1.0);
        if (!flat) emit_point(centre + r * down, 0.0, edge_feature(rim, pa));
        for (int k = 0; k < kRimPoints; ++k) {
          const double theta = 2.0 * kPi * k / kRimPoints;
          if (!flat &&
              std::abs(std::remainder(theta - lowest_angle, 2.0 * kPi)) < kPi / kRimPoints) {
            continue;  // the lowest point stands for it
          }
          const Vec3 p = centre + r * (std::cos(theta) * a.rotation.col(0) +
                                       std::sin(theta) * a.rotation.col(1));
          emit_point(p, 0.0, edge_feature(rim, pa));
        }
      }
      break;
    }
    case PieceKind::HalfSpace:
      break;
  }
}

// ---- sphere A -------------------------------------------------------------------------

void sphere_point_contact(const PosedPiece& s, const Vec3& q, double radius_b, const Vec3& fallback,
                          double margin, const Feature& fb, std::vector<Contact>* out) {
  const Vec3& c = s.pose.position;
  const double d = (c - q).norm();
  const double gap = d - s.geometry->radius_m - radius_b;
  if (gap > margin) return;
  const Vec3 n = direction_or(c - q, fallback);
  push_contact(q + radius_b * n, n, gap, face_feature(0, s.geometry->piece), fb, out);
}

void sphere_contacts(const PosedPiece& s, const PosedPiece& b, double margin,
                     std::vector<Contact>* out) {
  const Vec3& c = s.pose.position;
  const int pb = b.geometry->piece;
  switch (b.geometry->kind) {
    case PieceKind::Sphere:
      sphere_point_contact(s, b.pose.position, b.geometry->radius_m, Vec3::UnitZ(), margin,
                           face_feature(0, pb), out);
      break;
    case PieceKind::Capsule: {
      const Vec3 p0 = capsule_end(b, -1.0), p1 = capsule_end(b, 1.0);
      const double t = segment_param(c, p0, p1);
      sphere_point_contact(s, p0 + t * (p1 - p0), b.geometry->radius_m, (b.axis().unitOrthogonal()),
                           margin, face_feature(capsule_face(t), pb), out);
      break;
    }
    case PieceKind::Polyhedron: {
      const PolyhedronPoint q = closest_point(b.poly, c);
      const double gap = q.distance - s.geometry->radius_m;
      if (gap > margin) break;
      // Outside: along the closest-point direction; inside, or on the surface (a centre
      // outside a plane by round-off whose closest point is itself, an edge or a vertex:
      // q.index is then no face), out of the plane it is furthest outside of.
      const Vec3 n =
          q.distance > 0.0 ? Vec3((c - q.closest).normalized()) : b.poly.normals[q.plane_face];
      push_contact(q.closest, n, gap, face_feature(0, s.geometry->piece), {q.type, q.index, pb},
                   out);
      break;
    }
    case PieceKind::Cylinder:
    case PieceKind::HalfSpace:
      break;  // dispatched elsewhere
  }
}

// ---- capsule A, capsule B -------------------------------------------------------------

void capsule_contacts(const PosedPiece& a, const PosedPiece& b, double margin,
                      std::vector<Contact>* out) {
  const Vec3 a0 = capsule_end(a, -1.0), a1 = capsule_end(a, 1.0);
  const Vec3 b0 = capsule_end(b, -1.0), b1 = capsule_end(b, 1.0);
  const double ra = a.geometry->radius_m, rb = b.geometry->radius_m;
  const int pa = a.geometry->piece, pb = b.geometry->piece;
  // Crossing axes: the common perpendicular, turned toward A.
  Vec3 fallback = direction_or(a.axis().cross(b.axis()), a.axis().unitOrthogonal());
  if (fallback.dot(a.pose.position - b.pose.position) < 0) fallback = -fallback;
  auto emit_at = [&](double s, double t) {
    const Vec3 pA = a0 + s * (a1 - a0), pB = b0 + t * (b1 - b0);
    const Vec3 n = direction_or(pA - pB, fallback);
    const double gap = (pA - pB).norm() - ra - rb;
    if (gap <= margin) {
      push_contact(pB + rb * n, n, gap, face_feature(capsule_face(s), pa),
                   face_feature(capsule_face(t), pb), out);
    }
  };
  const Vec3 ua = a.axis(), ub = b.axis();
  if (ua.cross(ub).norm() <= kParallelSin) {
    // Parallel: a line contact, reported at both ends of the overlap of the segments.
    const double length = (a1 - a0).norm();
    double lo = ua.dot(b0 - a0), hi = ua.dot(b1 - a0);
    if (lo > hi) std::swap(lo, hi);
    lo = std::max(lo, 0.0);
    hi = std::min(hi, length);
    if (length > 0.0 && hi - lo > kMergeRel * (a.geometry->size_m + b.geometry->size_m)) {
      for (double along : {lo, hi}) {
        const double s = along / length;
        emit_at(s, segment_param(a0 + s * (a1 - a0), b0, b1));
      }
      return;
    }
  }
  double s = 0.0, t = 0.0;
  closest_segment_params(a0, a1, b0, b1, &s, &t);
  emit_at(s, t);
}

// ---- supporting features and the FCL path ---------------------------------------------

// The part of a piece that lies furthest along a direction: a polygon (a face, or a flat
// cylinder end as an octagon), a segment (an edge, a cylinder's or capsule's side line),
// or a point.
struct Support {
  enum Kind { Point, Segment, Polygon } kind = Point;
  // A Point's second entry is never read, but a Support is copied whole: set, so that the
  // copy reads no uninitialised memory (g++ 12 warned of it in every build).
  Vec3 points[2] = {Vec3::Zero(), Vec3::Zero()};
  Feature point_features[2];
  Feature interior;                 // the whole feature (face, edge, side)
  int poly_face = -1;               // Polygon of a polyhedron
  Vec3 disc_centre = Vec3::Zero();  // Polygon of a cylinder end
  double disc_sign = 1.0;
};

// The direction from a cylinder's or capsule's axis to its points furthest along d.
Vec3 radial_direction(const PosedPiece& p, const Vec3& d) {
  if (p.geometry->kind == PieceKind::Capsule) return d;
  const Vec3 axis = p.axis();
  return direction_or(d - axis.dot(d) * axis, axis.unitOrthogonal());
}

// The face of a polyhedron whose outward normal is closest to d.
int face_along(const PosedPolyhedron& poly, const Vec3& d) {
  int best = 0;
  for (int f = 1; f < static_cast<int>(poly.normals.size()); ++f) {
    if (poly.normals[f].dot(d) > poly.normals[best].dot(d)) best = f;
  }
  return best;
}

// A face of a polyhedron as a polygon.
Support face_polygon(int face, int piece) {
  Support s;
  s.kind = Support::Polygon;
  s.poly_face = face;
  s.interior = face_feature(face, piece);
  return s;
}

// An edge of a polyhedron as a segment.
Support edge_segment(const PosedPolyhedron& poly, int edge, int piece) {
  const Polyhedron::Edge& e = poly.shape->edges[edge];
  Support s;
  s.kind = Support::Segment;
  s.points[0] = poly.vertices[e.v0];
  s.points[1] = poly.vertices[e.v1];
  s.point_features[0] = vertex_feature(e.v0, piece);
  s.point_features[1] = vertex_feature(e.v1, piece);
  s.interior = edge_feature(edge, piece);
  return s;
}

// The side line of a cylinder or capsule furthest along the radial direction: for a
// capsule the furthest points of its end spheres, for a cylinder those of its rims.
Support side_segment(const PosedPiece& p, const Vec3& radial) {
  const bool capsule = p.geometry->kind == PieceKind::Capsule;
  const int piece = p.geometry->piece;
  const double r = p.geometry->radius_m;
  Support s;
  s.kind = Support::Segment;
  s.points[0] = capsule_end(p, 1.0) + r * radial;
  s.points[1] = capsule_end(p, -1.0) + r * radial;
  s.point_features[0] = capsule ? face_feature(kSide, piece) : edge_feature(kPlusRim, piece);
  s.point_features[1] = capsule ? face_feature(kSide, piece) : edge_feature(kMinusRim, piece);
  s.interior = face_feature(kSide, piece);
  return s;
}

// The flat end of a cylinder on the side `sign` of its axis.
Support flat_end(const PosedPiece& p, double sign) {
  Support s;
  s.kind = Support::Polygon;
  s.disc_centre = capsule_end(p, sign);
  s.disc_sign = sign;
  s.interior = face_feature(sign > 0 ? kPlusCap : kMinusCap, p.geometry->piece);
  return s;
}

Support support_feature(const PosedPiece& p, const Vec3& d) {
  Support s;
  const int piece = p.geometry->piece;
  switch (p.geometry->kind) {
    case PieceKind::Polyhedron: {
      const PosedPolyhedron& poly = p.poly;
      const int best_face = face_along(poly, d);
      if (poly.normals[best_face].dot(d) >= kParallelCos) return face_polygon(best_face, piece);
      const int v = poly.min_vertex(-d);
      const Polyhedron& shape = *poly.shape;
      int best_edge = -1;
      double best_cos = kParallelSin;
      for (int k = shape.vertex_edge_start[v]; k < shape.vertex_edge_start[v + 1]; ++k) {
        const Polyhedron::Edge& e = shape.edges[shape.vertex_edges[k]];
        const double c = std::abs((poly.vertices[e.v1] - poly.vertices[e.v0]).normalized().dot(d));
        if (c <= best_cos) best_cos = c, best_edge = shape.vertex_edges[k];
      }
      if (best_edge >= 0) return edge_segment(poly, best_edge, piece);
      s.points[0] = poly.vertices[v];
      s.point_features[0] = s.interior = vertex_feature(v, piece);
      return s;
    }
    case PieceKind::Sphere:
      s.points[0] = p.pose.position + p.geometry->radius_m * d;
      s.point_features[0] = s.interior = face_feature(0, piece);
      return s;
    case PieceKind::Capsule:
    case PieceKind::Cylinder: {
      const bool capsule = p.geometry->kind == PieceKind::Capsule;
      const Vec3 axis = p.axis();
      const double along = axis.dot(d);
      const double r = p.geometry->radius_m;
      const Vec3 radial = radial_direction(p, d);
      if (std::abs(along) <= kParallelSin) return side_segment(p, radial);
      const double sign = along > 0 ? 1.0 : -1.0;
      if (!capsule && std::abs(along) >= kParallelCos) return flat_end(p, sign);
      s.points[0] = capsule_end(p, sign) + r * radial;
      s.point_features[0] = s.interior = capsule
                                             ? face_feature(sign > 0 ? kPlusCap : kMinusCap, piece)
                                             : edge_feature(sign > 0 ? kPlusRim : kMinusRim, piece);
      return s;
    }
    case PieceKind::HalfSpace:
      break;
  }
  return s;
}

// The incident piece's feature for clipping against a reference face: its support along d,
// widened to the whole side line or flat end of a cylinder or capsule, or to the face or an
// edge of a polyhedron, when every point of that lies within the margin of the support. The
// exact support is one point as soon as the piece is tilted by more than kParallelSin, and
// one contact a step let a cylinder lying on a box rock about each end in turn, the other
// end sinking 4 mm into the box, step after step (issue 21 item 5). The widened feature's
// points are exact support points of its parts (each rim's or end sphere's furthest point
// along d, a polygon's corners) except a tilted end's octagon corners, which lie within
// r (1 - cos(pi / 8)) sin(tilt) < 0.04 margin of its rim.
Support incident_support(const PosedPiece& p, const Vec3& d, double margin) {
  const Support s = support_feature(p, d);
  if (s.kind == Support::Polygon) return s;
  if (p.geometry->kind == PieceKind::Capsule || p.geometry->kind == PieceKind::Cylinder) {
    if (s.kind == Support::Segment) return s;
    const double along = p.axis().dot(d);
    if (2.0 * p.geometry->half_length_m * std::abs(along) <= margin)
      return side_segment(p, radial_direction(p, d));
    const double across = std::sqrt(std::max(0.0, 1.0 - along * along));
    if (p.geometry->kind == PieceKind::Cylinder && 2.0 * p.geometry->radius_m * across <= margin)
      return flat_end(p, along > 0 ? 1.0 : -1.0);
    return s;
  }
  if (p.geometry->kind != PieceKind::Polyhedron) return s;
  const PosedPolyhedron& poly = p.poly;
  const Polyhedron& shape = *poly.shape;
  const int v = poly.min_vertex(-d);
  const double deepest = poly.vertices[v].dot(d);
  auto rise = [&](int vertex) { return deepest - poly.vertices[vertex].dot(d); };
  const int best_face = face_along(poly, d);
  const Polyhedron::Face& face = shape.faces[best_face];
  // The face must hold the support vertex itself: on a hull the face nearest d need not.
  bool flat = true, holds_support = false;
  for (int k = face.first; k < face.first + face.count; ++k) {
    flat = flat && rise(shape.corner_ids[k]) <= margin;
    holds_support = holds_support || shape.corner_ids[k] == v;
  }
  if (flat && holds_support) return face_polygon(best_face, p.geometry->piece);
  if (s.kind == Support::Segment) return s;
  int best_edge = -1;
  double lowest = margin;
  for (int k = shape.vertex_edge_start[v]; k < shape.vertex_edge_start[v + 1]; ++k) {
    const Polyhedron::Edge& e = shape.edges[shape.vertex_edges[k]];
    const double r = rise(e.v0 == v ? e.v1 : e.v0);
    if (r <= lowest) lowest = r, best_edge = shape.vertex_edges[k];
  }
  return best_edge < 0 ? s : edge_segment(poly, best_edge, p.geometry->piece);
}

// The octagon of a flat cylinder end, counter-clockwise about its outward normal.
Vec3 disc_corner(const PosedPiece& p, const Support& s, int k) {
  const double theta = s.disc_sign * 2.0 * kPi * k / kRimPoints;
  return s.disc_centre + p.geometry->radius_m * (std::cos(theta) * p.rotation.col(0) +
                                                 std::sin(theta) * p.rotation.col(1));
}

void load_reference(const PosedPiece& p, const Support& s, ReferenceFace* ref) {
  if (s.poly_face >= 0) {
    load_reference_face(p.poly, s.poly_face, p.geometry->piece, ref);
    return;
  }
  const int rim = s.disc_sign > 0 ? kPlusRim : kMinusRim;
  ref->corners.clear();
  ref->corner_features.assign(kRimPoints, edge_feature(rim, p.geometry->piece));
  ref->edge_features.assign(kRimPoints, edge_feature(rim, p.geometry->piece));
  for (int k = 0; k < kRimPoints; ++k) ref->corners.push_back(disc_corner(p, s, k));
  ref->face = s.interior;
  ref->normal = s.disc_sign * p.axis();
  ref->offset = ref->normal.dot(s.disc_centre);
}

void load_incident(const PosedPiece& p, const Support& s, ClipScratch* clip) {
  if (s.poly_face >= 0) {
    load_incident_face(p.poly, s.poly_face, p.geometry->piece, clip);
    return;
  }
  clip->polygon.clear();
  clip->incident_interior = s.interior;
  ClipPoint q;
  q.segment = s.interior;
  if (s.kind == Support::Polygon) {
    q.incident = edge_feature(s.disc_sign > 0 ? kPlusRim : kMinusRim, p.geometry->piece);
    for (int k = 0; k < kRimPoints; ++k) {
      q.p = disc_corner(p, s, k);
      clip->polygon.push_back(q);
    }
    return;
  }
  for (int k = 0; k < (s.kind == Support::Segment ? 2 : 1); ++k) {
    q.p = s.points[k];
    q.incident = s.point_features[k];
    clip->polygon.push_back(q);
  }
}

// Turns a direction that is within kParallelSin of a face normal (or a curved axis, or its
// perpendicular plane) exactly onto it, so the supporting features come out flat.
Vec3 snap_direction(const PosedPiece& a, const PosedPiece& b, const Vec3& n) {
  for (const PosedPiece* p : {&b, &a}) {
    const double sign = p == &b ? 1.0 : -1.0;  // B's outward normals point along n, A's against
    if (p->geometry->kind == PieceKind::Polyhedron) {
      for (const Vec3& face_normal : p->poly.normals) {
        if (sign * face_normal.dot(n) >= kParallelCos) return sign * face_normal;
      }
    } else if (p->geometry->kind != PieceKind::Sphere) {
      const Vec3 axis = p->axis();
      const double along = axis.dot(n);
      if (std::abs(along) >= kParallelCos) return along > 0 ? axis : Vec3(-axis);
      if (std::abs(along) <= kParallelSin) return (n - along * axis).normalized();
    }
  }
  return n;
}

// A polyhedron's edge crossing a cylinder's rim: the closest points of the edge's segment
// p0 p1 and the rim circle q(t) = c + r (cos t x + sin t y), by Newton's method on their
// common-normal conditions (p - q) . e = 0 and (p - q) . q'(t) = 0, which hold with p - q
// along the normal whether the pieces are apart or the edge is inside (gap < 0); the
// normal is e x q'. The distance search (convex_distance) ends within its angular
// tolerance of this normal, and not at the same place from step to step: at rest in the
// bin pile (scenes/bin_pile_40.json, steps 400 to 440) the normal of a box edge lying
// across a cylinder's rim swung by up to 0.01 rad and its point by 0.4 mm between steps,
// each step left the contact about 1e-6 m deep or apart, and the next step's gap term
// turned that into a push of 1e-4 m/s, so the pile never came to rest. False, and guess
// stands, where Newton does not converge, the edge runs along the rim, the closest point
// is past the segment's ends, or the two points are not both pieces' supports along the
// normal (a face of the polyhedron, or the cylinder's cap or side, lies further).
bool edge_rim_contact(const PosedPiece& poly, const Support& edge, const PosedPiece& cyl,
                      const Support& rim, bool edge_on_a, const ConvexDistance& guess,
                      ConvexDistance* out) {
  const Vec3 &p0 = edge.points[0], &p1 = edge.points[1];
  const double length = (p1 - p0).norm();
  if (!(length > 0.0)) return false;
  const Vec3 e = (p1 - p0) / length;
  const Vec3 u = cyl.axis();
  const Vec3 c = capsule_end(cyl, rim.interior.index == kPlusRim ? 1.0 : -1.0);
  const double r = cyl.geometry->radius_m;
  const Vec3 x = direction_or(rim.points[0] - c - u.dot(rim.points[0] - c) * u, u.unitOrthogonal());
  const Vec3 y = u.cross(x);
  const auto radial = [&](double t) { return Vec3(std::cos(t) * x + std::sin(t) * y); };
  const auto tangent = [&](double t) { return Vec3(r * (std::cos(t) * y - std::sin(t) * x)); };
  const Vec3 on_edge = edge_on_a ? Vec3(guess.point_b + guess.gap_m * guess.normal) : guess.point_b;
  double s = std::clamp(e.dot(on_edge - p0), 0.0, length);
  double t = 0.0;  // rim.points[0] is the rim point along x
  const double tol = 1e-12 * std::max(length, r);
  constexpr int kNewtonSteps = 16;
  bool converged = false;
  for (int k = 0; k < kNewtonSteps && !converged; ++k) {
    const Vec3 dq = tangent(t);
    const Vec3 d = p0 + s * e - (c + r * radial(t));
    // J [ds dt]' = -[g1 g2]', g1 = d.e, g2 = d.q' (d' = e ds - q' dt, q'' = -r radial).
    const double j01 = -dq.dot(e), j10 = e.dot(dq), j11 = -dq.squaredNorm() - r * d.dot(radial(t));
    const double det = j11 - j01 * j10;
    if (!(std::abs(det) > 1e-12 * r * r)) return false;
    const double g1 = d.dot(e), g2 = d.dot(dq);
    const double ds = (-g1 * j11 + g2 * j01) / det;
    const double dt = (-g2 + g1 * j10) / det;
    s += ds;
    t += dt;
    converged = std::abs(ds) <= tol && r * std::abs(dt) <= tol;
  }
  if (!converged || s < 0.0 || s > length) return false;
  Vec3 n = e.cross(tangent(t) / r);
  if (!(n.norm() > kParallelSin)) return false;  // the edge runs along the rim
  n.normalize();
  if (n.dot(guess.normal) < 0.0) n = -n;
  const Vec3 p = p0 + s * e, q = c + r * radial(t);
  // Each point is its piece's support toward the other: B's along n, A's along -n.
  const double support_tol = kTouchingRel * (poly.geometry->size_m + cyl.geometry->size_m);
  const Vec3 out_of_poly = edge_on_a ? Vec3(-n) : n;
  if (poly.support(out_of_poly) > out_of_poly.dot(p) + support_tol ||
      cyl.support(-out_of_poly) > -out_of_poly.dot(q) + support_tol)
    return false;
  out->point_b = edge_on_a ? q : p;
  out->normal = n;
  out->gap_m = n.dot((edge_on_a ? p : q) - out->point_b);
  out->closest_points = out->gap_m > 0.0;  // apart, they are the pieces' closest points
  return true;
}

void curved_contacts(const PosedPiece& a, const PosedPiece& b, double margin,
                     NarrowphaseScratch* scratch, std::vector<Contact>* out) {
  const double size = a.geometry->size_m + b.geometry->size_m;
  const ConvexDistance distance = convex_distance(a, b, margin);
  const double gap = distance.gap_m;
  if (gap > margin) return;
  // A face normal or axis that separates as much as the distance is the exact normal and
  // makes flat supports (touching pieces give GJK no direction at all). Touching pieces
  // (a round peg along its hole) are where the distance's search formed it already: forming
  // it twice was a sixth of such a step.
  const AxisQuery flat = distance.flat ? *distance.flat : best_support_axis(a, b);
  Vec3 n = flat.separation >= gap - kTouchingRel * size ? flat.axis : distance.normal;
  n = snap_direction(a, b, n);

  const Support sa = support_feature(a, -n);
  const Support sb = support_feature(b, n);
  const size_t first = out->size();
  const double merge = kMergeRel * size;
  ClipScratch* clip = &scratch->clip;
  if (sb.kind == Support::Polygon || sa.kind == Support::Polygon) {
    const bool reference_on_b = sb.kind == Support::Polygon;
    load_reference(reference_on_b ? b : a, reference_on_b ? sb : sa, &clip->reference);
    if (reference_on_b) {
      load_incident(a, incident_support(a, -n, margin), clip);
    } else {
      load_incident(b, incident_support(b, n, margin), clip);
    }
    clip_against_reference(merge, clip);
    emit_clipped(*clip, reference_on_b, margin, out);
  } else if (sa.kind == Support::Segment && sb.kind == Support::Segment) {
    // Two parallel lines (cylinder sides, an edge along a side): both ends of the overlap.
    const Vec3 ua = sa.points[1] - sa.points[0], ub = sb.points[1] - sb.points[0];
    if (ua.normalized().cross(ub.normalized()).norm() <= kParallelSin) {
      const double length = ua.norm();
      const Vec3 u = ua / length;
      double lo = u.dot(sb.points[0] - sa.points[0]), hi = u.dot(sb.points[1] - sa.points[0]);
      if (lo > hi) std::swap(lo, hi);
      lo = std::max(lo, 0.0);
      hi = std::min(hi, length);
      if (hi - lo > merge) {
        for (double along : {lo, hi}) {
          const Vec3 qa = sa.points[0] + along * u;
          const Vec3 qb = sb.points[0] + segment_param(qa, sb.points[0], sb.points[1]) * ub;
          const double g = n.dot(qa - qb);
          if (g <= margin) push_contact(qb, n, g, sa.interior, sb.interior, out);
        }
      }
    }
  }
  if (out->size() == first) {
    // A single contact at the closest points (or the deepest point of A).
    ConvexDistance contact = distance;
    contact.normal = n;
    const auto is_rim = [](const PosedPiece& p, const Support& s) {
      return p.geometry->kind == PieceKind::Cylinder && s.kind == Support::Point &&
             s.interior.type == FeatureType::Edge;
    };
    const auto is_edge = [](const PosedPiece& p, const Support& s) {
      return p.geometry->kind == PieceKind::Polyhedron && s.kind == Support::Segment;
    };
    if (is_edge(a, sa) && is_rim(b, sb)) {
      edge_rim_contact(a, sa, b, sb, true, contact, &contact);
    } else if (is_rim(a, sa) && is_edge(b, sb)) {
      edge_rim_contact(b, sb, a, sa, false, contact, &contact);
    }
    push_contact(contact.point_b, contact.normal, contact.gap_m, sa.interior, sb.interior, out);
  }
}

void require_positive(double value, const char* what) {
  if (!(value > 0.0) || !std::isfinite(value)) {
    throw std::invalid_argument(std::string(what) + " must be positive and finite");
  }
}

}  // namespace

PieceGeometry make_piece_geometry(const ConvexShape& shape, const Pose& local, int piece) {
  PieceGeometry g;
  g.piece = piece;
  g.local = local;
  if (const Box* box = std::get_if<Box>(&shape)) {
    for (int i = 0; i < 3; ++i) require_positive(box->half_extents_m[i], "box half extents");
    g.kind = PieceKind::Polyhedron;
    g.polyhedron = make_box_polyhedron(box->half_extents_m);
  } else if (const ConvexMesh* mesh = std::get_if<ConvexMesh>(&shape)) {
    g.kind = PieceKind::Polyhedron;
    g.polyhedron = make_mesh_polyhedron(*mesh);
  } else if (const Sphere* sphere = std::get_if<Sphere>(&shape)) {
    require_positive(sphere->radius_m, "sphere radius");
    g.kind = PieceKind::Sphere;
    g.radius_m = sphere->radius_m;
  } else if (const Capsule* capsule = std::get_if<Capsule>(&shape)) {
    require_positive(capsule->radius_m, "capsule radius");
    require_positive(capsule->half_length_m, "capsule half length");
    g.kind = PieceKind::Capsule;
    g.radius_m = capsule->radius_m;
    g.half_length_m = capsule->half_length_m;
  } else if (const Cylinder* cylinder = std::get_if<Cylinder>(&shape)) {
    require_positive(cylinder->radius_m, "cylinder radius");
    require_positive(cylinder->half_length_m, "cylinder half length");
    g.kind = PieceKind::Cylinder;
    g.radius_m = cylinder->radius_m;
    g.half_length_m = cylinder->half_length_m;
  }
  if (g.kind == PieceKind::Polyhedron) {
    Vec3 lo = Vec3::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
    for (int v : g.polyhedron.hull_vertices) {
      lo = lo.cwiseMin(g.polyhedron.vertices[v]);
      hi = hi.cwiseMax(g.polyhedron.vertices[v]);
    }
    g.box_center = 0.5 * (lo + hi);
    g.box_half = 0.5 * (hi - lo);
    g.size_m = g.polyhedron.radius;
  } else {
    const double z = g.half_length_m + (g.kind == PieceKind::Cylinder ? 0.0 : g.radius_m);
    g.box_half = Vec3(g.radius_m, g.radius_m, z);
    g.size_m = g.kind == PieceKind::Cylinder ? std::hypot(g.radius_m, g.half_length_m) : z;
  }
  return g;
}

PieceGeometry make_half_space_geometry(const HalfSpace& half_space) {
  PieceGeometry g;
  g.kind = PieceKind::HalfSpace;
  const double norm = half_space.normal.norm();
  require_positive(norm, "half-space normal length");
  g.plane_normal = half_space.normal / norm;
  g.plane_offset_m = half_space.offset_m / norm;
  g.size_m = 1.0;
  return g;
}

void PosedPiece::set_pose(const PieceGeometry& g, const Pose& body_pose) {
  geometry = &g;
  pose.position = body_pose.to_world(g.local.position);
  pose.orientation = body_pose.orientation * g.local.orientation;
  rotation = pose.orientation.toRotationMatrix();
  if (g.kind == PieceKind::HalfSpace) {
    normal = rotation * g.plane_normal;
    offset = g.plane_offset_m + normal.dot(pose.position);
    return;
  }
  Vec3 half;
  if (g.kind == PieceKind::Cylinder) {
    // The disc's extent along world axis i is r sqrt(1 - a_i^2).
    const Vec3 a = axis();
    for (int i = 0; i < 3; ++i) {
      half[i] = g.half_length_m * std::abs(a[i]) +
                g.radius_m * std::sqrt(std::max(0.0, 1.0 - a[i] * a[i]));
    }
  } else if (g.kind == PieceKind::Capsule) {
    half = g.half_length_m * axis().cwiseAbs() + Vec3::Constant(g.radius_m);
  } else {
    half = rotation.cwiseAbs() * g.box_half;
  }
  const Vec3 centre = pose.position + rotation * g.box_center;
  aabb_min = centre - half;
  aabb_max = centre + half;
}

void PosedPiece::pose_polyhedron(int stamp) {
  if (geometry->kind != PieceKind::Polyhedron || poly_stamp == stamp) return;
  poly.set_pose(geometry->polyhedron, pose);
  poly_stamp = stamp;
}

double PosedPiece::support(const Vec3& d) const {
  const PieceGeometry& g = *geometry;
  const Vec3& c = pose.position;
  switch (g.kind) {
    case PieceKind::Polyhedron:
      return d.dot(poly.vertices[poly.min_vertex(-d)]);
    case PieceKind::Sphere:
      return c.dot(d) + g.radius_m * d.norm();
    case PieceKind::Capsule:
      return c.dot(d) + g.half_length_m * std::abs(axis().dot(d)) + g.radius_m * d.norm();
    case PieceKind::Cylinder: {
      const double along = axis().dot(d);
      return c.dot(d) + g.half_length_m * std::abs(along) +
             g.radius_m * (d - along * axis()).norm();
    }
    case PieceKind::HalfSpace:
      break;
  }
  return std::numeric_limits<double>::infinity();
}

double signed_distance(const PosedPiece& piece, const Vec3& p) {
  const PieceGeometry& g = *piece.geometry;
  const Vec3& c = piece.pose.position;
  switch (g.kind) {
    case PieceKind::Polyhedron:
      return closest_point(piece.poly, p).distance;
    case PieceKind::Sphere:
      return (p - c).norm() - g.radius_m;
    case PieceKind::Capsule: {
      const Vec3 p0 = capsule_end(piece, -1.0), p1 = capsule_end(piece, 1.0);
      return (p - (p0 + segment_param(p, p0, p1) * (p1 - p0))).norm() - g.radius_m;
    }
    case PieceKind::Cylinder: {
      const double z = piece.axis().dot(p - c);
      const double rho = (p - c - z * piece.axis()).norm();
      const double dz = std::abs(z) - g.half_length_m, dr = rho - g.radius_m;
      if (dz <= 0.0 && dr <= 0.0) return std::max(dz, dr);
      return std::hypot(std::max(dz, 0.0), std::max(dr, 0.0));
    }
    case PieceKind::HalfSpace:
      return piece.normal.dot(p) - piece.offset;
  }
  return std::numeric_limits<double>::infinity();
}

void piece_contacts(const PosedPiece& a, const PosedPiece& b, double margin,
                    NarrowphaseScratch* scratch, std::vector<Contact>* out) {
  const PieceKind ka = a.geometry->kind, kb = b.geometry->kind;
  const size_t first = out->size();
  if (ka == PieceKind::HalfSpace && kb == PieceKind::HalfSpace) return;
  if (kb == PieceKind::HalfSpace) return half_space_contacts(a, b, margin, out);
  if (ka == PieceKind::HalfSpace) {
    half_space_contacts(b, a, margin, out);
    return flip_contacts(first, out);
  }
  if (ka == PieceKind::Sphere && kb != PieceKind::Cylinder)
    return sphere_contacts(a, b, margin, out);
  if (kb == PieceKind::Sphere && ka != PieceKind::Cylinder) {
    sphere_contacts(b, a, margin, out);
    return flip_contacts(first, out);
  }
  if (ka == PieceKind::Polyhedron && kb == PieceKind::Polyhedron) {
    return polyhedron_contacts(a.poly, a.geometry->piece, b.poly, b.geometry->piece, margin,
                               &scratch->clip, out);
  }
  if (ka == PieceKind::Capsule && kb == PieceKind::Capsule)
    return capsule_contacts(a, b, margin, out);
  curved_contacts(a, b, margin, scratch, out);
}

}  // namespace pivot
