#include "peers/peer_lemke.hpp"

#include <LCP_Solvers.h>
#include <LinearComplementarityProblem.h>
#include <NumericsMatrix.h>
#include <SolverOptions.h>
#include <lcp_cst.h>

#include <algorithm>
#include <dart/lcpsolver/Lemke.hpp>

namespace pivot::peers {

VecX dart_lemke(const MatX& M, const VecX& q) {
  VecX z = VecX::Zero(q.size());
  const int error = dart::lcpsolver::Lemke(M, q, &z);
  return error == 0 ? z : VecX();
}

VecX siconos_lexicolemke(const MatX& M, const VecX& q) {
  const int n = static_cast<int>(q.size());
  NumericsMatrix* A = NM_create(NM_DENSE, n, n);
  std::copy(M.data(), M.data() + M.size(), A->matrix0);  // both column-major
  VecX q_copy = q;
  LinearComplementarityProblem problem;
  problem.size = n;
  problem.M = A;
  problem.q = q_copy.data();
  SolverOptions* options = solver_options_create(SICONOS_LCP_LEMKE);
  options->iparam[SICONOS_IPARAM_MAX_ITER] = 50 * (n + 1);
  VecX z = VecX::Zero(n), w = VecX::Zero(n);
  int info = 0;
  lcp_lexicolemke(&problem, z.data(), w.data(), &info, options);
  solver_options_delete(options);
  NM_free(A);
  return info == 0 ? z : VecX();
}

}  // namespace pivot::peers
