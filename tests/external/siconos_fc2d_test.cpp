// Siconos' 2-D frictional contact problems (testdata/external/siconos-fc2d), from 2 to 667
// contacts, turned into the exact Stewart–Trinkle LCP (d = 2), solved by the standard
// Lemke method, and judged twice: by the acceptance rule and by Coulomb's law itself.
// The one file small enough to be written as a ContactProblem over pseudo-bodies (and
// principal sub-problems of three others) also goes through the structural and reduced
// methods.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "pivot/lcp.hpp"
#include "support/siconos_reader.hpp"

namespace pivot::external {
namespace {

const std::string kDir = std::string(PIVOT_TESTDATA_DIR) + "/external/siconos-fc2d/";

SiconosFrictionContact read(const std::string& name) {
  return read_siconos_friction_contact(kDir + name + ".dat");
}

// The local 2-D problem: u = W r + q, per contact c the rows 2c (normal) and 2c + 1
// (tangent), and Coulomb's law
//   0 <= u_N  perp  r_N >= 0,   |r_T| <= mu r_N,   u_T != 0  =>  r_T = -mu r_N sign(u_T).
// In 2-D the friction cone is exactly the polyhedral cone with d = 2 directions t and -t,
// so Stewart–Trinkle (Lloyd (3)-(5)) with r_T = phi+ - phi- (phi+, phi- >= 0), E = (1, 1)'
// and lambda the slip speed is not an approximation but the law itself:
//   w_theta  =  u_N                       >= 0  perp  theta  = r_N >= 0
//   w_phi+   =  u_T + lambda              >= 0  perp  phi+   >= 0
//   w_phi-   = -u_T + lambda              >= 0  perp  phi-   >= 0
//   w_lambda =  mu theta - phi+ - phi-    >= 0  perp  lambda >= 0
// If u_T > 0, w_phi+ > 0 so phi+ = 0, and w_phi- = 0 needs lambda = u_T > 0, so
// w_lambda = 0: r_T = -phi- = -mu r_N (and symmetrically for u_T < 0). If u_T = 0,
// |r_T| <= phi+ + phi- <= mu r_N. With P the map (theta, phi) -> r (r_N = theta,
// r_T = phi+ - phi-), u = W P x + q and the rows above read P'u, so the LCP is
//   M = [ P'W P   E~ ]     q = [ P'q ]     E~: a 1 from each phi row to its lambda
//       [ mu -E~'  0 ]         [  0  ]
// Variables are ordered as a ContactProblem orders them: theta (nc), phi (2nc, contact
// by contact: phi+, phi-), lambda (nc).
struct Lcp {
  MatX M;
  VecX q;
};

// Row of u and sign for LCP variable k < 3nc: theta_c -> (2c, +), phi+_c -> (2c+1, +),
// phi-_c -> (2c+1, -).
struct Row {
  int index;
  double sign;
};
Row row_of(int k, int nc) {
  if (k < nc) return {2 * k, 1.0};
  const int c = (k - nc) / 2;
  return {2 * c + 1, (k - nc) % 2 == 0 ? 1.0 : -1.0};
}

Lcp stewart_trinkle_lcp(const SiconosFrictionContact& fc) {
  const int nc = fc.num_contacts();
  const int n = 4 * nc;
  Lcp lcp{MatX::Zero(n, n), VecX::Zero(n)};
  for (int i = 0; i < 3 * nc; ++i) {
    const Row ri = row_of(i, nc);
    lcp.q(i) = ri.sign * fc.q(ri.index);
    for (int j = 0; j < 3 * nc; ++j) {
      const Row rj = row_of(j, nc);
      lcp.M(i, j) = ri.sign * rj.sign * fc.W(ri.index, rj.index);
    }
  }
  for (int c = 0; c < nc; ++c) {
    const int lambda = 3 * nc + c;
    for (int s = 0; s < 2; ++s) {
      lcp.M(nc + 2 * c + s, lambda) = 1.0;
      lcp.M(lambda, nc + 2 * c + s) = -1.0;
    }
    lcp.M(lambda, c) = fc.mu(c);
  }
  return lcp;
}

// What contact law (r_N, r_T, u_N, u_T) breaks, or nullptr; see coulomb_violation.
const char* broken_law(double rn, double rt, double un, double ut, double mu, double tol,
                       double sliding) {
  if (rn < -tol) return "pulls (r_N < 0)";
  if (un < -tol) return "penetrates (u_N < 0)";
  if (std::abs(rn * un) > tol) return "normal force on a separating contact";
  if (std::abs(rt) > mu * rn + tol) return "friction outside the cone";
  if (std::abs(ut) > sliding) {
    if (rt * ut > tol) return "friction does not oppose the slip";
    if (std::abs(rt) < mu * rn - tol) return "sliding below the cone's edge";
  }
  return nullptr;
}

// Coulomb's law on the reaction r = P x of an LCP solution z, with
// tol = 1e-8 max(1, |q|_inf) max(1, |z|_inf): a decade above the acceptance rule's 1e-9,
// since each law combines two LCP entries. A contact counts as sliding when
// |u_T| > 1e-6 max(1, |q|_inf), clearly away from rounding. Returns "" or what is broken.
std::string coulomb_violation(const SiconosFrictionContact& fc, const VecX& z) {
  const int nc = fc.num_contacts();
  VecX r(2 * nc);
  for (int c = 0; c < nc; ++c) {
    r(2 * c) = z(c);
    r(2 * c + 1) = z(nc + 2 * c) - z(nc + 2 * c + 1);
  }
  const VecX u = fc.W * r + fc.q;
  const double s = std::max(1.0, fc.q.lpNorm<Eigen::Infinity>());
  const double tol = 1e-8 * s * std::max(1.0, z.lpNorm<Eigen::Infinity>());
  for (int c = 0; c < nc; ++c) {
    const double rn = r(2 * c), rt = r(2 * c + 1), un = u(2 * c), ut = u(2 * c + 1);
    if (const char* law = broken_law(rn, rt, un, ut, fc.mu(c), tol, 1e-6 * s)) {
      std::ostringstream out;
      out << "contact " << c << " (r_N " << rn << ", r_T " << rt << ", u_N " << un << ", u_T " << ut
          << ", mu " << fc.mu(c) << "): " << law;
      return out.str();
    }
  }
  return "";
}

// The standard method costs O(n^2) per pivot and about n pivots: the three files with more
// than 1000 LCP variables take 2 to 20 s in Release, and 10 to 50 times that under
// AddressSanitizer. There they are left to the Release run (not instantiated, so no test
// is skipped and counted as passed); the six smaller files drive the same code under the
// sanitizer.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
constexpr int kLargestSanitizedLcp = 1000;

class Fc2dFile : public ::testing::TestWithParam<std::string> {};

TEST_P(Fc2dFile, StewartTrinkleLcpSolvesAndObeysCoulomb) {
  const SiconosFrictionContact fc = read(GetParam());
  ASSERT_EQ(fc.dimension, 2);
  const Lcp lcp = stewart_trinkle_lcp(fc);
  const LcpResult result = solve_lemke(lcp.M, lcp.q);
  ASSERT_EQ(result.status, LcpStatus::Solved)
      << to_string(result.status) << " after " << result.pivots << " pivots";
  EXPECT_TRUE(check_lcp_solution(lcp.M, lcp.q, result.z).accepted);
  EXPECT_EQ(coulomb_violation(fc, result.z), "");
  RecordProperty("pivots", result.pivots);
}

std::vector<std::string> fc2d_files() {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(kDir)) {
    names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// The files this build solves: all of them in Release, those with LCPs of at most
// kLargestSanitizedLcp variables under the sanitizer.
std::vector<std::string> solved_fc2d_files() {
  std::vector<std::string> names;
  for (const std::string& name : fc2d_files()) {
    if (!kSanitized || 4 * read(name).num_contacts() <= kLargestSanitizedLcp) {
      names.push_back(name);
    }
  }
  return names;
}

std::string file_name(const ::testing::TestParamInfo<std::string>& param) { return param.param; }

INSTANTIATE_TEST_SUITE_P(Files, Fc2dFile, ::testing::ValuesIn(solved_fc2d_files()), file_name);

TEST(SiconosFc2d, AllNineFilesArePresentAndThisBuildSolvesItsShare) {
  EXPECT_EQ(fc2d_files().size(), 9u);
  EXPECT_EQ(solved_fc2d_files().size(), kSanitized ? 6u : 9u);
}

TEST(SiconosFc2d, DenseDelassusMatrixIsColumnMajor) {
  // The slider-crank W is slightly asymmetric, so the storage order shows: each text line
  // of the file is a column.
  const SiconosFrictionContact fc = read("FC2D_SliderCrankLagrangian00000");
  ASSERT_EQ(fc.num_contacts(), 2);
  EXPECT_DOUBLE_EQ(fc.W(1, 0), -4.642665883420582986218506e+02);
  EXPECT_DOUBLE_EQ(fc.W(0, 1), -4.642662921766745967033785e+02);
  EXPECT_DOUBLE_EQ(fc.q(3), -8.407368208001527065675873e+00);
  EXPECT_EQ(fc.mu, VecX::Constant(2, 0.01));
}

TEST(SiconosFc2d, SparseBlockDelassusMatrixPlacesOffDiagonalBlocks) {
  // Block 7 of FrictionContactProblem00031 sits in block row 6, block column 10 (index1,
  // index2 of the file) and reads -0.1921399 -0.1180736 0.1180736 0.2588994 column-major.
  const SiconosFrictionContact fc = read("FrictionContactProblem00031");
  ASSERT_EQ(fc.num_contacts(), 11);
  EXPECT_DOUBLE_EQ(fc.W(12, 20), -1.921399e-01);
  EXPECT_DOUBLE_EQ(fc.W(13, 20), -1.180736e-01);
  EXPECT_DOUBLE_EQ(fc.W(12, 21), 1.180736e-01);
  EXPECT_DOUBLE_EQ(fc.W(13, 21), 2.588994e-01);
}

TEST(SiconosFc2d, CsparseDelassusMatrixHasItsListedEntries) {
  const SiconosFrictionContact fc = read("fc2d_granularflowonwall_00667_00000");
  ASSERT_EQ(fc.num_contacts(), 667);
  EXPECT_EQ(fc.W(0, 0), 856.713);
  EXPECT_EQ(fc.W(649, 0), -454.43);
  EXPECT_EQ(fc.W(648, 1), 454.43);
  EXPECT_EQ(fc.W(632, 1331), -396.423);
  EXPECT_EQ((fc.W.array() != 0.0).count(), 3822);  // nnz in the file's header
  EXPECT_EQ(fc.mu, VecX::Constant(667, 0.5));
}

// W = L L' (W symmetric positive definite) makes the problem a ContactProblem over
// unit-mass pseudo-bodies: the columns of C = L' (entries 0..i of row i of L) are
// Jacobian columns with C'C = W, and k = L^-1 q gives N'k = q_N, D'k = (q_T, -q_T).
// Each pseudo-body carries 6 of the 2nc entries, so a column stays within the
// ContactColumn's two bodies only while 2nc <= 12: at most six contacts.
std::optional<ContactProblem> as_contact_problem(const SiconosFrictionContact& fc) {
  const int nc = fc.num_contacts();
  const int size = 2 * nc;
  if (size > 12) return std::nullopt;
  if ((fc.W - fc.W.transpose()).cwiseAbs().maxCoeff() > 1e-12 * fc.W.cwiseAbs().maxCoeff()) {
    return std::nullopt;
  }
  const Eigen::LLT<MatX> llt(fc.W);
  if (llt.info() != Eigen::Success) return std::nullopt;
  const MatX C = llt.matrixU();
  const int m = (size + 5) / 6;
  ContactProblem p;
  p.d = 2;
  p.mass.assign(m, Mat6::Identity());
  p.kx = VecX::Zero(6 * m);
  p.kx.head(size) = llt.matrixL().solve(fc.q);
  auto column = [&](int i, double sign) {
    VecX full = VecX::Zero(6 * m);
    full.head(size) = sign * C.col(i);
    ContactColumn out;
    int slot = 0;
    for (int k = 0; k < m; ++k) {
      if (full.segment<6>(6 * k).isZero(0.0)) continue;
      out.body[slot] = k;
      out.block[slot++] = full.segment<6>(6 * k);
    }
    return out;
  };
  for (int c = 0; c < nc; ++c) {
    p.mu.push_back(fc.mu(c));
    p.b.push_back(0.0);
    p.normal.push_back(column(2 * c, 1.0));
    p.friction.push_back(column(2 * c + 1, 1.0));
    p.friction.push_back(column(2 * c + 1, -1.0));
  }
  return p;
}

// The first `count` contacts alone: a principal sub-problem (the other contacts' r held
// at zero), itself a valid local problem with an SPD W when the whole W is SPD.
SiconosFrictionContact first_contacts(const SiconosFrictionContact& fc, int count) {
  SiconosFrictionContact sub;
  sub.dimension = 2;
  sub.W = fc.W.topLeftCorner(2 * count, 2 * count);
  sub.q = fc.q.head(2 * count);
  sub.mu = fc.mu.head(count);
  return sub;
}

TEST(SiconosFc2d, PseudoBodyProblemsSolveWithAllThreeMethods) {
  // FrictionContactProblem00394 has six contacts and an SPD W; the other SPD files are
  // too large for the two-body columns, so their first six contacts stand in. The
  // slider-crank files (two contacts) have a singular, slightly asymmetric W: no L L'.
  struct Case {
    std::string name;
    SiconosFrictionContact fc;
  };
  std::vector<Case> cases = {{"FrictionContactProblem00394", read("FrictionContactProblem00394")}};
  for (const char* name : {"FrictionContactProblem00031", "FrictionContactProblem00071",
                           "FrictionContactProblem00374"}) {
    cases.push_back({std::string(name) + " (first 6 contacts)", first_contacts(read(name), 6)});
  }
  EXPECT_FALSE(as_contact_problem(read("FC2D_SliderCrankLagrangian00000")).has_value());
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const std::optional<ContactProblem> problem = as_contact_problem(c.fc);
    ASSERT_TRUE(problem.has_value());
    // The contact LCP of Lloyd (8) is the Stewart–Trinkle LCP above, up to rounding in
    // L L' (relative 1e-12 of |W|).
    const Lcp lcp = stewart_trinkle_lcp(c.fc);
    const DenseLcp dense = assemble_contact_lcp(*problem);
    const double scale = std::max(1.0, c.fc.W.cwiseAbs().maxCoeff());
    EXPECT_LE((dense.M - lcp.M).cwiseAbs().maxCoeff(), 1e-12 * scale);
    EXPECT_LE((dense.q - lcp.q).cwiseAbs().maxCoeff(), 1e-12 * scale);
    for (LcpMethod method : {LcpMethod::Standard, LcpMethod::Structural, LcpMethod::Reduced}) {
      SCOPED_TRACE(to_string(method));
      const LcpResult result = solve_contact(*problem, method);
      ASSERT_EQ(result.status, LcpStatus::Solved) << to_string(result.status);
      EXPECT_TRUE(check_contact_solution(*problem, result.z).accepted);
      EXPECT_EQ(coulomb_violation(c.fc, result.z), "");
    }
  }
}

}  // namespace
}  // namespace pivot::external
