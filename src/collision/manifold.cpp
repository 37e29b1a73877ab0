#include "collision/manifold.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pivot {

namespace {

// Tolerances relative to the pair's size L (sum of the two radii): clip points closer than
// 1e-9 L are one point; an edge-edge axis replaces a face axis only when it separates by
// 1e-6 L more, so touching faces (whose coplanar edges give the same separation) always
// clip, and round-off cannot flip the choice between two steps.
constexpr double kMergeRel = 1e-9;
constexpr double kEdgePreferenceRel = 1e-6;
constexpr double kFaceTieRel = 1e-9;

int dimension(FeatureType type) {
  switch (type) {
    case FeatureType::Vertex:
      return 0;
    case FeatureType::Edge:
      return 1;
    case FeatureType::Face:
      return 2;
  }
  return 2;
}

const Feature& more_specific(const Feature& a, const Feature& b) {
  return dimension(b.type) < dimension(a.type) ? b : a;
}

// Appends q, or merges it into the last point when they coincide: the merged point keeps
// the lower-dimensional features and q's outgoing segment.
void push_merged(const ClipPoint& q, double merge_m, std::vector<ClipPoint>* out) {
  if (!out->empty() && (out->back().p - q.p).norm() <= merge_m) {
    ClipPoint& last = out->back();
    last.incident = more_specific(last.incident, q.incident);
    last.reference = more_specific(last.reference, q.reference);
    last.segment = q.segment;
    last.side_edge = q.side_edge;
    return;
  }
  out->push_back(q);
}

struct FaceQuery {
  int face = -1;
  double separation = -std::numeric_limits<double>::infinity();
};

// Largest separation of `other` in front of a face of `poly`.
FaceQuery query_faces(const PosedPolyhedron& poly, const PosedPolyhedron& other) {
  FaceQuery best;
  for (int f = 0; f < static_cast<int>(poly.normals.size()); ++f) {
    const int v = other.min_vertex(poly.normals[f]);
    const double s = poly.normals[f].dot(other.vertices[v]) - poly.offsets[f];
    if (s > best.separation) best = {f, s};
  }
  return best;
}

struct EdgeQuery {
  int edge_a = -1, edge_b = -1;
  Vec3 axis = Vec3::Zero();  // unit, out of A toward B
  double separation = -std::numeric_limits<double>::infinity();
};

// Gregorius: edge a (between faces with normals a0, a1) and edge b (normals b0, b1) build
// a face of the Minkowski difference A - B iff their arcs on the Gauss map, B's negated,
// cross: b's arc endpoints lie on opposite sides of a's great circle and vice versa, in
// the same hemisphere. Only such pairs can give the separating axis, which skips nearly
// all of the |E_A| |E_B| pairs. a1_x_a0 and b1_x_b0 are the circles' normals; u and w are
// b0 and b1 on a's circle (b0 . a1_x_a0, b1 . a1_x_a0).
bool is_minkowski_face(double u, double w, const Vec3& a0, const Vec3& a1, const Vec3& b1_x_b0) {
  if (u * w >= 0) return false;
  const double p = a0.dot(b1_x_b0), q = a1.dot(b1_x_b0);
  return p * q < 0 && u * q < 0;
}

EdgeQuery query_edges(const PosedPolyhedron& a, const PosedPolyhedron& b, ClipScratch* scratch) {
  const auto& ea = a.shape->edges;
  const auto& eb = b.shape->edges;
  std::vector<Vec3>& b_circles = scratch->edge_circles;
  std::vector<double>& side = scratch->face_sides;
  b_circles.resize(eb.size());
  for (size_t j = 0; j < eb.size(); ++j) {
    b_circles[j] = b.normals[eb[j].face1].cross(b.normals[eb[j].face0]);
  }
  side.resize(b.normals.size());
  EdgeQuery best;
  for (size_t i = 0; i < ea.size(); ++i) {
    const Vec3& na0 = a.normals[ea[i].face0];
    const Vec3& na1 = a.normals[ea[i].face1];
    const Vec3 a_cross = na1.cross(na0);
    // Every face normal of B on a's circle once: each of B's edges reads its two faces'
    // (a box: 6 products for its 12 edges, where each pair formed two).
    for (size_t f = 0; f < side.size(); ++f) side[f] = b.normals[f].dot(a_cross);
    const Vec3& pa = a.vertices[ea[i].v0];
    const Vec3 ua = a.vertices[ea[i].v1] - pa;
    for (size_t j = 0; j < eb.size(); ++j) {
      if (!is_minkowski_face(side[eb[j].face0], side[eb[j].face1], na0, na1, b_circles[j])) {
        continue;
      }
      const Vec3& pb = b.vertices[eb[j].v0];
      const Vec3 ub = b.vertices[eb[j].v1] - pb;
      Vec3 axis = ua.cross(ub);
      const double norm = axis.norm();
      if (norm <= 1e-9 * ua.norm() * ub.norm()) continue;  // parallel: a face axis covers it
      axis /= norm;
      if (axis.dot(pa - a.centroid) < 0) axis = -axis;
      const double s = axis.dot(pb - pa);
      if (s > best.separation) best = {static_cast<int>(i), static_cast<int>(j), axis, s};
    }
  }
  return best;
}

int most_antiparallel_face(const PosedPolyhedron& poly, const Vec3& normal) {
  int best = 0;
  for (int f = 1; f < static_cast<int>(poly.normals.size()); ++f) {
    if (poly.normals[f].dot(normal) < poly.normals[best].dot(normal)) best = f;
  }
  return best;
}

Feature segment_feature(double s, int v0, int v1, int edge, int piece) {
  if (s <= 0.0) return {FeatureType::Vertex, v0, piece};
  if (s >= 1.0) return {FeatureType::Vertex, v1, piece};
  return {FeatureType::Edge, edge, piece};
}

}  // namespace

void clip_against_reference(double merge_m, ClipScratch* scratch) {
  const ReferenceFace& ref = scratch->reference;
  std::vector<ClipPoint>& polygon = scratch->polygon;
  std::vector<ClipPoint>& next = scratch->next;
  for (ClipPoint& q : polygon) q.reference = ref.face;
  const int n = static_cast<int>(ref.corners.size());
  for (int k = 0; k < n && !polygon.empty(); ++k) {
    const Vec3& r0 = ref.corners[k];
    Vec3 side = (ref.corners[(k + 1) % n] - r0).cross(ref.normal);
    const double length = side.norm();
    if (length == 0.0) continue;
    side /= length;
    const double offset = side.dot(r0);
    next.clear();
    const int m = static_cast<int>(polygon.size());
    for (int i = 0; i < m; ++i) {
      const ClipPoint& P = polygon[i];
      const ClipPoint& Q = polygon[(i + 1) % m];
      const double dp = side.dot(P.p) - offset;
      const double dq = side.dot(Q.p) - offset;
      const bool p_in = dp <= merge_m, q_in = dq <= merge_m;
      if (p_in) push_merged(P, merge_m, &next);
      if (p_in == q_in) continue;
      // The cut is where the segment crosses the side plane, kept on the segment: the inside
      // test allows merge_m, so both ends may lie on one side of the plane itself, and an
      // incident edge running within merge_m of it (aligned stacked blocks, offset by
      // round-off) was extrapolated to a point metres outside the face.
      ClipPoint I;
      I.p = P.p + std::clamp(dp / (dp - dq), 0.0, 1.0) * (Q.p - P.p);
      if (P.side_edge < 0) {
        I.incident = P.segment;  // an incident edge crosses reference edge k
        I.reference = ref.edge_features[k];
      } else {
        // Running along side plane j inside the incident face: the cut is at the reference
        // corner shared by edges j and k.
        const int j = P.side_edge;
        I.incident = P.segment;
        I.reference = (j + 1) % n == k   ? ref.corner_features[k]
                      : (k + 1) % n == j ? ref.corner_features[j]
                                         : ref.edge_features[k];
      }
      if (p_in) {  // leaving: the polygon now runs along side plane k
        I.segment = scratch->incident_interior;
        I.side_edge = k;
      } else {  // entering: continues along P's segment toward Q
        I.segment = P.segment;
        I.side_edge = P.side_edge;
      }
      push_merged(I, merge_m, &next);
    }
    if (next.size() >= 2 && (next.back().p - next.front().p).norm() <= merge_m) {
      next.front().incident = more_specific(next.front().incident, next.back().incident);
      next.front().reference = more_specific(next.front().reference, next.back().reference);
      next.pop_back();
    }
    polygon.swap(next);
  }
}

void load_reference_face(const PosedPolyhedron& poly, int f, int piece, ReferenceFace* out) {
  const Polyhedron::Face& face = poly.shape->faces[f];
  out->corners.clear();
  out->corner_features.clear();
  out->edge_features.clear();
  for (int k = 0; k < face.count; ++k) {
    const int v = poly.shape->corner_ids[face.first + k];
    out->corners.push_back(poly.vertices[v]);
    out->corner_features.push_back({FeatureType::Vertex, v, piece});
    out->edge_features.push_back(
        {FeatureType::Edge, poly.shape->corner_edges[face.first + k], piece});
  }
  out->face = {FeatureType::Face, f, piece};
  out->normal = poly.normals[f];
  out->offset = poly.offsets[f];
}

void load_incident_face(const PosedPolyhedron& poly, int f, int piece, ClipScratch* scratch) {
  const Polyhedron::Face& face = poly.shape->faces[f];
  scratch->polygon.clear();
  for (int k = 0; k < face.count; ++k) {
    ClipPoint q;
    const int v = poly.shape->corner_ids[face.first + k];
    q.p = poly.vertices[v];
    q.incident = {FeatureType::Vertex, v, piece};
    q.segment = {FeatureType::Edge, poly.shape->corner_edges[face.first + k], piece};
    scratch->polygon.push_back(q);
  }
  scratch->incident_interior = {FeatureType::Face, f, piece};
}

void emit_clipped(const ClipScratch& scratch, bool reference_on_b, double margin_m,
                  std::vector<Contact>* out) {
  const ReferenceFace& ref = scratch.reference;
  for (const ClipPoint& q : scratch.polygon) {
    const double gap = ref.normal.dot(q.p) - ref.offset;
    if (gap > margin_m) continue;
    Contact c;
    c.gap_m = gap;
    c.plane = reference_on_b ? ContactPlane::FaceOfB : ContactPlane::FaceOfA;
    if (reference_on_b) {
      c.point = q.p - gap * ref.normal;
      c.normal = ref.normal;
      c.feature_a = q.incident;
      c.feature_b = q.reference;
    } else {
      c.point = q.p;
      c.normal = -ref.normal;
      c.feature_a = q.reference;
      c.feature_b = q.incident;
    }
    out->push_back(c);
  }
}

void polyhedron_contacts(const PosedPolyhedron& a, int piece_a, const PosedPolyhedron& b,
                         int piece_b, double margin_m, ClipScratch* scratch,
                         std::vector<Contact>* out) {
  const double size = a.shape->radius + b.shape->radius;
  const FaceQuery face_a = query_faces(a, b);
  if (face_a.separation > margin_m) return;
  const FaceQuery face_b = query_faces(b, a);
  if (face_b.separation > margin_m) return;
  const EdgeQuery edge = query_edges(a, b, scratch);
  if (edge.separation > margin_m) return;

  const double best_face = std::max(face_a.separation, face_b.separation);
  if (edge.edge_a >= 0 && edge.separation > best_face + kEdgePreferenceRel * size) {
    // Edge-edge: a contact at the closest points of the two edges. Alone it would let the
    // other features through when the bodies turn within the step (a tumbling box whose
    // corner swings into the face next to the edge), so the face manifold follows.
    const Polyhedron::Edge& ea = a.shape->edges[edge.edge_a];
    const Polyhedron::Edge& eb = b.shape->edges[edge.edge_b];
    double s = 0.0, t = 0.0;
    closest_segment_params(a.vertices[ea.v0], a.vertices[ea.v1], b.vertices[eb.v0],
                           b.vertices[eb.v1], &s, &t);
    Contact c;
    c.point = b.vertices[eb.v0] + t * (b.vertices[eb.v1] - b.vertices[eb.v0]);
    c.normal = -edge.axis;
    c.gap_m = edge.separation;
    c.feature_a = segment_feature(s, ea.v0, ea.v1, edge.edge_a, piece_a);
    c.feature_b = segment_feature(t, eb.v0, eb.v1, edge.edge_b, piece_b);
    out->push_back(c);
  }

  // Face contact: B's face is the reference unless A's separates clearly more.
  const bool reference_on_b = face_b.separation >= face_a.separation - kFaceTieRel * size;
  const PosedPolyhedron& ref = reference_on_b ? b : a;
  const PosedPolyhedron& inc = reference_on_b ? a : b;
  const int ref_face = reference_on_b ? face_b.face : face_a.face;
  load_reference_face(ref, ref_face, reference_on_b ? piece_b : piece_a, &scratch->reference);
  load_incident_face(inc, most_antiparallel_face(inc, ref.normals[ref_face]),
                     reference_on_b ? piece_a : piece_b, scratch);
  clip_against_reference(kMergeRel * size, scratch);
  emit_clipped(*scratch, reference_on_b, margin_m, out);
}

double segment_param(const Vec3& p, const Vec3& s0, const Vec3& s1) {
  const Vec3 u = s1 - s0;
  const double uu = u.squaredNorm();
  return uu > 0.0 ? std::clamp(u.dot(p - s0) / uu, 0.0, 1.0) : 0.0;
}

void closest_segment_params(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1,
                            double* s, double* t) {
  // Minimise |p0 + s u - q0 - t v|^2 over the unit square: solve the 2x2 system for the
  // lines, clamp s, recompute t for the clamped s, clamp t, recompute s.
  const Vec3 u = p1 - p0, v = q1 - q0, w = p0 - q0;
  const double a = u.dot(u), e = v.dot(v), b = u.dot(v), c = u.dot(w), f = v.dot(w);
  const double denom = a * e - b * b;
  double ss = 0.0;
  if (a > 0.0 && denom > 1e-14 * a * e) ss = std::clamp((b * f - c * e) / denom, 0.0, 1.0);
  double tt = e > 0.0 ? (b * ss + f) / e : 0.0;
  if (tt < 0.0 || tt > 1.0) {
    tt = std::clamp(tt, 0.0, 1.0);
    ss = a > 0.0 ? std::clamp((b * tt - c) / a, 0.0, 1.0) : 0.0;
  }
  *s = ss;
  *t = tt;
}

}  // namespace pivot
