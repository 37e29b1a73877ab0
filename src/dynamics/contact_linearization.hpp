// How far a step's motion strays from the linearisation its contacts were solved with.
// Egan (5) holds each contact to first order: f + n.(dx_a - dx_b) >= 0, with the normal n
// and the witnesses fixed at the step's start. The bodies turn while they move, so a
// contact can end deeper than that, by about h^2 |w| |v_t| where a point slides at v_t
// along a face turning at w: a box falling at 12 m/s past the corner of one it has just set
// spinning at 28 rad/s ended 34 mm inside it (a pile of 40 boxes, docs/stewart-trinkle.md).
#pragma once

#include <vector>

#include "pivot/body.hpp"
#include "pivot/contact.hpp"

namespace pivot {

// The depth a (sub)step may miss at a contact, as a share of the smaller bounding radius of
// its moving bodies: 1.1 mm between two 0.16 x 0.12 x 0.10 m boxes.
constexpr double kMissedDepthRel = 0.01;

// (the bodies' bounding radii (0 for fixed bodies), the contacts and groups found at a
// (sub)step's start, the bodies' states at its start and at its end) => how many substeps
// of it would keep every contact whose normal is a flat face's (Contact::plane; every
// group's sides) within its tolerance: 1 when none ends deeper than kMissedDepthRel r and
// deeper than it was predicted to, else ceil(sqrt(missed / (tol + max(0, predicted)))) for
// the worst, since the error is second order in h (at most max_substeps).
// A contact's end depth is n'.(a' - b') with its witnesses a, b moved with their bodies and
// its normal n turned with the body whose face it is;
// a group's is the largest of its sides' (Egan (29)); its prediction is the same with the
// witnesses moved to first order (x + dx + phi x r, phi the step's rotation vector) and n held.
int contact_substeps(const std::vector<double>& radius_m, const CollisionResult& collision,
                     const std::vector<BodyState>& start, const std::vector<BodyState>& end,
                     int max_substeps);

}  // namespace pivot
