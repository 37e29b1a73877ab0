// A sweep's results table: CSV rows sorted by index and a JSON sidecar that says which
// sweep, scene and Pivot made them; read back for --resume.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "pivot/error.hpp"
#include "pivot/sweep.hpp"

namespace pivot {
namespace {

// Splits one CSV line written by csv_line; false when its quotes do not close.
bool split_csv(const std::string& line, std::vector<std::string>* cells) {
  cells->assign(1, "");
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      cells->back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      cells->emplace_back();
    } else {
      cells->back() += c;
    }
  }
  return !quoted;
}

// Writes text through path + ".tmp" renamed over path: a reader (or a crash) never sees
// half a file.
void write_atomically(const std::string& path, const std::string& text) {
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out) {
      const std::string reason = std::strerror(errno);
      std::remove(temporary.c_str());
      throw std::runtime_error("cannot write " + path + ": " + reason);
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    std::remove(temporary.c_str());
    throw std::runtime_error("cannot write " + path + ": " + reason);
  }
}

}  // namespace

std::string csv_line(const std::vector<std::string>& cells) {
  std::string line;
  for (std::size_t k = 0; k < cells.size(); ++k) {
    if (k > 0) line += ',';
    const std::string& cell = cells[k];
    if (cell.find_first_of(",\"\n\r") == std::string::npos) {
      line += cell;
      continue;
    }
    line += '"';
    for (char c : cell) line += c == '"' ? std::string("\"\"") : std::string(1, c);
    line += '"';
  }
  return line;
}

std::vector<std::vector<std::string>> read_sweep_table(const Sweep& sweep,
                                                       const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, 0, 0, std::string("cannot open: ") + std::strerror(errno));
  const std::vector<std::string> columns = sweep_columns(sweep);
  const std::int64_t size = sweep_size(sweep);
  std::vector<std::vector<std::string>> rows;
  std::vector<bool> seen(static_cast<std::size_t>(size), false);
  std::string line;
  int line_number = 0;
  while (std::getline(in, line)) {
    ++line_number;
    std::vector<std::string> cells;
    if (!split_csv(line, &cells)) throw InputError(path, line_number, 0, "unclosed quote");
    if (line_number == 1) {
      if (cells != columns) {
        throw InputError(
            path, 1, 0,
            "the header is not that of " + sweep.file + " (expected " + csv_line(columns) + ")");
      }
      continue;
    }
    if (cells.size() != columns.size()) {
      throw InputError(path, line_number, 0,
                       "expected " + std::to_string(columns.size()) + " cells, found " +
                           std::to_string(cells.size()));
    }
    std::size_t end = 0;
    long long index = -1;
    try {
      index = std::stoll(cells[0], &end);
    } catch (const std::exception&) {
      end = 0;
    }
    if (end == 0 || end != cells[0].size() || index < 0 || index >= size) {
      throw InputError(path, line_number, 1,
                       "'" + cells[0] + "' is not a sample index of " + sweep.file + " (0.." +
                           std::to_string(size - 1) + ")");
    }
    if (seen[static_cast<std::size_t>(index)]) {
      throw InputError(path, line_number, 1, "sample " + cells[0] + " appears twice");
    }
    seen[static_cast<std::size_t>(index)] = true;
    rows.push_back(std::move(cells));
  }
  if (line_number == 0) throw InputError(path, 0, 0, "empty file: no header");
  return rows;
}

void write_sweep_table(const Sweep& sweep, const std::string& path,
                       std::vector<std::vector<std::string>> rows, const std::string& git_hash) {
  std::sort(rows.begin(), rows.end(),
            [](const auto& a, const auto& b) { return std::stoll(a.at(0)) < std::stoll(b.at(0)); });
  const std::vector<std::string> columns = sweep_columns(sweep);
  std::string text = csv_line(columns) + "\n";
  for (const auto& row : rows) text += csv_line(row) + "\n";

  nlohmann::ordered_json sidecar;
  sidecar["pivot_version"] = PIVOT_VERSION;
  if (!git_hash.empty()) sidecar["git"] = git_hash;
  sidecar["sweep_file"] = sweep.file;
  sidecar["scene_file"] = sweep.scene_file;
  sidecar["samples"] = sweep_size(sweep);
  sidecar["rows"] = rows.size();
  sidecar["columns"] = columns;
  sidecar["timing_columns"] =
      std::vector<std::string>(columns.end() - kSweepTimingColumns, columns.end());
  sidecar["sweep"] = nlohmann::ordered_json::parse(sweep.text);
  sidecar["scene"] = nlohmann::ordered_json::parse(sweep.scene_text);
  // The table first: a sidecar never describes rows that are not there.
  write_atomically(path, text);
  write_atomically(path + ".json", sidecar.dump(2) + "\n");
}

}  // namespace pivot
