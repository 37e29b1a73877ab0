#include "support/shipped_problem.hpp"

#include <variant>

#include "pivot/problem_file.hpp"

namespace pivot::test {

ContactProblem shipped_contact_problem(const std::string& relative_path) {
  const std::string path = std::string(PIVOT_SOURCE_DIR) + "/tests/" + relative_path;
  return std::get<ContactProblemFile>(read_problem_file(path)).problem;
}

}  // namespace pivot::test
