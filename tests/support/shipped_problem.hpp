// Reads the contact problem files shipped under tests/ (regression problems the soak, the
// fuzzers and failed scene steps found), so a test names only the file.
#pragma once

#include <string>

#include "pivot/lcp.hpp"

namespace pivot::test {

// <source>/tests/<relative_path>, a pivot-contact file; throws what read_problem_file
// throws, and std::bad_variant_access for a pivot-lcp file.
ContactProblem shipped_contact_problem(const std::string& relative_path);

}  // namespace pivot::test
