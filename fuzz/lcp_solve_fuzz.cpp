// Fuzz target for the solvers (include/pivot/lcp.hpp, src/lcp/): a problem file that
// reads and is small is solved under a pivot limit, by standard Lemke and the complete
// search for `pivot-lcp` and by all three methods for `pivot-contact`. Whatever the status, nothing
// may crash, and a Solved answer must pass the acceptance check of shared/formats/problem-files.md.
#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>

#include "fuzz_check.hpp"
#include "pivot/problem_file.hpp"

namespace {

// Small enough that one input solves in well under a millisecond, so the fuzzer explores
// values rather than sizes; the readers are fuzzed at every size by problem_file_fuzz.
constexpr long kMaxLcpSize = 24;
constexpr int kMaxBodies = 4;
constexpr int kMaxContacts = 8;
constexpr int kMaxDirections = 8;
constexpr int kMaxPivots = 500;  // Lemke needs a few times the size; more is a runaway
// The complete search is exponential in the worst case: small problems, a small budget.
constexpr long kMaxSearchSize = 10;
constexpr int kMaxSearchNodes = 256;

void solve_lcp(const pivot::LcpProblemFile& file, const pivot::LemkeOptions& options) {
  if (file.q.size() > kMaxLcpSize) return;
  const pivot::LcpResult r = pivot::solve_lemke(file.M, file.q, options);
  const bool lemke_solved = r.status == pivot::LcpStatus::Solved;
  if (lemke_solved && !pivot::check_lcp_solution(file.M, file.q, r.z).accepted) {
    pivot::fuzz::fail("standard Lemke says Solved but the answer fails the acceptance check");
  }
  if (file.q.size() > kMaxSearchSize) return;
  // The complete search must agree: a solution it returns is accepted, and it never proves
  // that a problem Lemke solved has none.
  pivot::CompleteSearchOptions search;
  search.max_nodes = kMaxSearchNodes;
  pivot::CompleteSearchStats stats;
  const pivot::LcpResult c = pivot::solve_lcp_complete(file.M, file.q, search, &stats);
  if (c.status == pivot::LcpStatus::Solved &&
      !pivot::check_lcp_solution(file.M, file.q, c.z).accepted) {
    pivot::fuzz::fail("the complete search says Solved but the answer fails the acceptance check");
  }
  // NoSolution proves none with |z|_1 below the certified radius (lcp.hpp): Lemke may
  // find one beyond it (M_33 = 1e-20, q_3 = -1: z_3 = 1e20, fuzz/corpus/lcp_solve/
  // solution_beyond_the_radius.lcp).
  if (c.status == pivot::LcpStatus::NoSolution && lemke_solved &&
      r.z.lpNorm<1>() < stats.certified_radius) {
    pivot::fuzz::fail("the complete search proves no solution where Lemke found one");
  }
}

void solve_contact(const pivot::ContactProblemFile& file, const pivot::LemkeOptions& options) {
  const pivot::ContactProblem& p = file.problem;
  if (p.num_bodies() > kMaxBodies || p.num_contacts() > kMaxContacts || p.d > kMaxDirections) {
    return;
  }
  if (file.groups) {
    // A grouped problem is solved as the stepper solves it, and checked on the formulation's
    // full LCP.
    const pivot::GroupedSolve r =
        pivot::solve_grouped_contact(p, *file.groups, pivot::LcpMethod::Reduced, options);
    if (r.lcp.status != pivot::LcpStatus::Solved) return;
    const pivot::NonconvexLcp full = pivot::build_grouped_lcp(p, *file.groups);
    if (!pivot::check_lcp_solution(full.lcp.M, full.lcp.q, r.formulation_z).accepted) {
      pivot::fuzz::fail("the grouped solve says Solved but the answer fails the acceptance check");
    }
    return;
  }
  for (pivot::LcpMethod method :
       {pivot::LcpMethod::Standard, pivot::LcpMethod::Structural, pivot::LcpMethod::Reduced}) {
    const pivot::LcpResult r = pivot::solve_contact(p, method, options);
    if (r.status != pivot::LcpStatus::Solved) continue;
    if (r.z.size() != p.lcp_size() || !pivot::check_contact_solution(p, r.z).accepted) {
      pivot::fuzz::fail(std::string(pivot::to_string(method)) +
                        " says Solved but the answer fails the acceptance check");
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::string name = "fuzz.txt";
  pivot::fuzz::expect_parsed_or_input_error(
      [&] {
        const pivot::ProblemFile file = pivot::parse_problem_file(text, name);
        pivot::LemkeOptions options;
        options.max_pivots = kMaxPivots;
        if (const auto* lcp = std::get_if<pivot::LcpProblemFile>(&file)) {
          solve_lcp(*lcp, options);
        } else {
          solve_contact(std::get<pivot::ContactProblemFile>(file), options);
        }
      },
      name);
  return 0;
}
