// Lemke on the contacts that can carry force, the others kept out until the answer's
// motion says otherwise: a working set over a contact LCP's contacts.
//
// A pile's landing asks for contacts wherever a body can close the gap within the step
// (pair_margin_m), and a falling body makes that margin large: on the 40-box pile's
// landing (bench/pile_scene.py 40 40, step 137) an island of 37 bodies has 5,034 planes, of
// which 74 carry force and 4,472 separate at 1 m/s or more without impulses. Every pivot
// of the fast methods passes over every normal row (the ratio test, the basic w values), so
// those rows were most of each pivot's O(n) share.
#pragma once

#include <functional>
#include <vector>

#include "normalized_contacts.hpp"
#include "pivot/lcp.hpp"

namespace pivot {

// Islands with fewer contacts than this are solved whole: below it the rows left out are
// too few to pay for a second round, and small islands keep the bits they always had.
constexpr int kScreenedMinContacts = 128;

// A contact starts in the working set when the free motion does not separate it: its free
// normal velocity (row nu_i of eq. (8) at z = 0, gap term included) is at most the
// acceptance rule's tolerance (kAcceptanceTolerance times max(1, the largest |nu_i|)), so
// that a resting contact, whose free velocity is zero up to round-off, is in it; or when
// the warm basis has any of its variables basic.
// One solve of a contact LCP: the method (and, as the caller decides, the fallback chain).
using ContactLcpSolve = std::function<LcpResult(const ContactProblem&, const LcpBasis&)>;

// The contact LCP of planes' contacts `contacts` (ascending indices into planes, whose
// normalised columns are `columns`), solved by `solve` on a working set: the contacts that
// start in it (above), then every round the ones the last round's answer
// brings together (nu_i < 0), each round from the last one's basis. A contact left out has
// theta = phi = 0 and the least lambda that keeps its friction rows >= 0, as the reduced
// method gives a contact it never added. The answer is over the whole LCP of `contacts`
// (their normals, friction, lambda rows, as kept_variables orders them) and passes its
// acceptance check; short of that, or when a round fails, `solve` on the whole LCP.
LcpResult solve_screened(const ContactProblem& planes, const NormalizedContacts& columns,
                         const std::vector<int>& contacts, const LcpBasis& warm,
                         const ContactLcpSolve& solve);

}  // namespace pivot
