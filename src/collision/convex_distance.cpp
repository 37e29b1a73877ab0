#include "collision/convex_distance.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "collision/manifold.hpp"

namespace pivot {

namespace {

// Relative to the pair's size L: GJK stops when the distance is known to within 1e-10 L
// (the tolerance Pivot gave FCL's GJK); cores closer than 1e-7 L give no usable
// direction (touching), and the overlap search takes over.
constexpr double kGjkStopRel = 1e-10;
constexpr double kTouchingRel = 1e-7;
constexpr int kGjkIterations = 64;
// GJK's distance is confirmed when the separation along its normal is within 1e-9 L of
// it (10 times its stopping tolerance).
constexpr double kConfirmRel = 1e-9;
// A direction within 1e-9 rad of a cylinder's axis supports at its end's centre.
constexpr double kRadialRel = 1e-9;
// The overlap search turns the axis first by 0.01 rad, doubling after each better direction
// up to 0.1 rad a move until its first halving, and stops below 1e-9 rad, where the
// separation changes by less than 1e-9 L. Starting small keeps it in its start's basin: a
// rim on a hull's edge makes a peak narrower than the spread's spacing, and a first turn of
// 0.1 rad from 0.014 rad off it jumped to a lower maximum 0.52 rad away (30 um too deep on
// a 9.8 mm overlap). Doubling again after a halving cost a third more time for nothing.
constexpr double kFirstTurn_rad = 0.01;
constexpr double kLongestTurn_rad = 0.1;
constexpr double kLastTurn_rad = 1e-9;
constexpr int kSearchMoves = 1000;
constexpr int kSpreadAxes = 128;
constexpr int kPattern = 16;
constexpr int kStarts = 4;
// The best few directions between a cylinder's rims and the other piece's corners and
// edges join the spread's as starts (see rim_axes).
constexpr int kRimStarts = 4;
// Alternating projections between a rim and a segment or another rim: a few rounds put the
// pair close enough to start inside its basin.
constexpr int kRimRounds = 3;
const double kDistinctCos = std::cos(0.3);
// Turns by this angle never repeat a direction (Fibonacci sphere, pattern phases).
const double kGoldenAngle_rad = kPi * (3.0 - std::sqrt(5.0));

// Spheres and capsules are a point or a segment (their core) grown by a radius; GJK runs
// on the cores, so an overlap smaller than the radii is still a GJK distance, exact.
double core_radius(const PosedPiece& p) {
  const PieceKind k = p.geometry->kind;
  return k == PieceKind::Sphere || k == PieceKind::Capsule ? p.geometry->radius_m : 0.0;
}

// A point of the core furthest along d.
Vec3 core_support(const PosedPiece& p, const Vec3& d) {
  const PieceGeometry& g = *p.geometry;
  const Vec3& c = p.pose.position;
  switch (g.kind) {
    case PieceKind::Polyhedron:
      return p.poly.vertices[p.poly.min_vertex(-d)];
    case PieceKind::Sphere:
      return c;
    case PieceKind::Capsule:
      return c + (p.axis().dot(d) >= 0.0 ? 1.0 : -1.0) * g.half_length_m * p.axis();
    case PieceKind::Cylinder: {
      const Vec3 axis = p.axis();
      const double along = axis.dot(d);
      const Vec3 radial = d - along * axis;
      const double rn = radial.norm();
      const Vec3 end = c + (along >= 0.0 ? 1.0 : -1.0) * g.half_length_m * axis;
      // Along the axis the whole end is the support; its centre is a point of it (the
      // radial part of d is round-off there, and not even orthogonal to the axis).
      return rn > kRadialRel * d.norm() ? Vec3(end + g.radius_m / rn * radial) : end;
    }
    case PieceKind::HalfSpace:
      break;
  }
  return c;
}

// A point of the whole piece furthest along d.
Vec3 support_point(const PosedPiece& p, const Vec3& d) {
  const double r = core_radius(p), dn = d.norm();
  return core_support(p, d) + (r > 0.0 && dn > 0.0 ? Vec3(r / dn * d) : Vec3::Zero());
}

// The part of a piece furthest along unit d (ties within tol) as a segment p0-p1: an edge,
// a side line, or a point (p0 = p1; a face or an end disc by its centre). Overlaps are
// reported between the two pieces' segments, so a box edge sunk across a cylinder's side
// gets its contact where they cross, not at a vertex.
void support_segment(const PosedPiece& p, const Vec3& d, double tol, Vec3* p0, Vec3* p1) {
  const PieceGeometry& g = *p.geometry;
  if (g.kind == PieceKind::Polyhedron) {
    const double top = d.dot(p.poly.vertices[p.poly.min_vertex(-d)]);
    Vec3 sum = Vec3::Zero();
    int count = 0;
    for (int v : g.polyhedron.hull_vertices) {
      if (d.dot(p.poly.vertices[v]) < top - tol) continue;
      if (count < 2) (count == 0 ? *p0 : *p1) = p.poly.vertices[v];
      sum += p.poly.vertices[v];
      ++count;
    }
    if (count != 2) *p0 = *p1 = sum / count;
    return;
  }
  *p0 = *p1 = support_point(p, d);
  if (g.kind == PieceKind::Sphere) return;
  const Vec3 axis = p.axis();
  const double along = axis.dot(d);
  if (std::abs(along) > tol / g.size_m) return;
  // Across the axis: the side line.
  const Vec3 side = p.pose.position + g.radius_m * (d - along * axis).normalized();
  *p0 = side - g.half_length_m * axis;
  *p1 = side + g.half_length_m * axis;
}

// A vertex of the Minkowski difference of the cores, w = a - b, with its two sources.
struct SimplexVertex {
  Vec3 w = Vec3::Zero(), a = Vec3::Zero(), b = Vec3::Zero();
};

// Up to four vertices with the weights of the point closest to the origin.
struct Simplex {
  SimplexVertex v[4];
  double weight[4] = {};
  int size = 0;

  void set(std::initializer_list<std::pair<const SimplexVertex*, double>> points) {
    SimplexVertex copy[4];
    double w[4];
    int n = 0;
    for (const auto& [p, weight_p] : points) copy[n] = *p, w[n++] = weight_p;
    for (int i = 0; i < n; ++i) v[i] = copy[i], weight[i] = w[i];
    size = n;
  }
  Vec3 point() const {
    Vec3 p = Vec3::Zero();
    for (int i = 0; i < size; ++i) p += weight[i] * v[i].w;
    return p;
  }
};

// Closest point of segment AB to the origin (Ericson, Real-Time Collision Detection 5.1.2).
void closest_on_segment(const SimplexVertex& A, const SimplexVertex& B, Simplex* s) {
  const Vec3 ab = B.w - A.w;
  const double ab2 = ab.squaredNorm();
  const double t = ab2 > 0.0 ? -A.w.dot(ab) / ab2 : 0.0;
  if (t <= 0.0) return s->set({{&A, 1.0}});
  if (t >= 1.0) return s->set({{&B, 1.0}});
  s->set({{&A, 1.0 - t}, {&B, t}});
}

// Closest point of triangle ABC to the origin by its Voronoi regions (Ericson 5.1.5).
void closest_on_triangle(const SimplexVertex& A, const SimplexVertex& B, const SimplexVertex& C,
                         Simplex* s) {
  const Vec3 &a = A.w, &b = B.w, &c = C.w;
  const Vec3 ab = b - a, ac = c - a;
  const double d1 = -ab.dot(a), d2 = -ac.dot(a);
  if (d1 <= 0.0 && d2 <= 0.0) return s->set({{&A, 1.0}});
  const double d3 = -ab.dot(b), d4 = -ac.dot(b);
  if (d3 >= 0.0 && d4 <= d3) return s->set({{&B, 1.0}});
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) {
    const double v = d1 / (d1 - d3);
    return s->set({{&A, 1.0 - v}, {&B, v}});
  }
  const double d5 = -ab.dot(c), d6 = -ac.dot(c);
  if (d6 >= 0.0 && d5 <= d6) return s->set({{&C, 1.0}});
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) {
    const double w = d2 / (d2 - d6);
    return s->set({{&A, 1.0 - w}, {&C, w}});
  }
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0) {
    const double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    return s->set({{&B, 1.0 - w}, {&C, w}});
  }
  const double sum = va + vb + vc;
  if (!(sum > 0.0) || !std::isfinite(sum)) {
    // A degenerate (collinear) triangle: the best of its edges.
    Simplex best, edge;
    double best_d = std::numeric_limits<double>::infinity();
    const SimplexVertex* ends[3][2] = {{&A, &B}, {&B, &C}, {&C, &A}};
    for (const auto& e : ends) {
      closest_on_segment(*e[0], *e[1], &edge);
      const double d = edge.point().squaredNorm();
      if (d < best_d) best_d = d, best = edge;
    }
    *s = best;
    return;
  }
  const double v = vb / sum, w = vc / sum;
  s->set({{&A, 1.0 - v - w}, {&B, v}, {&C, w}});
}

// Closest point of the tetrahedron to the origin: over the faces the origin lies outside
// of (Ericson 5.1.6). Returns false when the origin is inside (the cores overlap).
bool closest_on_tetrahedron(const Simplex& t, Simplex* s) {
  const int faces[4][4] = {{0, 1, 2, 3}, {0, 2, 3, 1}, {0, 3, 1, 2}, {1, 3, 2, 0}};
  double best_d = std::numeric_limits<double>::infinity();
  Simplex face;
  for (const auto& f : faces) {
    const Vec3 &a = t.v[f[0]].w, &b = t.v[f[1]].w, &c = t.v[f[2]].w, &d = t.v[f[3]].w;
    const Vec3 n = (b - a).cross(c - a);
    const double origin_side = -n.dot(a), opposite_side = n.dot(d - a);
    // A flat tetrahedron has no inside: every face is a candidate.
    const bool flat = std::abs(opposite_side) <= 1e-12 * n.norm() * (d - a).norm();
    if (!flat && origin_side * opposite_side >= 0.0) continue;
    closest_on_triangle(t.v[f[0]], t.v[f[1]], t.v[f[2]], &face);
    const double dist = face.point().squaredNorm();
    if (dist < best_d) best_d = dist, *s = face;
  }
  return std::isfinite(best_d);
}

struct GjkResult {
  bool separated = false;  // false: the cores overlap or touch
  double distance = 0.0;   // of the cores [m]
  // Not separated: the cores are at most this far apart (|v|, v a point of their Minkowski
  // difference; 0 when it holds the origin) [m].
  double bound = 0.0;
  Vec3 a = Vec3::Zero(), b = Vec3::Zero();
};

// GJK (Gilbert, Johnson and Keerthi 1988) on the cores: the closest point of A - B to the
// origin, grown one support point at a time. Stops early once the distance is proven
// beyond max_distance.
GjkResult gjk(const PosedPiece& pa, const PosedPiece& pb, double max_distance) {
  const double size = pa.geometry->size_m + pb.geometry->size_m;
  const double touching = kTouchingRel * size;
  auto vertex = [&](const Vec3& d) {
    SimplexVertex v;
    v.a = core_support(pa, d);
    v.b = core_support(pb, -d);
    v.w = v.a - v.b;
    return v;
  };
  Vec3 d = pa.pose.position - pb.pose.position;
  if (d.norm() <= touching) d = Vec3::UnitX();
  Simplex s, next;
  SimplexVertex first = vertex(-d);
  s.set({{&first, 1.0}});
  Vec3 v = first.w;
  GjkResult result;
  auto not_separated = [](double bound) {
    GjkResult r;
    r.bound = bound;
    return r;
  };
  for (int it = 0; it < kGjkIterations; ++it) {
    const double vv = v.squaredNorm();
    if (std::sqrt(vv) <= touching) return not_separated(std::sqrt(vv));  // the cores touch
    const SimplexVertex w = vertex(-v);
    const double vw = v.dot(w.w);
    if (vw > max_distance * std::sqrt(vv)) {
      result.separated = true;  // w's plane separates by more than max_distance
      result.distance = vw / std::sqrt(vv);
      break;
    }
    bool seen = false;
    for (int i = 0; i < s.size; ++i) seen = seen || s.v[i].w == w.w;
    if (seen || vv - vw <= kGjkStopRel * size * std::sqrt(vv)) {
      result.separated = true;
      result.distance = std::sqrt(vv);
      break;
    }
    s.v[s.size] = w;
    s.weight[s.size] = 0.0;
    ++s.size;
    switch (s.size) {
      case 2:
        closest_on_segment(s.v[0], s.v[1], &next);
        break;
      case 3:
        closest_on_triangle(s.v[0], s.v[1], s.v[2], &next);
        break;
      default:
        if (!closest_on_tetrahedron(s, &next)) {
          // The old simplex lies where x.v >= |v|^2 > 0, so the tetrahedron holds the origin
          // only if w is on the origin's side (w.v <= 0). Otherwise the claim is round-off
          // of a flat tetrahedron, met where GJK creeps along a curved surface: a capsule
          // 8.3 mm from a cylinder was reported 4.8 mm deep. The last simplex stands.
          if (vw <= 0.0) return GjkResult{};  // the cores overlap
          next = s;                           // w's weight is zero: no progress, below
        }
        break;
    }
    const Vec3 v_next = next.point();
    if (!(v_next.squaredNorm() < vv)) {
      // No progress: round-off at the closest point; the last simplex stands.
      s.size -= 1;
      result.separated = true;
      result.distance = std::sqrt(vv);
      break;
    }
    s = next;
    v = v_next;
    result.distance = v.norm();
    result.separated = true;
  }
  if (!result.separated || !std::isfinite(result.distance) || result.distance <= touching) {
    return not_separated(v.norm());
  }
  for (int i = 0; i < s.size; ++i) {
    result.a += s.weight[i] * s.v[i].a;
    result.b += s.weight[i] * s.v[i].b;
  }
  return result;
}

// Local search for the axis of greatest separation from a starting axis: moves to the
// best of kPattern directions turned by an angle about the axis' tangent plane, doubling
// the angle after a better one until it is first halved, halving it after two tries
// without. They turn by the golden angle from try to try: the maxima often lie on ridges
// (where the support feature changes), and a fixed pattern stalls on a ridge that runs
// between its directions.
AxisQuery refine_axis(const PosedPiece& a, const PosedPiece& b, AxisQuery best) {
  double turn = kFirstTurn_rad, phase = 0.0;
  int failures = 0;
  bool halved = false;
  for (int move = 0; move < kSearchMoves && turn > kLastTurn_rad; ++move) {
    const Vec3 t1 = best.axis.unitOrthogonal(), t2 = best.axis.cross(t1);
    AxisQuery step = best;
    for (int k = 0; k < kPattern; ++k) {
      const double phi = phase + 2.0 * kPi / kPattern * k;
      const Vec3 n =
          (std::cos(turn) * best.axis + std::sin(turn) * (std::cos(phi) * t1 + std::sin(phi) * t2))
              .normalized();
      const double s = axis_separation(a, b, n);
      if (s > step.separation) step = {n, s};
    }
    // A cylinder's or capsule's support jumps from one end to the other across the plane
    // perpendicular to its axis: a ridge of the separation, followed exactly by turning
    // about the axis within that plane. Only from within a turn of that plane: a jump onto
    // it from further away leaves the start's basin (from a cylinder's axis, 90 degrees
    // onto a maximum 14 % deeper than the one 4 degrees away).
    for (const PosedPiece* p : {&a, &b}) {
      const PieceKind kind = p->geometry->kind;
      if (kind != PieceKind::Cylinder && kind != PieceKind::Capsule) continue;
      const Vec3 u = p->axis();
      const Vec3 across = best.axis - best.axis.dot(u) * u;
      if (across.norm() <= kRadialRel || std::abs(best.axis.dot(u)) > std::sin(turn)) continue;
      const Vec3 n0 = across.normalized(), side = u.cross(n0);
      for (double t : {0.0, turn, -turn}) {
        const Vec3 n = std::cos(t) * n0 + std::sin(t) * side;
        const double s = axis_separation(a, b, n);
        if (s > step.separation) step = {n, s};
      }
    }
    phase += kGoldenAngle_rad;
    if (step.separation > best.separation) {
      best = step;
      failures = 0;
      if (!halved) turn = std::min(2.0 * turn, kLongestTurn_rad);
    } else if (++failures == 2) {
      turn *= 0.5;
      halved = true;
      failures = 0;
    }
  }
  return best;
}

// A cylinder's end circle.
struct Rim {
  Vec3 centre, normal;
  double radius_m;

  // Its point nearest x (any point when x is on its axis: all are equally near).
  Vec3 nearest(const Vec3& x) const {
    const Vec3 w = x - centre;
    const Vec3 radial = w - w.dot(normal) * normal;
    const double r = radial.norm();
    return centre +
           radius_m * (r > kRadialRel * radius_m ? Vec3(radial / r) : normal.unitOrthogonal());
  }
};

Rim piece_rim(const PosedPiece& cylinder, double end) {
  const Vec3 u = cylinder.axis();
  return {cylinder.pose.position + end * cylinder.geometry->half_length_m * u, u,
          cylinder.geometry->radius_m};
}

bool more_separated(const AxisQuery& x, const AxisQuery& y) { return x.separation > y.separation; }

// The best kRimStarts directions (by separation, either sign) between a cylinder's rims and
// the other piece's core features: vertices and edges of a polyhedron, a sphere's centre, a
// capsule's segment, another cylinder's rims (and for a segment, also the common normal of
// it and the rim's tangent there). A rim against a corner or an edge makes a
// maximum of the separation with ridges close on either side, which the spread can miss (a
// 6-vertex hull overlapping a tilted cylinder by 8.9 mm: six of the spread's best starts
// all ended at -8.906 mm, a rim-vertex start at -8.864 mm).
std::array<AxisQuery, kRimStarts> rim_axes(const PosedPiece& a, const PosedPiece& b) {
  std::array<AxisQuery, kRimStarts> best;  // separations -inf: empty
  auto consider = [&](const Vec3& d) {
    const double norm = d.norm();
    if (!(norm > 0.0)) return;
    for (double sign : {1.0, -1.0}) {
      const AxisQuery q{sign * d / norm, axis_separation(a, b, sign * d / norm)};
      if (q.separation <= best.back().separation) continue;
      best.back() = q;
      std::sort(best.begin(), best.end(), more_separated);
    }
  };
  auto segment = [&](const Rim& rim, const Vec3& p0, const Vec3& p1) {
    Vec3 x = 0.5 * (p0 + p1);
    for (int round = 0; round < kRimRounds; ++round) {
      const Vec3 r = rim.nearest(x);
      x = p0 + segment_param(r, p0, p1) * (p1 - p0);
    }
    const Vec3 r = rim.nearest(x);
    consider(x - r);
    // And the common normal of the segment and the rim's tangent there: where a rim meets
    // an edge of a piece sunk into it, the maximum lies on that normal (a box's edge 4.5 mm
    // into a disc: the search found 4.97 mm from every other start).
    consider((p1 - p0).cross(rim.normal.cross(r - rim.centre)));
  };
  for (const PosedPiece* p : {&a, &b}) {
    if (p->geometry->kind != PieceKind::Cylinder) continue;
    const PosedPiece& q = p == &a ? b : a;
    const PieceGeometry& g = *q.geometry;
    for (double end : {-1.0, 1.0}) {
      const Rim rim = piece_rim(*p, end);
      switch (g.kind) {
        case PieceKind::Polyhedron:
          for (const Vec3& v : q.poly.vertices) consider(v - rim.nearest(v));
          for (const Polyhedron::Edge& e : g.polyhedron.edges) {
            segment(rim, q.poly.vertices[e.v0], q.poly.vertices[e.v1]);
          }
          break;
        case PieceKind::Sphere:
          consider(q.pose.position - rim.nearest(q.pose.position));
          break;
        case PieceKind::Capsule:
          segment(rim, q.pose.position - g.half_length_m * q.axis(),
                  q.pose.position + g.half_length_m * q.axis());
          break;
        case PieceKind::Cylinder:
          if (p == &b) break;  // the pair's rims, once
          for (double other_end : {-1.0, 1.0}) {
            const Rim other = piece_rim(q, other_end);
            Vec3 x = other.nearest(rim.centre);
            for (int round = 0; round < kRimRounds; ++round) x = other.nearest(rim.nearest(x));
            consider(x - rim.nearest(x));
          }
          break;
        case PieceKind::HalfSpace:
          break;
      }
    }
  }
  return best;
}

// The axis of least overlap. The separation's level sets below zero are not convex on the
// sphere of directions, so a local search finds the maximum of the basin it starts in:
// it starts from `start` (the best flat axis, or GJK's direction if better), from the
// best directions of a Fibonacci sphere (spacing ~0.3 rad, so every basin wider than that
// holds a start) and from the best rim directions (rim_axes: basins narrower than that),
// at most kStarts of them more than kDistinctCos apart, and any better than the best
// maximum found when its turn comes.
AxisQuery deepest_axis(const PosedPiece& a, const PosedPiece& b, const AxisQuery& start) {
  std::array<AxisQuery, 1 + kSpreadAxes + kRimStarts> candidates;
  candidates[0] = start;
  for (int i = 0; i < kSpreadAxes; ++i) {
    const Vec3 n = spread_direction(i, kSpreadAxes);
    candidates[i + 1] = {n, axis_separation(a, b, n)};
  }
  const std::array<AxisQuery, kRimStarts> rims = rim_axes(a, b);
  std::copy(rims.begin(), rims.end(), candidates.begin() + 1 + kSpreadAxes);
  std::sort(candidates.begin() + 1, candidates.end(), more_separated);
  AxisQuery best = refine_axis(a, b, candidates[0]);
  std::array<Vec3, kStarts> started;
  int count = 0;
  started[count++] = candidates[0].axis;
  int rescued = 0;
  for (size_t i = 1; i < candidates.size() && count < kStarts; ++i) {
    const Vec3& n = candidates[i].axis;
    bool distinct = true;
    for (int k = 0; k < count; ++k) distinct = distinct && n.dot(started[k]) < kDistinctCos;
    // A candidate better than every maximum found so far lies in a basin no search climbed,
    // though near a start (whose search went elsewhere or stalled below it): it is tried
    // too, up to kStarts such extra starts.
    const bool better = candidates[i].separation > best.separation && rescued < kStarts;
    if (!distinct && !better) continue;
    if (distinct) {
      started[count++] = n;
    } else {
      ++rescued;
    }
    const AxisQuery found = refine_axis(a, b, candidates[i]);
    if (found.separation > best.separation) best = found;
  }
  return best;
}

}  // namespace

Vec3 spread_direction(int i, int n) {
  const double z = 1.0 - (2.0 * i + 1.0) / n, r = std::sqrt(1.0 - z * z);
  return Vec3(r * std::cos(kGoldenAngle_rad * i), r * std::sin(kGoldenAngle_rad * i), z);
}

double axis_separation(const PosedPiece& a, const PosedPiece& b, const Vec3& n) {
  return -a.support(-n) - b.support(n);
}

AxisQuery best_support_axis(const PosedPiece& a, const PosedPiece& b) {
  AxisQuery best;
  auto consider = [&](const Vec3& axis) {
    const double norm = axis.norm();
    if (norm < 1e-9) return;
    for (double sign : {1.0, -1.0}) {
      const Vec3 n = sign * axis / norm;
      const double separation = axis_separation(a, b, n);
      if (separation > best.separation) best = {n, separation};
    }
  };
  for (const PosedPiece* p : {&a, &b}) {
    if (p->geometry->kind == PieceKind::Polyhedron) {
      for (const Vec3& n : p->poly.normals) consider(n);
      continue;
    }
    if (p->geometry->kind == PieceKind::Sphere) continue;  // no axis of its own
    consider(p->axis());
    const PosedPiece* q = p == &a ? &b : &a;
    if (q->geometry->kind == PieceKind::Polyhedron) {
      for (const Polyhedron::Edge& e : q->geometry->polyhedron.edges) {
        consider(p->axis().cross(q->poly.vertices[e.v1] - q->poly.vertices[e.v0]));
      }
    } else if (p == &a && q->geometry->kind != PieceKind::Sphere) {
      consider(a.axis().cross(b.axis()));
    }
  }
  // The line of centres: the axis of a sphere against anything round.
  consider(a.pose.position - b.pose.position);
  return best;
}

ConvexDistance convex_distance(const PosedPiece& a, const PosedPiece& b, double max_gap_m) {
  const double ra = core_radius(a), rb = core_radius(b);
  const GjkResult g = gjk(a, b, max_gap_m + ra + rb);
  ConvexDistance out;
  if (g.separated) {
    out.normal = (g.a - g.b).normalized();
    out.gap_m = g.distance - ra - rb;
    out.point_b = g.b + rb * out.normal;
    out.closest_points = true;
    // GJK can stall short of the closest points where support points tie (parallel flat
    // features): its answer stands when the separation along its normal confirms it.
    const double size = a.geometry->size_m + b.geometry->size_m;
    if (out.normal.allFinite() &&
        axis_separation(a, b, out.normal) >= out.gap_m - kConfirmRel * size) {
      return out;
    }
  }
  // The cores overlap (or touch), or GJK stalled: the axis of greatest separation, which
  // for separated pieces is their distance (the search has a single maximum there).
  // GJK's direction, when it has one, is a start too.
  out.flat = best_support_axis(a, b);
  AxisQuery start = *out.flat;
  if (g.separated) {
    const double along_gjk = axis_separation(a, b, out.normal);
    if (along_gjk > start.separation) start = {out.normal, along_gjk};
  }
  // Touching cores (a peg along its hole's wall, a face on a face): the signed distance
  // lies between the flat axis' separation (a lower bound) and GJK's bound. Within
  // kTouchingRel L of each other the flat axis is the answer, as the narrowphase takes it
  // within that tolerance; the search (133 axes, then up to 4 x 1000 moves of 22 support
  // queries) could only confirm it, at 40 times the cost of the whole step's other work.
  const double tol = kTouchingRel * (a.geometry->size_m + b.geometry->size_m);
  // A flat axis separating by more than GJK's bound refutes GJK: search then.
  const double bound = g.bound - ra - rb;
  const bool bracketed = !g.separated && std::abs(start.separation - bound) <= tol;
  const AxisQuery best = bracketed ? start : deepest_axis(a, b, start);
  out.normal = best.axis;
  out.gap_m = best.separation;
  Vec3 a0, a1, b0, b1;
  support_segment(a, -best.axis, tol, &a0, &a1);
  support_segment(b, best.axis, tol, &b0, &b1);
  a0 -= best.separation * best.axis;  // A's deepest part moved onto B's supporting plane
  a1 -= best.separation * best.axis;
  double sa = 0.0, sb = 0.0;
  closest_segment_params(a0, a1, b0, b1, &sa, &sb);
  out.point_b = 0.5 * (a0 + sa * (a1 - a0) + b0 + sb * (b1 - b0));
  out.closest_points = false;
  return out;
}

}  // namespace pivot
