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
    if (it == previous_.end() || probe < *it || it->d != d) continue;
    const char* f = &previous_flags_[it->first];
    out->z_basic[i] = f[0];
    for (int j = 0; j < d; ++j) out->z_basic[n + i * d + j] = f[1 + j];
    out->z_basic[n + n * d + i] = f[1 + d];
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
