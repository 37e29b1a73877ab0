// A long randomized soak of the three contact solvers (standard, structural, reduced):
// seeded random contact LCPs with m <= 10 bodies and n <= 100 contacts, in mixes that are
// degenerate on purpose, each solved by every method and checked with the acceptance rule
// of shared/formats/problem-files.md. Every such problem has a solution Lemke's method
// reaches (Stewart-Trinkle; Lloyd Sec. 2), so any status but Solved, or a Solved answer
// the check refuses, is a solver failure; each is written as a problem file for a test.
//
//   lcp_soak [--problems N] [--seed S] [--failures DIR]
//
// N problems per mix (default 400), seeds S, S+1, ... (default 1); failures go to DIR
// (default: the working directory) as soak_<mix>_<seed>_<method>.contact. Prints per
// method and mix: solved, failed (and how many of those ran out of pivots), the worst violation of
// z, w >= 0 and of w'z = 0 relative to the check's scale, and the worst pivot count. Exits 1 when
// anything failed.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "pivot/lcp.hpp"
#include "pivot/problem_file.hpp"
#include "support/lloyd_problems.hpp"
#include "support/random_contact_problems.hpp"

namespace {

using namespace pivot;

constexpr int kMaxBodies = 10;
constexpr int kMaxContacts = 100;

// The degenerate situations the solvers meet in simulation, on top of plain random ones.
enum class Mix {
  Random,        // random bodies, normals, mu in [0, 1]
  Duplicated,    // a random problem with some contacts repeated exactly (a manifold reported twice)
  Coplanar,      // bodies resting on one plane, all normals +z (columns linearly dependent)
  Frictionless,  // mu = 0 everywhere: the cone collapses, gamma = -E' phi
  LargeMu,       // mu in [0, 1000]: the friction cone is nearly a half-space
  Lloyd,  // Lloyd's peg-in-hole and block stacks, aligned and rotated (many coplanar contacts)
};
const Mix kMixes[] = {Mix::Random,       Mix::Duplicated, Mix::Coplanar,
                      Mix::Frictionless, Mix::LargeMu,    Mix::Lloyd};

const char* mix_name(Mix mix) {
  switch (mix) {
    case Mix::Random:
      return "random";
    case Mix::Duplicated:
      return "duplicated";
    case Mix::Coplanar:
      return "coplanar";
    case Mix::Frictionless:
      return "mu0";
    case Mix::LargeMu:
      return "large_mu";
    case Mix::Lloyd:
      return "lloyd";
  }
  return "?";
}

// Sizes skewed towards small problems, as simulation islands are, yet reaching n = 100:
// n = 100 u^2 for u uniform, d in {2, 4, 8} with d = 8 only when n <= 30 (the dense
// standard method is O(size^2) per pivot).
testing::RandomProblemShape random_shape(std::mt19937_64& engine, double mu_max) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  testing::RandomProblemShape shape;
  shape.bodies = 1 + static_cast<int>(engine() % kMaxBodies);
  const double x = u(engine);
  shape.contacts = std::clamp(static_cast<int>(kMaxContacts * x * x), 1, kMaxContacts);
  const int directions[] = {2, 4, 8};
  shape.d = directions[engine() % (shape.contacts <= 30 ? 3 : 2)];
  shape.mu_max = mu_max;
  return shape;
}

// Appends exact copies of about a quarter of the contacts (at least one).
void duplicate_contacts(ContactProblem* p, std::mt19937_64& engine) {
  const int n = p->num_contacts();
  const int copies = std::max(1, n / 4);
  for (int c = 0; c < copies && p->num_contacts() < kMaxContacts; ++c) {
    const int i = static_cast<int>(engine() % static_cast<std::uint64_t>(n));
    p->normal.push_back(p->normal[i]);
    p->mu.push_back(p->mu[i]);
    p->b.push_back(p->b[i]);
    for (int j = 0; j < p->d; ++j) p->friction.push_back(p->friction[i * p->d + j]);
  }
}

// Boxes side by side on the ground plane z = 0, each on 4..10 contacts in that plane.
ContactProblem coplanar_problem(std::mt19937_64& engine) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const int bodies = 1 + static_cast<int>(engine() % kMaxBodies);
  lloyd::ContactProblemBuilder builder(4);
  for (int k = 0; k < bodies; ++k) {
    const Vec3 centre(3.0 * k, 0.0, 0.5);
    builder.add_body(centre,
                     lloyd::box_mass(1.0 + u(engine) * 0.5, Vec3(0.5, 0.5, 0.5), Mat3::Identity()));
    Vec6 impulse;
    for (int e = 0; e < 6; ++e) impulse[e] = u(engine);
    impulse[2] -= lloyd::kGravity_mps2 * lloyd::kStep_s;
    builder.add_impulse(k, impulse);
    const int contacts = std::min(4 + static_cast<int>(engine() % 7), kMaxContacts / bodies);
    for (int i = 0; i < contacts; ++i) {
      const Vec3 p(centre.x() + 0.5 * u(engine), 0.5 * u(engine), 0.0);
      builder.add_contact(k, -1, p, Vec3::UnitZ(), 0.5 * (1.0 + u(engine)));
    }
  }
  return builder.problem();
}

ContactProblem lloyd_problem(std::uint64_t seed) {
  switch (seed % 3) {
    case 0:
      return lloyd::peg_in_hole(4 + 2 * static_cast<int>((seed / 3) % 15), seed);
    case 1:
      return lloyd::block_stack(1 + static_cast<int>((seed / 3) % 5), true, seed);
    default:
      return lloyd::block_stack(1 + static_cast<int>((seed / 3) % 10), false, seed);
  }
}

ContactProblem make_problem(Mix mix, std::uint64_t seed) {
  std::mt19937_64 engine(seed * 7919 + static_cast<std::uint64_t>(mix));
  switch (mix) {
    case Mix::Random:
      return testing::random_contact_problem(seed, random_shape(engine, 1.0));
    case Mix::Duplicated: {
      ContactProblem p = testing::random_contact_problem(seed, random_shape(engine, 1.0));
      duplicate_contacts(&p, engine);
      return p;
    }
    case Mix::Coplanar:
      return coplanar_problem(engine);
    case Mix::Frictionless:
      return testing::random_contact_problem(seed, random_shape(engine, 0.0));
    case Mix::LargeMu:
      return testing::random_contact_problem(seed, random_shape(engine, 1000.0));
    case Mix::Lloyd:
      return lloyd_problem(seed);
  }
  return {};
}

struct Tally {
  int solved = 0;
  int failed = 0;
  int pivot_limit = 0;          // failures that ran out of pivots: a long path, not a wrong turn
  double worst_negative = 0.0;  // max(0, -min entry) / s
  double worst_complementarity = 0.0;  // max |w_i z_i| / (s max(1, |z|_inf))
  int worst_pivots = 0;
};

struct Options {
  int problems = 400;
  std::uint64_t seed = 1;
  std::string failures = ".";
};

Options parse_options(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const bool has_value = i + 1 < argc;
    if (std::strcmp(argv[i], "--problems") == 0 && has_value) {
      o.problems = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--seed") == 0 && has_value) {
      o.seed = std::strtoull(argv[++i], nullptr, 10);
    } else if (std::strcmp(argv[i], "--failures") == 0 && has_value) {
      o.failures = argv[++i];
    } else {
      std::fprintf(stderr, "usage: lcp_soak [--problems N] [--seed S] [--failures DIR]\n");
      std::exit(2);
    }
  }
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse_options(argc, argv);
  // The failure files are the point of a soak: make their folder before hours of solving,
  // not when the first one is written.
  std::error_code error;
  std::filesystem::create_directories(options.failures, error);
  if (error) {
    std::fprintf(stderr, "lcp_soak: cannot create %s: %s\n", options.failures.c_str(),
                 error.message().c_str());
    return 2;
  }
  const LcpMethod methods[] = {LcpMethod::Standard, LcpMethod::Structural, LcpMethod::Reduced};
  std::printf("lcp_soak: %d problems per mix, seeds %llu..%llu, m <= %d, n <= %d\n\n",
              options.problems, static_cast<unsigned long long>(options.seed),
              static_cast<unsigned long long>(options.seed + options.problems - 1), kMaxBodies,
              kMaxContacts);
  std::printf(
      "| method | mix | solved | failed | of which pivot limit | worst -min(z,w)/s | "
      "worst |w'z|/scale | max pivots |\n|---|---|---|---|---|---|---|---|\n");
  int total_failed = 0;
  for (LcpMethod method : methods) {
    for (Mix mix : kMixes) {
      Tally t;
      for (int k = 0; k < options.problems; ++k) {
        const std::uint64_t seed = options.seed + static_cast<std::uint64_t>(k);
        const ContactProblem p = make_problem(mix, seed);
        const LcpResult r = solve_contact(p, method);
        const LcpCheck c = check_contact_solution(p, r.z);
        if (r.status != LcpStatus::Solved || !c.accepted) {
          ++t.failed;
          if (r.status == LcpStatus::PivotLimit) ++t.pivot_limit;
          const std::string path = options.failures + "/soak_" + mix_name(mix) + "_" +
                                   std::to_string(seed) + "_" + to_string(method) + ".contact";
          write_contact_problem(path, {p, std::nullopt, std::nullopt});
          std::printf("FAILED %s %s seed %llu: %s after %d pivots -> %s\n", to_string(method),
                      mix_name(mix), static_cast<unsigned long long>(seed), to_string(r.status),
                      r.pivots, path.c_str());
          continue;
        }
        ++t.solved;
        // The check's scales: s = max(1, |q|_inf), and s max(1, |z|_inf) for products.
        const double s =
            std::max(1.0, contact_lcp_w(p, VecX::Zero(p.lcp_size())).cwiseAbs().maxCoeff());
        const double z_inf = r.z.size() ? r.z.cwiseAbs().maxCoeff() : 0.0;
        t.worst_negative = std::max(t.worst_negative, std::max(0.0, -c.min_entry) / s);
        t.worst_complementarity =
            std::max(t.worst_complementarity, c.max_complementarity / (s * std::max(1.0, z_inf)));
        t.worst_pivots = std::max(t.worst_pivots, r.pivots);
      }
      total_failed += t.failed;
      std::printf("| %s | %s | %d | %d | %d | %.1e | %.1e | %d |\n", to_string(method),
                  mix_name(mix), t.solved, t.failed, t.pivot_limit, t.worst_negative,
                  t.worst_complementarity, t.worst_pivots);
      std::fflush(stdout);
    }
  }
  return total_failed == 0 ? 0 : 1;
}
