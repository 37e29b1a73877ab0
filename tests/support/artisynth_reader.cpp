// The contactTest.txt script language, read the way ArtiSynth's LemkeContactSolverTest
// reads it: state persists from one `test` to the next.
#include "support/artisynth_reader.hpp"

#include <cctype>
#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace pivot::external {

namespace {

// Tokens of the script: words, numbers, and the single characters '=', '[' and ']';
// '#' starts a comment to the end of the line.
class Tokens {
 public:
  explicit Tokens(const std::string& path) : path_(path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error(path + ": cannot open");
    std::ostringstream text;
    text << in.rdbuf();
    text_ = text.str();
  }

  // The next token, or "" at the end.
  std::string next() {
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == '\n') ++line_;
      if (c == '#') {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else if (std::isspace(static_cast<unsigned char>(c))) {
        ++pos_;
      } else {
        break;
      }
    }
    if (pos_ >= text_.size()) return "";
    if (is_single(text_[pos_])) return std::string(1, text_[pos_++]);
    const size_t begin = pos_;
    while (pos_ < text_.size() && !std::isspace(static_cast<unsigned char>(text_[pos_])) &&
           !is_single(text_[pos_]) && text_[pos_] != '#') {
      ++pos_;
    }
    return text_.substr(begin, pos_ - begin);
  }

  [[noreturn]] void fail(const std::string& message) const {
    throw std::runtime_error(path_ + ":" + std::to_string(line_) + ": " + message);
  }

  int line() const { return line_; }

  // `= [ numbers ]` after a keyword.
  std::vector<double> bracketed_numbers() {
    expect("=");
    expect("[");
    std::vector<double> values;
    for (std::string token = next(); token != "]"; token = next()) {
      if (token.empty()) fail("expected ']', found end of file");
      size_t used = 0;
      double value = 0.0;
      try {
        value = std::stod(token, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != token.size()) fail("expected a number, found '" + token + "'");
      values.push_back(value);
    }
    return values;
  }

 private:
  static bool is_single(char c) { return c == '=' || c == '[' || c == ']'; }

  void expect(const char* token) {
    const std::string found = next();
    if (found != token) fail(std::string("expected '") + token + "', found '" + found + "'");
  }

  std::string path_;
  std::string text_;
  size_t pos_ = 0;
  int line_ = 1;
};

std::vector<Vec3> triples(Tokens& tokens, const std::vector<double>& values, const char* what) {
  if (values.size() % 3 != 0) tokens.fail(std::string(what) + " must hold x y z triples");
  std::vector<Vec3> out;
  for (size_t i = 0; i < values.size(); i += 3) {
    out.emplace_back(values[i], values[i + 1], values[i + 2]);
  }
  return out;
}

Vec3 single_triple(Tokens& tokens, const std::vector<double>& values, const char* what) {
  if (values.size() != 3) tokens.fail(std::string(what) + " must hold 3 numbers");
  return Vec3(values[0], values[1], values[2]);
}

}  // namespace

std::vector<ArtisynthContactCase> read_artisynth_contact_test(const std::string& path) {
  Tokens tokens(path);
  std::vector<ArtisynthContactCase> cases;
  ArtisynthContactCase state;
  for (std::string keyword = tokens.next(); !keyword.empty(); keyword = tokens.next()) {
    if (keyword == "test") {
      if (state.points.size() != state.normals.size()) {
        tokens.fail("pnts and nrms must have the same number of coordinates");
      }
      if (!state.mu.empty() && state.mu.size() != state.points.size()) {
        tokens.fail("number of fcoefs inconsistent with number of points");
      }
      if (state.friction_directions.empty()) tokens.fail("no fdirs before this test");
      ArtisynthContactCase c = state;
      c.line = tokens.line();
      if (c.mu.empty()) c.mu.assign(c.points.size(), 0.0);
      cases.push_back(c);
      continue;
    }
    const std::vector<double> values = tokens.bracketed_numbers();
    if (keyword == "pnts") {
      state.points = triples(tokens, values, "pnts");
    } else if (keyword == "nrms") {
      state.normals = triples(tokens, values, "nrms");
      for (Vec3& n : state.normals) {
        if (n.norm() == 0.0) tokens.fail("a normal of zero length");
        n.normalize();
      }
    } else if (keyword == "fcoefs") {
      state.mu = values;
    } else if (keyword == "bpos") {
      state.body_position = single_triple(tokens, values, "bpos");
    } else if (keyword == "wext") {
      if (values.size() != 6) tokens.fail("wext must hold 6 numbers (force, moment)");
      state.wrench = Eigen::Map<const Vec6>(values.data());
    } else if (keyword == "fdirs") {
      state.friction_directions.clear();
      for (double v : values) {
        if (v < 4 || v != std::floor(v) || static_cast<int>(v) % 2 != 0) {
          tokens.fail("friction direction counts must be even and >= 4");
        }
        state.friction_directions.push_back(static_cast<int>(v));
      }
    } else {
      tokens.fail("unsupported keyword '" + keyword + "'");
    }
  }
  return cases;
}

ContactProblem artisynth_contact_problem(const ArtisynthContactCase& c, int d) {
  constexpr double kPi = 3.14159265358979323846;
  ContactProblem p;
  p.d = d;
  p.mass = {Mat6::Identity()};
  p.kx = c.wrench;
  auto column = [](const Vec3& r, const Vec3& direction) {
    ContactColumn out;
    out.body[0] = 0;
    out.block[0] << direction, r.cross(direction);
    return out;
  };
  for (size_t i = 0; i < c.points.size(); ++i) {
    const Vec3 r = c.points[i] - c.body_position;
    const Vec3& n = c.normals[i];
    // t1: n crossed with the axis least aligned with it, so never near zero length.
    Eigen::Index least = 0;
    n.cwiseAbs().minCoeff(&least);
    const Vec3 t1 = n.cross(Vec3::Unit(least)).normalized();
    const Vec3 t2 = n.cross(t1);
    p.mu.push_back(c.mu[i]);
    p.b.push_back(0.0);
    p.normal.push_back(column(r, n));
    for (int j = 0; j < d; ++j) {
      const double angle = 2.0 * kPi * j / d;
      p.friction.push_back(column(r, std::cos(angle) * t1 + std::sin(angle) * t2));
    }
  }
  return p;
}

}  // namespace pivot::external
