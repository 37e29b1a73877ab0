// Contact manifolds between flat features: the separating-axis test between two convex
// polyhedra (Gregorius, "The Separating Axis Test between Convex Polyhedra", GDC 2013),
// and Sutherland-Hodgman clipping of an incident polygon against a reference face, so two
// faces in touch give the vertices of their overlap polygon (Lloyd 2005, Fig. 2).
#pragma once

#include <vector>

#include "collision/polyhedron.hpp"
#include "pivot/contact.hpp"

namespace pivot {

// A point of an incident polygon during clipping, with the features it lies on.
struct ClipPoint {
  Vec3 p;
  Feature incident;   // on the incident shape: vertex, edge, or face (interior)
  Feature reference;  // on the reference shape: face (interior), edge, or vertex
  // What the segment from this point to the next lies on: an incident edge, or (after a
  // cut) the side plane of reference edge side_edge.
  Feature segment;
  int side_edge = -1;
};

// The face everything is clipped against: a convex polygon, counter-clockwise about its
// outward normal, with the features of its corners and edges.
struct ReferenceFace {
  std::vector<Vec3> corners;
  std::vector<Feature> corner_features;
  std::vector<Feature> edge_features;  // edge k joins corner k and k + 1
  Feature face;
  Vec3 normal = Vec3::UnitZ();
  double offset = 0.0;
};

struct ClipScratch {
  std::vector<ClipPoint> polygon, next;
  Feature incident_interior;  // the incident face (or segment) itself
  ReferenceFace reference;
  // The SAT edge query's Gauss map: per edge of B, the normal of its arc's great circle
  // (its faces' normals crossed); per face of B, its normal on the circle of the edge of A
  // in hand.
  std::vector<Vec3> edge_circles;
  std::vector<double> face_sides;
};

// Clips the incident polygon in scratch->polygon (points in order; two points make a
// segment, one a point) against the side planes of scratch->reference. Points closer than
// merge_m are merged, keeping the more specific features. Result in scratch->polygon.
void clip_against_reference(double merge_m, ClipScratch* scratch);

// Loads face f of a posed polyhedron as the reference, or as the incident polygon.
void load_reference_face(const PosedPolyhedron& poly, int f, int piece, ReferenceFace* out);
void load_incident_face(const PosedPolyhedron& poly, int f, int piece, ClipScratch* scratch);

// Emits the clipped points of scratch->polygon with gap <= margin_m as contacts. The
// reference face belongs to B when reference_on_b, else to A.
void emit_clipped(const ClipScratch& scratch, bool reference_on_b, double margin_m,
                  std::vector<Contact>* out);

// (two posed convex polyhedra, piece indices) => their contacts within margin_m, A's
// witness = point + gap * normal. Appends to out; body indices are left for the caller.
void polyhedron_contacts(const PosedPolyhedron& a, int piece_a, const PosedPolyhedron& b,
                         int piece_b, double margin_m, ClipScratch* scratch,
                         std::vector<Contact>* out);

// The parameter in [0, 1] of segment s0-s1's point nearest p (0 for a point segment).
double segment_param(const Vec3& p, const Vec3& s0, const Vec3& s1);

// Closest points of segments p0-p1 and q0-q1: parameters s, t in [0, 1].
void closest_segment_params(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1,
                            double* s, double* t);

}  // namespace pivot
