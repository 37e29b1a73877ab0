// Builds scenes in a line for physics tests (after Jolt's PhysicsTestContext): a ground
// half-space, boxes by size and mass, settings by name.
#pragma once

#include <string>

#include "pivot/scene.hpp"

namespace pivot::test {

class SceneBuilder {
 public:
  SceneBuilder();

  // A fixed ground half-space z <= 0 with friction mu.
  SceneBuilder& ground(double mu);
  // A dynamic box of full size (sx, sy, sz) [m], mass [kg] and friction mu, resting with
  // its centre at position. Its inertia is the solid box's.
  SceneBuilder& box(const std::string& name, const Vec3& size_m, double mass_kg, double mu,
                    const Vec3& position_m, const Quat& orientation = Quat::Identity());
  // A dynamic body of any convex shape whose centre of mass is its frame's origin, of
  // uniform density [kg/m^3].
  SceneBuilder& body(const std::string& name, const Shape& shape, double density_kgpm3, double mu,
                     const Vec3& position_m, const Quat& orientation = Quat::Identity());
  SceneBuilder& velocity(const Vec3& linear_mps, const Vec3& angular_radps = Vec3::Zero());
  SceneBuilder& gravity(const Vec3& gravity_mps2);
  SceneBuilder& time_step(double h_s);
  SceneBuilder& directions(int d);
  SceneBuilder& solver(LcpMethod method);
  SceneBuilder& margin(double margin_m);
  SceneBuilder& recovery_speed(double speed_mps);

  const Scene& scene() const { return scene_; }

 private:
  int material(double mu);

  Scene scene_;
};

}  // namespace pivot::test
