// Scenes: load and parse them (errors as InputError with file:line:column), read what they
// hold, write them back as JSON; and the array/body helpers the other bindings share.
#include <cmath>

#include "bindings.hpp"

namespace pivot::python {

py::array_t<double> read_rows(const py::handle& value, std::size_t rows, std::size_t cols,
                              const std::string& what) {
  auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(value);
  const bool shape_ok =
      a && ((a.ndim() == 2 && a.shape(0) == static_cast<py::ssize_t>(rows) &&
             a.shape(1) == static_cast<py::ssize_t>(cols)) ||
            (rows == 1 && a.ndim() == 1 && a.shape(0) == static_cast<py::ssize_t>(cols)));
  if (!shape_ok) {
    throw py::value_error(what + " must be an array of shape (" + std::to_string(rows) + ", " +
                          std::to_string(cols) + ")");
  }
  const double* data = a.data();
  for (py::ssize_t i = 0; i < a.size(); ++i) {
    if (!std::isfinite(data[i])) throw py::value_error(what + " has a value that is not finite");
  }
  return a;
}

Vec3 read_vec3(const py::handle& value, const std::string& what) {
  const py::array_t<double> a = read_rows(value, 1, 3, what);
  return Vec3(a.data()[0], a.data()[1], a.data()[2]);
}

void bind_scene(py::module_& m) {
  py::class_<LoadedScene>(m, "Scene",
                          "A scene: materials, bodies with their initial states, settings and\n"
                          "scripted wrenches (docs/scene-format.md). Immutable; a World steps it.")
      .def_property_readonly(
          "description", [](const LoadedScene& s) { return s.scene.description; },
          "The scene file's own description.")
      .def_property_readonly(
          "body_names", [](const LoadedScene& s) { return names_of(s.scene.bodies); },
          "Body names, in the order of every per-body array.")
      .def_property_readonly(
          "fixed",
          [](const LoadedScene& s) {
            py::array_t<bool> fixed(static_cast<py::ssize_t>(s.scene.bodies.size()));
            for (size_t k = 0; k < s.scene.bodies.size(); ++k)
              fixed.mutable_at(k) = s.scene.bodies[k].fixed;
            return fixed;
          },
          "(B,) bool: which bodies never move.")
      .def_property_readonly(
          "masses",
          [](const LoadedScene& s) {
            py::array_t<double> mass(static_cast<py::ssize_t>(s.scene.bodies.size()));
            for (size_t k = 0; k < s.scene.bodies.size(); ++k)
              mass.mutable_at(k) = s.scene.bodies[k].mass_kg;
            return mass;
          },
          "(B,) body masses [kg]; 0 for fixed bodies.")
      .def_property_readonly(
          "material_names", [](const LoadedScene& s) { return names_of(s.scene.materials); },
          "Material names (World.set_material_friction takes them).")
      .def_property_readonly(
          "time_step", [](const LoadedScene& s) { return s.scene.settings.time_step_s; },
          "The scene's time step h [s].")
      .def_property_readonly(
          "warnings", [](const LoadedScene& s) { return s.warnings; },
          "Problems fixed while loading, each 'file:line:column: message'.")
      .def(
          "to_json", [](const LoadedScene& s) { return scene_to_json(s.scene); },
          "The scene as JSON text that scene_from_json reads back to the same scene (mass and\n"
          "inertia explicit, shapes about the centre of mass).")
      .def(
          "write",
          [](const LoadedScene& s, const std::string& path) { write_scene_file(s.scene, path); },
          py::arg("path"), "Writes the scene file (atomically: a reader never sees half a file).")
      .def("__repr__", [](const LoadedScene& s) {
        return "<pivot.Scene: " + std::to_string(s.scene.bodies.size()) + " bodies>";
      });

  m.def("load_scene", &read_scene_file, py::arg("path"), py::call_guard<py::gil_scoped_release>(),
        "Reads a scene file. Raises InputError 'file:line:column: message' for syntax errors,\n"
        "unknown keys, wrong types, values out of range and inconsistent bodies.");
  m.def(
      "scene_from_json",
      [](const py::object& text_or_dict, const std::string& name) {
        std::string text;
        if (py::isinstance<py::str>(text_or_dict)) {
          text = text_or_dict.cast<std::string>();
        } else {
          // Indented, so line and column of an error point into readable text.
          text = py::module_::import("json")
                     .attr("dumps")(text_or_dict, py::arg("indent") = 2)
                     .cast<std::string>();
        }
        return parse_scene(text, name);
      },
      py::arg("text_or_dict"), py::arg("name") = "<json>",
      "A scene from JSON text or from a dict (as json.loads gives it); name labels errors.\n"
      "Raises InputError as load_scene does.");
}

}  // namespace pivot::python
