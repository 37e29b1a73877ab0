// Quantities over time for the Plots panel: one row of values per simulation step (live) or
// per recorded frame (replay), kept for the last kKeptSeconds of simulated time, shown
// over the last window_s and exported to CSV. Knows no GL or ImGui.
#pragma once

#include <string>
#include <vector>

namespace pivot::viewer {

class PlotHistory {
 public:
  // Forgets every row and series (a new scene, a new selected body, a replay opened).
  void clear();
  // One row: the time [s] and a value per named series. Names keep the order of their first
  // appearance; a series absent from a row holds NaN there (a pair that stopped touching).
  // Rows older than kKeptSeconds before this one are dropped, and rows at or after it
  // (kept from before a step back) replaced.
  void add(double time_s, const std::vector<std::pair<std::string, double>>& values);

  const std::vector<double>& times() const { return times_; }
  const std::vector<std::string>& names() const { return names_; }
  const std::vector<double>& series(size_t k) const { return values_[k]; }
  // The index of the first row at or after time_s (rows are in time order).
  size_t first_row_at(double time_s) const;

  // Writes the rows with times in [from_s, to_s] as CSV, "t [s]" then one column per series
  // (%.17g, so the values read back exactly; NaN as an empty field), through a temporary
  // file renamed into place. Returns false with *error set.
  bool write_csv(const std::string& path, double from_s, double to_s, std::string* error) const;

  static constexpr double kKeptSeconds = 60.0;

 private:
  std::vector<double> times_;
  std::vector<std::string> names_;
  std::vector<std::vector<double>> values_;  // values_[series][row]
};

}  // namespace pivot::viewer
