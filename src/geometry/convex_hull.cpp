// Convex hull of a point set in two stages. Quickhull (Barber, Dobkin, Huhdanpaa 1996)
// builds the exact hull as triangles, deciding every "is this point above that face" with
// an exact orientation test on the points snapped to a fine integer grid, so the hull can
// never fold over itself the way tolerance-based decisions let it. Then triangles lying
// within the tolerance of a common plane are merged into convex polygon faces.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "pivot/geometry.hpp"

namespace pivot {
namespace {

// Points closer than this fraction of the point set's size to a face's plane count as on
// it. Far above round-off (about 1e-15 of the size) and below any feature that matters for
// contact; it absorbs vertices that went through single precision (6e-8 relative) or were
// written with 7 significant digits, so such input still yields one polygon per flat side.
constexpr double kRelativeTolerance = 1e-6;

// Grid of the exact predicates: coordinates become integers in [0, 2^40] across the set's
// size (a snap of 1e-12 of it, far below the tolerance). Differences then need 41 bits, a
// cross product 83 and the orientation determinant fewer than 127: exact in 128 bits.
constexpr double kGridCells = 1099511627776.0;  // 2^40
__extension__ typedef __int128 Wide;
struct GridPoint {
  std::int64_t x, y, z;
};

// Sign of det[b - a, c - a, d - a]: > 0 when d lies on the side that (a, b, c),
// counter-clockwise, faces.
int orientation(const GridPoint& a, const GridPoint& b, const GridPoint& c, const GridPoint& d) {
  const Wide bx = b.x - a.x, by = b.y - a.y, bz = b.z - a.z;
  const Wide cx = c.x - a.x, cy = c.y - a.y, cz = c.z - a.z;
  const Wide dx = d.x - a.x, dy = d.y - a.y, dz = d.z - a.z;
  const Wide det = dx * (by * cz - bz * cy) + dy * (bz * cx - bx * cz) + dz * (bx * cy - by * cx);
  return det > 0 ? 1 : (det < 0 ? -1 : 0);
}

struct Triangle {
  int v[3];
  Vec3 normal;    // unit, pointing out of the hull
  double offset;  // normal . x on the plane
  double area;
  std::vector<int> outside;  // points strictly above this face
  bool alive = true;
};

class ConvexHullBuilder {
 public:
  ConvexHullBuilder(const std::vector<Vec3>& points, const Vec3& lo, double size)
      : p_(points), eps_(kRelativeTolerance * size) {
    for (const Vec3& q : points) {
      const Vec3 cell = (q - lo) / size * kGridCells;
      grid_.push_back({std::llround(cell.x()), std::llround(cell.y()), std::llround(cell.z())});
    }
  }

  ConvexMesh build() {
    make_simplex();
    // Every face is visited once: a face with outside points is visible from its farthest
    // point, so adding that point removes the face; new faces are appended and visited later.
    for (std::size_t f = 0; f < tri_.size(); ++f) {
      if (tri_[f].alive && !tri_[f].outside.empty()) add_point(static_cast<int>(f));
    }
    for (const Triangle& t : tri_) {
      if (t.alive) corners_.insert(corners_.end(), std::begin(t.v), std::end(t.v));
    }
    std::sort(corners_.begin(), corners_.end());
    corners_.erase(std::unique(corners_.begin(), corners_.end()), corners_.end());
    if (thinner_than_tolerance())
      throw std::invalid_argument("points are coplanar: the hull has no volume");
    return merge_faces();
  }

 private:
  static std::uint64_t key(int from, int to) {
    return (static_cast<std::uint64_t>(from) << 32) | static_cast<std::uint32_t>(to);
  }
  double distance(const Triangle& t, int point) const { return t.normal.dot(p_[point]) - t.offset; }
  bool above(const Triangle& t, int point) const {
    return orientation(grid_[t.v[0]], grid_[t.v[1]], grid_[t.v[2]], grid_[point]) > 0;
  }
  double longest_edge(const Triangle& t) const {
    return std::max({(p_[t.v[1]] - p_[t.v[0]]).norm(), (p_[t.v[2]] - p_[t.v[1]]).norm(),
                     (p_[t.v[0]] - p_[t.v[2]]).norm()});
  }
  bool sliver(const Triangle& t) const { return 2.0 * t.area <= eps_ * longest_edge(t); }

  // Whether every point lies within the tolerance of one plane: then the hull is at most
  // twice the tolerance thick across some face, and merging faces within the tolerance may
  // fold its two sides onto each other. The simplex's checks miss such a body when none of
  // their extreme points spans its thin direction. A sliver's normal is round-off and
  // decides nothing.
  bool thinner_than_tolerance() const {
    return std::any_of(tri_.begin(), tri_.end(), [&](const Triangle& t) {
      return t.alive && !sliver(t) && std::all_of(corners_.begin(), corners_.end(), [&](int v) {
               return distance(t, v) >= -2.0 * eps_;
             });
    });
  }
  int neighbour(const Triangle& t, int k) const { return edge_.at(key(t.v[(k + 1) % 3], t.v[k])); }

  int add_triangle(int a, int b, int c) {
    Triangle t;
    t.v[0] = a;
    t.v[1] = b;
    t.v[2] = c;
    const Vec3 n = (p_[b] - p_[a]).cross(p_[c] - p_[a]);
    t.area = 0.5 * n.norm();
    t.normal = n / n.norm();
    t.offset = t.normal.dot((p_[a] + p_[b] + p_[c]) / 3.0);
    const int id = static_cast<int>(tri_.size());
    for (int k = 0; k < 3; ++k) edge_[key(t.v[k], t.v[(k + 1) % 3])] = id;
    tri_.push_back(std::move(t));
    mark_.push_back(kUnknown);
    return id;
  }

  // Files each point with the face it is farthest above, or drops it when inside or on
  // the hull.
  void assign(const std::vector<int>& points, const std::vector<int>& faces) {
    for (int q : points) {
      int best = -1;
      for (int f : faces) {
        if (above(tri_[f], q) && (best < 0 || distance(tri_[f], q) > distance(tri_[best], q)))
          best = f;
      }
      if (best >= 0) tri_[best].outside.push_back(q);
    }
  }

  // A first tetrahedron from extreme points; its checks, in floating point with the
  // tolerance, are what rejects flat point sets.
  void make_simplex() {
    const int n = static_cast<int>(p_.size());
    int axis = 0;
    Vec3 lo = p_[0], hi = p_[0];
    for (const Vec3& q : p_) {
      lo = lo.cwiseMin(q);
      hi = hi.cwiseMax(q);
    }
    (hi - lo).maxCoeff(&axis);
    int i0 = 0, i1 = 0;
    for (int i = 0; i < n; ++i) {
      if (p_[i][axis] < p_[i0][axis]) i0 = i;
      if (p_[i][axis] > p_[i1][axis]) i1 = i;
    }
    const Vec3 dir = (p_[i1] - p_[i0]).normalized();
    int i2 = i0;
    double far_line = 0.0;
    for (int i = 0; i < n; ++i) {
      const double d = (p_[i] - p_[i0]).cross(dir).norm();
      if (d > far_line) {
        far_line = d;
        i2 = i;
      }
    }
    if (far_line <= eps_)
      throw std::invalid_argument("points are collinear: the hull has no volume");
    const Vec3 normal = (p_[i1] - p_[i0]).cross(p_[i2] - p_[i0]).normalized();
    int i3 = i0;
    double far_plane = 0.0;
    for (int i = 0; i < n; ++i) {
      const double d = std::abs(normal.dot(p_[i] - p_[i0]));
      if (d > far_plane) {
        far_plane = d;
        i3 = i;
      }
    }
    if (far_plane <= eps_)
      throw std::invalid_argument("points are coplanar: the hull has no volume");

    // Orient so that the fourth point lies below the first face.
    if (orientation(grid_[i0], grid_[i1], grid_[i2], grid_[i3]) > 0) std::swap(i1, i2);
    const std::vector<int> faces = {add_triangle(i0, i1, i2), add_triangle(i0, i3, i1),
                                    add_triangle(i1, i3, i2), add_triangle(i2, i3, i0)};
    std::vector<int> rest;
    for (int i = 0; i < n; ++i) {
      if (i != i0 && i != i1 && i != i2 && i != i3) rest.push_back(i);
    }
    assign(rest, faces);
  }

  void add_point(int start) {
    const std::vector<int>& candidates = tri_[start].outside;
    const int eye = *std::max_element(candidates.begin(), candidates.end(), [&](int a, int b) {
      return distance(tri_[start], a) < distance(tri_[start], b);
    });

    // The faces the eye sees form a connected patch around the start face (exactly: the
    // tests are exact); its boundary, the horizon, is where the new faces attach.
    std::vector<int> visible = {start};
    std::vector<int> touched = {start};
    mark_[start] = kVisible;
    for (std::size_t k = 0; k < visible.size(); ++k) {
      for (int e = 0; e < 3; ++e) {
        const int g = neighbour(tri_[visible[k]], e);
        if (mark_[g] != kUnknown) continue;
        mark_[g] = above(tri_[g], eye) ? kVisible : kHidden;
        touched.push_back(g);
        if (mark_[g] == kVisible) visible.push_back(g);
      }
    }
    std::vector<std::pair<int, int>> horizon;
    std::vector<int> orphans;
    for (int f : visible) {
      for (int e = 0; e < 3; ++e) {
        if (mark_[neighbour(tri_[f], e)] != kVisible)
          horizon.push_back({tri_[f].v[e], tri_[f].v[(e + 1) % 3]});
      }
      for (int q : tri_[f].outside) {
        if (q != eye) orphans.push_back(q);
      }
    }
    for (int f : touched) mark_[f] = kUnknown;
    for (int f : visible) {
      for (int e = 0; e < 3; ++e) edge_.erase(key(tri_[f].v[e], tri_[f].v[(e + 1) % 3]));
      tri_[f].alive = false;
      tri_[f].outside = {};
    }
    // Each horizon edge keeps the direction its visible face gave it, so the new faces are
    // oriented outwards like the ones they replace.
    std::vector<int> created;
    for (const auto& [a, b] : horizon) created.push_back(add_triangle(a, b, eye));
    assign(orphans, created);
  }

  // The boundary of a set of triangles (members[t] == stamp) as one counter-clockwise
  // cycle, if it is a single simple cycle whose every corner turns left about `normal` or
  // lies within the tolerance of the line through its neighbours, and whose plane supports
  // the hull; empty otherwise.
  std::vector<int> convex_boundary(const std::vector<int>& group, const std::vector<int>& members,
                                   int stamp, const Vec3& normal) const {
    std::unordered_map<int, int> next;
    for (int t : group) {
      for (int e = 0; e < 3; ++e) {
        if (members[static_cast<std::size_t>(neighbour(tri_[t], e))] == stamp) continue;
        if (!next.emplace(tri_[t].v[e], tri_[t].v[(e + 1) % 3]).second) return {};  // pinched
      }
    }
    std::vector<int> loop = {next.begin()->first};
    while (loop.size() <= next.size()) {
      const int v = next.at(loop.back());
      if (v == loop.front()) break;
      loop.push_back(v);
    }
    if (loop.size() != next.size()) return {};  // more than one cycle: a hole
    for (std::size_t k = 0; k < loop.size(); ++k) {
      const Vec3& p = p_[loop[(k + loop.size() - 1) % loop.size()]];
      const Vec3& v = p_[loop[k]];
      const Vec3& q = p_[loop[(k + 1) % loop.size()]];
      // Positive: v lies left of the chord p -> q, a reflex corner.
      if (normal.dot((q - p).cross(v - p)) > eps_ * (q - p).norm()) return {};
    }
    // A single hull triangle's plane supports the hull exactly; checking it costs a pass
    // over the vertices for every face of a curved surface.
    return group.size() == 1 || supporting(loop) ? loop : std::vector<int>{};
  }

  // Whether no hull vertex lies further than twice the tolerance in front of the plane a
  // polygon face gets downstream: Newell's normal through the mean of its corners. Corners
  // within the tolerance of the seed's plane do not ensure it: a narrow face of triangles
  // tilted by up to the tolerance over its width has a normal tilted as much, and vertices
  // across the hull then lie that tilt times their distance in front of it.
  bool supporting(const std::vector<int>& loop) const {
    Vec3 normal = Vec3::Zero(), mean = Vec3::Zero();
    for (std::size_t k = 0; k < loop.size(); ++k) {
      normal += (p_[loop[k]] - p_[loop[0]]).cross(p_[loop[(k + 1) % loop.size()]] - p_[loop[0]]);
      mean += p_[loop[k]];
    }
    normal.normalize();
    mean /= static_cast<double>(loop.size());
    return std::all_of(corners_.begin(), corners_.end(),
                       [&](int v) { return normal.dot(p_[v] - mean) <= 2.0 * eps_; });
  }

  // Grows a face from the largest remaining triangle over neighbours whose corners all lie
  // within the tolerance of its plane (the seed's plane, so a gently curved surface is not
  // swallowed whole). Where that region is not a convex polygon (a surface curved by less
  // than the tolerance) or its plane does not support the hull, the face grows one triangle
  // at a time for as long as it stays convex and supporting. Vertices then left between
  // exactly two faces on a straight line go.
  ConvexMesh merge_faces() const {
    std::vector<int> order;
    for (std::size_t f = 0; f < tri_.size(); ++f) {
      if (tri_[f].alive) order.push_back(static_cast<int>(f));
    }
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return tri_[a].area > tri_[b].area; });
    std::vector<int> face_of(tri_.size(), -1);
    std::vector<int> members(tri_.size(), -1);  // stamp of the set being tested
    int stamp = 0;
    std::vector<std::vector<int>> loops;
    for (int seed : order) {
      if (face_of[static_cast<std::size_t>(seed)] >= 0) continue;
      const Triangle& plane = tri_[seed];
      // The normals of the two opposite sides of a thin body agree with neither's plane; a
      // sliver (corners within the tolerance of a line) has no reliable normal, and its
      // corners decide alone.
      auto flat = [&](int t) {
        const Triangle& c = tri_[t];
        return face_of[static_cast<std::size_t>(t)] < 0 &&
               (sliver(c) || c.normal.dot(plane.normal) > 0.0) &&
               std::all_of(std::begin(c.v), std::end(c.v),
                           [&](int v) { return std::abs(distance(plane, v)) <= eps_; });
      };
      std::vector<int> region = {seed};
      members[static_cast<std::size_t>(seed)] = ++stamp;
      for (std::size_t k = 0; k < region.size(); ++k) {
        for (int e = 0; e < 3; ++e) {
          const int g = neighbour(tri_[region[k]], e);
          if (members[static_cast<std::size_t>(g)] != stamp && flat(g)) {
            members[static_cast<std::size_t>(g)] = stamp;
            region.push_back(g);
          }
        }
      }
      std::vector<int> loop = convex_boundary(region, members, stamp, plane.normal);
      if (loop.empty()) {
        const std::vector<int> candidates = region;
        region = {seed};
        members[static_cast<std::size_t>(seed)] = ++stamp;
        loop = {plane.v[0], plane.v[1], plane.v[2]};  // a hull triangle: exact, and supporting
        for (bool grown = true; grown;) {
          grown = false;
          for (int t : candidates) {
            if (members[static_cast<std::size_t>(t)] == stamp) continue;
            members[static_cast<std::size_t>(t)] = stamp;
            region.push_back(t);
            std::vector<int> larger = convex_boundary(region, members, stamp, plane.normal);
            if (larger.empty()) {
              members[static_cast<std::size_t>(t)] = -1;
              region.pop_back();
            } else {
              loop = std::move(larger);
              grown = true;
            }
          }
        }
      }
      for (int t : region) face_of[static_cast<std::size_t>(t)] = static_cast<int>(loops.size());
      loops.push_back(std::move(loop));
    }

    drop_straight_vertices(&loops);
    std::vector<int> faces_at(p_.size(), 0);
    for (const auto& loop : loops) {
      for (int v : loop) ++faces_at[static_cast<std::size_t>(v)];
    }
    std::vector<int> index(p_.size(), -1);
    ConvexMesh mesh;
    for (std::size_t v = 0; v < p_.size(); ++v) {
      if (faces_at[v] == 0) continue;
      index[v] = static_cast<int>(mesh.vertices.size());
      mesh.vertices.push_back(p_[v]);
    }
    for (const auto& loop : loops) {
      std::vector<int> face;
      for (int v : loop) {
        if (index[static_cast<std::size_t>(v)] >= 0)
          face.push_back(index[static_cast<std::size_t>(v)]);
      }
      mesh.faces.push_back(std::move(face));
    }
    return mesh;
  }

  // A vertex between exactly two faces lies where they meet, usually on a straight edge.
  // It goes when it, and every vertex that went before it from the two edges at it, lies
  // within the tolerance of the segment between its two neighbours: the faces of a thin
  // body are nearly parallel and may meet along a bent line (within the tolerance of both
  // planes), whose corners must stay. Removing a vertex can collapse a sliver face (three
  // nearly collinear corners) to two corners, which then goes too, and may leave further
  // vertices between two faces.
  void drop_straight_vertices(std::vector<std::vector<int>>* loops) const {
    std::map<std::pair<int, int>, std::vector<int>> gone_from;  // edge -> vertices removed
    auto edge = [](int x, int y) { return std::make_pair(std::min(x, y), std::max(x, y)); };
    auto near_segment = [&](int x, int a, int b) {
      const Vec3 ab = p_[b] - p_[a], ax = p_[x] - p_[a];
      const double t = std::clamp(ax.dot(ab) / ab.squaredNorm(), 0.0, 1.0);
      return (ax - t * ab).norm() <= eps_;
    };
    for (bool changed = true; changed;) {
      changed = false;
      std::vector<std::vector<std::size_t>> loops_at(p_.size());
      for (std::size_t l = 0; l < loops->size(); ++l) {
        for (int v : (*loops)[l]) loops_at[static_cast<std::size_t>(v)].push_back(l);
      }
      for (std::size_t v = 0; v < p_.size(); ++v) {
        if (loops_at[v].size() != 2) continue;
        std::vector<int>& first = (*loops)[loops_at[v][0]];
        std::vector<int>& second = (*loops)[loops_at[v][1]];
        if (first.size() < 3 || second.size() < 3) continue;  // collapsed this round
        const int id = static_cast<int>(v);
        const auto at = std::find(first.begin(), first.end(), id);
        const int a = at == first.begin() ? first.back() : *(at - 1);
        const int b = at + 1 == first.end() ? first.front() : *(at + 1);
        std::vector<int> gone = {id};
        for (const std::pair<int, int>& side : {edge(a, id), edge(b, id)}) {
          const auto it = gone_from.find(side);
          if (it != gone_from.end()) gone.insert(gone.end(), it->second.begin(), it->second.end());
        }
        if (!std::all_of(gone.begin(), gone.end(), [&](int x) { return near_segment(x, a, b); }))
          continue;
        std::vector<int> first_without = first, second_without = second;
        first_without.erase(first_without.begin() + (at - first.begin()));
        second_without.erase(std::find(second_without.begin(), second_without.end(), id));
        if (first_without.size() >= 3 && !supporting(first_without)) continue;
        if (second_without.size() >= 3 && !supporting(second_without)) continue;
        std::vector<int>& joined = gone_from[edge(a, b)];
        joined.insert(joined.end(), gone.begin(), gone.end());
        first.erase(at);
        second.erase(std::find(second.begin(), second.end(), id));
        changed = true;
      }
      loops->erase(std::remove_if(loops->begin(), loops->end(),
                                  [](const auto& loop) { return loop.size() < 3; }),
                   loops->end());
    }
  }

  enum Mark : char { kUnknown, kVisible, kHidden };

  const std::vector<Vec3>& p_;
  const double eps_;
  std::vector<GridPoint> grid_;
  std::vector<int> corners_;  // the hull's vertices: corners of the live triangles
  std::vector<Triangle> tri_;
  std::vector<Mark> mark_;                       // per triangle, kUnknown outside add_point
  std::unordered_map<std::uint64_t, int> edge_;  // directed edge -> the live face that owns it
};

}  // namespace

ConvexMesh make_convex_mesh(const std::vector<Vec3>& points) {
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (!points[i].allFinite())
      throw std::invalid_argument("point " + std::to_string(i) + " is not finite");
  }
  if (points.size() < 4) {
    throw std::invalid_argument("a hull needs at least 4 points, found " +
                                std::to_string(points.size()));
  }
  Vec3 lo = points[0], hi = points[0];
  for (const Vec3& q : points) {
    lo = lo.cwiseMin(q);
    hi = hi.cwiseMax(q);
  }
  const double size = (hi - lo).maxCoeff();
  if (size == 0.0) throw std::invalid_argument("all points coincide: the hull has no volume");
  return ConvexHullBuilder(points, lo, size).build();
}

}  // namespace pivot
