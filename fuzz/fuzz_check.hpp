// What every fuzz target asserts about a rejected input: it is a pivot::InputError whose
// message reads "file:line[:col]: message" for the name the target passed in. Anything
// else (another exception type, a message without its place) is reported as a crash, so
// libFuzzer keeps the input.
#pragma once

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "pivot/error.hpp"

namespace pivot::fuzz {

[[noreturn]] inline void fail(const std::string& what) {
  std::fprintf(stderr, "pivot fuzz check failed: %s\n", what.c_str());
  std::abort();
}

// True when text[pos..] is one or more digits followed by ':'; advances pos past them.
inline bool skip_number_and_colon(const std::string& text, size_t* pos) {
  size_t p = *pos;
  while (p < text.size() && std::isdigit(static_cast<unsigned char>(text[p]))) ++p;
  if (p == *pos || p >= text.size() || text[p] != ':') return false;
  *pos = p + 1;
  return true;
}

// Checks "file:line[:col]: message" with line >= 1 (the column optional). With
// line_optional, "file: message" also passes: readers that cannot know a line (the
// recording's JSON sidecar) leave it out, as InputError documents for line 0.
inline void check_input_error(const InputError& e, const std::string& file,
                              bool line_optional = false) {
  const std::string what = e.what();
  if (e.file() != file || what.compare(0, file.size() + 1, file + ":") != 0) {
    fail("rejection does not start with '" + file + ":': " + what);
  }
  size_t pos = file.size() + 1;
  const bool has_line = e.line() >= 1 && skip_number_and_colon(what, &pos);
  if (has_line) skip_number_and_colon(what, &pos);
  if (!has_line && !(line_optional && e.line() == 0)) {
    fail("rejection has no line number: " + what);
  }
  if (what.compare(pos, 1, " ") != 0 || what.size() <= pos + 1) {
    fail("rejection has no message after the place: " + what);
  }
}

// Runs parse(); an InputError is checked as above, any other exception is a failure.
template <typename Parse>
void expect_parsed_or_input_error(Parse&& parse, const std::string& file) {
  try {
    parse();
  } catch (const InputError& e) {
    check_input_error(e, file);
  } catch (const std::exception& e) {
    fail(std::string("rejection is not a pivot::InputError: ") + e.what());
  } catch (...) {
    fail("rejection is not a std::exception");
  }
}

}  // namespace pivot::fuzz
