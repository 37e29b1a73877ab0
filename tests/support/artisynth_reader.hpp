// Reader for ArtiSynth's single-body contact test file (maspack/solvers/contactTest.txt,
// the cases Lloyd's own Java LemkeContactSolver is tested on), and the ContactProblem
// each case stands for. Test-only, for tests/external/.
#pragma once

#include <string>
#include <vector>

#include "pivot/lcp.hpp"

namespace pivot::external {

// The file is a script: `name=[ numbers ]` assignments set the current state and every
// `test` runs one case with the state as it stands. The keywords used by the shared file
// are read: pnts (contact points, world frame), nrms (contact normals, pointing into the
// body; normalised here as ArtiSynth does), fcoefs (mu per contact; none means 0), bpos
// (body position), wext (external wrench: force, moment), fdirs (friction direction
// counts to run each case with). Any other keyword is an error, not skipped.
struct ArtisynthContactCase {
  int line = 0;  // line of the `test` keyword
  std::vector<Vec3> points;
  std::vector<Vec3> normals;  // unit length
  std::vector<double> mu;
  Vec3 body_position = Vec3::Zero();
  Vec6 wrench = Vec6::Zero();  // (force, moment) about the body position
  std::vector<int> friction_directions;
};

// Throws std::runtime_error("<path>:<line>: <what>") on anything it cannot read.
std::vector<ArtisynthContactCase> read_artisynth_contact_test(const std::string& path);

// The contact problem of one case with d friction directions: one body with ArtiSynth's
// default inertia, SpatialInertia(1, 1, 1, 1) (unit mass, unit principal moments; the
// file sets none), k~_x = wext (ArtiSynth hands the applied wrench to the solver as it
// is: h = 1, v0 = 0), b = 0, and per contact the columns (n, r x n) and (t_j, r x t_j)
// with r = point - body position and t_j = cos(2 pi j/d) t1 + sin(2 pi j/d) t2 evenly
// spaced in the tangent plane.
ContactProblem artisynth_contact_problem(const ArtisynthContactCase& c, int d);

}  // namespace pivot::external
