// A failed island solve as programs report it: one line of text, and the problem file
// they write when they choose to.
#include "pivot/world.hpp"

namespace pivot {

std::string describe(const FailedSolve& failed) {
  return "step " + std::to_string(failed.step) + " (t = " + std::to_string(failed.time_s) +
         " s), island " + std::to_string(failed.island) + " with " +
         std::to_string(failed.problem.problem.num_contacts()) +
         " contacts: no method solved the LCP (" + to_string(failed.status) + ")";
}

std::string write_failed_solve(const FailedSolve& failed, const std::string& dir) {
  const std::string file = (dir.empty() ? std::string(".") : dir) + "/failed-step-" +
                           std::to_string(failed.step) + "-island-" +
                           std::to_string(failed.island) + ".contact";
  write_contact_problem(file, failed.problem);
  return file;
}

}  // namespace pivot
