// Carries each island's LCP basis from one step to the next by contact identity (the
// fast methods' warm start, solve_contact's `warm`): the basic z of every solved contact,
// (theta, phi_1..d, lambda), and the friction it carried, recorded this step and looked up
// by the next.
#pragma once

#include <vector>

#include "pivot/contact.hpp"
#include "pivot/lcp.hpp"

namespace pivot {

// An island's contacts as the next step will see them again, in the island's order: their
// bodies, the features that touch, and which of the contacts with those features each is.
// Formed once per island and step, for both the look-up of its warm start and the record
// of its answer.
class ContactKeys {
 public:
  struct Key {
    int body_a, body_b;
    Feature a, b;
    // The pair's contacts with these features before this one in the list. Two parallel
    // edges touching along a segment make two contacts of the same edge pair; keyed alike,
    // both took the first one's flags, and a resting 20-box pile's island of 27 contacts
    // started from a singular basis and pivoted afresh (37-41 pivots) on every step at rest.
    int occurrence;
    bool operator<(const Key& o) const;
  };

  // A pair's contacts come out of the narrowphase together, so the ones with the same
  // features are counted among the pair's contacts before each, whatever lies between
  // them: two edge-edge contacts of a box pair with another contact between them were
  // counted only when adjacent, took one key, and the 40-body bin pile's main island (180
  // contacts) at rest started from a wrong basis and pivoted afresh, about 2,300 pivots, on
  // every step. The count sorts each pair's contacts by features, O(k log k): scanning back
  // from each contact was O(k^2), a tenth of the step of a compound peg whose 64 contacts
  // with its hole are one pair.
  void form(const std::vector<const Contact*>& contacts);
  const std::vector<Key>& keys() const { return keys_; }

 private:
  std::vector<Key> keys_;
  std::vector<int> order_;  // form()'s scratch: a pair's contacts by features
};

class ContactBases {
 public:
  using Key = ContactKeys::Key;
  // This step's record becomes the one to look up; a new record starts. Vectors are
  // cleared and refilled, so a step allocates nothing once warm.
  void begin_step();
  // Forget both records (a reset, or a jump to another state).
  void clear();
  // The previous step's basis for the contacts of `keys` with d friction directions (a
  // contact recorded with another d has its basic directions mapped to this d's), or an
  // empty one when none of them was solved last step.
  void warm_basis(const ContactKeys& keys, int d, LcpBasis* out) const;
  // Records the basis an island's solve ended on and its answer z, their rows ordered as
  // for the contacts of `keys`.
  void record(const ContactKeys& keys, int d, const LcpBasis& basis, const VecX& z);

 private:
  struct Entry {
    Key key;
    int first;  // index of its flags
    int d;
    bool operator<(const Entry& o) const { return key < o.key; }
  };
  // Marks basic in phi (d entries) the directions of d whose cone holds the friction
  // recorded with another d: old_d flags and impulses phi_j.
  static void map_directions(int old_d, const char* old_flags, const double* old_phi, int d,
                             char* phi);

  std::vector<Entry> previous_, next_;
  std::vector<char> previous_flags_, next_flags_;
  std::vector<double> previous_z_, next_z_;  // the answer's z of each flag's row
};

}  // namespace pivot
