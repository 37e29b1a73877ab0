// ContactBases: the warm start's record of each contact's basic z, matched by contact
// identity from one step to the next.
#include "world/contact_bases.hpp"

#include <gtest/gtest.h>

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

// Two parallel edges touching along a segment are two contacts of the same edge pair (seen
// on a 20-box pile: box 13's e11 on box 18's e9). Each must get back its own flags: the
// first one's for both made the next step's warm basis singular (two equal normal columns
// basic), and the island pivoted afresh on every step at rest.
TEST(ContactBases, ContactsOfTheSameFeaturePairKeepTheirOwnFlags) {
  const int d = 2;
  const std::vector<Contact> contacts = {edge_edge(1, 2, 11, 9), edge_edge(1, 2, 11, 9),
                                         edge_edge(1, 3, 0, 4)};
  std::vector<const Contact*> list;
  for (const Contact& c : contacts) list.push_back(&c);
  const int n = 3;
  // Rows: theta (n), phi (n d, contact-major), lambda (n).
  LcpBasis solved;
  solved.z_basic.assign(n * (2 + d), 0);
  solved.z_basic[0] = 1;          // the first contact carries the load...
  solved.z_basic[n + 0 * d] = 1;  // ...and friction
  solved.z_basic[n + n * d] = 1;
  solved.z_basic[2] = 1;  // the third one too; the second carries nothing
  solved.z_basic[n + 2 * d + 1] = 1;
  ContactBases bases;
  bases.begin_step();
  bases.record(list, d, solved);
  bases.begin_step();
  LcpBasis warm;
  bases.warm_basis(list, d, &warm);
  EXPECT_EQ(warm.z_basic, solved.z_basic);
  // The record does not depend on where the island's other contacts sit in the list.
  std::vector<const Contact*> moved = {list[2], list[0], list[1]};
  bases.warm_basis(moved, d, &warm);
  ASSERT_EQ(warm.z_basic.size(), solved.z_basic.size());
  EXPECT_EQ(warm.z_basic[0], 1);  // theta of the third contact, now first
  EXPECT_EQ(warm.z_basic[1], 1);  // the first edge-edge contact
  EXPECT_EQ(warm.z_basic[2], 0);  // the second
}

}  // namespace
}  // namespace pivot
