// ContactBases: the warm start's record of each contact's basic z, matched by contact
// identity from one step to the next.
#include "world/contact_bases.hpp"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

namespace pivot {
namespace {

Contact edge_edge(int body_a, int body_b, int edge_a, int edge_b) {
  Contact c;
  c.body_a = body_a;
  c.body_b = body_b;
  c.feature_a = Feature{FeatureType::Edge, edge_a, 0};
  c.feature_b = Feature{FeatureType::Edge, edge_b, 0};
  return c;
}

constexpr int kD = 2;

// The solved basis of three contacts: the first carries load, sticking in direction 0 with
// its lambda basic; the third is loaded, sticking in direction 1; the second carries
// nothing. Rows: theta (n), phi (n d, contact-major), lambda (n).
LcpBasis three_contact_basis() {
  const int n = 3;
  LcpBasis solved;
  solved.z_basic.assign(n * (2 + kD), 0);
  solved.z_basic[0] = 1;
  solved.z_basic[n + 0 * kD] = 1;
  solved.z_basic[n + n * kD] = 1;
  solved.z_basic[2] = 1;
  solved.z_basic[n + 2 * kD + 1] = 1;
  return solved;
}

// Three contacts and their three_contact_basis() recorded one step, looked up the next.
struct Recorded {
  const LcpBasis solved = three_contact_basis();
  const std::vector<Contact> contacts;
  std::vector<const Contact*> list;  // into contacts
  ContactBases bases;
  explicit Recorded(std::vector<Contact> island) : contacts(std::move(island)) {
    for (const Contact& c : contacts) list.push_back(&c);
    bases.begin_step();
    bases.record(list, kD, solved);
    bases.begin_step();
  }
  Recorded(const Recorded&) = delete;  // list points into contacts
  LcpBasis warm(const std::vector<const Contact*>& island) const {
    LcpBasis out;
    bases.warm_basis(island, kD, &out);
    return out;
  }
};

// Two parallel edges touching along a segment are two contacts of the same edge pair (seen
// on a 20-box pile: box 13's e11 on box 18's e9). Each must get back its own flags: the
// first one's for both made the next step's warm basis singular (two equal normal columns
// basic), and the island pivoted afresh on every step at rest.
TEST(ContactBases, ContactsOfTheSameFeaturePairKeepTheirOwnFlags) {
  const Recorded r({edge_edge(1, 2, 11, 9), edge_edge(1, 2, 11, 9), edge_edge(1, 3, 0, 4)});
  EXPECT_EQ(r.warm(r.list).z_basic, r.solved.z_basic);
  // The record does not depend on where the island's other contacts sit in the list.
  const LcpBasis warm = r.warm({r.list[2], r.list[0], r.list[1]});
  ASSERT_EQ(warm.z_basic.size(), r.solved.z_basic.size());
  EXPECT_EQ(warm.z_basic[0], 1);  // theta of the third contact, now first
  EXPECT_EQ(warm.z_basic[1], 1);  // the first edge-edge contact
  EXPECT_EQ(warm.z_basic[2], 0);  // the second
}

// Two contacts of one feature pair need not be adjacent: the 40-body bin pile's box pairs
// give two edge-edge contacts of the same edges with a contact of other features between
// them. Counted only when adjacent, both took the first one's flags, and the pile's main
// island (180 contacts) at rest pivoted afresh, about 2,300 pivots, on every step.
TEST(ContactBases, ContactsOfTheSameFeaturePairKeepTheirOwnFlagsWhenNotAdjacent) {
  const Recorded r({edge_edge(5, 35, 3, 4), edge_edge(5, 35, 0, 1), edge_edge(5, 35, 3, 4)});
  EXPECT_EQ(r.warm(r.list).z_basic, r.solved.z_basic);
}

}  // namespace
}  // namespace pivot
