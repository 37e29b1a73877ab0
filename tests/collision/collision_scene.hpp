// Builds collision test scenes in a line: add bodies with a shape and a pose, then collide.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "pivot/body.hpp"
#include "pivot/contact.hpp"

namespace pivot::test {

inline Pose pose_at(const Vec3& position, const Quat& orientation = Quat::Identity()) {
  Pose p;
  p.position = position;
  p.orientation = orientation;
  return p;
}

inline Quat about(const Vec3& axis, double angle_rad) {
  return Quat(Eigen::AngleAxisd(angle_rad, axis.normalized()));
}

inline Box box(double hx, double hy, double hz) { return Box{Vec3(hx, hy, hz)}; }

// A plate with a square hole of half width hw, from four bars (top at z = 0, bottom at -t):
// the left and right bars run the full depth, the front and back bars sit between them.
inline Compound square_hole_plate(double hw, double t, double outer) {
  Compound plate;
  const double bar = 0.5 * (outer - hw);  // half width of a bar across the hole's side
  for (double side : {-1.0, 1.0}) {
    plate.pieces.push_back({box(bar, outer, t / 2), pose_at(Vec3(side * (hw + bar), 0, -t / 2))});
  }
  for (double side : {-1.0, 1.0}) {
    plate.pieces.push_back({box(hw, bar, t / 2), pose_at(Vec3(0, side * (hw + bar), -t / 2))});
  }
  return plate;
}

// A round hole of radius R approximated by n boxes around it, each tangent to the circle
// with its inner face, long enough to overlap its neighbours (top at z = 0).
inline Compound round_hole_rim(int n, double R, double t) {
  Compound rim;
  const double half_side = 1.3 * R * std::tan(M_PI / n);
  for (int k = 0; k < n; ++k) {
    const double theta = 2 * M_PI * k / n;
    const Vec3 radial(std::cos(theta), std::sin(theta), 0);
    rim.pieces.push_back(
        {box(0.02, half_side, t / 2),
         pose_at((R + 0.02) * radial - Vec3(0, 0, t / 2), about(Vec3::UnitZ(), theta))});
  }
  return rim;
}

// A cube of half size a standing on one corner (its body diagonal vertical), that corner
// (vertex 0) at `corner`; its three edges from there rise 35.26 degrees, at azimuths
// azimuth, azimuth + 120 and azimuth + 240 degrees.
inline Pose corner_down(double a, const Vec3& corner, double azimuth_rad) {
  const Quat tip = Quat::FromTwoVectors(Vec3(-1, -1, -1), Vec3(0, 0, -1));
  const Vec3 edge = tip * Vec3::UnitX();  // the edge along the cube's own x axis
  const Quat turn = about(Vec3::UnitZ(), azimuth_rad - std::atan2(edge.y(), edge.x()));
  return pose_at(corner + Vec3(0, 0, a * std::sqrt(3.0)), turn * tip);
}

struct CollisionScene {
  std::vector<Body> bodies;
  std::vector<BodyState> states;

  int add(const std::string& name, const Shape& shape, const Pose& pose, bool fixed = false) {
    Body body;
    body.name = name;
    body.shape = shape;
    body.fixed = fixed;
    body.mass_kg = fixed ? 0.0 : 1.0;
    body.inertia_body_kgm2 = fixed ? Mat3(Mat3::Zero()) : Mat3(Mat3::Identity());
    bodies.push_back(body);
    BodyState state;
    state.pose = pose;
    states.push_back(state);
    return static_cast<int>(bodies.size()) - 1;
  }
  int add_ground(double height = 0.0) {
    return add("ground", HalfSpace{Vec3::UnitZ(), height}, Pose{}, true);
  }

  CollisionResult collide(double margin_m = 0.005,
                          NonconvexFormulation nonconvex = NonconvexFormulation::Max) const {
    CollisionSettings settings;
    settings.margin_m = margin_m;
    settings.nonconvex = nonconvex;
    return pivot::collide(bodies, states, settings);
  }
};

// Whether some contact lies at point with the given normal (within tol).
inline bool has_contact(const std::vector<Contact>& contacts, const Vec3& point, const Vec3& normal,
                        double tol = 1e-9) {
  return std::any_of(contacts.begin(), contacts.end(), [&](const Contact& c) {
    return (c.point - point).norm() <= tol && (c.normal - normal).norm() <= tol;
  });
}

}  // namespace pivot::test
