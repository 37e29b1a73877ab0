// Nonconvex contact groups (Egan, Berard and Trinkle, Sec. VI-VII). Near a convex edge or
// vertex of a body, the free space of a vertex of the other body is the union of the
// half-spaces of the adjacent faces; one convex contact would extend one face forever
// (their Fig. 1). Where a vertex meets a face, one convex contact is right (Fig. 5).
#pragma once

#include <cstddef>
#include <vector>

#include "collision/narrowphase.hpp"
#include "pivot/contact.hpp"

namespace pivot {

// Groups own their sides; recycling the side vectors between detections keeps a step free
// of allocation once warm.
class GroupBuffer {
 public:
  // Empties groups, keeping the side vectors' storage for later groups.
  void recycle(std::vector<ContactGroup>* groups);
  ContactGroup& add(std::vector<ContactGroup>* groups);

 private:
  std::vector<std::vector<ContactSide>> spare_;
};

struct NonconvexScratch {
  struct Site {
    int piece;              // index into the edge body's pieces
    PolyhedronPoint where;  // the vertex relative to that piece
  };
  struct Side {
    int piece, face;
    Vec3 closest;  // point of the face polygon nearest the vertex
  };
  std::vector<Site> sites;
  std::vector<Side> sides;
  std::vector<int> face_ids;
};

// The two bodies of a pair as the group finder sees them.
struct GroupBodies {
  std::vector<PosedPiece>* vertex_pieces;  // the body whose vertices are tried
  std::vector<PosedPiece>* edge_pieces;    // the body whose edges and vertices they may meet
  Vec3 edge_min, edge_max;                 // world bounds of the edge body
  bool vertex_on_a;                        // whether the vertex body is the pair's body A
  int body_a, body_b;
};

// (vertices of one body, pieces of the other) => a group for every vertex within margin_m of
// a convex edge or vertex of the other body. Sides are the faces adjacent to that edge or
// vertex; around a compound's rim, the faces of adjacent pieces that together form a convex
// edge make one group (faces glued between pieces are not sides); where pieces meet in a
// concave corner, each piece keeps its own group, whose intersection is the exact free
// space. The pair's convex contacts at such a vertex, in contacts[first_contact, end), are
// removed: the group replaces them. stamp poses polyhedra on demand.
void add_nonconvex_groups(const GroupBodies& bodies, double margin_m, int stamp,
                          std::size_t first_contact, std::vector<Contact>* contacts,
                          GroupBuffer* buffer, std::vector<ContactGroup>* groups,
                          NonconvexScratch* scratch);

}  // namespace pivot
