// The Python module `pivot`: scenes, worlds, recordings and solvers of libpivot, with
// numpy arrays for everything that has one number per body or per contact.
#include <dlfcn.h>

#include <string>

#include "bindings.hpp"

namespace {

// The folder the Python submodules (python/pivot/*.py, e.g. pivot.sweep) are copied to:
// "pivot" beside this shared object, made the module's __path__ so `import pivot.sweep`
// and `python3 -m pivot.sweep` find them.
std::string submodule_dir() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&submodule_dir), &info) == 0 || info.dli_fname == nullptr)
    return "";
  const std::string self = info.dli_fname;
  return self.substr(0, self.rfind('/') + 1) + "pivot";
}

}  // namespace

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
  pivot::python::bind_sweep(m);
  m.attr("__path__") = pybind11::make_tuple(submodule_dir());
}
