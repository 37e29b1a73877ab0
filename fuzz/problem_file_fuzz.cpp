// Fuzz target for the `pivot-lcp` and `pivot-contact` readers (parse_problem_file,
// src/io/problem_file.cpp): any bytes either read as a problem of consistent sizes or are
// refused with an InputError naming the line.
#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>

#include "fuzz_check.hpp"
#include "pivot/problem_file.hpp"

namespace {

// The sizes the header promised are the sizes the solvers will index with.
void check_sizes(const pivot::ProblemFile& file) {
  if (const auto* lcp = std::get_if<pivot::LcpProblemFile>(&file)) {
    if (lcp->M.rows() != lcp->M.cols() || lcp->q.size() != lcp->M.rows() ||
        (lcp->solution && lcp->solution->size() != lcp->q.size())) {
      pivot::fuzz::fail("pivot-lcp read with inconsistent sizes");
    }
    return;
  }
  const auto& contact = std::get<pivot::ContactProblemFile>(file);
  const pivot::ContactProblem& p = contact.problem;
  const auto n = static_cast<size_t>(p.num_contacts());
  if (p.d < 2 || p.num_bodies() < 1 || p.kx.size() != 6 * p.num_bodies() || p.mu.size() != n ||
      p.b.size() != n || p.friction.size() != n * static_cast<size_t>(p.d) ||
      (contact.solution && contact.solution->size() != p.lcp_size())) {
    pivot::fuzz::fail("pivot-contact read with inconsistent sizes");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::string name = "fuzz.txt";
  pivot::fuzz::expect_parsed_or_input_error(
      [&] { check_sizes(pivot::parse_problem_file(text, name)); }, name);
  return 0;
}
