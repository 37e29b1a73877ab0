// Mass properties of the shapes and their bounding radii. Closed forms for the primitives,
// the divergence theorem over tetrahedra for polyhedra, the parallel-axis theorem for
// compounds.
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <variant>

#include "pivot/geometry.hpp"

namespace pivot {
namespace {

// Inertia of a point mass m at offset d from the reference point: m (|d|^2 1 - d d').
Mat3 parallel_axis(double m, const Vec3& d) {
  return m * (d.squaredNorm() * Mat3::Identity() - d * d.transpose());
}

MassProperties of(const Box& b, double rho) {
  const Vec3 e = b.half_extents_m;
  MassProperties mp;
  mp.mass_kg = rho * 8.0 * e.prod();
  // m (2a)^2 / 12 = m a^2 / 3 per full side 2a.
  const Vec3 sq = e.cwiseProduct(e);
  mp.inertia_kgm2 =
      (mp.mass_kg / 3.0 * Vec3(sq.y() + sq.z(), sq.x() + sq.z(), sq.x() + sq.y())).asDiagonal();
  return mp;
}

MassProperties of(const Sphere& s, double rho) {
  const double r = s.radius_m;
  MassProperties mp;
  mp.mass_kg = rho * 4.0 / 3.0 * kPi * r * r * r;
  mp.inertia_kgm2 = 0.4 * mp.mass_kg * r * r * Mat3::Identity();
  return mp;
}

MassProperties of(const Cylinder& c, double rho) {
  const double r = c.radius_m, h = c.half_length_m;
  MassProperties mp;
  mp.mass_kg = rho * kPi * r * r * 2.0 * h;
  // Full length L = 2h: m (3 r^2 + L^2) / 12 across, m r^2 / 2 along the axis.
  const double across = mp.mass_kg * (r * r / 4.0 + h * h / 3.0);
  mp.inertia_kgm2 = Vec3(across, across, 0.5 * mp.mass_kg * r * r).asDiagonal();
  return mp;
}

MassProperties of(const Capsule& c, double rho) {
  const double r = c.radius_m, h = c.half_length_m;
  const double m_cyl = rho * kPi * r * r * 2.0 * h;
  const double m_caps = rho * 4.0 / 3.0 * kPi * r * r * r;  // both hemispheres
  // A hemisphere has inertia 2/5 m r^2 about any diameter of its flat face and its centre
  // of mass 3r/8 above that face. Moving the axis from the face (through the centre of
  // mass) to the capsule centre at distance h + 3r/8:
  //   2/5 m r^2 - m (3r/8)^2 + m (h + 3r/8)^2 = m (2/5 r^2 + h^2 + 3/4 h r).
  const double across =
      m_cyl * (r * r / 4.0 + h * h / 3.0) + m_caps * (0.4 * r * r + h * h + 0.75 * h * r);
  const double along = 0.5 * m_cyl * r * r + 0.4 * m_caps * r * r;
  MassProperties mp;
  mp.mass_kg = m_cyl + m_caps;
  mp.inertia_kgm2 = Vec3(across, across, along).asDiagonal();
  return mp;
}

// Divergence theorem: the solid is the union of the signed tetrahedra (r, a, b, c) from a
// reference point r to every triangle of a fan over each face. A tetrahedron with edge
// vectors x_1..x_3 from r and volume V is the image of the unit simplex under
// A = [x_1 x_2 x_3]; over that simplex int u u' = (1 + 1 1') / 120, hence
//   int x x' dV = 6 V A (1 + 1 1') A' / 120 = V / 20 (sum_i x_i x_i' + s s'),  s = sum_i x_i.
// r is the vertex average, which keeps the sums free of cancellation.
MassProperties of(const ConvexMesh& mesh, double rho) {
  Vec3 r = Vec3::Zero();
  for (const Vec3& v : mesh.vertices) r += v;
  r /= static_cast<double>(mesh.vertices.size());
  double volume = 0.0;
  Vec3 first = Vec3::Zero();   // int x dV, relative to r
  Mat3 second = Mat3::Zero();  // int x x' dV, relative to r
  for (const auto& face : mesh.faces) {
    const Vec3 a = mesh.vertices[face[0]] - r;
    for (std::size_t k = 1; k + 1 < face.size(); ++k) {
      const Vec3 b = mesh.vertices[face[k]] - r;
      const Vec3 c = mesh.vertices[face[k + 1]] - r;
      const double V = a.dot(b.cross(c)) / 6.0;
      const Vec3 s = a + b + c;
      volume += V;
      first += V * s / 4.0;
      second += V / 20.0 *
                (a * a.transpose() + b * b.transpose() + c * c.transpose() + s * s.transpose());
    }
  }
  if (!(volume > 0.0)) {
    throw std::invalid_argument(
        "the convex mesh encloses no volume (faces must be counter-clockwise seen from outside)");
  }
  const Vec3 centroid = first / volume;  // relative to r
  MassProperties mp;
  mp.mass_kg = rho * volume;
  mp.center_of_mass_m = r + centroid;
  const Mat3 about_r = rho * (second.trace() * Mat3::Identity() - second);
  mp.inertia_kgm2 = about_r - parallel_axis(mp.mass_kg, centroid);
  return mp;
}

MassProperties of(const HalfSpace&, double) {
  throw std::invalid_argument("a half-space has no finite mass");
}

// Each piece's centre of mass and inertia are rotated into the body frame; the inertias
// then move to the common centre of mass by the parallel-axis theorem.
MassProperties of(const Compound& c, double rho) {
  if (c.pieces.empty()) throw std::invalid_argument("a compound without pieces has no mass");
  MassProperties total;
  std::vector<MassProperties> pieces;
  for (const CompoundPiece& piece : c.pieces) {
    MassProperties mp = std::visit([rho](const auto& s) { return of(s, rho); }, piece.shape);
    const Mat3 R = piece.local.orientation.toRotationMatrix();
    mp.center_of_mass_m = piece.local.to_world(mp.center_of_mass_m);
    mp.inertia_kgm2 = R * mp.inertia_kgm2 * R.transpose();
    total.mass_kg += mp.mass_kg;
    total.center_of_mass_m += mp.mass_kg * mp.center_of_mass_m;
    pieces.push_back(mp);
  }
  total.center_of_mass_m /= total.mass_kg;
  for (const MassProperties& mp : pieces) {
    total.inertia_kgm2 +=
        mp.inertia_kgm2 + parallel_axis(mp.mass_kg, mp.center_of_mass_m - total.center_of_mass_m);
  }
  return total;
}

// Distance from the origin to the farthest point of a convex shape placed at `pose`.
double radius(const Box& b, const Pose& pose) {
  double r = 0.0;
  for (int corner = 0; corner < 8; ++corner) {
    const Vec3 sign((corner & 1) ? 1.0 : -1.0, (corner & 2) ? 1.0 : -1.0,
                    (corner & 4) ? 1.0 : -1.0);
    r = std::max(r, pose.to_world(sign.cwiseProduct(b.half_extents_m)).norm());
  }
  return r;
}

double radius(const Sphere& s, const Pose& pose) { return pose.position.norm() + s.radius_m; }

double radius(const Cylinder& c, const Pose& pose) {
  // The farthest rim point of an end disc with centre e leans towards e's component
  // across the axis: |e|^2 + r^2 + 2 r |e_across|.
  const Vec3 axis = pose.orientation * Vec3::UnitZ();
  double r2 = 0.0;
  for (double side : {-1.0, 1.0}) {
    const Vec3 e = pose.position + side * c.half_length_m * axis;
    const double across = (e - e.dot(axis) * axis).norm();
    r2 = std::max(r2, e.squaredNorm() + c.radius_m * c.radius_m + 2.0 * c.radius_m * across);
  }
  return std::sqrt(r2);
}

double radius(const Capsule& c, const Pose& pose) {
  const Vec3 half = c.half_length_m * (pose.orientation * Vec3::UnitZ());
  return std::max((pose.position + half).norm(), (pose.position - half).norm()) + c.radius_m;
}

double radius(const ConvexMesh& mesh, const Pose& pose) {
  double r = 0.0;
  for (const Vec3& v : mesh.vertices) r = std::max(r, pose.to_world(v).norm());
  return r;
}

double radius(const HalfSpace&, const Pose&) { return std::numeric_limits<double>::infinity(); }

double radius(const Compound& c, const Pose&) {
  double r = 0.0;
  for (const CompoundPiece& piece : c.pieces) {
    r = std::max(
        r, std::visit([&piece](const auto& s) { return radius(s, piece.local); }, piece.shape));
  }
  return r;
}

}  // namespace

MassProperties compute_mass_properties(const Shape& shape, double density_kgpm3) {
  return std::visit([density_kgpm3](const auto& s) { return of(s, density_kgpm3); }, shape);
}

double bounding_radius_m(const Shape& shape) {
  return std::visit([](const auto& s) { return radius(s, Pose{}); }, shape);
}

}  // namespace pivot
