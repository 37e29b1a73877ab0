#include "contact/islands.hpp"

#include <stdexcept>
#include <string>

namespace pivot {

int IslandBuilder::root(int body) {
  while (parent_[body] != body) {
    parent_[body] = parent_[parent_[body]];  // path halving
    body = parent_[body];
  }
  return body;
}

void IslandBuilder::join(int a, int b) {
  a = root(a);
  b = root(b);
  if (a < b) {
    parent_[b] = a;
  } else if (b < a) {
    parent_[a] = b;
  }
}

const std::vector<Island>& IslandBuilder::build(const std::vector<Body>& bodies,
                                                const CollisionResult& collision) {
  const int m = static_cast<int>(bodies.size());
  auto moving = [&](int body) {
    if (body < 0 || body >= m) {
      throw std::invalid_argument("islands: contact refers to body " + std::to_string(body) +
                                  " of " + std::to_string(m));
    }
    return !bodies[body].fixed;
  };
  parent_.resize(m);
  for (int i = 0; i < m; ++i) parent_[i] = i;
  auto connect = [&](int a, int b) {
    if (moving(a) && moving(b)) join(a, b);
  };
  for (const Contact& c : collision.contacts) connect(c.body_a, c.body_b);
  for (const ContactGroup& g : collision.groups) connect(g.body_a, g.body_b);

  island_of_.assign(m, -1);
  int count = 0;
  for (int i = 0; i < m; ++i) {
    if (!bodies[i].fixed && island_of_[root(i)] < 0) island_of_[root(i)] = count++;
  }
  islands_.resize(count);
  for (Island& island : islands_) {
    island.bodies.clear();
    island.contacts.clear();
    island.groups.clear();
  }
  for (int i = 0; i < m; ++i) {
    if (!bodies[i].fixed) islands_[island_of_[root(i)]].bodies.push_back(i);
  }
  // The island of a contact is that of its moving body (body_a is never fixed, but either
  // body may be the moving one in hand-made input).
  auto island_of_pair = [&](int a, int b) { return island_of_[root(moving(a) ? a : b)]; };
  for (int k = 0; k < static_cast<int>(collision.contacts.size()); ++k) {
    const Contact& c = collision.contacts[k];
    if (moving(c.body_a) || moving(c.body_b)) {
      islands_[island_of_pair(c.body_a, c.body_b)].contacts.push_back(k);
    }
  }
  for (int k = 0; k < static_cast<int>(collision.groups.size()); ++k) {
    const ContactGroup& g = collision.groups[k];
    if (moving(g.body_a) || moving(g.body_b)) {
      islands_[island_of_pair(g.body_a, g.body_b)].groups.push_back(k);
    }
  }
  return islands_;
}

}  // namespace pivot
