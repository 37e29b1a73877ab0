// Why a step ran in substeps, read from its StepStats (World::step sets substeps, retaken
// and carried; docs/stewart-trinkle.md "Substeps" and "Carried substeps").
#include "pivot/world.hpp"

namespace pivot {

SubstepCause substep_cause(const StepStats& stats) {
  if (stats.substeps <= 1) return SubstepCause::None;
  if (stats.retaken) return SubstepCause::Retaken;
  if (stats.carried) return SubstepCause::Carried;
  return SubstepCause::FastSpin;
}

const char* to_string(SubstepCause cause) {
  switch (cause) {
    case SubstepCause::None:
      return "none";
    case SubstepCause::FastSpin:
      return "fast_spin";
    case SubstepCause::Retaken:
      return "retaken";
    case SubstepCause::Carried:
      return "carried";
  }
  return "unknown";
}

const char* describe(SubstepCause cause) {
  switch (cause) {
    case SubstepCause::None:
      return "taken whole";
    case SubstepCause::FastSpin:
      return "a body spinning too fast for h";
    case SubstepCause::Retaken:
      return "retaken for a contact deeper than the step's linearisation";
    case SubstepCause::Carried:
      return "carried from a retaken step";
  }
  return "unknown";
}

}  // namespace pivot
