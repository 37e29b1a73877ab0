// A contact solve kept from one solve to the next, for a caller that solves the same island
// step after step (World): the fast method's tables, the answer and the velocity it implies
// keep their storage, so a step whose island keeps its sizes allocates nothing when the
// warm start is the answer (tests/world/step_allocation_test.cpp).
#pragma once

#include "grouped_contact.hpp"
#include "lemke_fast.hpp"
#include "normalized_contacts.hpp"
#include "pivot/lcp.hpp"

namespace pivot {

// options as the fallback chain runs the requested method and every stage but its last:
// without LemkeOptions::repair_refused_end.
LemkeOptions without_end_repair(const LemkeOptions& options);

// The fallback chain after out->result, the requested method's own attempt (made with
// without_end_repair(options)): the loop of solve_contact_with_fallback.
void climb_fallback_chain(const ContactProblem& problem, LcpMethod method,
                          const LemkeOptions& options, FallbackResult* out);

// What a solve does when the requested method fails: climb the fallback chain, or return
// that failure (a caller with an easier problem to try first).
enum class OnFailure { FallBack, Return };

class ContactSolver {
 public:
  // solve_contact_with_fallback (with OnFailure::Return, the method's attempt alone); the
  // answer stays valid until the next call.
  const FallbackResult& solve_with_fallback(const ContactProblem& problem, LcpMethod method,
                                            const LemkeOptions& options, const LcpBasis& warm,
                                            OnFailure on_failure = OnFailure::FallBack);
  // The mass-normalised columns of the last solve_with_fallback's problem when its method
  // was a fast one, which formed them; else null. Valid until the next solve.
  const NormalizedContacts* columns() const { return columns_; }

  // contact_velocity; valid until the next call. Given `columns`, problem's own (columns()
  // after solving it), it does not normalise problem again: the same bits for half of
  // normalize_contacts' share (15 %) of a resting stack's step.
  const VecX& velocity(const ContactProblem& problem, const VecX& z,
                       const NormalizedContacts* columns = nullptr);
  // problem's columns formed into the storage velocity() forms them in when not given (a
  // grouped island's, for its whole solve and then its velocity); valid until the next
  // call of either.
  const NormalizedContacts& normalize(const ContactProblem& problem);
  // Storage for a grouped island's planes in their layout's order (solve_grouped_contact).
  PlanesInLayout* planes_in_layout() { return &planes_in_layout_; }

 private:
  FastLemkeSolver fast_;
  FallbackResult out_;
  const NormalizedContacts* columns_ = nullptr;
  NormalizedContacts nc_;  // velocity()'s columns when not given, and normalize()'s
  PlanesInLayout planes_in_layout_;
  VecX v_c_, v_;
};

}  // namespace pivot
