// The parts of the Python module `pivot`, one function per concept the user touches
// (src/module.cpp calls them in order), and the numpy conversions they share.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "pivot/scene.hpp"

namespace pivot::python {

namespace py = pybind11;

// A failed solve whose problem World.step wrote into the World's failure_dir: Python's
// SolverFailure, with e.problem_file.
class WrittenSolverFailure : public std::runtime_error {
 public:
  WrittenSolverFailure(const std::string& message, std::string problem_file)
      : std::runtime_error(message), problem_file_(std::move(problem_file)) {}
  const std::string& problem_file() const { return problem_file_; }

 private:
  std::string problem_file_;
};

void bind_errors(py::module_& m);     // InputError, SolverFailure
void bind_scene(py::module_& m);      // Scene, load_scene, scene_from_json
void bind_world(py::module_& m);      // World, State, StepStats, Contacts
void bind_recording(py::module_& m);  // RecordingWriter, Recording, read_recording
void bind_solvers(py::module_& m);    // LcpResult, solve_lcp, solve_contact_problem
void bind_sweep(py::module_& m);      // Sweep

// A (rows, cols) float64 array filled row by row: fill(i, double* row).
template <class Fill>
py::array_t<double> make_rows(std::size_t rows, std::size_t cols, Fill&& fill) {
  py::array_t<double> a({static_cast<py::ssize_t>(rows), static_cast<py::ssize_t>(cols)});
  auto view = a.mutable_unchecked<2>();
  for (std::size_t i = 0; i < rows; ++i) fill(i, view.mutable_data(static_cast<py::ssize_t>(i), 0));
  return a;
}

inline void put3(double* out, const Vec3& v) { out[0] = v.x(), out[1] = v.y(), out[2] = v.z(); }

// Reads an array-like of shape (rows, cols) of finite numbers; ValueError names `what`.
py::array_t<double> read_rows(const py::handle& value, std::size_t rows, std::size_t cols,
                              const std::string& what);
// Reads a 3-vector of finite numbers.
Vec3 read_vec3(const py::handle& value, const std::string& what);

// The names of bodies or materials, in order.
template <class Named>
py::list names_of(const std::vector<Named>& items) {
  py::list names;
  for (const Named& item : items) names.append(item.name);
  return names;
}

// A body or material given by name or index, as an index into items (each has a .name);
// KeyError "no body named 'x' in the scene", IndexError "no body 7 in a scene of 3".
template <class Named>
int index_of(const std::vector<Named>& items, const py::handle& ref, const std::string& kind) {
  const int n = static_cast<int>(items.size());
  if (py::isinstance<py::str>(ref)) {
    const std::string name = ref.cast<std::string>();
    for (int k = 0; k < n; ++k) {
      if (items[k].name == name) return k;
    }
    throw py::key_error("no " + kind + " named '" + name + "' in the scene");
  }
  const long k = ref.cast<long>();
  if (k < 0 || k >= n) {
    throw py::index_error("no " + kind + " " + std::to_string(k) + " in a scene of " +
                          std::to_string(n));
  }
  return static_cast<int>(k);
}

}  // namespace pivot::python
