// The working set of a contact solve (solve_screened): contacts the free motion separates
// wait outside until an answer brings them together, and the answer is always the whole
// LCP's, checked on it.
#include "lcp/screened_contact.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "lcp/contact_solver.hpp"
#include "lcp/normalized_contacts.hpp"
#include "pivot/lcp.hpp"
#include "support/lloyd_problems.hpp"

namespace pivot {
namespace {

constexpr LcpMethod kFast[] = {LcpMethod::Structural, LcpMethod::Reduced};

// Lloyd's five-block stack (20 contacts) without the random wrench on its top block: at
// rest, every contact closing (the pedestal's, at g h) or holding (the others, at 0) in
// the free motion. The first 20 contacts of every problem here.
constexpr int kStackContacts = 20;
ContactProblem resting_stack() {
  ContactProblem p = lloyd::block_stack(5, false, 7);
  p.kx.segment<6>(6 * 4) << 0, 0, -lloyd::kGravity_mps2 * lloyd::kStep_s, 0, 0,
      0;  // 1 kg, gravity only
  return p;
}

// The stack with 130 more contacts, copies of its own whose gaps are 1 to 2.3 cm wider
// (b = gap / h larger by 1 to 2.3 m/s): the potential contacts a margin reports around a
// resting stack, which the free motion and every answer separate.
ContactProblem with_far_copies(ContactProblem p) {
  const int n = p.num_contacts();
  for (int c = 0; c < 130; ++c) {
    const int from = c % n;
    p.mu.push_back(p.mu[from]);
    p.b.push_back(p.b[from] + 1.0 + 0.01 * c);
    p.normal.push_back(p.normal[from]);
    for (int j = 0; j < p.d; ++j) p.friction.push_back(p.friction[from * p.d + j]);
  }
  return p;
}

std::vector<int> all_contacts(const ContactProblem& p) {
  std::vector<int> c(p.num_contacts());
  std::iota(c.begin(), c.end(), 0);
  return c;
}

// solve_contact, each call's number of contacts recorded, and of those on the pedestal
// (one body only).
struct RecordingSolve {
  LcpMethod method;
  std::vector<int> sizes, on_pedestal;
  LcpResult operator()(const ContactProblem& p, const LcpBasis& warm) {
    sizes.push_back(p.num_contacts());
    on_pedestal.push_back(static_cast<int>(std::count_if(
        p.normal.begin(), p.normal.end(), [](const ContactColumn& c) { return c.body[1] < 0; })));
    return solve_contact(p, method, {}, warm);
  }
};

LcpResult screened(const ContactProblem& p, RecordingSolve* solve, const LcpBasis& warm = {}) {
  const NormalizedContacts columns = normalize_contacts(p);
  return solve_screened(
      p, columns, all_contacts(p), warm,
      [solve](const ContactProblem& q, const LcpBasis& w) { return (*solve)(q, w); });
}

TEST(ScreenedContact, ContactsEveryAnswerSeparatesAreNeverSolved) {
  const ContactProblem stack = resting_stack();
  ASSERT_EQ(stack.num_contacts(), kStackContacts);
  const ContactProblem p = with_far_copies(stack);
  ASSERT_GE(p.num_contacts(), kScreenedMinContacts);
  for (const LcpMethod method : kFast) {
    RecordingSolve solve{method, {}, {}};
    const LcpResult r = screened(p, &solve);
    ASSERT_EQ(r.status, LcpStatus::Solved) << to_string(method);
    EXPECT_TRUE(check_contact_solution(p, r.z).accepted) << to_string(method);
    // One round, on the stack alone: the same solve, to the bit.
    EXPECT_EQ(solve.sizes, std::vector<int>{kStackContacts}) << to_string(method);
    const LcpResult alone = solve_contact(stack, method);
    ASSERT_EQ(alone.status, LcpStatus::Solved);
    EXPECT_EQ(r.pivots, alone.pivots);
    const int n = p.num_contacts(), d = p.d;
    for (int i = 0; i < n; ++i) {
      const bool own = i < kStackContacts;
      EXPECT_EQ(r.z[i], own ? alone.z[i] : 0.0) << i;
      for (int j = 0; j < d; ++j) {
        EXPECT_EQ(r.z[n + i * d + j], own ? alone.z[kStackContacts + i * d + j] : 0.0) << i;
      }
      if (own) {
        EXPECT_EQ(r.z[n + n * d + i], alone.z[kStackContacts + kStackContacts * d + i]);
      }
    }
  }
}

// The bottom block rises at 0.1 m/s, a little faster than gravity's 0.098 m/s pulls it
// back in the step, so its pedestal contacts separate in the free motion; the block above
// falls onto it at 2 m/s, and the blow drives it into the pedestal.
ContactProblem struck_stack() {
  ContactProblem p = with_far_copies(resting_stack());
  p.kx[2] += 0.1;  // k~_x = f h + M v0, the blocks' mass 1 kg (body 0: the bottom block)
  p.kx[8] -= 2.0;  // body 1
  return p;
}

TEST(ScreenedContact, AContactTheAnswerClosesJoinsTheNextRound) {
  const ContactProblem p = struck_stack();
  const NormalizedContacts columns = normalize_contacts(p);
  for (int i = 0; i < 4; ++i) {  // the pedestal's contacts: the stack's first four
    ASSERT_GT(column_dot(columns.N[i], columns.k) + columns.b[i], 0.0) << i;
  }
  for (const LcpMethod method : kFast) {
    RecordingSolve solve{method, {}, {}};
    const LcpResult r = screened(p, &solve);
    ASSERT_EQ(r.status, LcpStatus::Solved) << to_string(method);
    EXPECT_TRUE(check_contact_solution(p, r.z).accepted) << to_string(method);
    // The pedestal's four contacts join after the first round (with some of their far
    // copies, which a round's answer moving the bottom block down faster than 1 m/s closed).
    ASSERT_GE(solve.on_pedestal.size(), 2u) << to_string(method);
    EXPECT_EQ(solve.on_pedestal.front(), 0) << to_string(method);
    EXPECT_GE(solve.on_pedestal.back(), 4) << to_string(method);
    EXPECT_LT(solve.sizes.back(), p.num_contacts()) << "a working set's answer";
    EXPECT_GT(r.z.head(4).sum(), 0.0) << "the pedestal carries the blow";
    // The whole problem's answer moves the blocks the same way (normal impulses are not
    // unique on a four-contact face, the velocities they give are here: no block slides).
    const LcpResult whole = solve_contact(p, method);
    ASSERT_EQ(whole.status, LcpStatus::Solved);
    EXPECT_LT((contact_velocity(p, r.z) - contact_velocity(p, whole.z)).lpNorm<Eigen::Infinity>(),
              1e-9);
  }
}

TEST(ScreenedContact, AContactBasicInTheWarmBasisStartsInTheSet) {
  const ContactProblem p = with_far_copies(resting_stack());
  const int n = p.num_contacts();
  RecordingSolve cold{LcpMethod::Reduced, {}, {}};
  LcpBasis warm = screened(p, &cold).basis;
  ASSERT_EQ(warm.z_basic.size(), static_cast<size_t>(p.lcp_size()));
  warm.z_basic[n + n * p.d + 100] = 1;  // lambda of far contact 100
  RecordingSolve solve{LcpMethod::Reduced, {}, {}};
  const LcpResult r = screened(p, &solve, warm);
  ASSERT_EQ(r.status, LcpStatus::Solved);
  EXPECT_EQ(solve.sizes, std::vector<int>{kStackContacts + 1});
  EXPECT_TRUE(check_contact_solution(p, r.z).accepted);
}

TEST(ScreenedContact, BelowTheThresholdTheWholeProblemIsSolvedOnce) {
  const ContactProblem p = resting_stack();
  RecordingSolve solve{LcpMethod::Reduced, {}, {}};
  const LcpResult r = screened(p, &solve);
  EXPECT_EQ(solve.sizes, std::vector<int>{kStackContacts});
  const LcpResult alone = solve_contact(p, LcpMethod::Reduced);
  EXPECT_EQ(r.z, alone.z);
}

TEST(ScreenedContact, AFailedRoundHandsTheWholeProblemToTheSolve) {
  const ContactProblem p = struck_stack();
  const NormalizedContacts columns = normalize_contacts(p);
  std::vector<int> sizes;
  const auto solve = [&](const ContactProblem& q, const LcpBasis& warm) {
    sizes.push_back(q.num_contacts());
    LcpResult r = solve_contact(q, LcpMethod::Reduced, {}, warm);
    if (q.num_contacts() < p.num_contacts()) r.status = LcpStatus::NumericalFailure;
    return r;
  };
  const LcpResult r = solve_screened(p, columns, all_contacts(p), {}, solve);
  ASSERT_EQ(r.status, LcpStatus::Solved);
  ASSERT_EQ(sizes.size(), 2u);
  EXPECT_LT(sizes[0], p.num_contacts());
  EXPECT_EQ(sizes[1], p.num_contacts());
  EXPECT_TRUE(check_contact_solution(p, r.z).accepted);
  const LcpResult first = solve_contact(p, LcpMethod::Reduced);
  EXPECT_EQ(r.z, first.z);  // the whole problem's own solve
}

TEST(ScreenedContact, ACancelledRoundEndsTheSolve) {
  const ContactProblem p = struck_stack();
  const NormalizedContacts columns = normalize_contacts(p);
  int calls = 0;
  const auto solve = [&](const ContactProblem&, const LcpBasis&) {
    ++calls;
    LcpResult r;
    r.status = LcpStatus::Cancelled;
    r.pivots = 7;
    return r;
  };
  const LcpResult r = solve_screened(p, columns, all_contacts(p), {}, solve);
  EXPECT_EQ(r.status, LcpStatus::Cancelled);
  EXPECT_EQ(r.pivots, 7);
  EXPECT_EQ(calls, 1);
}

}  // namespace
}  // namespace pivot
