#include "lcp/bordered_lu.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace pivot {
namespace {

// A keyed matrix as the reduced system is: each row and column is named by an id, and an
// entry depends only on the two ids. Rows and columns share their ids (as a pivot brings a
// variable's column and its complement's row in together), and 20 on the diagonal against
// uniform [-1, 1] off it keeps every such matrix of a hundred or so well conditioned, so
// a solve's error is round-off: eps times a small condition.
double entry_of(std::uint64_t row, std::uint64_t col) {
  if (row == col) return 20.0;
  std::uint64_t h = row * 0x9e3779b97f4a7c15ULL ^ (col + 0x632be59bd9b4e019ULL);
  h ^= h >> 29;
  h *= 0xbf58476d1ce4e5b9ULL;
  h ^= h >> 32;
  return static_cast<double>(h % 2000001) / 1e6 - 1.0;
}

struct Keyed {
  // Ids 0..n-1 for rows and columns alike.
  explicit Keyed(int n) {
    for (int id = 0; id < n; ++id) rows.push_back(static_cast<std::uint64_t>(id));
    cols = rows;
  }
  std::vector<std::uint64_t> rows, cols;
  MatX dense() const {
    const int r = static_cast<int>(rows.size());
    MatX A(r, r);
    for (int a = 0; a < r; ++a) {
      for (int b = 0; b < r; ++b) A(a, b) = entry_of(rows[a], cols[b]);
    }
    return A;
  }
};

// Factors the current matrix and checks the solve of a random right-hand side against a
// dense LU of the same matrix: x = y / scale.
void expect_solves(BorderedLu& lu, const Keyed& m, bool fresh, std::mt19937& rng, double* worst) {
  const int r = static_cast<int>(m.rows.size());
  const auto entry = [&](int a, int b) { return entry_of(m.rows[a], m.cols[b]); };
  ASSERT_TRUE(lu.factor(r, m.rows.data(), m.cols.data(), entry, 1e-12, fresh));
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  VecX b(r);
  for (int a = 0; a < r; ++a) b[a] = u(rng);
  std::vector<double> y(b.data(), b.data() + r), scale(r);
  lu.solve(y.data(), scale.data());
  VecX x(r);
  for (int a = 0; a < r; ++a) x[a] = y[a] / scale[a];
  const VecX expected = m.dense().partialPivLu().solve(b);
  *worst = std::max(*worst,
                    (x - expected).lpNorm<Eigen::Infinity>() / expected.lpNorm<Eigen::Infinity>());
}

TEST(BorderedLu, FollowsRowsAndColumnsThatComeAndGoAsAFreshFactorisationWould) {
  std::mt19937 rng(7);
  Keyed m(100);
  std::shuffle(m.cols.begin(), m.cols.end(), rng);  // a column's place is not its row's
  BorderedLu lu;
  lu.reset(200);
  double worst = 0.0;
  expect_solves(lu, m, true, rng, &worst);
  int bordered = 0, steps = 0;
  std::uint64_t next_id = 100;
  // Pivots: a variable leaves (its row and column go) and another comes in, new or one
  // that was in the base before (ids below 100 come back: their kept border entries left
  // that row and column out and must be formed again). Sometimes one only comes or goes.
  for (; steps < 400; ++steps) {
    const int kind = steps % 5;
    if (kind != 4 || m.rows.size() > 90) {
      const size_t gone = rng() % m.rows.size();
      const std::uint64_t id = m.rows[gone];
      m.rows.erase(m.rows.begin() + static_cast<long>(gone));
      m.cols.erase(std::find(m.cols.begin(), m.cols.end(), id));
    }
    if (kind != 3 || m.rows.size() < 70) {
      std::uint64_t id = next_id++;
      if (kind == 1) {
        // One of the base's ids that is out now, if any.
        for (std::uint64_t old = rng() % 100, tries = 0; tries < 100;
             ++tries, old = (old + 1) % 100) {
          if (std::find(m.rows.begin(), m.rows.end(), old) == m.rows.end()) {
            id = old;
            break;
          }
        }
      }
      m.rows.insert(m.rows.begin() + static_cast<long>(rng() % (m.rows.size() + 1)), id);
      m.cols.insert(m.cols.begin() + static_cast<long>(rng() % (m.cols.size() + 1)), id);
    }
    expect_solves(lu, m, false, rng, &worst);
    bordered += lu.last_fresh() ? 0 : 1;
  }
  // Round-off only: the matrices' condition is about 2, the border's solves add O(k) terms.
  EXPECT_LT(worst, 1e-12);
  // Most pivots went through the border; the base was refactorised when it grew past its
  // capacity (64 rows and columns: about 32 pivots of one in and one out each).
  EXPECT_GT(bordered, steps * 8 / 10);
  EXPECT_LT(bordered, steps);
}

TEST(BorderedLu, AFreshFactorisationIsAskedForAndSmallMatricesAlwaysGetOne) {
  std::mt19937 rng(3);
  Keyed m(80);
  BorderedLu lu;
  lu.reset(100);
  double worst = 0.0;
  expect_solves(lu, m, true, rng, &worst);
  m.rows.back() = m.cols.back() = 1000;
  expect_solves(lu, m, false, rng, &worst);
  EXPECT_FALSE(lu.last_fresh());
  expect_solves(lu, m, true, rng, &worst);
  EXPECT_TRUE(lu.last_fresh());
  lu.invalidate();
  m.rows.back() = m.cols.back() = 1001;
  expect_solves(lu, m, false, rng, &worst);
  EXPECT_TRUE(lu.last_fresh());
  // Below 64 rows every factorisation is fresh (the stacks' arithmetic, to the bit).
  m.rows.resize(40);
  m.cols = m.rows;
  expect_solves(lu, m, true, rng, &worst);
  m.rows.back() = m.cols.back() = 1002;
  expect_solves(lu, m, false, rng, &worst);
  EXPECT_TRUE(lu.last_fresh());
  EXPECT_LT(worst, 1e-12);
}

// A caller that asks (reset's border_small, the standard method's factorised run) has small
// bases bordered too, with a border of at most a third of the base: a variable of the base
// out (the oldest) and a new one in adds two to it (a new column, and a slack for the row
// that left), so a base of 30 takes five such pivots through the border and the sixth
// afresh. Without the request the same pivots are all fresh.
TEST(BorderedLu, SmallBasesAreBorderedWhenAskedWithABorderOfAThirdOfTheBase) {
  for (const bool border_small : {false, true}) {
    std::mt19937 rng(11);
    Keyed m(30);
    BorderedLu lu;
    lu.reset(40, border_small);
    double worst = 0.0;
    expect_solves(lu, m, true, rng, &worst);
    std::vector<char> fresh;
    for (std::uint64_t id = 100; id < 124; ++id) {
      const auto gone = std::min_element(m.rows.begin(), m.rows.end());
      const std::uint64_t out = *gone;
      m.rows.erase(gone);
      m.cols.erase(std::find(m.cols.begin(), m.cols.end(), out));
      m.rows.insert(m.rows.begin() + static_cast<long>(rng() % (m.rows.size() + 1)), id);
      m.cols.insert(m.cols.begin() + static_cast<long>(rng() % (m.cols.size() + 1)), id);
      expect_solves(lu, m, false, rng, &worst);
      fresh.push_back(lu.last_fresh());
    }
    EXPECT_LT(worst, 1e-12) << border_small;
    const std::vector<char> every_sixth = {0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1,
                                           0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1};
    EXPECT_EQ(fresh, border_small ? every_sixth : std::vector<char>(24, 1)) << border_small;
  }
}

// Below 64 rows a fresh factorisation takes the previous one's entries by key and forms
// only the new row's and column's, with the same result as forming them all; invalidate()
// (the covering entries changed) and reset() (another problem) make it form every entry.
TEST(BorderedLu, ASmallFreshFactorisationFormsOnlyTheNewRowAndColumn) {
  std::mt19937 rng(11);
  Keyed m(30);
  std::shuffle(m.cols.begin(), m.cols.end(), rng);
  BorderedLu lu;
  lu.reset(40);
  int formed = 0;
  auto factor_counting = [&](bool fresh) {
    formed = 0;
    const auto entry = [&](int a, int b) {
      ++formed;
      return entry_of(m.rows[a], m.cols[b]);
    };
    return lu.factor(30, m.rows.data(), m.cols.data(), entry, 1e-12, fresh);
  };
  ASSERT_TRUE(factor_counting(true));
  EXPECT_EQ(formed, 30 * 30);
  // A pivot: id 7 leaves, id 100 comes in at other places in the rows and the columns.
  const auto row7 = std::find(m.rows.begin(), m.rows.end(), 7u);
  m.rows.erase(row7);
  m.rows.insert(m.rows.begin() + 3, 100u);
  m.cols.erase(std::find(m.cols.begin(), m.cols.end(), 7u));
  m.cols.insert(m.cols.begin() + 17, 100u);
  ASSERT_TRUE(factor_counting(false));
  EXPECT_TRUE(lu.last_fresh());
  EXPECT_EQ(formed, 2 * 30 - 1);  // the new row and the new column
  // The solve is a fresh factorisation's of the whole matrix, to the bit.
  BorderedLu whole;
  whole.reset(40);
  const auto entry = [&](int a, int b) { return entry_of(m.rows[a], m.cols[b]); };
  ASSERT_TRUE(whole.factor(30, m.rows.data(), m.cols.data(), entry, 1e-12, true));
  std::vector<double> y(30), y_whole(30), scale(30), scale_whole(30);
  for (int a = 0; a < 30; ++a) y[a] = y_whole[a] = std::sin(a + 1.0);
  lu.solve(y.data(), scale.data());
  whole.solve(y_whole.data(), scale_whole.data());
  EXPECT_EQ(y, y_whole);
  EXPECT_EQ(scale, scale_whole);
  lu.invalidate();
  ASSERT_TRUE(factor_counting(false));
  EXPECT_EQ(formed, 30 * 30);
  lu.reset(40);
  ASSERT_TRUE(factor_counting(false));
  EXPECT_EQ(formed, 30 * 30);
}

TEST(BorderedLu, ASingularMatrixReachedThroughTheBorderIsRefused) {
  std::mt19937 rng(5);
  Keyed m(80);
  BorderedLu lu;
  lu.reset(100);
  double worst = 0.0;
  expect_solves(lu, m, true, rng, &worst);
  // A new column under its own name with the entries of column 0: the matrix is singular,
  // and no factorisation may say otherwise.
  m.cols[5] = 5000;
  const int r = static_cast<int>(m.rows.size());
  const auto entry = [&](int a, int b) {
    return entry_of(m.rows[a], b == 5 ? m.cols[0] : m.cols[b]);
  };
  EXPECT_FALSE(lu.factor(r, m.rows.data(), m.cols.data(), entry, 1e-12, false));
}

}  // namespace
}  // namespace pivot
