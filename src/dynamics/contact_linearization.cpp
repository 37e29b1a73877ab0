#include "contact_linearization.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pivot {

namespace {

// One plane (a contact, or a group's side) at the step's end: predicted and actual gap.
struct EndGap {
  double predicted = 0.0;
  double actual = 0.0;
};

class StepMotions {
 public:
  StepMotions(const std::vector<BodyState>& start, const std::vector<BodyState>& end)
      : start_(start), end_(end) {}

  // b is B's witness, b + gap n A's; the plane turns with B (normal_on_b) or A.
  EndGap gap(int body_a, int body_b, const Vec3& b, const Vec3& n, double gap,
             bool normal_on_b) const {
    const Vec3 a = b + gap * n;
    EndGap g;
    g.predicted = gap + n.dot(first_order_move(body_a, a) - first_order_move(body_b, b));
    const int owner = normal_on_b ? body_b : body_a;
    const Vec3 n_end =
        end_[owner].pose.orientation * (start_[owner].pose.orientation.conjugate() * n);
    g.actual = n_end.dot(moved(body_a, a) - moved(body_b, b));
    return g;
  }

 private:
  // The step's displacement of a point of the body, to first order in its rotation (the
  // linearisation Egan (5) solved with: dx + phi x r).
  Vec3 first_order_move(int body, const Vec3& p) const {
    const Pose& p0 = start_[body].pose;
    const Pose& p1 = end_[body].pose;
    Quat turn = p1.orientation * p0.orientation.conjugate();
    if (turn.w() < 0.0) turn.coeffs() = -turn.coeffs();  // the shorter way round
    const Eigen::AngleAxisd phi(turn);
    return (p1.position - p0.position) + phi.angle() * phi.axis().cross(p - p0.position);
  }
  Vec3 moved(int body, const Vec3& p) const {
    return end_[body].pose.to_world(start_[body].pose.to_body(p));
  }

  const std::vector<BodyState>& start_;
  const std::vector<BodyState>& end_;
};

}  // namespace

int contact_substeps(const std::vector<double>& radius_m, const CollisionResult& collision,
                     const std::vector<BodyState>& start, const std::vector<BodyState>& end,
                     int max_substeps) {
  const StepMotions motions(start, end);
  double wanted = 1.0;  // substeps, before rounding up
  const auto judge = [&](int a, int b, const EndGap& g) {
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
    EndGap largest{kNone, kNone};
    for (const ContactSide& side : group.sides) {
      const EndGap g = motions.gap(group.body_a, group.body_b, side.point, side.normal, side.gap_m,
                                   group.vertex_on_a);
      largest.predicted = std::max(largest.predicted, g.predicted);
      largest.actual = std::max(largest.actual, g.actual);
    }
    if (!group.sides.empty()) judge(group.body_a, group.body_b, largest);
  }
  if (!(wanted < max_substeps)) return max_substeps;
  return static_cast<int>(std::ceil(wanted));
}

}  // namespace pivot
