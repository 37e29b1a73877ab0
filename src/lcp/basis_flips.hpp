// Murty's flips of a complementary basis (principal pivots on the pair of the most negative
// entry), as both Lemke solvers' flip_to_answer make a warm or refused basis an answer:
// which pair to flip, and a flip undone when the basis it made is singular.
#pragma once

#include <algorithm>
#include <vector>

namespace pivot {

class BasisFlips {
 public:
  // A new basis to repair: no pair flipped yet.
  void clear() {
    singular_.clear();
    last_ = -1;
  }

  // The pair of the lowest entry(k), k in [0, size), among those whose flip has not made
  // the basis singular (the first such pair on a tie); -1 when there is none.
  template <class Entry>
  int most_negative(int size, Entry entry) const {
    int worst = -1;
    for (int k = 0; k < size; ++k) {
      if (std::find(singular_.begin(), singular_.end(), k) != singular_.end()) continue;
      if (worst < 0 || entry(k) < entry(worst)) worst = k;
    }
    return worst;
  }

  // Flips pair k of *basic (its z basic where it was not, and back).
  void flip(int k, std::vector<char>* basic) {
    (*basic)[k] = !(*basic)[k];
    last_ = k;
  }

  // The basis is singular: undoes the last flip, whose pair is then neither flipped again
  // nor held to the slack, only to the rule (its column depends on the basic ones, so its
  // value follows from theirs). False when no flip made it: the basis as given is singular.
  bool undo_singular(std::vector<char>* basic) {
    if (last_ < 0) return false;
    (*basic)[last_] = !(*basic)[last_];
    singular_.push_back(last_);
    last_ = -1;
    return true;
  }

 private:
  std::vector<int> singular_;  // pairs whose flip made the basis singular
  int last_ = -1;              // the pair the last flip changed
};

}  // namespace pivot
