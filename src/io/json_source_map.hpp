// Where each key and value of a JSON text is, for error messages that point into the file.
// nlohmann::json keeps no positions, so once nlohmann has accepted a text it is scanned a
// second time here; values are found by their JSON pointer (RFC 6901), e.g. "/bodies/0/mass".
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace pivot {

// 1-based; the column counts characters (UTF-8 code points), not bytes.
struct TextPosition {
  int line = 0;
  int column = 0;
};

// "/bodies" + "0" -> "/bodies/0", escaping '~' and '/' in the key as RFC 6901 says.
std::string json_pointer_child(const std::string& parent, const std::string& key);

// Line and column of byte offsets into one text (any text, valid JSON or not).
class LineIndex {
 public:
  explicit LineIndex(const std::string& text);
  // Offsets past the end are clamped to it. A leading UTF-8 byte order mark takes no column.
  TextPosition at(std::size_t offset) const;

 private:
  const std::string* text_;
  std::vector<std::size_t> line_starts_;
};

class JsonSourceMap {
 public:
  // text must be JSON that nlohmann::json::parse accepts.
  explicit JsonSourceMap(std::string text);
  JsonSourceMap(const JsonSourceMap&) = delete;  // lines_ points into text_
  JsonSourceMap& operator=(const JsonSourceMap&) = delete;

  // Start of the value at pointer ("" is the whole document). Throws std::out_of_range for
  // a pointer that names no value.
  TextPosition value(const std::string& pointer) const;
  // Start of the key that names the object member at pointer.
  TextPosition key(const std::string& pointer) const;
  // A key that occurs more than once in its object: where the second occurrence starts.
  std::optional<TextPosition> repeated_key(const std::string& pointer) const;

 private:
  void scan();

  std::string text_;
  LineIndex lines_;
  std::map<std::string, std::size_t> values_;
  std::map<std::string, std::size_t> keys_;
  std::map<std::string, std::size_t> repeated_keys_;
};

}  // namespace pivot
