// The acceptance rule of shared/formats/problem-files.md on a candidate (z, w), shared by
// the dense check, the structural contact check and the solvers' own final checks.
#pragma once

#include "pivot/lcp.hpp"

namespace pivot {

// The tolerance of the acceptance rule, relative to s = max(1, |q|_inf): the same number
// for every solver and every reader of problem files.
constexpr double kAcceptanceTolerance = 1e-9;

// How far below zero, relative to the same s, the step that takes z0 out may leave a basic
// value for z0 to leave (both Lemke solvers): a tenth of the acceptance tolerance, so the
// answer keeps a margin for the rounding of the final solve.
constexpr double kLeavingSlack = 0.1 * kAcceptanceTolerance;

// A path that cycles at a tiny z0 may end on one of its cycle's bases with z0 dropped
// (both Lemke solvers): when z0 c_max and that basis's answer are within this share of the
// rule's tolerance, so that the answer keeps a margin; it replaces a failure. (The fast
// methods hold only an answer at rest to it: a moving island's cycle is answered at the
// whole tolerance, lemke_fast.cpp.)
constexpr double kCycleShare = 0.25;

// A path need not cycle to stay at such a z0 (both Lemke solvers): while z0 c_max is within
// kCycleShare, it tries its basis's answer with z0 dropped every this many pivots. A try is
// a fresh solve of the basis (a few pivots' work), so one in 32 costs a few per cent.
constexpr int kDropZ0Interval = 32;

// Applies the rule to z and w = M z + q computed by the caller: with s = max(1, q_scale),
// every w and z entry >= -1e-9 s and every |w_i z_i| <= 1e-9 s max(1, |z|_inf).
// q_scale is |q|_inf. A non-finite entry is never accepted. residual is left at 0: w is
// the caller's own M z + q, so it has nothing to be compared with. A solver may hold an
// answer to a stricter `tolerance` in place of the rule's 1e-9.
LcpCheck check_complementarity(const VecX& z, const VecX& w, double q_scale,
                               double tolerance = kAcceptanceTolerance);

}  // namespace pivot
