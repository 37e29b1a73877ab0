#include "sweep/scene_edit.hpp"

#include <array>
#include <charconv>
#include <cmath>

namespace pivot::sweep {
namespace {

Json number_json(double x) {
  // Below 2^53 every integral double is an exact int64.
  if (std::isfinite(x) && std::floor(x) == x && std::abs(x) < 0x1.0p53) {
    return Json(static_cast<std::int64_t>(x));
  }
  return Json(x);
}

Json value_json(const SweepValue& value) {
  if (const double* x = std::get_if<double>(&value)) return number_json(*x);
  return Json(std::get<std::string>(value));
}

}  // namespace

void apply_value(const SweepParameter& parameter, const SweepValue& value, Json* scene) {
  const Json::json_pointer pointer(parameter.pointers.empty() ? "" : parameter.pointers[0]);
  switch (parameter.kind) {
    case SweepTargetKind::FrictionOverride:
      return;
    case SweepTargetKind::Value:
      for (const std::string& each : parameter.pointers) {
        const Json::json_pointer at(each);
        // A wrench's absent force or torque is zero: written out so one component can change.
        // (An absent "settings" object is made by operator[] itself.)
        const bool component = at.back().find_first_not_of("0123456789") == std::string::npos;
        if (component && !scene->contains(at.parent_pointer())) {
          (*scene)[at.parent_pointer()] = Json::array({0, 0, 0});
        }
        (*scene)[at] = value_json(value);
      }
      return;
    case SweepTargetKind::PositionOffset: {
      Json& position = (*scene)[pointer];
      if (position.is_null()) position = Json::array({0, 0, 0});
      Json& component = position.at(static_cast<std::size_t>(parameter.axis));
      component = component.get<double>() + std::get<double>(value);
      return;
    }
    case SweepTargetKind::RotationOffset: {
      Json& orientation = (*scene)[pointer];
      if (orientation.is_null()) orientation = Json::array({1, 0, 0, 0});
      const Quat base(orientation.at(0).get<double>(), orientation.at(1).get<double>(),
                      orientation.at(2).get<double>(), orientation.at(3).get<double>());
      const double angle = std::get<double>(value) * kPi / 180.0;
      // A turn about a world axis is applied after the base orientation: q = turn * base.
      const Quat q = Quat(Eigen::AngleAxisd(angle, Vec3::Unit(parameter.axis))) * base;
      orientation = Json::array({q.w(), q.x(), q.y(), q.z()});
      return;
    }
  }
}

Scene read_edited_scene(const Json& scene, const std::string& scene_file) {
  return parse_scene(scene.dump(), scene_file).scene;
}

std::string format_double(double x) {
  std::array<char, 32> buffer{};
  const auto end = std::to_chars(buffer.data(), buffer.data() + buffer.size(), x).ptr;
  return std::string(buffer.data(), end);
}

std::string format_value(const SweepValue& value) {
  if (const double* x = std::get_if<double>(&value)) return format_double(*x);
  return std::get<std::string>(value);
}

}  // namespace pivot::sweep
