// ContactSolver, the solve a World keeps per island: the fast methods lend the columns they
// normalised to the velocity that follows, which must then be the velocity
// contact_velocity forms from scratch, to the bit (the stepper's trajectories may not move
// when it skips the second normalisation).
#include "lcp/contact_solver.hpp"

#include <gtest/gtest.h>

#include "support/lloyd_problems.hpp"

namespace pivot {
namespace {

TEST(ContactSolver, FastMethodsLendTheirColumnsForTheSameVelocity) {
  const ContactProblem stack = lloyd::block_stack(3, true, 7);
  const ContactProblem peg = lloyd::peg_in_hole(12, 3);
  ContactSolver solver;
  for (LcpMethod method : {LcpMethod::Reduced, LcpMethod::Structural}) {
    for (const ContactProblem* p : {&stack, &peg}) {
      const FallbackResult& out = solver.solve_with_fallback(*p, method, {}, {});
      ASSERT_EQ(out.result.status, LcpStatus::Solved);
      const VecX z = out.result.z;
      ASSERT_NE(solver.columns(), nullptr);
      EXPECT_EQ(static_cast<int>(solver.columns()->N.size()), p->num_contacts());
      const VecX lent = solver.velocity(*p, z, solver.columns());
      const VecX fresh = contact_velocity(*p, z);
      ASSERT_EQ(lent.size(), 6 * p->num_bodies());
      // Bit for bit: the same columns, the same sums in the same order.
      EXPECT_EQ(lent, fresh) << to_string(method);
      EXPECT_EQ(solver.velocity(*p, z), fresh);
    }
  }
}

TEST(ContactSolver, StandardMethodAndEmptyProblemsLendNoColumns) {
  const ContactProblem peg = lloyd::peg_in_hole(8, 5);
  ContactSolver solver;
  solver.solve_with_fallback(peg, LcpMethod::Reduced, {}, {});
  ASSERT_NE(solver.columns(), nullptr);
  // The standard method forms M, not the columns: none are lent, not the last solve's.
  solver.solve_with_fallback(peg, LcpMethod::Standard, {}, {});
  EXPECT_EQ(solver.columns(), nullptr);
  solver.solve_with_fallback(peg, LcpMethod::Reduced, {}, {});
  ASSERT_NE(solver.columns(), nullptr);
  ContactProblem empty = peg;
  empty.normal.clear();
  empty.friction.clear();
  empty.mu.clear();
  empty.b.clear();
  EXPECT_EQ(solver.solve_with_fallback(empty, LcpMethod::Reduced, {}, {}).result.status,
            LcpStatus::Solved);
  EXPECT_EQ(solver.columns(), nullptr);
  // Without columns velocity normalises the problem itself: free motion, M^-1 k~_x.
  const VecX v = solver.velocity(empty, VecX::Zero(0));
  EXPECT_EQ(v, contact_velocity(empty, VecX::Zero(0)));
}

}  // namespace
}  // namespace pivot
