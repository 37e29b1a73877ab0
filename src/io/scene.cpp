// The parts of the scene model that are not file reading or writing: the contact margin's
// floor.
#include "pivot/scene.hpp"

namespace pivot {

double contact_margin_m(const Scene& scene) {
  const SceneSettings& settings = scene.settings;
  if (settings.contact_margin_m) return *settings.contact_margin_m;
  const double h = settings.time_step_s;
  return settings.gravity_mps2.norm() * h * h;
}

}  // namespace pivot
