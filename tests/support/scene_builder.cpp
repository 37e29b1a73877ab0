#include "support/scene_builder.hpp"

#include "pivot/geometry.hpp"

namespace pivot::test {

SceneBuilder::SceneBuilder() { scene_.settings.contact_margin_m = 0.002; }

int SceneBuilder::material(double mu) {
  scene_.materials.push_back({"m" + std::to_string(scene_.materials.size()), mu});
  return static_cast<int>(scene_.materials.size()) - 1;
}

SceneBuilder& SceneBuilder::ground(double mu) {
  Body ground;
  ground.name = "ground";
  ground.shape = HalfSpace{Vec3::UnitZ(), 0.0};
  ground.fixed = true;
  ground.material = material(mu);
  scene_.bodies.push_back(ground);
  scene_.initial_states.push_back(BodyState{});
  return *this;
}

SceneBuilder& SceneBuilder::box(const std::string& name, const Vec3& size_m, double mass_kg,
                                double mu, const Vec3& position_m, const Quat& orientation) {
  return body(name, Box{0.5 * size_m}, mass_kg / size_m.prod(), mu, position_m, orientation);
}

SceneBuilder& SceneBuilder::body(const std::string& name, const Shape& shape, double density_kgpm3,
                                 double mu, const Vec3& position_m, const Quat& orientation) {
  Body body;
  body.name = name;
  body.shape = shape;
  const MassProperties props = compute_mass_properties(body.shape, density_kgpm3);
  body.mass_kg = props.mass_kg;
  body.inertia_body_kgm2 = props.inertia_kgm2;
  body.material = material(mu);
  scene_.bodies.push_back(body);
  BodyState state;
  state.pose.position = position_m;
  state.pose.orientation = orientation;
  scene_.initial_states.push_back(state);
  return *this;
}

SceneBuilder& SceneBuilder::velocity(const Vec3& linear_mps, const Vec3& angular_radps) {
  scene_.initial_states.back().twist.linear = linear_mps;
  scene_.initial_states.back().twist.angular = angular_radps;
  return *this;
}

SceneBuilder& SceneBuilder::gravity(const Vec3& g) {
  scene_.settings.gravity_mps2 = g;
  return *this;
}
SceneBuilder& SceneBuilder::time_step(double h_s) {
  scene_.settings.time_step_s = h_s;
  return *this;
}
SceneBuilder& SceneBuilder::directions(int d) {
  scene_.settings.friction_directions = d;
  return *this;
}
SceneBuilder& SceneBuilder::solver(LcpMethod method) {
  scene_.settings.solver = method;
  return *this;
}
SceneBuilder& SceneBuilder::margin(double margin_m) {
  scene_.settings.contact_margin_m = margin_m;
  return *this;
}
SceneBuilder& SceneBuilder::recovery_speed(double speed_mps) {
  scene_.settings.penetration_recovery_speed_mps = speed_mps;
  return *this;
}

}  // namespace pivot::test
