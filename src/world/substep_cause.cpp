// Why a step ran in substeps, read from its StepStats (World::step sets substeps, retaken
// and carried; docs/stewart-trinkle.md "Substeps" and "Carried substeps").
#include <iterator>

#include "pivot/world.hpp"

namespace pivot {

SubstepCause substep_cause(const StepStats& stats) {
  if (stats.substeps <= 1) return SubstepCause::None;
  if (stats.retaken) return SubstepCause::Retaken;
  if (stats.carried) return SubstepCause::Carried;
  return SubstepCause::FastSpin;
}

namespace {

// Each cause's name and words, in the enum's order.
struct CauseNames {
  const char* name;
  const char* words;
};
constexpr CauseNames kCauseNames[] = {
    {"none", "taken whole"},
    {"fast_spin", "a body spinning too fast for h"},
    {"retaken", "retaken for a contact deeper than the step's linearisation"},
    {"carried", "carried from a retaken step"},
};
static_assert(std::size(kCauseNames) == kSubstepCauses, "a name and words for every cause");

}  // namespace

const char* to_string(SubstepCause cause) { return kCauseNames[static_cast<int>(cause)].name; }

const char* describe(SubstepCause cause) { return kCauseNames[static_cast<int>(cause)].words; }

}  // namespace pivot
