// Seeded random contact problems for the solver tests: several free bodies with random
// SPD spatial masses, contacts between random body pairs or a body and the fixed ground,
// random unit normals, friction coefficients and k~_x. Any such problem has a solution
// Lemke's method reaches (Lloyd Sec. 2, Stewart-Trinkle), so every solve must succeed.
#pragma once

#include <cstdint>

#include "pivot/lcp.hpp"

namespace pivot::testing {

struct RandomProblemShape {
  int bodies = 1;       // m >= 1
  int contacts = 1;     // n >= 1
  int d = 4;            // friction directions, >= 2
  double mu_max = 1.0;  // mu_i uniform in [0, mu_max]
};

ContactProblem random_contact_problem(std::uint64_t seed, const RandomProblemShape& shape);

}  // namespace pivot::testing
