// The warm start's record of bases by contact (contact_bases.hpp).
#include "world/contact_bases.hpp"

#include <algorithm>
#include <tuple>

namespace pivot {

bool ContactBases::Key::operator<(const Key& o) const {
  const auto tied = [](const Key& k) {
    return std::tie(k.body_a, k.body_b, k.a.type, k.a.index, k.a.piece, k.b.type, k.b.index,
                    k.b.piece, k.occurrence);
  };
  return tied(*this) < tied(o);
}

ContactBases::Key ContactBases::key_of(const std::vector<const Contact*>& contacts, int i) {
  const Contact& c = *contacts[i];
  Key key{c.body_a, c.body_b, c.feature_a, c.feature_b, 0};
  for (int j = i - 1; j >= 0; --j) {
    const Contact& p = *contacts[j];
    if (p.body_a != c.body_a || p.body_b != c.body_b) break;
    if (p.feature_a == c.feature_a && p.feature_b == c.feature_b) ++key.occurrence;
  }
  return key;
}

void ContactBases::begin_step() {
  previous_.swap(next_);
  previous_flags_.swap(next_flags_);
  std::sort(previous_.begin(), previous_.end());
  next_.clear();
  next_flags_.clear();
}

void ContactBases::clear() {
  previous_.clear();
  next_.clear();
  previous_flags_.clear();
  next_flags_.clear();
}

void ContactBases::warm_basis(const std::vector<const Contact*>& contacts, int d,
                              LcpBasis* out) const {
  const int n = static_cast<int>(contacts.size());
  out->z_basic.assign(static_cast<size_t>(n) * (2 + d), 0);
  bool any = false;
  for (int i = 0; i < n; ++i) {
    const Entry probe{key_of(contacts, i), 0, 0};
    const auto it = std::lower_bound(previous_.begin(), previous_.end(), probe);
    if (it == previous_.end() || probe < *it) continue;
    const char* f = &previous_flags_[it->first];
    out->z_basic[i] = f[0];
    char* phi = &out->z_basic[n + i * d];
    if (it->d == d) {
      for (int j = 0; j < d; ++j) phi[j] = f[1 + j];
    } else {
      // Recorded with another d (a slider moved): direction j of d lies at angle 2 pi j / d
      // from the same t_0 for every d (FrictionDirections), so each basic direction of the
      // record makes basic the new one it lies on, or the two on either side of it, whose
      // cone holds the friction it carried. Without this the step after the change starts
      // at Step 0: on the bin pile at rest (scenes/bin_pile_40.json, t = 1.5 s) d = 4 -> 8
      // took 9,688 pivots (1.2 s, past the viewer's step budget, so the viewer paused there
      // again at every try).
      for (int j = 0; j < it->d; ++j) {
        if (!f[1 + j]) continue;
        const long long at = static_cast<long long>(j) * d;  // angle in units of 2 pi / (d d_old)
        const int below = static_cast<int>(at / it->d);
        phi[below] = 1;
        if (at % it->d != 0) phi[(below + 1) % d] = 1;
      }
    }
    out->z_basic[n + n * d + i] = f[1 + it->d];
    any = true;
  }
  if (!any) out->z_basic.clear();
}

void ContactBases::record(const std::vector<const Contact*>& contacts, int d,
                          const LcpBasis& basis) {
  const int n = static_cast<int>(contacts.size());
  for (int i = 0; i < n; ++i) {
    next_.push_back({key_of(contacts, i), static_cast<int>(next_flags_.size()), d});
    next_flags_.push_back(basis.z_basic[i]);
    for (int j = 0; j < d; ++j) next_flags_.push_back(basis.z_basic[n + i * d + j]);
    next_flags_.push_back(basis.z_basic[n + n * d + i]);
  }
}

}  // namespace pivot
