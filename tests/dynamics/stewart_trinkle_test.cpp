#include "dynamics/stewart_trinkle.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace pivot {
namespace {

TEST(StewartTrinkle, FrictionDirectionsSpanTheTangentPlaneEvenly) {
  const Vec3 normal = Vec3(0.3, -0.2, 1.0).normalized();
  // 64 and below come from the table of angles, 65 and 256 are computed when asked.
  for (int d : {2, 3, 4, 8, 16, 64, 65, 256}) {
    const FrictionDirections t(normal, d);
    ASSERT_EQ(t.size(), d);
    Vec3 sum = Vec3::Zero();
    for (int j = 0; j < d; ++j) {
      EXPECT_NEAR(t[j].norm(), 1.0, 1e-14);
      EXPECT_NEAR(t[j].dot(normal), 0.0, 1e-14);
      // Neighbours are 2 pi / d apart, so the polyhedral cone is a regular d-gon.
      EXPECT_NEAR(t[j].dot(t[(j + 1) % d]), std::cos(2 * M_PI / d), 1e-14);
      sum += t[j];
    }
    EXPECT_LT(sum.norm(), 1e-13);  // symmetric: no net friction bias
  }
}

TEST(StewartTrinkle, FirstFrictionDirectionIsWorldXOnFlatGround) {
  const FrictionDirections t(Vec3::UnitZ(), 4);
  EXPECT_TRUE(t[0].isApprox(Vec3::UnitX()));
  EXPECT_TRUE(t[1].isApprox(Vec3::UnitY()));
  // A normal close to x falls back to y, so the direction never degenerates.
  const FrictionDirections s(Vec3::UnitX(), 4);
  EXPECT_TRUE(s[0].isApprox(Vec3::UnitY()));
}

TEST(StewartTrinkle, ColumnGivesRelativePointVelocityAlongDirection) {
  // nu = column' v must equal n . (v_a + w_a x r_a - v_b - w_b x r_b).
  const Vec3 p(0.1, 0.2, 0.3), n = Vec3(1, 2, 2).normalized();
  const Vec3 ca(0.5, -0.1, 0.9), cb(-0.4, 0.3, -0.2);
  const ContactColumn column = contact_column(p, n, 0, ca, 1, cb);
  const Vec3 va(1, -2, 0.5), wa(0.3, 0.1, -0.7), vb(-0.2, 0.4, 1.0), wb(0.9, -0.3, 0.2);
  VecX v(12);
  v << va, wa, vb, wb;
  const double nu = column.block[0].dot(v.segment<6>(0)) + column.block[1].dot(v.segment<6>(6));
  const double expected = n.dot(va + wa.cross(p - ca) - vb - wb.cross(p - cb));
  EXPECT_NEAR(nu, expected, 1e-14);
}

TEST(StewartTrinkle, FixedBodyLeavesItsSlotEmpty) {
  const ContactColumn column =
      contact_column(Vec3(1, 0, 0), Vec3::UnitZ(), -1, Vec3::Zero(), 3, Vec3(1, 1, 0));
  EXPECT_EQ(column.body[0], 3);
  EXPECT_EQ(column.body[1], -1);
  EXPECT_TRUE(column.block[0].head<3>().isApprox(-Vec3::UnitZ()));
}

}  // namespace
}  // namespace pivot
