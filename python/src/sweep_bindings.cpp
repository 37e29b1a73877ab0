// Sweeps from Python: the sample function that `python3 -m pivot.sweep` hands to Dask
// workers, and the results table it writes (docs/sweeps.md).
#include "bindings.hpp"
#include "pivot/sweep.hpp"

namespace pivot::python {

void bind_sweep(py::module_& m) {
  py::class_<Sweep>(m, "Sweep",
                    "A sweep file read and checked (docs/sweeps.md). Sample i's row is a pure\n"
                    "function of (file, i), whichever process runs it.\n\n"
                    "    sweep = pivot.Sweep('examples/sweeps/peg_insertion.json')\n"
                    "    sweep.run(17)          # the row `pivot sweep FILE --index 17` prints")
      .def(py::init(&read_sweep_file), py::arg("path"),
           "Reads the sweep file; InputError 'file:line:column: message' for bad input.")
      .def_property_readonly("file", [](const Sweep& s) { return s.file; })
      .def_property_readonly("columns", &sweep_columns, "The table's header.")
      .def("__len__", [](const Sweep& s) { return sweep_size(s); })
      .def("validate", &validate_sweep_samples,
           "Builds every sample's scene; InputError for the first the scene refuses.")
      .def("run", &run_sweep_sample, py::arg("index"), py::arg("failure_dir") = "",
           py::call_guard<py::gil_scoped_release>(),
           "Runs sample index and returns its row as strings, one per column (the GIL is\n"
           "released meanwhile).")
      .def("read_table", &read_sweep_table, py::arg("path"),
           "The rows of a results CSV of this sweep (for resuming).")
      .def("write_table", &write_sweep_table, py::arg("path"), py::arg("rows"),
           py::arg("git_hash") = "",
           "Writes the rows sorted by index to path (+ path.json), through a rename.");
}

}  // namespace pivot::python
