// The Python module `pivot`: scenes, worlds, recordings and solvers of libpivot, with
// numpy arrays for everything that has one number per body or per contact.
#include "bindings.hpp"

PYBIND11_MODULE(pivot, m) {
  m.doc() =
      "Pivot: rigid bodies in contact, stepped by Stewart-Trinkle time steps whose LCPs are\n"
      "solved exactly by Lloyd's fast Lemke method.\n\n"
      "    scene = pivot.load_scene('scenes/peg_in_hole.json')\n"
      "    world = pivot.World(scene)\n"
      "    world.step(100)\n"
      "    world.positions, world.contacts().normal_impulses\n";
  m.attr("__version__") = PIVOT_VERSION;
  pivot::python::bind_errors(m);
  pivot::python::bind_scene(m);
  pivot::python::bind_world(m);
  pivot::python::bind_recording(m);
  pivot::python::bind_solvers(m);
}
