// The one error type for bad input: every reader (scene, problem file, recording) throws
// it with the place it found the problem, and programs print what() once at their edge.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

namespace pivot {

class InputError : public std::runtime_error {
 public:
  // line and column are 1-based; 0 means "not known" and is left out of what().
  InputError(std::string file, int line, int column, const std::string& message)
      : std::runtime_error(format(file, line, column, message)),
        file_(std::move(file)), line_(line), column_(column), message_(message) {}

  const std::string& file() const { return file_; }
  int line() const { return line_; }
  int column() const { return column_; }
  const std::string& message() const { return message_; }

 private:
  static std::string format(const std::string& file, int line, int column,
                            const std::string& message) {
    std::string where = file;
    if (line > 0) where += ":" + std::to_string(line);
    if (line > 0 && column > 0) where += ":" + std::to_string(column);
    return where + ": " + message;
  }

  std::string file_;
  int line_;
  int column_;
  std::string message_;
};

}  // namespace pivot
