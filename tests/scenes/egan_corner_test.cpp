// Egan, Berard and Trinkle's worked example (Sec. IV, Fig. 3) in scenes/egan_corner.json:
// one step of h = 2 s for a unit point mass at (1, 1) near a corner filling x < 0, y < 0.
#include <gtest/gtest.h>

#include <string>
#include <variant>

#include "pivot/nonconvex.hpp"
#include "pivot/problem_file.hpp"
#include "pivot/world.hpp"
#include "support/shipped_scene.hpp"

namespace pivot {
namespace {

using test::body_index;
using test::shipped_scene;

// The paper's numbers are exact small rationals and the LCP is solved exactly by pivoting:
// agreement to round-off.
constexpr double kTol = 1e-12;

TEST(EganCorner, MaxFormulationStepMatchesThePapersWorkedNumbers) {
  World world(shipped_scene("egan_corner.json"));
  ASSERT_EQ(world.settings().nonconvex, NonconvexFormulation::Max);
  world.step();
  // One group per point, sides x = 0 and y = 0. The step of 2 s at 2 m/s reaches 4 m, so
  // the carriers' other vertices meet the corner too (their own groups and contacts),
  // which in this step move nothing: the paper's numbers below are unchanged.
  for (const char* name : {"point_a", "point_b"}) {
    const int body = body_index(world.scene(), name);
    const Vec3 point = world.scene().initial_states[body].pose.position;
    int at_point = 0;
    for (const ContactGroup& g : world.collision().groups) {
      if (g.body_a == body && (g.point - point).norm() < kTol) {
        ++at_point;
        EXPECT_EQ(g.sides.size(), 2u) << name;
      }
    }
    EXPECT_EQ(at_point, 1) << name;
  }

  // Fig. 3(a), z_a: no contact; v = (-2, 0), q = (-3, 1).
  const BodyState& a = world.state().bodies[body_index(world.scene(), "point_a")];
  EXPECT_LT((a.twist.linear - Vec3(-2, 0, 0)).norm(), kTol);
  EXPECT_LT((a.pose.position.head<2>() - Eigen::Vector2d(-3, 1)).norm(), kTol);

  // Fig. 3(b): the max formulation admits z_b1 (both planes: q = (0, 0)), z_b2 (the vertical
  // plane: q = (0, -1)) and z_b3 (the horizontal plane: p_2n = 0.5, v = (-2, -0.5),
  // q = (-3, 0)). The solver tries the least penetrated side first (a_2 = -0.5 against
  // a_1 = -1.5) and so gives z_b3.
  const BodyState& b = world.state().bodies[body_index(world.scene(), "point_b")];
  EXPECT_LT((b.twist.linear - Vec3(-2, -0.5, 0)).norm(), kTol);
  EXPECT_LT((b.pose.position.head<2>() - Eigen::Vector2d(-3, 0)).norm(), kTol);
  EXPECT_LT(b.twist.angular.norm(), kTol);  // the impulse acts at the centre of mass
}

// A grouped step that fails is written with its groups, formulation and constant, so that
// solving the file is the step's own solve: it fails the same way under the same pivot
// limit, and without the limit gives the velocities the step gives, bit for bit.
TEST(EganCorner, AFailedGroupedStepReplaysFromItsFile) {
  for (const NonconvexFormulation form : {NonconvexFormulation::Max, NonconvexFormulation::Sum}) {
    SCOPED_TRACE(to_string(form));
    WorldOptions options;
    options.lemke.max_pivots = 1;
    World failing(shipped_scene("egan_corner.json"), options);
    failing.settings().nonconvex = form;
    std::string file;
    try {
      failing.step();
      FAIL() << "one pivot solved the step";
    } catch (const SolverFailure& e) {
      file = write_failed_solve(e.failed(), ::testing::TempDir());
    }
    const auto replay = std::get<ContactProblemFile>(read_problem_file(file));
    ASSERT_TRUE(replay.groups.has_value());
    EXPECT_EQ(replay.groups->form, form);
    const LcpMethod method = failing.settings().solver;
    EXPECT_NE(
        solve_grouped_contact(replay.problem, *replay.groups, method, options.lemke).lcp.status,
        LcpStatus::Solved);

    World reference(shipped_scene("egan_corner.json"));
    reference.settings().nonconvex = form;
    reference.step();
    const GroupedSolve solved = solve_grouped_contact(replay.problem, *replay.groups, method);
    ASSERT_EQ(solved.lcp.status, LcpStatus::Solved);
    const VecX v = contact_velocity(replay.problem, solved.lcp.z);
    // Every body of the island moves as one of the reference step's bodies does.
    for (int k = 0; k < replay.problem.num_bodies(); ++k) {
      bool found = false;
      for (const BodyState& s : reference.state().bodies) {
        found = found || (s.twist.linear == v.segment<3>(6 * k) &&
                          s.twist.angular == v.segment<3>(6 * k + 3));
      }
      EXPECT_TRUE(found) << "island body " << k << ": " << v.segment<6>(6 * k).transpose();
    }
  }
}

}  // namespace
}  // namespace pivot
