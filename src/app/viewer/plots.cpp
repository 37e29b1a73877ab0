#include "plots.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "move_into_place.hpp"

namespace pivot::viewer {

void PlotHistory::clear() {
  times_.clear();
  names_.clear();
  values_.clear();
}

void PlotHistory::add(double time_s, const std::vector<std::pair<std::string, double>>& values) {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  // After a step back the world's time runs again over rows already kept: they are rewritten.
  const size_t future = first_row_at(time_s);
  times_.resize(future);
  for (std::vector<double>& s : values_) s.resize(future);
  times_.push_back(time_s);
  for (std::vector<double>& s : values_) s.push_back(kNaN);
  for (const auto& [name, value] : values) {
    const auto it = std::find(names_.begin(), names_.end(), name);
    if (it == names_.end()) {
      names_.push_back(name);
      values_.emplace_back(times_.size(), kNaN);
      values_.back().back() = value;
    } else {
      values_[static_cast<size_t>(it - names_.begin())].back() = value;
    }
  }
  const size_t old = first_row_at(time_s - kKeptSeconds);
  if (old > times_.size() / 2) {  // drop in bulk: amortised O(1) per row
    times_.erase(times_.begin(), times_.begin() + static_cast<std::ptrdiff_t>(old));
    for (std::vector<double>& s : values_)
      s.erase(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(old));
  }
}

size_t PlotHistory::first_row_at(double time_s) const {
  return static_cast<size_t>(std::lower_bound(times_.begin(), times_.end(), time_s) -
                             times_.begin());
}

bool PlotHistory::write_csv(const std::string& path, double from_s, double to_s,
                            std::string* error) const {
  const std::string temp = path + ".tmp";
  std::FILE* out = std::fopen(temp.c_str(), "w");
  if (out == nullptr) {
    *error = "cannot write " + temp;
    return false;
  }
  std::fprintf(out, "t [s]");
  for (const std::string& name : names_) std::fprintf(out, ",%s", name.c_str());
  std::fprintf(out, "\n");
  for (size_t row = first_row_at(from_s); row < times_.size() && times_[row] <= to_s; ++row) {
    std::fprintf(out, "%.17g", times_[row]);
    for (const std::vector<double>& s : values_) {
      if (std::isnan(s[row])) {
        std::fprintf(out, ",");
      } else {
        std::fprintf(out, ",%.17g", s[row]);
      }
    }
    std::fprintf(out, "\n");
  }
  const bool written = std::ferror(out) == 0;
  if (std::fclose(out) != 0 || !written) {
    std::remove(temp.c_str());
    *error = "cannot write " + temp;
    return false;
  }
  return move_into_place(temp, path, error);
}

}  // namespace pivot::viewer
