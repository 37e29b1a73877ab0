#include "support/random_contact_problems.hpp"

#include <random>

#include "support/lloyd_problems.hpp"

namespace pivot::testing {

ContactProblem random_contact_problem(std::uint64_t seed, const RandomProblemShape& shape) {
  std::mt19937_64 engine(seed);
  auto uniform = [&](double lo, double hi) {
    return lo + (hi - lo) * static_cast<double>(engine() >> 11) * 0x1.0p-53;
  };
  lloyd::ContactProblemBuilder builder(shape.d);
  for (int k = 0; k < shape.bodies; ++k) {
    // A A' + I/2 is SPD with eigenvalues in a range a rigid body's spatial mass can have.
    Mat6 A;
    for (int e = 0; e < 36; ++e) A(e / 6, e % 6) = uniform(-1.0, 1.0);
    const Vec3 centre(uniform(-1, 1), uniform(-1, 1), uniform(-1, 1));
    builder.add_body(centre, A * A.transpose() + 0.5 * Mat6::Identity());
    Vec6 impulse;
    for (int e = 0; e < 6; ++e) impulse[e] = uniform(-1.0, 1.0);
    builder.add_impulse(k, impulse);
  }
  for (int i = 0; i < shape.contacts; ++i) {
    const int a = static_cast<int>(engine() % static_cast<std::uint64_t>(shape.bodies));
    int b = -1;
    if (shape.bodies > 1 && engine() % 2 == 0) {
      b = static_cast<int>(engine() % static_cast<std::uint64_t>(shape.bodies - 1));
      if (b >= a) ++b;
    }
    const Vec3 p(uniform(-1, 1), uniform(-1, 1), uniform(-1, 1));
    Vec3 n(uniform(-1, 1), uniform(-1, 1), uniform(-1, 1));
    if (n.norm() < 1e-3) n = Vec3::UnitZ();
    builder.add_contact(a, b, p, n, uniform(0.0, shape.mu_max));
  }
  return builder.problem();
}

}  // namespace pivot::testing
