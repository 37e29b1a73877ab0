// The parts of the scene model that are not file reading or writing: setting names and
// the contact margin's floor.
#include "pivot/scene.hpp"

namespace pivot {

const char* to_string(NonconvexFormulation formulation) {
  switch (formulation) {
    case NonconvexFormulation::Max:
      return "max";
    case NonconvexFormulation::Sum:
      return "sum";
    case NonconvexFormulation::Off:
      return "off";
  }
  return "unknown";
}

bool parse_nonconvex_formulation(const std::string& text, NonconvexFormulation* formulation) {
  for (NonconvexFormulation f :
       {NonconvexFormulation::Max, NonconvexFormulation::Sum, NonconvexFormulation::Off}) {
    if (text == to_string(f)) {
      *formulation = f;
      return true;
    }
  }
  return false;
}

double contact_margin_m(const Scene& scene) {
  const SceneSettings& settings = scene.settings;
  if (settings.contact_margin_m) return *settings.contact_margin_m;
  const double h = settings.time_step_s;
  return settings.gravity_mps2.norm() * h * h;
}

}  // namespace pivot
