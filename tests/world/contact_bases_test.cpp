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
    ContactKeys keys;
    keys.form(list);
    bases.begin_step();
    bases.record(keys, kD, solved, VecX::Zero(static_cast<int>(solved.z_basic.size())));
    bases.begin_step();
  }
  Recorded(const Recorded&) = delete;  // list points into contacts
  LcpBasis warm(const std::vector<const Contact*>& island) const {
    ContactKeys keys;
    keys.form(island);
    LcpBasis out;
    bases.warm_basis(keys, kD, &out);
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

// The occurrence counts each pair's earlier contacts with the same features, whatever lies
// between them, and starts again with the next pair (a pair's contacts come together).
TEST(ContactKeys, OccurrencesCountEachPairsEarlierContactsWithTheSameFeatures) {
  const std::vector<Contact> island{edge_edge(1, 2, 11, 9), edge_edge(1, 2, 3, 4),
                                    edge_edge(1, 2, 11, 9), edge_edge(1, 2, 3, 4),
                                    edge_edge(1, 2, 11, 9), edge_edge(1, 3, 11, 9),
                                    edge_edge(1, 3, 11, 9), edge_edge(1, 2, 11, 9)};
  std::vector<const Contact*> list;
  for (const Contact& c : island) list.push_back(&c);
  ContactKeys keys;
  keys.form(list);
  std::vector<int> occurrences;
  for (const ContactKeys::Key& k : keys.keys()) occurrences.push_back(k.occurrence);
  // The last contact is pair (1, 2) again after pair (1, 3): a run of its own.
  EXPECT_EQ(occurrences, (std::vector<int>{0, 0, 1, 1, 2, 0, 1, 0}));
}

// One contact recorded with 4 directions (0, 90, 180, 270 degrees), its theta and the
// given phi basic at the given impulses, looked up with new_d directions: the phi flags.
std::vector<char> directions_after_a_change(const std::vector<std::pair<int, double>>& phi,
                                            int new_d) {
  constexpr int kOldD = 4;
  const Contact contact = edge_edge(1, 2, 0, 0);
  const std::vector<const Contact*> list{&contact};
  LcpBasis solved;
  solved.z_basic.assign(2 + kOldD, 0);
  VecX z = VecX::Zero(2 + kOldD);
  solved.z_basic[0] = 1;
  z[0] = 1.0;
  for (const auto& [j, impulse] : phi) {
    solved.z_basic[1 + j] = 1;
    z[1 + j] = impulse;
  }
  ContactKeys keys;
  keys.form(list);
  ContactBases bases;
  bases.begin_step();
  bases.record(keys, kOldD, solved, z);
  bases.begin_step();
  LcpBasis warm;
  bases.warm_basis(keys, new_d, &warm);
  EXPECT_EQ(warm.z_basic.size(), static_cast<size_t>(2 + new_d));
  EXPECT_EQ(warm.z_basic[0], 1);
  return std::vector<char>(warm.z_basic.begin() + 1, warm.z_basic.end() - 1);
}

// After a change of d (a slider), basic directions that lie on new ones stay basic (d a
// multiple of the old). Else a contact keeps its count of basic directions: two become the
// new ones either side of the friction it carried, whose cone holds it, and one the new one
// nearest it. Each old direction's neighbours instead made three basic at d = 4 -> 6 (0 and
// 90 degrees -> 0, 60 and 120), and one at 90 two: a row more than the contact had, and an
// island's basis singular (a pile has more contact rows than its bodies have freedoms).
TEST(ContactBases, AChangeOfDKeepsEachContactsCountOfBasicDirections) {
  using Flags = std::vector<char>;
  // On new ones: each its own, opposed ones too (the bin pile at rest, 4 -> 8, answers so).
  EXPECT_EQ(directions_after_a_change({{0, 0.0}, {1, 0.0}}, 8), (Flags{1, 0, 1, 0, 0, 0, 0, 0}));
  EXPECT_EQ(directions_after_a_change({{0, 0.3}, {2, 0.1}}, 8), (Flags{1, 0, 0, 0, 1, 0, 0, 0}));
  // Friction at 18 degrees (0.3 along 0, 0.1 along 90): 0 and 60 of six.
  EXPECT_EQ(directions_after_a_change({{0, 0.3}, {1, 0.1}}, 6), (Flags{1, 1, 0, 0, 0, 0}));
  // At 72 degrees: 60 and 120.
  EXPECT_EQ(directions_after_a_change({{0, 0.1}, {1, 0.3}}, 6), (Flags{0, 1, 1, 0, 0, 0}));
  // At 198 degrees (0.1 along 270, 0.3 along 180): 180 and 240.
  EXPECT_EQ(directions_after_a_change({{2, 0.3}, {3, 0.1}}, 6), (Flags{0, 0, 0, 1, 1, 0}));
  // At 342 degrees, across t_0: 300 and 0.
  EXPECT_EQ(directions_after_a_change({{0, 0.3}, {3, 0.1}}, 6), (Flags{1, 0, 0, 0, 0, 1}));
  // Two at zero impulse (at rest, no tangential load): their middle, 45 degrees, stands in.
  EXPECT_EQ(directions_after_a_change({{0, 0.0}, {1, 0.0}}, 6), (Flags{1, 1, 0, 0, 0, 0}));
  EXPECT_EQ(directions_after_a_change({{0, 0.0}, {1, 0.0}}, 5), (Flags{1, 1, 0, 0, 0}));
  // Opposed ones that cancel (90 and 270 at 0.07): the first's angle, 90.
  EXPECT_EQ(directions_after_a_change({{1, 0.07}, {3, 0.07}}, 6), (Flags{0, 1, 1, 0, 0, 0}));
  // A lone one: the nearest (at 90 degrees: 60, down from the tie, of six; 120 of three).
  EXPECT_EQ(directions_after_a_change({{1, 0.2}}, 6), (Flags{0, 1, 0, 0, 0, 0}));
  EXPECT_EQ(directions_after_a_change({{1, 0.2}}, 3), (Flags{0, 1, 0}));
  // d = 2 (t_1 = -t_0): never both.
  EXPECT_EQ(directions_after_a_change({{0, 0.3}, {1, 0.1}}, 2), (Flags{1, 0}));
  EXPECT_EQ(directions_after_a_change({{1, 0.1}, {2, 0.3}}, 2), (Flags{0, 1}));
}

}  // namespace
}  // namespace pivot
