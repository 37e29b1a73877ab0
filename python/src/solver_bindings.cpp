// The solvers on their own: a dense LCP w = M z + q by standard Lemke, and a problem file
// (pivot-lcp or pivot-contact, docs/problem-files.md) by the method asked for.
#include <pybind11/eigen.h>

#include <variant>

#include "bindings.hpp"
#include "pivot/problem_file.hpp"

namespace pivot::python {

namespace {

LemkeOptions lemke_options(int max_pivots) {
  if (max_pivots < 0) throw py::value_error("max_pivots must be >= 0");
  LemkeOptions options;
  options.max_pivots = max_pivots;
  return options;
}

LcpResult solve_lcp(const MatX& M, const VecX& q, const std::string& method, int max_pivots) {
  if (method != to_string(LcpMethod::Standard)) {
    throw py::value_error("method '" + method +
                          "' needs a contact problem's structure "
                          "(solve_contact_problem); a dense LCP is solved by 'standard'");
  }
  if (M.rows() != M.cols() || M.rows() != q.size()) {
    throw py::value_error("M must be n x n and q of size n; got M " + std::to_string(M.rows()) +
                          " x " + std::to_string(M.cols()) + ", q " + std::to_string(q.size()));
  }
  if (!M.allFinite() || !q.allFinite()) throw py::value_error("M and q must be finite");
  const LemkeOptions options = lemke_options(max_pivots);
  py::gil_scoped_release release;
  return solve_lemke(M, q, options);
}

LcpResult solve_problem_file(const std::string& path, const std::string& method, int max_pivots) {
  const LemkeOptions options = lemke_options(max_pivots);
  py::gil_scoped_release release;
  const ProblemFile problem = read_problem_file(path);
  if (const auto* lcp = std::get_if<LcpProblemFile>(&problem)) {
    if (!method.empty() && method != to_string(LcpMethod::Standard)) {
      throw std::invalid_argument("method " + method + " needs a contact problem; " + path +
                                  " is a general LCP (pivot-lcp), solved by the standard method");
    }
    return solve_lemke(lcp->M, lcp->q, options);
  }
  LcpMethod lcp_method = LcpMethod::Reduced;
  if (!method.empty() && !parse_lcp_method(method, &lcp_method)) {
    throw std::invalid_argument("method must be standard, structural or reduced, got '" + method +
                                "'");
  }
  return solve_contact(std::get<ContactProblemFile>(problem).problem, lcp_method, options);
}

}  // namespace

void bind_solvers(py::module_& m) {
  py::class_<LcpResult>(m, "LcpResult",
                        "How a solve ended. status is 'solved', 'secondary_ray', 'pivot_limit' or\n"
                        "'numerical_failure'; anything but solved means z is not (known to be) a\n"
                        "solution. z and w have the LCP's size (a contact problem's n(2+d):\n"
                        "theta, phi, lambda, then their w).")
      .def_property_readonly(
          "status", [](const LcpResult& r) { return std::string(to_string(r.status)); },
          "'solved', 'secondary_ray', 'pivot_limit' or 'numerical_failure'")
      .def_property_readonly(
          "solved", [](const LcpResult& r) { return r.status == LcpStatus::Solved; },
          "status == 'solved'")
      .def_readonly("z", &LcpResult::z, "(n,) the solution when solved")
      .def_readonly("w", &LcpResult::w, "(n,) M z + q")
      .def_readonly("pivots", &LcpResult::pivots, "Lemke pivots taken")
      .def_readonly("solve_time_us", &LcpResult::solve_time_us, "wall time of the solve")
      .def("__repr__", [](const LcpResult& r) {
        return std::string("<pivot.LcpResult: ") + to_string(r.status) + ", " +
               std::to_string(r.pivots) + " pivots>";
      });

  m.def("solve_lcp", &solve_lcp, py::arg("M"), py::arg("q"), py::arg("method") = "standard",
        py::arg("max_pivots") = 0,
        "Solves the LCP w = M z + q, z >= 0, w >= 0, z.w = 0 by standard Lemke (covering\n"
        "vector of ones, lexicographic ratio test); the fast methods need a contact problem's\n"
        "structure. max_pivots 0 picks a limit that grows with the size. Returns LcpResult.");
  m.def("solve_contact_problem", &solve_problem_file, py::arg("path"), py::arg("method") = "",
        py::arg("max_pivots") = 0,
        "Reads a problem file (pivot-lcp or pivot-contact) and solves it, as `pivot lcp solve`:\n"
        "a contact problem by method ('reduced' when empty), a general LCP by 'standard'.\n"
        "Raises InputError 'file:line: message' for a malformed file. Returns LcpResult.");
}

}  // namespace pivot::python
