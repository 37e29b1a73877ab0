// Readers for the Siconos numerics text files in the shared test data (LCP and local
// frictional contact problems), as described in testdata/external/FORMAT.md. Test-only:
// they serve tests/external/, which checks our solvers on problems written by others.
#pragma once

#include <string>

#include "pivot/math.hpp"

namespace pivot::external {

// find z >= 0 with w = M z + q >= 0, z'w = 0.
struct SiconosLcp {
  MatX M;
  VecX q;
};

// Local frictional contact problem, u = W r + q: per contact c the unknowns
// r = (r_N, r_T...) sit at rows dimension*c .. dimension*c + dimension - 1, normal first.
struct SiconosFrictionContact {
  int dimension = 0;  // 2 or 3
  MatX W;             // Delassus matrix, (dimension nc) x (dimension nc)
  VecX q;             // dimension nc
  VecX mu;            // nc friction coefficients
  int num_contacts() const { return static_cast<int>(mu.size()); }
};

// Both throw std::runtime_error("<path>: <what was expected>") on anything they cannot
// read. Matrices may be stored dense (column-major), sparse-block (SBM) or CSparse (CSC).
SiconosLcp read_siconos_lcp(const std::string& path);
SiconosFrictionContact read_siconos_friction_contact(const std::string& path);

}  // namespace pivot::external
