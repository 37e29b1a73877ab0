#include "contact_linearization.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pivot {

void StepMotions::set(const std::vector<BodyState>& start, const std::vector<BodyState>& end) {
  motions_.resize(start.size());
  for (size_t k = 0; k < start.size(); ++k) {
    const Pose& p0 = start[k].pose;
    const Pose& p1 = end[k].pose;
    Quat turn = p1.orientation * p0.orientation.conjugate();
    if (turn.w() < 0.0) turn.coeffs() = -turn.coeffs();  // the shorter way round
    const Eigen::AngleAxisd phi(turn);
    Motion& m = motions_[k];
    m.start = p0.position;
    m.end = p1.position;
    m.phi = phi.angle() * phi.axis();
    m.turn = p1.orientation.toRotationMatrix() * p0.orientation.toRotationMatrix().transpose();
  }
}

StepMotions::EndGap StepMotions::gap(int body_a, int body_b, const Vec3& b, const Vec3& n,
                                     double gap, bool normal_on_b) const {
  const Vec3 a = b + gap * n;
  EndGap g;
  g.predicted = gap + n.dot(first_order_move(body_a, a) - first_order_move(body_b, b));
  const Vec3 n_end = motions_[normal_on_b ? body_b : body_a].turn * n;
  g.actual = n_end.dot(moved(body_a, a) - moved(body_b, b));
  return g;
}

Vec3 StepMotions::first_order_move(int body, const Vec3& p) const {
  const Motion& m = motions_[body];
  return (m.end - m.start) + m.phi.cross(p - m.start);
}

Vec3 StepMotions::moved(int body, const Vec3& p) const {
  const Motion& m = motions_[body];
  return m.turn * (p - m.start) + m.end;
}

int contact_substeps(const std::vector<double>& radius_m, const CollisionResult& collision,
                     const StepMotions& motions, int max_substeps) {
  double wanted = 1.0;  // substeps, before rounding up
  const auto judge = [&](int a, int b, const StepMotions::EndGap& g) {
    const double ra = radius_m[a], rb = radius_m[b];
    const double r = rb > 0.0 ? std::min(ra, rb) : ra;
    if (!(r > 0.0)) return;
    const double tolerance = kMissedDepthRel * r;
    const double missed = g.predicted - g.actual;
    if (!(g.actual < -tolerance && missed > tolerance)) return;
    wanted = std::max(wanted, std::sqrt(missed / (tolerance + std::max(0.0, g.predicted))));
  };
  for (const Contact& c : collision.contacts) {
    if (c.plane == ContactPlane::None) continue;  // edge-edge, or a curved surface's normal
    const bool on_b = c.plane == ContactPlane::FaceOfB;
    judge(c.body_a, c.body_b, motions.gap(c.body_a, c.body_b, c.point, c.normal, c.gap_m, on_b));
  }
  for (const ContactGroup& group : collision.groups) {
    constexpr double kNone = -std::numeric_limits<double>::infinity();
    StepMotions::EndGap largest{kNone, kNone};
    for (const ContactSide& side : group.sides) {
      const StepMotions::EndGap g = motions.gap(group.body_a, group.body_b, side.point, side.normal,
                                                side.gap_m, group.vertex_on_a);
      largest.predicted = std::max(largest.predicted, g.predicted);
      largest.actual = std::max(largest.actual, g.actual);
    }
    if (!group.sides.empty()) judge(group.body_a, group.body_b, largest);
  }
  if (!(wanted < max_substeps)) return max_substeps;
  return static_cast<int>(std::ceil(wanted));
}

}  // namespace pivot
