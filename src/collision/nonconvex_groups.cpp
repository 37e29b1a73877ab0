#include "collision/nonconvex_groups.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace pivot {

namespace {

// Relative to the piece's size: a vertex is in an edge's or vertex's Voronoi region when
// its distance exceeds every face-plane distance by 1e-7 L (so a vertex exactly over a face
// boundary, as in a flush stack, stays a vertex-face contact); a face is glued to another
// piece when a point 1e-6 L in front of it is inside that piece.
constexpr double kRegionRel = 1e-7;
constexpr double kGlueRel = 1e-6;
constexpr double kSamePlaneCos = 1.0 - 1e-12;
constexpr double kSamePlaneRel = 1e-9;

bool near_box(const Vec3& p, const Vec3& lo, const Vec3& hi, double margin) {
  return (p.array() >= lo.array() - margin).all() && (p.array() <= hi.array() + margin).all();
}

// Faces adjacent to the closest feature of a site (the face itself for a face).
void adjacent_faces(const Polyhedron& poly, const PolyhedronPoint& where, std::vector<int>* faces) {
  faces->clear();
  switch (where.type) {
    case FeatureType::Face:
      faces->push_back(where.index);
      break;
    case FeatureType::Edge:
      faces->push_back(poly.edges[where.index].face0);
      faces->push_back(poly.edges[where.index].face1);
      break;
    case FeatureType::Vertex:
      for (int k = poly.vertex_face_start[where.index]; k < poly.vertex_face_start[where.index + 1];
           ++k) {
        faces->push_back(poly.vertex_faces[k]);
      }
      break;
  }
}

bool in_edge_or_vertex_region(const PosedPiece& piece, const PolyhedronPoint& where) {
  return where.type != FeatureType::Face &&
         where.distance > where.max_plane_distance + kRegionRel * piece.geometry->size_m;
}

// Whether point p lies inside some piece of the body other than `except`.
bool inside_other_piece(std::vector<PosedPiece>* pieces, int except, const Vec3& p, int stamp,
                        double tolerance) {
  for (int r = 0; r < static_cast<int>(pieces->size()); ++r) {
    PosedPiece& other = (*pieces)[r];
    if (r == except || !near_box(p, other.aabb_min, other.aabb_max, tolerance)) continue;
    other.pose_polyhedron(stamp);
    if (signed_distance(other, p) < tolerance) return true;
  }
  return false;
}

Vec3 face_centroid(const PosedPiece& piece, int f) {
  const Polyhedron::Face& face = piece.geometry->polyhedron.faces[f];
  Vec3 sum = Vec3::Zero();
  for (int k = 0; k < face.count; ++k) {
    sum += piece.poly.vertices[piece.geometry->polyhedron.corner_ids[face.first + k]];
  }
  return sum / face.count;
}

// Every corner of face t lies behind the plane of face s (and so all of t does).
bool face_behind(const PosedPiece& t_piece, int t, const PosedPiece& s_piece, int s, double tol) {
  const Polyhedron::Face& face = t_piece.geometry->polyhedron.faces[t];
  const Vec3& n = s_piece.poly.normals[s];
  for (int k = 0; k < face.count; ++k) {
    const Vec3& corner =
        t_piece.poly.vertices[t_piece.geometry->polyhedron.corner_ids[face.first + k]];
    if (n.dot(corner) - s_piece.poly.offsets[s] > tol) return false;
  }
  return true;
}

// Around a vertex near several pieces: the faces adjacent to what it meets on each piece,
// less the faces glued to another piece, each plane once, into scratch->sides. Returns
// whether they make a convex edge or vertex of the compound (every face behind every other
// face's plane), when their union is the free space and one group is exact.
bool merge_sides(const Vec3& v, int stamp, std::vector<PosedPiece>* pieces,
                 NonconvexScratch* scratch) {
  std::vector<PosedPiece>& ep = *pieces;
  scratch->sides.clear();
  for (const NonconvexScratch::Site& site : scratch->sites) {
    const PosedPiece& epiece = ep[site.piece];
    adjacent_faces(epiece.geometry->polyhedron, site.where, &scratch->face_ids);
    for (int f : scratch->face_ids) {
      FeatureType type;
      int index;
      const Vec3 c = closest_on_face(epiece.poly, f, v, &type, &index);
      const Vec3& n = epiece.poly.normals[f];
      // Probe just in front of the face, stepped into the face from its nearest point (which
      // is often on the face's border, where the neighbour may be thinner than the probe).
      const double glue = kGlueRel * epiece.geometry->size_m;
      const Vec3 inward = face_centroid(epiece, f) - c;
      const Vec3 probe =
          c + glue * n + (inward.norm() > 0 ? Vec3(2 * glue * inward.normalized()) : Vec3::Zero());
      if (inside_other_piece(pieces, site.piece, probe, stamp, 0.0)) continue;
      const bool duplicate = std::any_of(
          scratch->sides.begin(), scratch->sides.end(), [&](const NonconvexScratch::Side& s) {
            const PosedPiece& other = ep[s.piece];
            return other.poly.normals[s.face].dot(n) > kSamePlaneCos &&
                   std::abs(other.poly.offsets[s.face] - epiece.poly.offsets[f]) <=
                       kSamePlaneRel * epiece.geometry->size_m;
          });
      if (!duplicate) scratch->sides.push_back({site.piece, f, c});
    }
  }
  for (const NonconvexScratch::Side& s : scratch->sides) {
    for (const NonconvexScratch::Side& t : scratch->sides) {
      if (s.piece != t.piece && !face_behind(ep[t.piece], t.face, ep[s.piece], s.face,
                                             kRegionRel * ep[s.piece].geometry->size_m)) {
        return false;
      }
    }
  }
  return true;
}

}  // namespace

void GroupBuffer::recycle(std::vector<ContactGroup>* groups) {
  for (ContactGroup& g : *groups) {
    g.sides.clear();
    spare_.push_back(std::move(g.sides));
  }
  groups->clear();
}

ContactGroup& GroupBuffer::add(std::vector<ContactGroup>* groups) {
  groups->emplace_back();
  if (!spare_.empty()) {
    groups->back().sides = std::move(spare_.back());
    spare_.pop_back();
  }
  return groups->back();
}

void add_nonconvex_groups(const GroupBodies& bodies, double margin, int stamp,
                          std::size_t first_contact, std::vector<Contact>* contacts,
                          GroupBuffer* buffer, std::vector<ContactGroup>* groups,
                          NonconvexScratch* scratch) {
  std::vector<PosedPiece>& vp = *bodies.vertex_pieces;
  std::vector<PosedPiece>& ep = *bodies.edge_pieces;

  // One group: the vertex, the feature it meets, and the sides in scratch->sides.
  auto emit = [&](const Vec3& v, const Feature& vertex, const Feature& met) {
    ContactGroup& g = buffer->add(groups);
    g.body_a = bodies.body_a;
    g.body_b = bodies.body_b;
    g.vertex_on_a = bodies.vertex_on_a;
    g.point = v;
    g.feature_a = bodies.vertex_on_a ? vertex : met;
    g.feature_b = bodies.vertex_on_a ? met : vertex;
    for (const NonconvexScratch::Side& s : scratch->sides) {
      const PosedPiece& piece = ep[s.piece];
      const Vec3& n = piece.poly.normals[s.face];
      ContactSide side;
      side.gap_m = n.dot(v) - piece.poly.offsets[s.face];
      // The sides are planes of the edge body; B's witness is on B as in Contact.
      side.normal = bodies.vertex_on_a ? n : Vec3(-n);
      side.point = bodies.vertex_on_a ? Vec3(v - side.gap_m * n) : v;
      side.feature = {FeatureType::Face, s.face, piece.geometry->piece};
      g.sides.push_back(side);
    }
  };

  for (int pv = 0; pv < static_cast<int>(vp.size()); ++pv) {
    PosedPiece& vpiece = vp[pv];
    if (vpiece.geometry->kind != PieceKind::Polyhedron) continue;
    vpiece.pose_polyhedron(stamp);
    for (int vid : vpiece.geometry->polyhedron.hull_vertices) {
      const Vec3& v = vpiece.poly.vertices[vid];
      if (!near_box(v, bodies.edge_min, bodies.edge_max, margin)) continue;
      // A corner buried in (or lying on) another piece of its own body is no corner of it.
      if (vp.size() > 1 &&
          inside_other_piece(&vp, pv, v, stamp, kGlueRel * vpiece.geometry->size_m)) {
        continue;
      }

      scratch->sites.clear();
      bool meets_edge = false;
      for (int pe = 0; pe < static_cast<int>(ep.size()); ++pe) {
        PosedPiece& epiece = ep[pe];
        if (epiece.geometry->kind != PieceKind::Polyhedron ||
            !near_box(v, epiece.aabb_min, epiece.aabb_max, margin)) {
          continue;
        }
        epiece.pose_polyhedron(stamp);
        const PolyhedronPoint where = closest_point(epiece.poly, v);
        if (where.distance > margin) continue;
        scratch->sites.push_back({pe, where});
        meets_edge = meets_edge || in_edge_or_vertex_region(epiece, where);
      }
      if (!meets_edge) continue;

      const Feature vertex{FeatureType::Vertex, vid, vpiece.geometry->piece};
      auto met_feature = [&](const NonconvexScratch::Site& site) {
        return Feature{site.where.type, site.where.index, ep[site.piece].geometry->piece};
      };
      // One group per piece whose edge or vertex v meets, with all of that piece's faces
      // around it: exact, since the free space is the intersection over the pieces.
      auto group_per_piece = [&]() {
        for (const NonconvexScratch::Site& site : scratch->sites) {
          if (!in_edge_or_vertex_region(ep[site.piece], site.where)) continue;
          adjacent_faces(ep[site.piece].geometry->polyhedron, site.where, &scratch->face_ids);
          scratch->sides.clear();
          for (int f : scratch->face_ids) scratch->sides.push_back({site.piece, f, Vec3::Zero()});
          emit(v, vertex, met_feature(site));
        }
      };
      if (scratch->sites.size() == 1) {
        group_per_piece();
      } else if (!merge_sides(v, stamp, &ep, scratch)) {
        group_per_piece();
      } else if (scratch->sides.size() >= 2) {
        const auto first_edge_site = std::find_if(
            scratch->sites.begin(), scratch->sites.end(), [&](const NonconvexScratch::Site& site) {
              return in_edge_or_vertex_region(ep[site.piece], site.where);
            });
        emit(v, vertex, met_feature(*first_edge_site));
      } else {
        continue;  // the pieces make one flat face here: a plain convex contact is right
      }

      // The convex contacts of this vertex against the faces of the pieces it was grouped
      // with. Not an edge-edge contact that ends at it (no face plane): the group keeps the
      // vertex out, not the edges next to it, and without that contact an edge of a box
      // falling past a box's corner crossed the corner's edge 17 mm deep in a step.
      auto replaced = [&](const Contact& c) {
        const Feature& own = bodies.vertex_on_a ? c.feature_a : c.feature_b;
        const Feature& other = bodies.vertex_on_a ? c.feature_b : c.feature_a;
        if (own != vertex || c.plane == ContactPlane::None) return false;
        return std::any_of(scratch->sites.begin(), scratch->sites.end(),
                           [&](const NonconvexScratch::Site& site) {
                             return ep[site.piece].geometry->piece == other.piece;
                           });
      };
      contacts->erase(std::remove_if(contacts->begin() + static_cast<std::ptrdiff_t>(first_contact),
                                     contacts->end(), replaced),
                      contacts->end());
    }
  }
}

}  // namespace pivot
