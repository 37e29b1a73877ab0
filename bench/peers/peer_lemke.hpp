// DART's and Siconos' Lemke behind one signature, for lcp_bench's optional comparison
// (CMake option PIVOT_BENCH_PEERS): each takes the dense LCP w = M z + q and returns z,
// or an empty vector when the library itself reports a failure. The caller checks every
// answer with the acceptance rule, so a wrong answer reported as success is counted.
#pragma once

#include "pivot/math.hpp"

namespace pivot::peers {

// dart::lcpsolver::Lemke (dart/lcpsolver/Lemke.hpp).
VecX dart_lemke(const MatX& M, const VecX& q);

// Siconos numerics lcp_lexicolemke (Cottle-Pang-Stone lexicographic Lemke), with the
// same pivot limit as Pivot's default, 50 (n + 1).
VecX siconos_lexicolemke(const MatX& M, const VecX& q);

}  // namespace pivot::peers
