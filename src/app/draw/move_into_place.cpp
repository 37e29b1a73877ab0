#include "move_into_place.hpp"

#include <cstdio>

namespace pivot::viewer {

bool move_into_place(const std::string& temp, const std::string& path, std::string* error) {
  if (std::rename(temp.c_str(), path.c_str()) == 0) return true;
  std::remove(temp.c_str());
  *error = "cannot rename " + temp + " to " + path;
  return false;
}

}  // namespace pivot::viewer
