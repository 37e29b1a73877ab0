// Problems the solve fuzz target (fuzz/lcp_solve_fuzz.cpp, docs/robustness.md) found to
// crash a solver: each now ends with a status, like any other solve.
#include <gtest/gtest.h>

#include <string>
#include <variant>

#include "pivot/lcp.hpp"
#include "pivot/problem_file.hpp"

namespace pivot {
namespace {

// The fuzzer's input, cut down: a friction column with an entry of -0.51e308 is finite,
// so the reader accepts it, but D'D overflows to inf in the dense matrix of eq. (8).
// solve_contact(Standard) let solve_lemke's std::invalid_argument for non-finite M escape.
const char* const kOverflowingColumn = R"(pivot-contact 1
bodies 1
mass 1 0 0 0 0 0  0 1 0 0 0 0  0 0 1 0 0 0  0 0 0 1 0 0  0 0 0 0 1 0  0 0 0 0 0 1
kx 0 -1 0 0 0 0
contacts 1 2
contact 0.5 0
n 0 0 1 0 0 0
t 1 0 0 0 0.5 0
t -1 0 0 0 -0.51e308 0
)";

TEST(SolveContactFuzzRegression, OverflowingDenseMatrixIsANumericalFailureNotAThrow) {
  const ContactProblem p =
      std::get<ContactProblemFile>(parse_problem_file(kOverflowingColumn, "p.txt")).problem;
  LcpResult r;
  ASSERT_NO_THROW(r = solve_contact(p, LcpMethod::Standard));
  EXPECT_EQ(r.status, LcpStatus::NumericalFailure);
  // The fast methods never form the matrix; whatever they return must not claim a solution
  // the acceptance check refuses.
  for (LcpMethod method : {LcpMethod::Structural, LcpMethod::Reduced}) {
    ASSERT_NO_THROW(r = solve_contact(p, method)) << to_string(method);
    if (r.status == LcpStatus::Solved) {
      EXPECT_TRUE(check_contact_solution(p, r.z).accepted) << to_string(method);
    }
  }
}

}  // namespace
}  // namespace pivot
