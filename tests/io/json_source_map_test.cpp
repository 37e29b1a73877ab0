#include "io/json_source_map.hpp"

#include <gtest/gtest.h>

#include <string>

namespace pivot {
namespace {

std::string where(const TextPosition& p) {
  return std::to_string(p.line) + ":" + std::to_string(p.column);
}

TEST(JsonSourceMap, FindsValuesAndKeysByPointer) {
  const std::string text =
      "{\n"
      "  \"a\": [1, {\"b\": true},\n"
      "        [ ], \"x,]}\"],\n"
      "  \"c\" : {}\n"
      "}\n";
  const JsonSourceMap map(text);
  EXPECT_EQ(where(map.value("")), "1:1");
  EXPECT_EQ(where(map.key("/a")), "2:3");
  EXPECT_EQ(where(map.value("/a")), "2:8");
  EXPECT_EQ(where(map.value("/a/0")), "2:9");
  EXPECT_EQ(where(map.value("/a/1")), "2:12");
  EXPECT_EQ(where(map.key("/a/1/b")), "2:13");
  EXPECT_EQ(where(map.value("/a/1/b")), "2:18");
  EXPECT_EQ(where(map.value("/a/2")), "3:9");
  EXPECT_EQ(where(map.value("/a/3")), "3:14");  // a string holding JSON punctuation
  EXPECT_EQ(where(map.key("/c")), "4:3");
  EXPECT_EQ(where(map.value("/c")), "4:9");
  EXPECT_THROW(map.value("/a/4"), std::out_of_range);
}

TEST(JsonSourceMap, KeysWithEscapesUseRfc6901Pointers) {
  const std::string text = R"({"a/b": 1, "m~n": 2, "q\"\u00e9": 3})";
  const JsonSourceMap map(text);
  EXPECT_EQ(json_pointer_child("", "a/b"), "/a~1b");
  EXPECT_EQ(json_pointer_child("/x", "m~n"), "/x/m~0n");
  EXPECT_EQ(where(map.value("/a~1b")), "1:9");
  EXPECT_EQ(where(map.value("/m~0n")), "1:19");
  EXPECT_EQ(where(map.key("/q\"\xC3\xA9")), "1:22");
}

TEST(JsonSourceMap, RepeatedKeyIsFoundAtItsSecondOccurrence) {
  const JsonSourceMap map("{\"k\": 1,\n \"j\": 0, \"k\": 2}");
  ASSERT_TRUE(map.repeated_key("/k").has_value());
  EXPECT_EQ(where(*map.repeated_key("/k")), "2:10");
  EXPECT_FALSE(map.repeated_key("/j").has_value());
}

TEST(JsonSourceMap, ColumnsCountCharactersNotBytes) {
  // "é" is two bytes and "€" three; a byte order mark takes no column.
  const std::string text = "\xEF\xBB\xBF{\"\xC3\xA9\xE2\x82\xAC\": 5}";
  const JsonSourceMap map(text);
  EXPECT_EQ(where(map.value("")), "1:1");
  EXPECT_EQ(where(map.value("/\xC3\xA9\xE2\x82\xAC")), "1:8");
}

TEST(LineIndex, ClampsOffsetsPastTheEnd) {
  const std::string text = "ab\ncd";
  const LineIndex lines(text);
  EXPECT_EQ(where(lines.at(0)), "1:1");
  EXPECT_EQ(where(lines.at(2)), "1:3");
  EXPECT_EQ(where(lines.at(3)), "2:1");
  EXPECT_EQ(where(lines.at(99)), "2:3");
}

}  // namespace
}  // namespace pivot
