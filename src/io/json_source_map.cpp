#include "io/json_source_map.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <utility>

namespace pivot {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The UTF-8 byte order mark, which nlohmann skips and editors do not show.
constexpr char kBom[] = "\xEF\xBB\xBF";

}  // namespace

std::string json_pointer_child(const std::string& parent, const std::string& key) {
  std::string child = parent + "/";
  for (char c : key) {
    if (c == '~') {
      child += "~0";
    } else if (c == '/') {
      child += "~1";
    } else {
      child += c;
    }
  }
  return child;
}

LineIndex::LineIndex(const std::string& text) : text_(&text) {
  line_starts_.push_back(0);
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') line_starts_.push_back(i + 1);
  }
}

TextPosition LineIndex::at(std::size_t offset) const {
  const std::string& text = *text_;
  offset = std::min(offset, text.size());
  const auto next_line = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  std::size_t start = *(next_line - 1);
  if (start == 0 && text.compare(0, 3, kBom) == 0) start = std::min<std::size_t>(3, offset);
  TextPosition position;
  position.line = static_cast<int>(next_line - line_starts_.begin());
  position.column = 1;
  for (std::size_t i = start; i < offset; ++i) {
    // Continuation bytes (10xxxxxx) belong to the character before them.
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++position.column;
  }
  return position;
}

JsonSourceMap::JsonSourceMap(std::string text) : text_(std::move(text)), lines_(text_) { scan(); }

TextPosition JsonSourceMap::value(const std::string& pointer) const {
  return lines_.at(values_.at(pointer));
}

TextPosition JsonSourceMap::key(const std::string& pointer) const {
  return lines_.at(keys_.at(pointer));
}

std::optional<TextPosition> JsonSourceMap::repeated_key(const std::string& pointer) const {
  const auto found = repeated_keys_.find(pointer);
  if (found == repeated_keys_.end()) return std::nullopt;
  return lines_.at(found->second);
}

// One pass over text that nlohmann has already validated, so the scanner only needs to
// tell tokens apart, not check them. Iterative, so nesting depth costs no stack.
void JsonSourceMap::scan() {
  struct Container {
    std::string pointer;
    bool is_object;
    int count;  // members or elements seen so far
  };
  std::vector<Container> open;
  std::size_t i = text_.compare(0, 3, kBom) == 0 ? 3 : 0;
  auto skip_space = [&] {
    while (i < text_.size() && is_space(text_[i])) ++i;
  };
  auto skip_string = [&] {  // i at the opening quote; ends past the closing one
    for (++i; text_[i] != '"'; ++i) {
      if (text_[i] == '\\') ++i;
    }
    ++i;
  };
  // Reads the key of the next member of the innermost object; returns the member's pointer.
  auto read_key = [&] {
    skip_space();
    const std::size_t start = i;
    skip_string();
    const std::string name =
        nlohmann::json::parse(text_.substr(start, i - start)).get<std::string>();
    const std::string pointer = json_pointer_child(open.back().pointer, name);
    if (!keys_.emplace(pointer, start).second) repeated_keys_.emplace(pointer, start);
    skip_space();
    ++i;  // ':'
    return pointer;
  };

  std::string pointer;  // of the value that starts next
  while (true) {
    skip_space();
    values_.emplace(pointer, i);
    const char c = text_[i];
    if (c == '{' || c == '[') {
      ++i;
      skip_space();
      if (text_[i] != '}' && text_[i] != ']') {
        open.push_back({pointer, c == '{', 1});
        pointer = c == '{' ? read_key() : json_pointer_child(pointer, "0");
        continue;
      }
      ++i;  // an empty container is a complete value
    } else if (c == '"') {
      skip_string();
    } else {
      while (i < text_.size() && !is_space(text_[i]) && text_[i] != ',' && text_[i] != ']' &&
             text_[i] != '}')
        ++i;
    }
    // After a complete value: close finished containers, then move to the next sibling.
    while (true) {
      if (open.empty()) return;
      skip_space();
      if (text_[i] == ',') {
        ++i;
        Container& parent = open.back();
        pointer = parent.is_object
                      ? read_key()
                      : json_pointer_child(parent.pointer, std::to_string(parent.count));
        ++parent.count;
        break;
      }
      ++i;  // '}' or ']'
      open.pop_back();
    }
  }
}

}  // namespace pivot
