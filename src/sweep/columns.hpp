// The columns of a sweep's results table that outcomes and predicates are made of.
#pragma once

#include <string>
#include <vector>

#include "pivot/sweep.hpp"

namespace pivot::sweep {

// The numeric outcome columns a predicate may test: BODY.x .. BODY.qz of each pose body,
// then steps, pivots, max_penetration_m, failures.
std::vector<std::string> outcome_columns(const Sweep& sweep);

}  // namespace pivot::sweep
