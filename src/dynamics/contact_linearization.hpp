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

// Each body's motion over a (sub)step, formed once per body rather than once per contact
// that touches it (a resting 16-contact peg spent a tenth of its step converting the
// same two quaternions to angle-axis for every contact). Storage is reused across calls.
class StepMotions {
 public:
  // (the bodies' states at the (sub)step's start and end) => each body's motion.
  void set(const std::vector<BodyState>& start, const std::vector<BodyState>& end);

  // One plane (a contact, or a group's side) at the (sub)step's end.
  struct EndGap {
    double predicted = 0.0;  // its gap to first order in the rotations (Egan (5))
    double actual = 0.0;     // its gap with the witnesses and the normal moved exactly
  };
  // b is B's witness, b + gap n A's; the plane turns with B (normal_on_b) or A.
  EndGap gap(int body_a, int body_b, const Vec3& b, const Vec3& n, double gap,
             bool normal_on_b) const;

 private:
  struct Motion {
    Vec3 start;  // the reference point's position at the start
    Vec3 end;    // and at the end
    Vec3 phi;    // the rotation vector of the turn, the shorter way round
    Mat3 turn;   // the turn as a matrix: R_end R_start'
  };
  // The step's displacement of a point of the body, to first order in its rotation (the
  // linearisation Egan (5) solved with: dx + phi x r).
  Vec3 first_order_move(int body, const Vec3& p) const;
  // Where the point, carried by the body, ends.
  Vec3 moved(int body, const Vec3& p) const;

  std::vector<Motion> motions_;
};

// (the bodies' bounding radii (0 for fixed bodies), the contacts and groups found at a
// (sub)step's start, the bodies' motions over it) => how many substeps
// of it would keep every contact whose normal is a flat face's (Contact::plane; every
// group's sides) within its tolerance: 1 when none ends deeper than kMissedDepthRel r and
// deeper than it was predicted to, else ceil(sqrt(missed / (tol + max(0, predicted)))) for
// the worst, since the error is second order in h (at most max_substeps).
// A contact's end depth is n'.(a' - b') with its witnesses a, b moved with their bodies and
// its normal n turned with the body whose face it is;
// a group's is the largest of its sides' (Egan (29)); its prediction is the same with the
// witnesses moved to first order (x + dx + phi x r, phi the step's rotation vector) and n held.
int contact_substeps(const std::vector<double>& radius_m, const CollisionResult& collision,
                     const StepMotions& motions, int max_substeps);

}  // namespace pivot
