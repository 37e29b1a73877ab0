// Reader and writer for the problem files of shared/formats/problem-files.md. The reader
// is strict: every count, keyword and number is checked where it stands, and the first
// mismatch is reported with the line of the offending token. Counts are checked against
// fixed limits and against what the rest of the file can hold before anything is
// allocated, so a hostile header cannot ask for gigabytes.
#include "pivot/problem_file.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "pivot/error.hpp"

namespace pivot {

namespace {

struct Token {
  std::string_view text;
  int line = 0;
};

// Whitespace-separated tokens with `#` comments to the end of the line; tracks the
// 1-based line of every token.
class Scanner {
 public:
  Scanner(std::string_view text, const std::string& name) : text_(text), name_(&name) {
    for (char c : text_) {
      if (c == '\n') ++newlines_;
    }
  }

  // The next token without consuming it; nullopt at the end of the text.
  std::optional<Token> peek() {
    skip_space_and_comments();
    if (pos_ >= text_.size()) return std::nullopt;
    size_t end = pos_;
    while (end < text_.size() && !is_space(text_[end]) && text_[end] != '#') ++end;
    return Token{text_.substr(pos_, end - pos_), line_};
  }

  std::optional<Token> next() {
    std::optional<Token> token = peek();
    if (token) pos_ += token->text.size();
    return token;
  }

  // Bytes from the next token to the end: every number still to come lives in them.
  size_t remaining_bytes() {
    skip_space_and_comments();
    return text_.size() - pos_;
  }

  // The line an unexpected end of file is reported on: the file's last line (a final
  // newline ends that line rather than starting another).
  int last_line() const {
    const bool ends_with_newline = !text_.empty() && text_.back() == '\n';
    return std::max(1, 1 + newlines_ - (ends_with_newline ? 1 : 0));
  }

  [[noreturn]] void fail(int line, const std::string& message) const {
    throw InputError(*name_, line, 0, message);
  }

  // Where a problem with `token` is reported: its line, or the last line at end of file.
  int line_of(const std::optional<Token>& token) const { return token ? token->line : last_line(); }

 private:
  static bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
  }

  void skip_space_and_comments() {
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == '\n') {
        ++line_;
        ++pos_;
      } else if (is_space(c)) {
        ++pos_;
      } else if (c == '#') {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else {
        break;
      }
    }
  }

  std::string_view text_;
  const std::string* name_;
  size_t pos_ = 0;
  int line_ = 1;
  int newlines_ = 0;
};

// How a token reads in a message: quoted, shortened, non-printable bytes shown as '?'.
std::string describe(const std::optional<Token>& token) {
  if (!token) return "end of file";
  constexpr size_t kShown = 40;
  std::string out = "'";
  for (size_t i = 0; i < std::min(token->text.size(), kShown); ++i) {
    const unsigned char c = static_cast<unsigned char>(token->text[i]);
    out += (c >= 0x20 && c < 0x7f) ? static_cast<char>(c) : '?';
  }
  if (token->text.size() > kShown) out += "...";
  return out + "'";
}

enum class NumberKind { Valid, Malformed, NotANumber };

// A decimal number as strtod reads it, the whole token, finite. Tokens that start like a
// number (digit, sign, point) or that strtod would take (nan, inf, hex) but fail these
// rules are Malformed; anything else, e.g. a keyword, is NotANumber.
NumberKind parse_number(std::string_view text, double* value) {
  const std::string token(text);
  const bool decimal_chars = std::all_of(token.begin(), token.end(), [](char c) {
    return (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.' || c == 'e' || c == 'E';
  });
  char* end = nullptr;
  errno = 0;
  const double parsed = std::strtod(token.c_str(), &end);
  const bool whole = end == token.c_str() + token.size() && !token.empty();
  if (decimal_chars && whole && std::isfinite(parsed)) {
    *value = parsed;
    return NumberKind::Valid;
  }
  const char first = token.empty() ? ' ' : token[0];
  const bool numeric_start =
      (first >= '0' && first <= '9') || first == '+' || first == '-' || first == '.';
  return (numeric_start || end != token.c_str()) ? NumberKind::Malformed : NumberKind::NotANumber;
}

// Reads exactly `count` numbers into out[0..count). `what` names the block in messages,
// e.g. "'mass' (body 1)". Too few (a keyword or the end comes early), a malformed number,
// and too many (more numbers before the next keyword) are all errors.
void read_numbers(Scanner& scanner, long long count, const std::string& what, double* out) {
  const std::string expected =
      "expected " + std::to_string(count) + " number" + (count == 1 ? "" : "s") + " after " + what;
  for (long long i = 0; i < count; ++i) {
    const std::optional<Token> token = scanner.peek();
    if (!token) scanner.fail(scanner.last_line(), expected + ", found " + std::to_string(i));
    switch (parse_number(token->text, &out[i])) {
      case NumberKind::Valid:
        scanner.next();
        break;
      case NumberKind::Malformed:
        scanner.fail(token->line, "expected a finite decimal number as number " +
                                      std::to_string(i + 1) + " of " + std::to_string(count) +
                                      " after " + what + ", found " + describe(token));
      case NumberKind::NotANumber:
        scanner.fail(token->line, expected + ", found " + std::to_string(i));
    }
  }
  const std::optional<Token> extra = scanner.peek();
  double ignored = 0.0;
  if (extra && parse_number(extra->text, &ignored) == NumberKind::Valid) {
    Scanner ahead = scanner;
    long long found = count;
    for (std::optional<Token> t = ahead.next(); t; t = ahead.next()) {
      if (parse_number(t->text, &ignored) != NumberKind::Valid) break;
      ++found;
    }
    scanner.fail(extra->line, expected + ", found " + std::to_string(found));
  }
}

// Consumes `keyword` or fails naming what came instead; returns the keyword's line.
int expect_keyword(Scanner& scanner, const char* keyword, const std::string& context = "") {
  const std::optional<Token> token = scanner.next();
  if (!token || token->text != keyword) {
    scanner.fail(scanner.line_of(token), std::string("expected keyword '") + keyword + "'" +
                                             context + ", found " + describe(token));
  }
  return token->line;
}

// An integer count in [min_value, max_value] after `keyword` (`name` is the symbol the
// limits are stated for). Counts too large for a long long are reported as over the limit.
long long read_count(Scanner& scanner, const char* keyword, const char* name, long long min_value,
                     long long max_value, int* line = nullptr) {
  const std::optional<Token> token = scanner.next();
  const std::string after = std::string(" after '") + keyword + "'";
  if (!token) scanner.fail(scanner.last_line(), "expected a count" + after + ", found end of file");
  const std::string text(token->text);
  const size_t digits_from = (text[0] == '-' || text[0] == '+') ? 1 : 0;
  const bool integer = text.size() > digits_from &&
                       std::all_of(text.begin() + static_cast<long>(digits_from), text.end(),
                                   [](char c) { return c >= '0' && c <= '9'; });
  if (!integer) {
    scanner.fail(token->line, "expected an integer count" + after + ", found " + describe(token));
  }
  errno = 0;
  long long value = std::strtoll(text.c_str(), nullptr, 10);
  if (errno == ERANGE) value = text[0] == '-' ? min_value - 1 : max_value + 1;
  if (value < min_value) {
    scanner.fail(token->line, std::string("expected ") + name + " >= " + std::to_string(min_value) +
                                  after + ", found " + text);
  }
  if (value > max_value) {
    scanner.fail(token->line, std::string("expected ") + name + " <= " + std::to_string(max_value) +
                                  after + " (the reader's limit), found " + text);
  }
  if (line) *line = token->line;
  return value;
}

// Refuses a header whose counts need more numbers than the rest of the file can hold
// (each number is at least one character plus one separator), before allocating. Up to
// 2^20 numbers (a few megabytes) are trusted, so that a file cut short below that is
// reported where it ends, with what is missing there.
void check_room(Scanner& scanner, int line, const std::string& counts, long long numbers) {
  constexpr long long kTrustedNumbers = 1 << 20;
  const long long room = (static_cast<long long>(scanner.remaining_bytes()) + 1) / 2;
  if (numbers > kTrustedNumbers && numbers > room) {
    scanner.fail(line, counts + " needs " + std::to_string(numbers) + " numbers, more than the " +
                           std::to_string(room) + " the rest of the file can hold");
  }
}

// After the last required block: an optional `solution` of `size` numbers, then the end.
std::optional<VecX> read_optional_solution(Scanner& scanner, long long size,
                                           const char* last_block) {
  std::optional<Token> token = scanner.next();
  if (!token) return std::nullopt;
  if (token->text != "solution") {
    scanner.fail(token->line, std::string("expected keyword 'solution' or end of file after ") +
                                  last_block + ", found " + describe(token));
  }
  VecX solution(size);
  read_numbers(scanner, size, "'solution'", solution.data());
  token = scanner.next();
  if (token) {
    scanner.fail(token->line, "expected end of file after 'solution', found " + describe(token));
  }
  return solution;
}

// The format version after the header: 1, or up to `newest`.
int read_version(Scanner& scanner, const char* format, int newest = 1) {
  const std::optional<Token> token = scanner.next();
  for (int version = 1; version <= newest; ++version) {
    if (token && token->text == std::to_string(version)) return version;
  }
  const std::string versions = newest == 1 ? "1" : "1 to " + std::to_string(newest);
  scanner.fail(scanner.line_of(token), "expected format version " + versions + " after '" + format +
                                           "', found " + describe(token));
}

// A plane index of a group: an integer in [0, n), not in any group yet.
int read_plane_index(Scanner& scanner, long long n, const std::string& where,
                     std::vector<int>* group_of, int group) {
  const std::optional<Token> token = scanner.next();
  const std::string text = token ? std::string(token->text) : std::string();
  const bool digits =
      !text.empty() && text.size() <= 9 &&
      std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
  const long long index = digits ? std::stoll(text) : -1;
  if (index < 0 || index >= n) {
    scanner.fail(scanner.line_of(token), "expected a plane index in 0.." + std::to_string(n - 1) +
                                             " (" + where + "), found " + describe(token));
  }
  if ((*group_of)[index] >= 0) {
    scanner.fail(token->line, "plane " + text + " (" + where + ") is already in group " +
                                  std::to_string((*group_of)[index]));
  }
  (*group_of)[index] = group;
  return static_cast<int>(index);
}

// `pivot-contact 2`: the optional groups block after the contacts,
//   groups <count> max|sum <gamma | epsilon/h>
//   group <sides> <plane> ...        (count times)
std::optional<PlaneGroups> read_optional_groups(Scanner& scanner, long long n) {
  const std::optional<Token> token = scanner.peek();
  if (!token || token->text != "groups") return std::nullopt;
  scanner.next();
  int count_line = 0;
  const long long count = read_count(scanner, "groups", "the number of groups", 1,
                                     ProblemFileLimits::max_contacts, &count_line);
  if (count > n) {
    scanner.fail(count_line, "expected at most one group per contact (" + std::to_string(n) +
                                 ") after 'groups', found " + std::to_string(count));
  }
  PlaneGroups groups;
  const std::optional<Token> form = scanner.next();
  if (form && form->text == "max") {
    groups.form = NonconvexFormulation::Max;
  } else if (form && form->text == "sum") {
    groups.form = NonconvexFormulation::Sum;
  } else {
    scanner.fail(scanner.line_of(form),
                 "expected 'max' or 'sum' after the number of groups, found " + describe(form));
  }
  const std::optional<Token> value = scanner.peek();
  const bool max = groups.form == NonconvexFormulation::Max;
  read_numbers(scanner, 1, max ? "'max' (gamma)" : "'sum' (epsilon/h)", &groups.parameter);
  if (max ? !(groups.parameter > 1.0) : !(groups.parameter > 0.0)) {
    scanner.fail(value->line, std::string("expected ") + (max ? "gamma > 1" : "epsilon/h > 0") +
                                  " after '" + std::string(form->text) + "', found " +
                                  describe(value));
  }
  std::vector<int> group_of(n, -1);
  groups.groups.resize(count);
  for (long long G = 0; G < count; ++G) {
    const std::string group = "group " + std::to_string(G);
    expect_keyword(scanner, "group", " (" + group + ")");
    const long long sides = read_count(scanner, "group", "sides", 1, kMaxGroupSides);
    for (long long k = 0; k < sides; ++k) {
      groups.groups[G].push_back(read_plane_index(
          scanner, n, group + ", side " + std::to_string(k + 1) + " of " + std::to_string(sides),
          &group_of, static_cast<int>(G)));
    }
  }
  return groups;
}

LcpProblemFile read_lcp(Scanner& scanner) {
  read_version(scanner, "pivot-lcp");
  expect_keyword(scanner, "n");
  int n_line = 0;
  const long long n = read_count(scanner, "n", "n", 0, ProblemFileLimits::max_lcp_size, &n_line);
  check_room(scanner, n_line, "n = " + std::to_string(n), n * n + n);
  LcpProblemFile file;
  expect_keyword(scanner, "M");
  // The file is row-major; Eigen's default storage is column-major.
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> M(n, n);
  read_numbers(scanner, n * n, "'M'", M.data());
  file.M = M;
  expect_keyword(scanner, "q");
  file.q.resize(n);
  read_numbers(scanner, n, "'q'", file.q.data());
  file.solution = read_optional_solution(scanner, n, "'q'");
  return file;
}

// The test normalize_contacts applies before factoring, so that the reader accepts
// exactly the mass matrices the solvers accept.
const char* mass_matrix_defect(const Mat6& M) {
  const double scale = std::max(1.0, M.cwiseAbs().maxCoeff());
  if ((M - M.transpose()).cwiseAbs().maxCoeff() > 1e-12 * scale) return "not symmetric";
  const Eigen::LLT<Mat6> llt(M);
  if (llt.info() != Eigen::Success ||
      llt.matrixL().toDenseMatrix().diagonal().minCoeff() <= 1e-12 * std::sqrt(scale)) {
    return "not positive definite";
  }
  return nullptr;
}

// A full 6m column from the file as the <= 2-body ContactColumn the solvers use.
ContactColumn to_contact_column(Scanner& scanner, int line, const std::vector<double>& values,
                                const std::string& what) {
  std::vector<int> touched;
  for (size_t k = 0; 6 * k < values.size(); ++k) {
    const bool nonzero = std::any_of(values.begin() + static_cast<long>(6 * k),
                                     values.begin() + static_cast<long>(6 * k + 6),
                                     [](double v) { return v != 0.0; });
    if (nonzero) touched.push_back(static_cast<int>(k));
  }
  if (touched.size() > 2) {
    std::string bodies;
    for (size_t i = 0; i < std::min<size_t>(touched.size(), 4); ++i) {
      bodies += (i ? ", " : "") + std::to_string(touched[i]);
    }
    if (touched.size() > 4) bodies += ", ...";
    scanner.fail(line, "expected a column touching at most 2 bodies after " + what +
                           ", found one touching " + std::to_string(touched.size()) + " (bodies " +
                           bodies + ")");
  }
  ContactColumn column;
  for (size_t s = 0; s < touched.size(); ++s) {
    column.body[s] = touched[s];
    column.block[s] = Eigen::Map<const Vec6>(values.data() + 6 * touched[s]);
  }
  return column;
}

ContactProblemFile read_contact(Scanner& scanner) {
  const int version = read_version(scanner, "pivot-contact", 2);
  expect_keyword(scanner, "bodies");
  int m_line = 0;
  const long long m = read_count(scanner, "bodies", "m", 1, ProblemFileLimits::max_bodies, &m_line);
  check_room(scanner, m_line, "bodies = " + std::to_string(m), 42 * m);

  ContactProblemFile file;
  ContactProblem& p = file.problem;
  p.mass.resize(m);
  for (long long k = 0; k < m; ++k) {
    const std::string body = " (body " + std::to_string(k) + ")";
    const int line = expect_keyword(scanner, "mass", body);
    Eigen::Matrix<double, 6, 6, Eigen::RowMajor> M;
    read_numbers(scanner, 36, "'mass'" + body, M.data());
    p.mass[k] = M;
    if (const char* defect = mass_matrix_defect(p.mass[k])) {
      scanner.fail(line, "expected a symmetric positive definite mass matrix" + body +
                             ", found one that is " + defect);
    }
  }
  expect_keyword(scanner, "kx");
  p.kx.resize(6 * m);
  read_numbers(scanner, 6 * m, "'kx'", p.kx.data());

  expect_keyword(scanner, "contacts");
  int n_line = 0;
  const long long n =
      read_count(scanner, "contacts", "n", 0, ProblemFileLimits::max_contacts, &n_line);
  const long long d = read_count(scanner, "contacts", "friction directions d",
                                 kMinFrictionDirections, kMaxFrictionDirections);
  check_room(scanner, n_line,
             "contacts = " + std::to_string(n) + ", d = " + std::to_string(d) +
                 ", bodies = " + std::to_string(m),
             n * (2 + (1 + d) * 6 * m));
  p.d = static_cast<int>(d);
  p.mu.resize(n);
  p.b.resize(n);
  p.normal.reserve(n);
  p.friction.reserve(n * d);
  std::vector<double> column(6 * m);
  for (long long i = 0; i < n; ++i) {
    const std::string contact = "contact " + std::to_string(i);
    expect_keyword(scanner, "contact", " (" + contact + ")");
    const std::optional<Token> mu_token = scanner.peek();
    double mu_b[2];
    read_numbers(scanner, 2, "'contact' (" + contact + ")", mu_b);
    if (mu_b[0] < 0.0) {
      scanner.fail(mu_token->line, "expected friction coefficient mu >= 0 (" + contact +
                                       "), found " + describe(mu_token));
    }
    p.mu[i] = mu_b[0];
    p.b[i] = mu_b[1];
    const std::string normal_what = "'n' (" + contact + ")";
    const int n_col_line = expect_keyword(scanner, "n", " (" + contact + ")");
    read_numbers(scanner, 6 * m, normal_what, column.data());
    p.normal.push_back(to_contact_column(scanner, n_col_line, column, normal_what));
    for (long long j = 0; j < d; ++j) {
      const std::string direction =
          contact + ", direction " + std::to_string(j + 1) + " of " + std::to_string(d);
      const std::string t_what = "'t' (" + direction + ")";
      const int t_line = expect_keyword(scanner, "t", " (" + direction + ")");
      read_numbers(scanner, 6 * m, t_what, column.data());
      p.friction.push_back(to_contact_column(scanner, t_line, column, t_what));
    }
  }
  const char* last_block = n > 0 ? "the last contact" : "'contacts'";
  if (version >= 2) {
    file.groups = read_optional_groups(scanner, n);
    // Its acceptance needs the formulation's artificial variables, which plane impulses
    // alone do not give: a grouped file ends with its groups.
    if (const std::optional<Token> next = scanner.peek(); file.groups && next) {
      scanner.fail(next->line, "expected end of file after the last group, found " +
                                   describe(next) + " (a grouped problem has no solution block)");
    }
  } else if (const std::optional<Token> next = scanner.peek(); next && next->text == "groups") {
    scanner.fail(next->line, std::string("expected keyword 'solution' or end of file after ") +
                                 last_block + ", found 'groups' (groups need 'pivot-contact 2')");
  }
  file.solution = read_optional_solution(scanner, n * (2 + d), last_block);
  return file;
}

}  // namespace

ProblemFile parse_problem_file(const std::string& text, const std::string& name) {
  Scanner scanner(text, name);
  const std::optional<Token> header = scanner.next();
  if (header && header->text == "pivot-lcp") return read_lcp(scanner);
  if (header && header->text == "pivot-contact") return read_contact(scanner);
  scanner.fail(scanner.line_of(header),
               "expected 'pivot-lcp' or 'pivot-contact', found " + describe(header));
}

ProblemFile read_problem_file(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw InputError(path, 0, 0, std::string("cannot open: ") + std::strerror(errno));
  std::string text;
  char buffer[1 << 16];
  size_t got = 0;
  while ((got = std::fread(buffer, 1, sizeof buffer, f)) > 0) text.append(buffer, got);
  const bool failed = std::ferror(f) != 0;
  const int error = errno;
  std::fclose(f);
  if (failed) throw InputError(path, 0, 0, std::string("cannot read: ") + std::strerror(error));
  return parse_problem_file(text, path);
}

// ---- writer ----------------------------------------------------------------------------

namespace {

// The shortest of %.15g, %.16g, %.17g that reads back as the same double (%.17g always
// does), so 0.3 is written as 0.3 and every value round-trips exactly.
void append_number(std::string* out, double value) {
  char buffer[32];
  for (int digits = 15; digits <= 17; ++digits) {
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, value);
    if (std::strtod(buffer, nullptr) == value) break;
  }
  *out += buffer;
}

// `values` on one line after `keyword`, or, for long blocks, `per_line` to a line below it.
void append_block(std::string* out, const char* keyword, const double* values, long long count,
                  long long per_line) {
  *out += keyword;
  const bool wrap = count > per_line;
  for (long long i = 0; i < count; ++i) {
    *out += (wrap && i % per_line == 0) ? "\n  " : " ";
    append_number(out, values[i]);
  }
  *out += '\n';
}

void require_finite(const double* values, long long count, const std::string& what) {
  for (long long i = 0; i < count; ++i) {
    if (!std::isfinite(values[i])) {
      throw std::invalid_argument(what + " has a non-finite entry at index " + std::to_string(i));
    }
  }
}

// A ContactColumn as the full 6m vector of the file (both slots add, so a column that
// names one body twice is written as their sum).
VecX full_column(const ContactColumn& c, int num_bodies, const std::string& what) {
  VecX v = VecX::Zero(6 * num_bodies);
  for (int s = 0; s < 2; ++s) {
    if (c.body[s] < 0) continue;
    if (c.body[s] >= num_bodies) {
      throw std::invalid_argument(what + " refers to body " + std::to_string(c.body[s]) + " of " +
                                  std::to_string(num_bodies));
    }
    v.segment<6>(6 * c.body[s]) += c.block[s];
  }
  require_finite(v.data(), v.size(), what);
  return v;
}

// What the reader would refuse in a groups block, refused before writing.
void check_groups(const PlaneGroups& g, int n) {
  if (g.form == NonconvexFormulation::Off) {
    throw std::invalid_argument("groups: the formulation must be max or sum, got off");
  }
  const bool max = g.form == NonconvexFormulation::Max;
  if (max ? !(g.parameter > 1.0) : !(g.parameter > 0.0) || !std::isfinite(g.parameter)) {
    throw std::invalid_argument(std::string("groups: ") +
                                (max ? "gamma must be > 1" : "epsilon/h must be > 0"));
  }
  if (g.groups.empty()) throw std::invalid_argument("groups: at least one group");
  std::vector<char> seen(n, 0);
  for (const std::vector<int>& group : g.groups) {
    if (group.empty() || static_cast<int>(group.size()) > kMaxGroupSides) {
      throw std::invalid_argument("groups: a group has 1 to " + std::to_string(kMaxGroupSides) +
                                  " sides, got " + std::to_string(group.size()));
    }
    for (const int plane : group) {
      if (plane < 0 || plane >= n || seen[plane]) {
        throw std::invalid_argument("groups: plane " + std::to_string(plane) +
                                    " is out of range or in two groups");
      }
      seen[plane] = 1;
    }
  }
}

void write_text(const std::string& path, const std::string& text) {
  const std::string temp = path + ".tmp";
  std::FILE* f = std::fopen(temp.c_str(), "wb");
  if (!f) {
    throw std::runtime_error(path + ": cannot write " + temp + ": " + std::strerror(errno));
  }
  const bool written = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  const int write_error = errno;
  const bool closed = std::fclose(f) == 0;
  if (!written || !closed) {
    const int error = written ? errno : write_error;
    std::remove(temp.c_str());
    throw std::runtime_error(path + ": cannot write " + temp + ": " + std::strerror(error));
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    const int error = errno;
    std::remove(temp.c_str());
    throw std::runtime_error(path + ": cannot rename " + temp + " to it: " + std::strerror(error));
  }
}

}  // namespace

void write_lcp_problem(const std::string& path, const LcpProblemFile& file) {
  const long long n = file.q.size();
  if (file.M.rows() != n || file.M.cols() != n) {
    throw std::invalid_argument("M must be " + std::to_string(n) + " x " + std::to_string(n) +
                                " to match q");
  }
  if (file.solution && file.solution->size() != n) {
    throw std::invalid_argument("solution must have " + std::to_string(n) + " entries");
  }
  const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> M = file.M;
  require_finite(M.data(), n * n, "M");
  require_finite(file.q.data(), n, "q");
  std::string out = "pivot-lcp 1\nn " + std::to_string(n) + "\nM";
  for (long long i = 0; i < n; ++i) {
    out += "\n ";
    for (long long j = 0; j < n; ++j) {
      out += ' ';
      append_number(&out, M(i, j));
    }
  }
  out += '\n';
  append_block(&out, "q", file.q.data(), n, 8);
  if (file.solution) {
    require_finite(file.solution->data(), n, "solution");
    append_block(&out, "solution", file.solution->data(), n, 8);
  }
  write_text(path, out);
}

void write_contact_problem(const std::string& path, const ContactProblemFile& file) {
  const ContactProblem& p = file.problem;
  const int m = p.num_bodies();
  const int n = p.num_contacts();
  if (m < 1) throw std::invalid_argument("a contact problem needs at least one body");
  if (!valid_friction_directions(p.d)) {
    throw std::invalid_argument("d must be in [" + std::to_string(kMinFrictionDirections) + ", " +
                                std::to_string(kMaxFrictionDirections) + "], got " +
                                std::to_string(p.d));
  }
  if (p.kx.size() != 6 * m) throw std::invalid_argument("kx must have 6m entries");
  if (static_cast<int>(p.mu.size()) != n || static_cast<int>(p.b.size()) != n ||
      static_cast<long long>(p.friction.size()) != static_cast<long long>(n) * p.d) {
    throw std::invalid_argument("contact problem sizes disagree (mu, b, friction vs normal)");
  }
  if (file.solution && file.solution->size() != p.lcp_size()) {
    throw std::invalid_argument("solution must have " + std::to_string(p.lcp_size()) + " entries");
  }
  if (file.groups) {
    check_groups(*file.groups, n);
    if (file.solution) throw std::invalid_argument("a grouped problem has no solution block");
  }
  std::string out = std::string("pivot-contact ") + (file.groups ? "2" : "1") + "\nbodies " +
                    std::to_string(m) + "\n";
  for (int k = 0; k < m; ++k) {
    const Eigen::Matrix<double, 6, 6, Eigen::RowMajor> M = p.mass[k];
    require_finite(M.data(), 36, "mass of body " + std::to_string(k));
    append_block(&out, "mass", M.data(), 36, 6);
  }
  require_finite(p.kx.data(), p.kx.size(), "kx");
  append_block(&out, "kx", p.kx.data(), p.kx.size(), 6);
  out += "contacts " + std::to_string(n) + " " + std::to_string(p.d) + "\n";
  for (int i = 0; i < n; ++i) {
    const std::string contact = "contact " + std::to_string(i);
    const double mu_b[2] = {p.mu[i], p.b[i]};
    require_finite(mu_b, 2, contact + " (mu, b)");
    if (p.mu[i] < 0.0) throw std::invalid_argument(contact + " has mu < 0");
    append_block(&out, "contact", mu_b, 2, 2);
    const VecX normal = full_column(p.normal[i], m, "normal column of " + contact);
    append_block(&out, "n", normal.data(), normal.size(), 6);
    for (int j = 0; j < p.d; ++j) {
      const VecX t = full_column(p.friction[static_cast<size_t>(i) * p.d + j], m,
                                 "friction column " + std::to_string(j) + " of " + contact);
      append_block(&out, "t", t.data(), t.size(), 6);
    }
  }
  if (file.groups) {
    const PlaneGroups& g = *file.groups;
    out += "groups " + std::to_string(g.groups.size()) +
           (g.form == NonconvexFormulation::Max ? " max " : " sum ");
    append_number(&out, g.parameter);
    out += "\n";
    for (const std::vector<int>& group : g.groups) {
      out += "group " + std::to_string(group.size());
      for (const int plane : group) out += " " + std::to_string(plane);
      out += "\n";
    }
  }
  if (file.solution) {
    require_finite(file.solution->data(), file.solution->size(), "solution");
    append_block(&out, "solution", file.solution->data(), file.solution->size(), 8);
  }
  write_text(path, out);
}

}  // namespace pivot
