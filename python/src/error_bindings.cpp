// Errors cross into Python with their message: InputError (a ValueError carrying file,
// line, column) for bad input, SolverFailure (a RuntimeError carrying the problem file)
// for a step no method solved. std::invalid_argument arrives as ValueError (pybind11).
#include "bindings.hpp"
#include "pivot/error.hpp"

namespace pivot::python {

void bind_errors(py::module_& m) {
  // Leaked on purpose: the translator below may run until the interpreter ends.
  static auto* input_error = new py::exception<InputError>(m, "InputError", PyExc_ValueError);
  static auto* solver_failure =
      new py::exception<WrittenSolverFailure>(m, "SolverFailure", PyExc_RuntimeError);
  input_error->doc() =
      "Bad input (a scene, recording or problem file). str(e) is 'file:line:column: message';\n"
      "e.file, e.line, e.column (1-based, 0 when not known) and e.message hold the parts.";
  solver_failure->doc() =
      "A step whose contact LCP no method solved (World(on_failure='stop')). e.problem_file\n"
      "is the problem written for `pivot lcp solve`.";
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const InputError& e) {
      py::object error = py::handle(input_error->ptr())(e.what());
      error.attr("file") = e.file();
      error.attr("line") = e.line();
      error.attr("column") = e.column();
      error.attr("message") = e.message();
      PyErr_SetObject(input_error->ptr(), error.ptr());
    } catch (const WrittenSolverFailure& e) {
      py::object error = py::handle(solver_failure->ptr())(e.what());
      error.attr("problem_file") = e.problem_file();
      PyErr_SetObject(solver_failure->ptr(), error.ptr());
    }
  });
}

}  // namespace pivot::python
