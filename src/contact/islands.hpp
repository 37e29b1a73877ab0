// Islands: the moving bodies connected through contacts and groups, each solved on its own
// (Redon 2002, Sec. 2: contact groups are dynamically independent). A fixed body does not
// connect: two stacks on one floor are two islands, each holding its contacts with the floor.
#pragma once

#include <vector>

#include "pivot/body.hpp"
#include "pivot/contact.hpp"

namespace pivot {

struct Island {
  std::vector<int> bodies;    // moving bodies, ascending
  std::vector<int> contacts;  // indices into CollisionResult::contacts, ascending
  std::vector<int> groups;    // indices into CollisionResult::groups, ascending
};

class IslandBuilder {
 public:
  // (bodies, contacts, groups) => islands. Every moving body is in exactly one island (on
  // its own when it touches nothing); islands are ordered by their lowest body. The storage
  // is reused across calls; the result stays valid until the next call.
  const std::vector<Island>& build(const std::vector<Body>& bodies,
                                   const CollisionResult& collision);

 private:
  int root(int body);
  void join(int a, int b);

  std::vector<int> parent_;     // union-find forest over bodies
  std::vector<int> island_of_;  // per root: its island, or -1
  std::vector<Island> islands_;
};

}  // namespace pivot
