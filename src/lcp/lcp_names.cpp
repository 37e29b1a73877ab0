// Names of solver statuses and methods, as printed by the programs and in JSON output.
#include "pivot/lcp.hpp"

namespace pivot {

const char* to_string(LcpStatus status) {
  switch (status) {
    case LcpStatus::Solved: return "solved";
    case LcpStatus::SecondaryRay: return "secondary_ray";
    case LcpStatus::PivotLimit: return "pivot_limit";
    case LcpStatus::NumericalFailure: return "numerical_failure";
    case LcpStatus::NoSolution:
      return "no_solution";
    case LcpStatus::Cancelled:
      return "cancelled";
  }
  return "unknown";
}

const char* to_string(LcpMethod method) {
  switch (method) {
    case LcpMethod::Standard: return "standard";
    case LcpMethod::Structural: return "structural";
    case LcpMethod::Reduced: return "reduced";
  }
  return "unknown";
}

const char* to_string(FallbackStage stage) {
  switch (stage) {
    case FallbackStage::Structural:
      return "structural";
    case FallbackStage::PerturbedCover:
      return "perturbed_cover";
    case FallbackStage::MergedDuplicates:
      return "merged_duplicates";
    case FallbackStage::Regularised:
      return "regularised";
    case FallbackStage::Standard:
      return "standard";
    case FallbackStage::RepairedEnd:
      return "repaired_end";
  }
  return "unknown";
}

bool parse_lcp_method(const std::string& text, LcpMethod* method) {
  for (LcpMethod m : {LcpMethod::Standard, LcpMethod::Structural, LcpMethod::Reduced}) {
    if (text == to_string(m)) {
      *method = m;
      return true;
    }
  }
  return false;
}

}  // namespace pivot
