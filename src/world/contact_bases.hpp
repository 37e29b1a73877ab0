// Carries each island's LCP basis from one step to the next by contact identity (the
// fast methods' warm start, solve_contact's `warm`): the basic z of every solved contact,
// (theta, phi_1..d, lambda), recorded this step and looked up by the next.
#pragma once

#include <vector>

#include "pivot/contact.hpp"
#include "pivot/lcp.hpp"

namespace pivot {

class ContactBases {
 public:
  // This step's record becomes the one to look up; a new record starts. Vectors are
  // cleared and refilled, so a step allocates nothing once warm.
  void begin_step();
  // Forget both records (a reset, or a jump to another state).
  void clear();
  // The previous step's basis for `contacts` with d friction directions, or an empty one
  // when none of them was solved last step with this d.
  void warm_basis(const std::vector<const Contact*>& contacts, int d, LcpBasis* out) const;
  // Records the basis an island's solve ended on, its rows ordered as for `contacts`.
  void record(const std::vector<const Contact*>& contacts, int d, const LcpBasis& basis);

 private:
  // A contact as the next step will see it again: its bodies and the features that touch.
  struct Key {
    int body_a, body_b;
    Feature a, b;
    bool operator<(const Key& o) const;
  };
  struct Entry {
    Key key;
    int first;  // index of its flags
    int d;
    bool operator<(const Entry& o) const { return key < o.key; }
  };
  static Key key_of(const Contact& c) { return {c.body_a, c.body_b, c.feature_a, c.feature_b}; }

  std::vector<Entry> previous_, next_;
  std::vector<char> previous_flags_, next_flags_;
};

}  // namespace pivot
