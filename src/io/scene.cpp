// The parts of the scene model that are not file reading or writing: setting names and
// the derived contact margin.
#include "pivot/scene.hpp"

#include <algorithm>

#include "pivot/geometry.hpp"

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
  double fastest_mps = 0.0;
  for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
    if (scene.bodies[i].fixed) continue;
    const Twist& v = scene.initial_states[i].twist;
    fastest_mps = std::max(
        fastest_mps, v.linear.norm() + v.angular.norm() * bounding_radius_m(scene.bodies[i].shape));
  }
  return h * (fastest_mps + settings.gravity_mps2.norm() * h);
}

}  // namespace pivot
