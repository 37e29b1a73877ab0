#include "contact_view.hpp"

#include <cmath>
#include <cstdio>

namespace pivot::viewer {

namespace {

// The velocity of the material point of body at p after the step (zero for a fixed body).
Vec3 point_velocity(const World& world, int body, const Vec3& p) {
  if (world.scene().bodies[static_cast<size_t>(body)].fixed) return Vec3::Zero();
  const BodyState& s = world.state().bodies[static_cast<size_t>(body)];
  return s.twist.linear + s.twist.angular.cross(p - s.pose.position);
}

ContactView view_of(const World& world, const ContactImpulse& impulse, const Contact& c, double h) {
  const Vec3& point = c.point;
  const Vec3& normal = c.normal;
  ContactView v;
  v.body_a = c.body_a;
  v.body_b = c.body_b;
  v.point = point;
  v.normal = normal;
  v.gap_m = c.gap_m;
  v.normal_n = impulse.normal_ns / h;
  v.friction_n = impulse.friction_ns / h;
  v.mu = impulse.mu;
  v.d = impulse.d;
  v.first_direction = impulse.first_direction;
  const Vec3 relative =
      point_velocity(world, c.body_a, point) - point_velocity(world, c.body_b, point);
  v.slip_speed_mps = (relative - relative.dot(normal) * normal).norm();
  v.slides = v.slip_speed_mps > kSlipSpeed_mps;
  return v;
}

}  // namespace

const char* state(const ContactView& c) {
  if (c.normal_n <= 0.0) return "no force";
  return c.slides ? "slides" : "sticks";
}

std::vector<ContactView> contact_views(const World& world) {
  std::vector<ContactView> views;
  const double h = world.last_stats().time_step_s;
  if (h <= 0.0) return views;
  const CollisionResult& collision = world.collision();
  for (const ContactImpulse& i : world.impulses()) {
    views.push_back(view_of(world, i, collision.contacts[static_cast<size_t>(i.contact)], h));
  }
  for (const ContactImpulse& i : world.side_impulses()) {
    const ContactGroup& g = collision.groups[static_cast<size_t>(i.group)];
    views.push_back(view_of(world, i, g.side_contact(i.side), h));
    views.back().group_side = true;
  }
  return views;
}

std::string describe(const ContactView& c, const World& world) {
  // Read as the user sees the pair: the normal points from B toward A, so A rests on B when
  // it points up against gravity and B on A when it points down (between two moving bodies
  // A is merely the lower index); a normal within 45 degrees of horizontal, or no gravity,
  // presses the two against each other.
  const Vec3& g = world.scene().settings.gravity_mps2;
  const double up = g.norm() > 0.0 ? -c.normal.dot(g) / g.norm() : 0.0;
  const bool a_first = up >= 0.0;
  const std::string& a = world.scene().bodies[static_cast<size_t>(c.body_a)].name;
  const std::string& b = world.scene().bodies[static_cast<size_t>(c.body_b)].name;
  char text[256];
  std::snprintf(text, sizeof(text),
                "%s %s %s%s: gap %.2e m, normal %.3g N, friction %.3g N, mu %.2f, %s",
                (a_first ? a : b).c_str(), std::abs(up) > std::sqrt(0.5) ? "on" : "against",
                (a_first ? b : a).c_str(), c.group_side ? " (group side)" : "", c.gap_m, c.normal_n,
                c.friction_n.norm(), c.mu, state(c));
  return text;
}

}  // namespace pivot::viewer
