// Runs the real `pivot` program from a test, as a user would from a shell.
#pragma once

#include <string>

namespace pivot::test {

struct ProgramRun {
  int exit_code = -1;   // -1 when the program did not exit normally
  std::string output;   // stdout and stderr together
};

// Runs `pivot ARGUMENTS` (PIVOT_CLI_PATH) and waits for it.
ProgramRun run_pivot(const std::string& arguments);

// A file under the test temp directory holding text; returns its path.
std::string temp_file(const std::string& name, const std::string& text);

std::string read_file(const std::string& path);

}  // namespace pivot::test
