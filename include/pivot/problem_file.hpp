// Problem files: one LCP solve handed to the solvers from outside the simulator, in the
// two plain-text formats of shared/formats/problem-files.md (`pivot-lcp 1`, a general
// LCP; `pivot-contact 1`, a rigid-body contact problem). Read, validated and written here.
#pragma once

#include <optional>
#include <string>
#include <variant>

#include "pivot/lcp.hpp"
#include "pivot/nonconvex.hpp"

namespace pivot {

// A general LCP, w = M z + q (n x n, n). solution, when the file has one, has size n.
struct LcpProblemFile {
  MatX M;
  VecX q;
  std::optional<VecX> solution;
};

// A contact problem (Lloyd eq. 2-8). solution, when present, has the LCP's size n(2+d),
// ordered theta, phi, lambda.
struct ContactProblemFile {
  ContactProblem problem;
  // The nonconvex groups over the contacts (planes), when the file has them
  // (`pivot-contact 2`); such a file has no solution block.
  std::optional<PlaneGroups> groups;
  std::optional<VecX> solution;
};

using ProblemFile = std::variant<LcpProblemFile, ContactProblemFile>;

// Sizes the reader refuses before allocating anything. Beyond these, and when a header
// asks for more than 2^20 numbers and more than the rest of the file can hold (every
// number takes at least two bytes: a digit and a separator), a count is reported as an
// error instead of being trusted.
struct ProblemFileLimits {
  static constexpr long long max_lcp_size = 20000;           // n of a pivot-lcp file
  static constexpr long long max_bodies = 100000;            // m of a pivot-contact file
  static constexpr long long max_contacts = 100000;          // n of a pivot-contact file
  // d of a pivot-contact file: kMaxFrictionDirections (pivot/lcp.hpp).
};

// Read a file of either kind, dispatching on its header. Every problem with the file
// throws InputError(path, line, 0, message) naming the 1-based line of the offending
// token (the last line when the file ends early); a file that cannot be opened throws
// InputError(path, 0, 0, ...).
ProblemFile read_problem_file(const std::string& path);

// The same, for text already in memory; name stands for the file in error messages.
ProblemFile parse_problem_file(const std::string& text, const std::string& name);

// Write every number in the shortest of %.15g, %.16g, %.17g that reads back exactly, to a
// temporary file renamed over path at the end, so a reader never sees half a file.
// Throws std::invalid_argument for what the format cannot hold (sizes that do not fit
// together, non-finite numbers, d < 2, mu < 0, no bodies), std::runtime_error when the
// file cannot be written.
void write_lcp_problem(const std::string& path, const LcpProblemFile& file);
void write_contact_problem(const std::string& path, const ContactProblemFile& file);

}  // namespace pivot
