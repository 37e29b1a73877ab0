// Problems the solve fuzz target (fuzz/lcp_solve_fuzz.cpp, docs/robustness.md) found to
// crash a solver or to make one claim a solution the acceptance check refuses: each now
// ends with an honest status, like any other solve.
#include <gtest/gtest.h>

#include <string>
#include <variant>

#include "pivot/lcp.hpp"
#include "pivot/problem_file.hpp"
#include "support/shipped_problem.hpp"

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

// Found by the 10^6-run of lcp_solve_fuzz at 338fdd2: a contact problem with `contacts 0 8`
// (a valid file: one body, no contact) made the fast methods read their empty tables, a
// segmentation fault in `pivot lcp solve`. Every method answers the empty LCP.
TEST(SolveContactFuzzRegression, NoContactIsTheEmptyLcpForEveryMethod) {
  const char* const text = R"(pivot-contact 1
bodies 1
mass 1 0 0 0 0 0  0 1 0 0 0 0  0 0 1 0 0 0  0 0 0 0.1 0 0  0 0 0 0 0.1 0  0 0 0 0 0 0.1
kx 0 0 -0.0981 0 0 0
contacts 0 8
)";
  const ContactProblem p = std::get<ContactProblemFile>(parse_problem_file(text, "p.txt")).problem;
  for (LcpMethod method : {LcpMethod::Standard, LcpMethod::Structural, LcpMethod::Reduced}) {
    const LcpResult r = solve_contact(p, method);
    EXPECT_EQ(r.status, LcpStatus::Solved) << to_string(method);
    EXPECT_EQ(r.z.size(), 0) << to_string(method);
    EXPECT_EQ(r.w.size(), 0) << to_string(method);
  }
}

// Found by a 10^6-run of lcp_solve_fuzz: Lloyd's box on four corners, mutated until a
// friction column has an entry of -6.7e10 ("-067811865476"), so M reaches 4.6e21. The
// standard method's answer passed the dense check of M z + q (min -6e-17) and failed the
// contact check, whose w rounds differently (min -5.9e-8), yet it said Solved.
TEST(SolveContactFuzzRegression, EveryMethodSolvedPassesTheContactCheck) {
  const ContactProblem p =
      test::shipped_contact_problem("lcp/fuzz/standard_solved_contact_check_refuses.contact");
  LemkeOptions options;
  options.max_pivots = 500;  // as in the fuzz target
  for (LcpMethod method : {LcpMethod::Standard, LcpMethod::Structural, LcpMethod::Reduced}) {
    const LcpResult r = solve_contact(p, method, options);
    if (r.status == LcpStatus::Solved) {
      EXPECT_TRUE(check_contact_solution(p, r.z).accepted) << to_string(method);
    }
  }
  // The reduced method solves it outright.
  EXPECT_EQ(solve_contact(p, LcpMethod::Reduced, options).status, LcpStatus::Solved);
}

// Found by the 10^6-run of lcp_solve_fuzz at 58dce1c (974,730 runs): Lloyd's box on four
// corners with kx_z = -0.09811e-320, a subnormal q. In the standard method's ratio test the
// row that set the step, x_i - (x_i / d_i) d_i, rounded above every tie floor, the tie set
// came out empty and the pivot read basic_[-1]: a segmentation fault.
TEST(SolveContactFuzzRegression, SubnormalQStillTiesTheRowThatSetsTheStep) {
  const ContactProblem p =
      test::shipped_contact_problem("lcp/fuzz/standard_subnormal_q_empty_ties.contact");
  for (LcpMethod method : {LcpMethod::Standard, LcpMethod::Structural, LcpMethod::Reduced}) {
    const LcpResult r = solve_contact(p, method);
    EXPECT_EQ(r.status, LcpStatus::Solved) << to_string(method);
    EXPECT_TRUE(check_contact_solution(p, r.z).accepted) << to_string(method);
  }
}

// Found by the 30 s lcp_solve fuzz run of CI at 3a10270: an entry of 999999999991 in M.
// z = (0, 1, 0) solves it exactly with w = (1, 0, 999999999991); the complete search's
// branch LP took |x|_1 ~ 1e12 of that w for the size of the solution, closed the branch
// by a certificate of radius below it, and proved "no solution". The certificate now
// bounds |z|_1 (z_radius, complete_search.cpp), which it does not close here.
TEST(SolveLcpFuzzRegression, LargeWDoesNotCloseTheBranchOfASolution) {
  const char* const text = R"(pivot-lcp 1
n 3
M 0 0 0
  3 1 5
  2 999999999991 2
q 1 -1 -0
)";
  const auto file = std::get<LcpProblemFile>(parse_problem_file(text, "p.txt"));
  const LcpResult lemke = solve_lemke(file.M, file.q);
  ASSERT_EQ(lemke.status, LcpStatus::Solved);
  EXPECT_TRUE(check_lcp_solution(file.M, file.q, lemke.z).accepted);
  const LcpResult search = solve_lcp_complete(file.M, file.q);
  EXPECT_NE(search.status, LcpStatus::NoSolution);
  if (search.status == LcpStatus::Solved) {
    EXPECT_TRUE(check_lcp_solution(file.M, file.q, search.z).accepted);
  }
}

}  // namespace
}  // namespace pivot
