// The warm start's record of bases by contact (contact_bases.hpp).
#include "world/contact_bases.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <tuple>

#include "pivot/math.hpp"

namespace pivot {

namespace {

auto tied(const Feature& f) { return std::tie(f.type, f.index, f.piece); }

}  // namespace

bool ContactKeys::Key::operator<(const Key& o) const {
  const auto all = [](const Key& k) {
    return std::make_tuple(k.body_a, k.body_b, tied(k.a), tied(k.b), k.occurrence);
  };
  return all(*this) < all(o);
}

void ContactKeys::form(const std::vector<const Contact*>& contacts) {
  const int n = static_cast<int>(contacts.size());
  keys_.clear();
  for (const Contact* c : contacts)
    keys_.push_back({c->body_a, c->body_b, c->feature_a, c->feature_b, 0});
  const auto same_features = [&](int i, int j) {
    return keys_[i].a == keys_[j].a && keys_[i].b == keys_[j].b;
  };
  for (int first = 0, end = 0; first < n; first = end) {
    end = first + 1;
    while (end < n && keys_[end].body_a == keys_[first].body_a &&
           keys_[end].body_b == keys_[first].body_b) {
      ++end;
    }
    if (end - first < 2) continue;
    // The pair's contacts by features, each run of equal ones in list order: their
    // occurrences count up along it.
    order_.resize(end - first);
    std::iota(order_.begin(), order_.end(), first);
    std::sort(order_.begin(), order_.end(), [&](int i, int j) {
      return std::make_tuple(tied(keys_[i].a), tied(keys_[i].b), i) <
             std::make_tuple(tied(keys_[j].a), tied(keys_[j].b), j);
    });
    for (size_t t = 1; t < order_.size(); ++t) {
      if (same_features(order_[t], order_[t - 1])) {
        keys_[order_[t]].occurrence = keys_[order_[t - 1]].occurrence + 1;
      }
    }
  }
}

void ContactBases::begin_step() {
  previous_.swap(next_);
  previous_flags_.swap(next_flags_);
  previous_z_.swap(next_z_);
  std::sort(previous_.begin(), previous_.end());
  next_.clear();
  next_flags_.clear();
  next_z_.clear();
}

void ContactBases::clear() {
  previous_.clear();
  next_.clear();
  previous_flags_.clear();
  next_flags_.clear();
  previous_z_.clear();
  next_z_.clear();
}

void ContactBases::map_directions(int old_d, const char* old_flags, const double* old_phi, int d,
                                  char* phi) {
  // Direction j of any d lies at angle 2 pi j / d from the same t_0 (FrictionDirections).
  // Where each basic one lies on a new one (d a multiple of old_d), those are basic: the
  // same rows, the same constraints, and at rest the same answer.
  bool on_new = true;
  for (int j = 0; j < old_d && on_new; ++j) on_new = !old_flags[j] || j * d % old_d == 0;
  if (on_new) {
    for (int j = 0; j < old_d; ++j) {
      if (old_flags[j]) phi[j * d / old_d] = 1;
    }
    return;
  }
  // Else the friction carried, sum of phi_j t_j over the basic j, in the frame
  // (t_0, n x t_0). A basis can hold its directions at zero (a contact at rest with no
  // tangential load) or opposed ones that cancel; the sum of their unit directions stands
  // in then, or the first.
  int basic = 0, first = -1;
  double fu = 0, fw = 0, su = 0, sw = 0, carried = 0;
  for (int j = 0; j < old_d; ++j) {
    if (!old_flags[j]) continue;
    const double angle = 2 * kPi * j / old_d;
    fu += old_phi[j] * std::cos(angle);
    fw += old_phi[j] * std::sin(angle);
    su += std::cos(angle);
    sw += std::sin(angle);
    carried += std::abs(old_phi[j]);
    if (first < 0) first = j;
    ++basic;
  }
  if (basic == 0) return;
  constexpr double kCancelled = 1e-9;  // relative to the sum of the parts
  double at;                           // its angle in units of 2 pi / d
  if (std::hypot(fu, fw) > kCancelled * carried) {
    at = std::atan2(fw, fu) / (2 * kPi) * d;
  } else if (std::hypot(su, sw) > kCancelled * basic) {
    at = std::atan2(sw, su) / (2 * kPi) * d;
  } else {
    at = static_cast<double>(first) * d / old_d;
  }
  if (at < 0) at += d;
  const double below = std::floor(at);
  const int k = static_cast<int>(below) % d;
  // The contact keeps its count of basic directions: one stays one, the new direction
  // nearest it; two or more become the two either side of the friction, whose cone holds
  // it. An island's basis is a choice of independent rows, and a pile has more contact rows
  // than its bodies have freedoms (the bin pile's main island: 153 contacts on 39 bodies),
  // so a contact given a row more makes the basis singular and the step starts at Step 0.
  // Each old direction's neighbours did that: 0 and 90 degrees -> 0, 60 and 120 of six,
  // and one at 90 -> 60 and 120 (block_stack_topple.json at rest, 4 -> 6: 35 pivots from
  // Step 0; now its basis answers).
  if (d == 2 || basic == 1) {  // d = 2: t_1 = -t_0, never basic together
    phi[(k + (at - below > 0.5)) % d] = 1;
    return;
  }
  phi[k] = 1;
  phi[(k + 1) % d] = 1;
}

void ContactBases::warm_basis(const ContactKeys& keys, int d, LcpBasis* out) const {
  const int n = static_cast<int>(keys.keys().size());
  out->z_basic.assign(static_cast<size_t>(n) * (2 + d), 0);
  bool any = false;
  for (int i = 0; i < n; ++i) {
    const Entry probe{keys.keys()[i], 0, 0};
    const auto it = std::lower_bound(previous_.begin(), previous_.end(), probe);
    if (it == previous_.end() || probe < *it) continue;
    const char* f = &previous_flags_[it->first];
    out->z_basic[i] = f[0];
    char* phi = &out->z_basic[n + i * d];
    if (it->d == d) {
      for (int j = 0; j < d; ++j) phi[j] = f[1 + j];
    } else {
      // Recorded with another d (a slider moved). Without this the step after the change
      // starts at Step 0: on the bin pile at rest (scenes/bin_pile_40.json, t = 1.5 s)
      // d = 4 -> 8 took 9,688 pivots (1.2 s, past the viewer's step budget, so the viewer
      // paused there again at every try).
      map_directions(it->d, f + 1, &previous_z_[it->first + 1], d, phi);
    }
    out->z_basic[n + n * d + i] = f[1 + it->d];
    any = true;
  }
  if (!any) out->z_basic.clear();
}

void ContactBases::record(const ContactKeys& keys, int d, const LcpBasis& basis, const VecX& z) {
  const int n = static_cast<int>(keys.keys().size());
  const auto keep = [&](int row) {
    next_flags_.push_back(basis.z_basic[row]);
    next_z_.push_back(z[row]);
  };
  for (int i = 0; i < n; ++i) {
    next_.push_back({keys.keys()[i], static_cast<int>(next_flags_.size()), d});
    keep(i);                                          // theta
    for (int j = 0; j < d; ++j) keep(n + i * d + j);  // phi_1..d
    keep(n + n * d + i);                              // lambda
  }
}

}  // namespace pivot
