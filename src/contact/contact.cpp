// Names and comparisons of the plain contact data, as printed by the programs.
#include "pivot/contact.hpp"

namespace pivot {

const char* to_string(FeatureType type) {
  switch (type) {
    case FeatureType::Vertex:
      return "vertex";
    case FeatureType::Edge:
      return "edge";
    case FeatureType::Face:
      return "face";
  }
  return "unknown";
}

bool operator==(const Feature& a, const Feature& b) {
  return a.type == b.type && a.index == b.index && a.piece == b.piece;
}
bool operator!=(const Feature& a, const Feature& b) { return !(a == b); }

std::string describe(const Feature& feature) {
  std::string out(1, to_string(feature.type)[0]);
  out += std::to_string(feature.index);
  if (feature.piece != 0) out += "@p" + std::to_string(feature.piece);
  return out;
}

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

Contact ContactGroup::side_contact(int k) const {
  Contact plane;
  plane.body_a = body_a;
  plane.body_b = body_b;
  plane.point = sides[k].point;
  plane.normal = sides[k].normal;
  plane.gap_m = sides[k].gap_m;
  // The vertex and the side's face: what names the plane from one step to the next (the
  // warm start's key, world/contact_bases.hpp), as a convex contact's features name it.
  plane.feature_a = vertex_on_a ? feature_a : sides[k].feature;
  plane.feature_b = vertex_on_a ? sides[k].feature : feature_b;
  return plane;
}

double reach_m(const StepMotion& motion) {
  return std::max(motion.translation_now_m.norm(), motion.translation_free_m.norm()) +
         motion.rotation_m;
}

double closing_m(const StepMotion& a, const StepMotion& b) {
  return std::max((a.translation_now_m - b.translation_now_m).norm(),
                  (a.translation_free_m - b.translation_free_m).norm()) +
         a.rotation_m + b.rotation_m;
}

}  // namespace pivot
