#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "pivot/geometry.hpp"

namespace pivot {
namespace {

constexpr double kPi = 3.14159265358979323846;

// Closed forms are evaluated in a different order than the code, so agreement is to
// round-off: 1e-12 relative.
void expect_mass_properties(const MassProperties& got, double mass, const Vec3& com,
                            const Mat3& inertia, double rel = 1e-12) {
  EXPECT_NEAR(got.mass_kg, mass, rel * mass);
  EXPECT_LE((got.center_of_mass_m - com).norm(), rel * (1.0 + com.norm()))
      << got.center_of_mass_m.transpose();
  EXPECT_LE((got.inertia_kgm2 - inertia).norm(), rel * inertia.norm()) << "\n" << got.inertia_kgm2;
}

Mat3 diag(double a, double b, double c) { return Vec3(a, b, c).asDiagonal(); }

ConvexMesh box_mesh(const Vec3& half, const Vec3& centre) {
  std::vector<Vec3> corners;
  for (int i = 0; i < 8; ++i) {
    const Vec3 sign((i & 1) ? 1.0 : -1.0, (i & 2) ? 1.0 : -1.0, (i & 4) ? 1.0 : -1.0);
    corners.push_back(centre + sign.cwiseProduct(half));
  }
  return make_convex_mesh(corners);
}

// A solid of revolution about z cut into thin discs of radius rho(z): a disc of mass dm has
// inertia dm rho^2 / 2 about z and dm (rho^2 / 4 + z^2) about x through the origin.
// Composite Simpson on [z0, z1], where rho^2 is a polynomial of degree <= 2, is exact up to
// the degree-4 term of rho^4: with 2000 intervals the error is below 1e-12 relative.
struct DiscSums {
  double mass = 0, across = 0, along = 0;
};
DiscSums integrate_discs(double density, double z0, double z1,
                         const std::function<double(double)>& rho2) {
  const int n = 2000;
  const double dz = (z1 - z0) / n;
  DiscSums sums;
  for (int i = 0; i <= n; ++i) {
    const double z = z0 + i * dz;
    const double w = (i == 0 || i == n) ? 1.0 : (i % 2 == 1 ? 4.0 : 2.0);
    const double dm = density * kPi * rho2(z) * w * dz / 3.0;
    sums.mass += dm;
    sums.across += dm * (rho2(z) / 4.0 + z * z);
    sums.along += dm * rho2(z) / 2.0;
  }
  return sums;
}

TEST(MassProperties, BoxMatchesClosedForm) {
  const double a = 0.1, b = 0.2, c = 0.3, rho = 500.0;
  const double m = rho * 2 * a * 2 * b * 2 * c;
  const double L = 2 * a, W = 2 * b, H = 2 * c;
  expect_mass_properties(
      compute_mass_properties(Box{Vec3(a, b, c)}, rho), m, Vec3::Zero(),
      diag(m * (W * W + H * H) / 12, m * (L * L + H * H) / 12, m * (L * L + W * W) / 12));
}

TEST(MassProperties, SphereMatchesClosedForm) {
  const double r = 0.25, rho = 7800.0;
  const double m = rho * 4.0 / 3.0 * kPi * r * r * r;
  expect_mass_properties(compute_mass_properties(Sphere{r}, rho), m, Vec3::Zero(),
                         2.0 / 5.0 * m * r * r * Mat3::Identity());
}

TEST(MassProperties, CylinderMatchesClosedFormAndDiscIntegration) {
  const double r = 0.2, h = 0.7, rho = 1000.0;
  const double m = rho * kPi * r * r * 2 * h;
  const double across = m * (3 * r * r + 4 * h * h) / 12;
  const MassProperties got = compute_mass_properties(Cylinder{r, h}, rho);
  expect_mass_properties(got, m, Vec3::Zero(), diag(across, across, m * r * r / 2));
  const DiscSums discs = integrate_discs(rho, -h, h, [r](double) { return r * r; });
  EXPECT_NEAR(got.inertia_kgm2(0, 0), discs.across, 1e-12 * discs.across);
  EXPECT_NEAR(got.inertia_kgm2(2, 2), discs.along, 1e-12 * discs.along);
}

TEST(MassProperties, CapsuleMatchesClosedFormAndDiscIntegration) {
  // Hemispherical caps centred at z = +-h: each has its centre of mass 3r/8 beyond the
  // cap centre, so the closed form carries the offset terms h^2 and 3hr/4.
  const double r = 0.3, h = 0.5, rho = 1200.0;
  const double m_cyl = rho * kPi * r * r * 2 * h;
  const double m_sph = rho * 4.0 / 3.0 * kPi * r * r * r;
  const double across =
      m_cyl * (3 * r * r + 4 * h * h) / 12 + m_sph * (2 * r * r / 5 + h * h + 3 * h * r / 4);
  const double along = m_cyl * r * r / 2 + m_sph * 2 * r * r / 5;
  const MassProperties got = compute_mass_properties(Capsule{r, h}, rho);
  expect_mass_properties(got, m_cyl + m_sph, Vec3::Zero(), diag(across, across, along));

  // Independent check: slice the capsule into discs (cylinder, then the caps).
  auto cap = [r, h](double z) { return r * r - (std::abs(z) - h) * (std::abs(z) - h); };
  const DiscSums middle = integrate_discs(rho, -h, h, [r](double) { return r * r; });
  const DiscSums top = integrate_discs(rho, h, h + r, cap);
  const DiscSums bottom = integrate_discs(rho, -h - r, -h, cap);
  EXPECT_NEAR(got.mass_kg, middle.mass + top.mass + bottom.mass, 1e-12 * got.mass_kg);
  EXPECT_NEAR(got.inertia_kgm2(0, 0), middle.across + top.across + bottom.across, 1e-12 * across);
  EXPECT_NEAR(got.inertia_kgm2(2, 2), middle.along + top.along + bottom.along, 1e-12 * along);
}

TEST(MassProperties, BoxMeshMatchesBoxAtItsCentre) {
  const Vec3 half(0.3, 0.1, 0.2), centre(1.0, -2.0, 0.5);
  const MassProperties box = compute_mass_properties(Box{half}, 900.0);
  const MassProperties mesh = compute_mass_properties(box_mesh(half, centre), 900.0);
  expect_mass_properties(mesh, box.mass_kg, centre, box.inertia_kgm2);
}

TEST(MassProperties, TetrahedronMatchesClosedForm) {
  // Corner tetrahedron (0, a e_x, b e_y, c e_z): V = abc/6, centroid (a, b, c)/4, and
  // about the centroid I_xx = 3m (b^2 + c^2)/80, I_xy = m ab/80 (products of inertia
  // enter the tensor with a minus sign, the centroidal product int x y being -V ab/80).
  const double a = 1.0, b = 2.0, c = 3.0, rho = 10.0;
  const ConvexMesh tet =
      make_convex_mesh({Vec3(0, 0, 0), Vec3(a, 0, 0), Vec3(0, b, 0), Vec3(0, 0, c)});
  const double m = rho * a * b * c / 6;
  Mat3 I;
  I << 3 * m * (b * b + c * c) / 80, m * a * b / 80, m * a * c / 80,  //
      m * a * b / 80, 3 * m * (a * a + c * c) / 80, m * b * c / 80,   //
      m * a * c / 80, m * b * c / 80, 3 * m * (a * a + b * b) / 80;
  expect_mass_properties(compute_mass_properties(tet, rho), m, Vec3(a, b, c) / 4, I);
}

TEST(MassProperties, TwoBoxesSideBySideMatchOneLongBox) {
  Compound pair;
  for (double x : {-0.5, 0.5}) {
    CompoundPiece piece{Box{Vec3(0.5, 0.2, 0.1)}, Pose{}};
    piece.local.position = Vec3(x, 0, 0);
    pair.pieces.push_back(piece);
  }
  const MassProperties one = compute_mass_properties(Box{Vec3(1.0, 0.2, 0.1)}, 300.0);
  expect_mass_properties(compute_mass_properties(pair, 300.0), one.mass_kg, Vec3::Zero(),
                         one.inertia_kgm2);
}

TEST(MassProperties, RotatedPieceTurnsItsInertia) {
  const Box brick{Vec3(0.4, 0.1, 0.2)};
  const MassProperties alone = compute_mass_properties(brick, 1000.0);
  // A quarter turn about z swaps the x and y moments.
  CompoundPiece quarter{brick, Pose{}};
  quarter.local.orientation = Quat(Eigen::AngleAxisd(kPi / 2, Vec3::UnitZ()));
  const Mat3& I = alone.inertia_kgm2;
  expect_mass_properties(compute_mass_properties(Compound{{quarter}}, 1000.0), alone.mass_kg,
                         Vec3::Zero(), diag(I(1, 1), I(0, 0), I(2, 2)));
  // Any rotation and offset: R I R' about the moved centre of mass.
  CompoundPiece turned{brick, Pose{}};
  turned.local.orientation = Quat(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()));
  turned.local.position = Vec3(0.5, -1.0, 2.0);
  const Mat3 R = turned.local.orientation.toRotationMatrix();
  expect_mass_properties(compute_mass_properties(Compound{{turned}}, 1000.0), alone.mass_kg,
                         turned.local.position, R * I * R.transpose());
}

TEST(MassProperties, FrameOfFourBoxesIsOuterBoxMinusHole) {
  // A 1 x 1 x 0.2 m block with a 0.4 x 0.4 m square hole, as four bars (the shape of
  // scenes/block_with_hole.json): the inertia is the outer box's minus the hole's.
  const double t = 0.1;  // half thickness
  Compound frame;
  auto bar = [&](const Vec3& half, const Vec3& at) {
    CompoundPiece piece{Box{half}, Pose{}};
    piece.local.position = at;
    frame.pieces.push_back(piece);
  };
  bar(Vec3(0.5, 0.15, t), Vec3(0, 0.35, 0));
  bar(Vec3(0.5, 0.15, t), Vec3(0, -0.35, 0));
  bar(Vec3(0.15, 0.2, t), Vec3(0.35, 0, 0));
  bar(Vec3(0.15, 0.2, t), Vec3(-0.35, 0, 0));
  const MassProperties outer = compute_mass_properties(Box{Vec3(0.5, 0.5, t)}, 800.0);
  const MassProperties hole = compute_mass_properties(Box{Vec3(0.2, 0.2, t)}, 800.0);
  expect_mass_properties(compute_mass_properties(frame, 800.0), outer.mass_kg - hole.mass_kg,
                         Vec3::Zero(), outer.inertia_kgm2 - hole.inertia_kgm2);
}

TEST(MassProperties, UnevenCompoundCentreOfMassIsMassWeighted) {
  // A sphere of mass m1 at x = 0 and a box of mass m2 at x = 1: centre at m2 / (m1 + m2).
  Compound pair;
  pair.pieces.push_back({Sphere{0.2}, Pose{}});
  CompoundPiece box{Box{Vec3(0.1, 0.1, 0.1)}, Pose{}};
  box.local.position = Vec3(1, 0, 0);
  pair.pieces.push_back(box);
  const MassProperties s = compute_mass_properties(Sphere{0.2}, 1.0);
  const MassProperties b = compute_mass_properties(Box{Vec3(0.1, 0.1, 0.1)}, 1.0);
  const double m = s.mass_kg + b.mass_kg, x = b.mass_kg / m;
  // Parallel axis for each piece about the common centre, on the y and z axes.
  const double shift = s.mass_kg * x * x + b.mass_kg * (1 - x) * (1 - x);
  const Mat3 I = s.inertia_kgm2 + b.inertia_kgm2 + diag(0, shift, shift);
  expect_mass_properties(compute_mass_properties(pair, 1.0), m, Vec3(x, 0, 0), I);
}

TEST(MassProperties, MassScalesWithDensity) {
  const Capsule c{0.1, 0.3};
  const MassProperties one = compute_mass_properties(c, 1.0);
  const MassProperties many = compute_mass_properties(c, 2700.0);
  EXPECT_NEAR(many.mass_kg, 2700.0 * one.mass_kg, 1e-12 * many.mass_kg);
  EXPECT_TRUE(many.inertia_kgm2.isApprox(2700.0 * one.inertia_kgm2, 1e-14));
}

void expect_invalid(const Shape& shape, const std::string& message) {
  try {
    compute_mass_properties(shape, 1000.0);
    ADD_FAILURE() << "no error for: " << message;
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), message);
  }
}

TEST(MassProperties, ShapesWithoutFiniteMassAreRejected) {
  expect_invalid(HalfSpace{}, "a half-space has no finite mass");
  expect_invalid(Compound{}, "a compound without pieces has no mass");
  ConvexMesh inside_out = box_mesh(Vec3(1, 1, 1), Vec3::Zero());
  for (auto& face : inside_out.faces) std::reverse(face.begin(), face.end());
  expect_invalid(
      inside_out,
      "the convex mesh encloses no volume (faces must be counter-clockwise seen from outside)");
}

TEST(BoundingRadius, MatchesFarthestPointOfEachShape) {
  EXPECT_DOUBLE_EQ(bounding_radius_m(Box{Vec3(1, 2, 2)}), 3.0);
  EXPECT_DOUBLE_EQ(bounding_radius_m(Sphere{0.3}), 0.3);
  EXPECT_DOUBLE_EQ(bounding_radius_m(Cylinder{3.0, 4.0}), 5.0);
  EXPECT_DOUBLE_EQ(bounding_radius_m(Capsule{0.5, 1.0}), 1.5);
  // Farthest corner (3, 2, 2).
  EXPECT_DOUBLE_EQ(bounding_radius_m(box_mesh(Vec3(1, 1, 1), Vec3(2, 1, 1))), std::sqrt(17.0));
  EXPECT_EQ(bounding_radius_m(HalfSpace{}), std::numeric_limits<double>::infinity());
}

TEST(BoundingRadius, CompoundPiecesCountWithTheirPoses) {
  // A tilted cylinder off the origin: its radius must equal the farthest of many rim points.
  CompoundPiece piece{Cylinder{0.3, 0.8}, Pose{}};
  piece.local.position = Vec3(0.5, -0.2, 0.1);
  piece.local.orientation = Quat(Eigen::AngleAxisd(1.1, Vec3(0.3, 1, -0.4).normalized()));
  Compound c;
  c.pieces.push_back(piece);
  c.pieces.push_back({Sphere{0.1}, Pose{}});
  double sampled = 0.0;
  for (int k = 0; k < 100000; ++k) {
    const double a = 2 * kPi * k / 100000;
    for (double z : {-0.8, 0.8}) {
      sampled = std::max(
          sampled, piece.local.to_world(Vec3(0.3 * std::cos(a), 0.3 * std::sin(a), z)).norm());
    }
  }
  const double radius = bounding_radius_m(c);
  // Sampling every 6.3e-5 rad misses the maximum by at most r (1 - cos(3.1e-5)) ~ 1.5e-10.
  EXPECT_GE(radius, sampled);
  EXPECT_LE(radius, sampled + 1e-9);
}

}  // namespace
}  // namespace pivot
