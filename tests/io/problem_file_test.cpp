// The problem-file reader and writer against shared/formats/problem-files.md: what is
// read, every kind of error with its exact message and line, the size limits, and
// bit-exact round trips through the writer.
#include "pivot/problem_file.hpp"

#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <string>

#include "pivot/error.hpp"

namespace pivot {
namespace {

// what() of the InputError the text raises, or "no error".
std::string error_of(const std::string& text) {
  try {
    parse_problem_file(text, "p.txt");
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

std::string numbers(const std::vector<double>& values) {
  std::ostringstream out;
  for (double v : values) out << " " << v;
  return out.str();
}

std::string identity_mass() {
  std::string out = "mass";
  for (int i = 0; i < 36; ++i) out += (i % 7 == 0) ? " 1" : " 0";
  return out + "\n";
}

// One body, `counts` after `contacts`, then `rest`; lines 1-5 are the header.
std::string contact_file(const std::string& counts, const std::string& rest) {
  return "pivot-contact 1\nbodies 1\n" + identity_mass() + "kx 0 0 -1 0 0 0\n" + "contacts " +
         counts + "\n" + rest;
}
// One contact with d = 2 (contact block on lines 6-9), then `tail`.
std::string one_contact_file(const std::string& contact_block, const std::string& tail = "") {
  return contact_file("1 2", contact_block + tail);
}
const char* kContact =
    "contact 0.5 0\n"
    "n 0 0 1 0 0 0\n"
    "t 1 0 0 0 0 0\n"
    "t -1 0 0 0 0 0\n";

// Under the test temp directory, prefixed so that other suites' files never collide.
std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "problem_file_" + name;
}

TEST(ProblemFile, ReadsGeneralLcpRowMajorWithCommentsAndSolution) {
  const ProblemFile file = parse_problem_file(
      "# a comment before the header\n"
      "pivot-lcp 1   # trailing comment\n"
      "n 2 M\t2 -1\n\n  3 4.5e-1 q -1#no space before the comment\n -2 solution 0.5 0\n",
      "p.txt");
  const auto lcp = std::get<LcpProblemFile>(file);
  ASSERT_EQ(lcp.M.rows(), 2);
  EXPECT_EQ(lcp.M(0, 0), 2.0);
  EXPECT_EQ(lcp.M(0, 1), -1.0);  // row-major: the second number is row 0, column 1
  EXPECT_EQ(lcp.M(1, 0), 3.0);
  EXPECT_EQ(lcp.M(1, 1), 0.45);
  EXPECT_EQ(lcp.q, (VecX(2) << -1, -2).finished());
  ASSERT_TRUE(lcp.solution.has_value());
  EXPECT_EQ(*lcp.solution, (VecX(2) << 0.5, 0).finished());
}

TEST(ProblemFile, SolutionIsOptionalAndEmptyLcpIsValid) {
  const auto lcp = std::get<LcpProblemFile>(parse_problem_file("pivot-lcp 1 n 1 M 1 q 2", "p"));
  EXPECT_FALSE(lcp.solution.has_value());
  const auto empty = std::get<LcpProblemFile>(parse_problem_file("pivot-lcp 1 n 0 M q", "p"));
  EXPECT_EQ(empty.q.size(), 0);
}

TEST(ProblemFile, ReadsContactColumnsIntoTwoBodySlots) {
  // Three bodies; the normal touches bodies 0 and 2, the first friction column body 1
  // only, the second no body at all.
  std::string text = "pivot-contact 1\nbodies 3\n";
  for (int k = 0; k < 3; ++k) {
    text += "mass";
    for (int i = 0; i < 36; ++i) text += (i % 7 == 0) ? " " + std::to_string(k + 2) : " 0";
    text += "\n";
  }
  text += "kx" + numbers({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18}) + "\n";
  text += "contacts 1 2\ncontact 0.25 -0.5\n";
  text += "n" + numbers({0, 0, 1, 0.5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, 0, 0.5, 0}) + "\n";
  text += "t" + numbers({0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, -2, 0, 0, 0, 0, 0, 0}) + "\n";
  text += "t" + numbers({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}) + "\n";
  text += "solution 1 2 3 4\n";
  const auto file = std::get<ContactProblemFile>(parse_problem_file(text, "c.txt"));
  const ContactProblem& p = file.problem;
  ASSERT_EQ(p.num_bodies(), 3);
  EXPECT_EQ(p.mass[2](0, 0), 4.0);
  EXPECT_EQ(p.kx(17), 18.0);
  ASSERT_EQ(p.num_contacts(), 1);
  EXPECT_EQ(p.d, 2);
  EXPECT_EQ(p.mu[0], 0.25);
  EXPECT_EQ(p.b[0], -0.5);
  EXPECT_EQ(p.normal[0].body[0], 0);
  EXPECT_EQ(p.normal[0].body[1], 2);
  EXPECT_EQ(p.normal[0].block[0], (Vec6() << 0, 0, 1, 0.5, 0, 0).finished());
  EXPECT_EQ(p.normal[0].block[1], (Vec6() << 0, 0, -1, 0, 0.5, 0).finished());
  ASSERT_EQ(p.friction.size(), 2u);
  EXPECT_EQ(p.friction[0].body[0], 1);
  EXPECT_EQ(p.friction[0].body[1], -1);
  EXPECT_EQ(p.friction[0].block[0], (Vec6() << 1, 0, 0, 0, 0, -2).finished());
  EXPECT_EQ(p.friction[1].body[0], -1);
  EXPECT_EQ(p.friction[1].body[1], -1);
  ASSERT_TRUE(file.solution.has_value());
  EXPECT_EQ(file.solution->size(), p.lcp_size());
}

struct BadFile {
  const char* name;
  std::string text;
  std::string error;  // the whole what(): "p.txt:LINE: message"
};

void PrintTo(const BadFile& bad, std::ostream* os) { *os << bad.name; }
std::string bad_file_name(const ::testing::TestParamInfo<BadFile>& param) {
  return param.param.name;
}

class ProblemFileError : public ::testing::TestWithParam<BadFile> {};

TEST_P(ProblemFileError, NamesLineAndWhatWasExpected) {
  EXPECT_EQ(error_of(GetParam().text), GetParam().error);
}

const std::string kLcpHead = "pivot-lcp 1\nn 2\n";

INSTANTIATE_TEST_SUITE_P(
    Lcp, ProblemFileError,
    ::testing::Values(
        BadFile{"EmptyFile", "",
                "p.txt:1: expected 'pivot-lcp' or 'pivot-contact', found end of file"},
        BadFile{"OnlyComments", "# nothing\n# here\n",
                "p.txt:2: expected 'pivot-lcp' or 'pivot-contact', found end of file"},
        BadFile{"UnknownHeader", "\npivot-lp 1",
                "p.txt:2: expected 'pivot-lcp' or 'pivot-contact', found 'pivot-lp'"},
        BadFile{"WrongVersion", "pivot-lcp 2",
                "p.txt:1: expected format version 1 after 'pivot-lcp', found '2'"},
        BadFile{"UpperCaseKeyword", "pivot-lcp 1\nN 2", "p.txt:2: expected keyword 'n', found 'N'"},
        BadFile{"NegativeCount", "pivot-lcp 1\nn -3",
                "p.txt:2: expected n >= 0 after 'n', found -3"},
        BadFile{"FractionalCount", "pivot-lcp 1\nn 2.5",
                "p.txt:2: expected an integer count after 'n', found '2.5'"},
        BadFile{"MissingCount", "pivot-lcp 1\nn\n",
                "p.txt:2: expected a count after 'n', found end of file"},
        BadFile{"CountOverLimit", "pivot-lcp 1\nn 1000000000",
                "p.txt:2: expected n <= 20000 after 'n' (the reader's limit), found 1000000000"},
        BadFile{"CountOverflowsLongLong", "pivot-lcp 1\nn 99999999999999999999999",
                "p.txt:2: expected n <= 20000 after 'n' (the reader's limit), found "
                "99999999999999999999999"},
        BadFile{"CountLargerThanFileCanHold", "pivot-lcp 1\nn 15000\nM 1 2 3",
                "p.txt:2: n = 15000 needs 225015000 numbers, more than the 4 the rest of the "
                "file can hold"},
        BadFile{"TooFewNumbersInM", kLcpHead + "M 1 2\n3\nq 1 2",
                "p.txt:5: expected 4 numbers after 'M', found 3"},
        BadFile{"TooManyNumbersInM", kLcpHead + "M 1 2\n3 4\n5 6\nq 1 2",
                "p.txt:5: expected 4 numbers after 'M', found 6"},
        BadFile{"WrongKeyword", kLcpHead + "M 1 0 0 1\nr 1 2",
                "p.txt:4: expected keyword 'q', found 'r'"},
        BadFile{
            "Nan", kLcpHead + "M 1 nan 0 1 q 1 2",
            "p.txt:3: expected a finite decimal number as number 2 of 4 after 'M', found 'nan'"},
        BadFile{
            "Infinity", kLcpHead + "M 1 0 0 1 q 1 -inf",
            "p.txt:3: expected a finite decimal number as number 2 of 2 after 'q', found '-inf'"},
        BadFile{
            "Overflow", kLcpHead + "M 1 0 0 1e999 q 1 2",
            "p.txt:3: expected a finite decimal number as number 4 of 4 after 'M', found '1e999'"},
        BadFile{
            "TrailingGarbage", kLcpHead + "M 1 0\n0 1.5x q 1 2",
            "p.txt:4: expected a finite decimal number as number 4 of 4 after 'M', found '1.5x'"},
        BadFile{
            "HexNumber", kLcpHead + "M 0x10 0 0 1 q 1 2",
            "p.txt:3: expected a finite decimal number as number 1 of 4 after 'M', found '0x10'"},
        BadFile{
            "CommaDecimal", kLcpHead + "M 1,5 0 0 1 q 1 2",
            "p.txt:3: expected a finite decimal number as number 1 of 4 after 'M', found '1,5'"},
        BadFile{"EndOfFileInQ", kLcpHead + "M 1 0 0 1\nq 1\n\n",
                "p.txt:5: expected 2 numbers after 'q', found 1"},
        BadFile{"CommentHidesANumber", kLcpHead + "M 1 0 0 1\nq 1 # 2\n",
                "p.txt:4: expected 2 numbers after 'q', found 1"},
        BadFile{"TokenAfterQ", kLcpHead + "M 1 0 0 1\nq 1 2\nsolutions 0 0",
                "p.txt:5: expected keyword 'solution' or end of file after 'q', found 'solutions'"},
        BadFile{"ShortSolution", kLcpHead + "M 1 0 0 1 q 1 2 solution 0",
                "p.txt:3: expected 2 numbers after 'solution', found 1"},
        BadFile{"LongSolution", kLcpHead + "M 1 0 0 1 q 1 2 solution 0 0\n0",
                "p.txt:4: expected 2 numbers after 'solution', found 3"},
        BadFile{"TokenAfterSolution", kLcpHead + "M 1 0 0 1 q 1 2 solution 0 0\nend",
                "p.txt:4: expected end of file after 'solution', found 'end'"},
        BadFile{"LongTokenIsShortened", "pivot-lcp 1 n " + std::string(60, 'x'),
                "p.txt:1: expected an integer count after 'n', found "
                "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...'"},
        BadFile{"ControlBytesAreShownAsQuestionMarks", "pivot-lcp\x01\x02 1",
                "p.txt:1: expected 'pivot-lcp' or 'pivot-contact', found 'pivot-lcp?"
                "?'"}),
    bad_file_name);

std::string mass_with(int index, double value) {
  std::string out = "mass";
  for (int i = 0; i < 36; ++i) {
    out += " " + std::to_string(i == index ? value : (i % 7 == 0 ? 1.0 : 0.0));
  }
  return out + "\n";
}

INSTANTIATE_TEST_SUITE_P(
    Contact, ProblemFileError,
    ::testing::Values(
        BadFile{"NoBodies", "pivot-contact 1\nbodies 0",
                "p.txt:2: expected m >= 1 after 'bodies', found 0"},
        BadFile{"ShortMass",
                "pivot-contact 1\nbodies 2\n" + identity_mass() + "mass" +
                    numbers(std::vector<double>(35, 0.0)) + "\nkx 0 0 0 0 0 0 0 0 0 0 0 0\n",
                "p.txt:5: expected 36 numbers after 'mass' (body 1), found 35"},
        BadFile{"MissingMass",
                "pivot-contact 1\nbodies 2\n" + identity_mass() + "kx 0 0 0 0 0 0 0 0 0 0 0 0\n",
                "p.txt:4: expected keyword 'mass' (body 1), found 'kx'"},
        BadFile{"IndefiniteMass", "pivot-contact 1\nbodies 1\n" + mass_with(14, -1.0),
                "p.txt:3: expected a symmetric positive definite mass matrix (body 0), found one "
                "that is not positive definite"},
        BadFile{"SingularMass", "pivot-contact 1\nbodies 1\n" + mass_with(35, 0.0),
                "p.txt:3: expected a symmetric positive definite mass matrix (body 0), found one "
                "that is not positive definite"},
        BadFile{"AsymmetricMass", "pivot-contact 1\nbodies 1\n" + mass_with(1, 0.5),
                "p.txt:3: expected a symmetric positive definite mass matrix (body 0), found one "
                "that is not symmetric"},
        BadFile{"MisspelledKx", "pivot-contact 1\nbodies 1\n" + identity_mass() + "kv 0 0 0 0 0 0",
                "p.txt:4: expected keyword 'kx', found 'kv'"},
        BadFile{"OneFrictionDirection", contact_file("1 1", ""),
                "p.txt:5: expected friction directions d >= 2 after 'contacts', found 1"},
        BadFile{"NegativeMu", one_contact_file("contact -0.1 0\n"),
                "p.txt:6: expected friction coefficient mu >= 0 (contact 0), found '-0.1'"},
        BadFile{"ContactWithoutB", one_contact_file("contact 0.5\nn 0 0 1 0 0 0\n"),
                "p.txt:7: expected 2 numbers after 'contact' (contact 0), found 1"},
        BadFile{
            "MissingFrictionColumn",
            one_contact_file("contact 0.5 0\nn 0 0 1 0 0 0\nt 1 0 0 0 0 0\n", "solution 0 0 0 0"),
            "p.txt:9: expected keyword 't' (contact 0, direction 2 of 2), found 'solution'"},
        BadFile{"ShortColumn", one_contact_file("contact 0.5 0\nn 0 0 1 0 0\nt 1 0 0 0 0 0\n"),
                "p.txt:8: expected 6 numbers after 'n' (contact 0), found 5"},
        BadFile{"SecondContactMissing", contact_file("2 2", kContact),
                "p.txt:9: expected keyword 'contact' (contact 1), found end of file"},
        BadFile{"ContactsLargerThanFileCanHold", contact_file("100000 8", "contact 0.5 0\n"),
                "p.txt:5: contacts = 100000, d = 8, bodies = 1 needs 5600000 numbers, more "
                "than the 7 the rest of the file can hold"},
        BadFile{"TooManyFrictionDirections", contact_file("1 257", ""),
                "p.txt:5: expected friction directions d <= 256 after 'contacts' (the reader's "
                "limit), found 257"},
        BadFile{"WrongSolutionSize", one_contact_file(kContact, "solution 0 0 0\n"),
                "p.txt:10: expected 4 numbers after 'solution', found 3"}),
    bad_file_name);

// Two contacts with d = 2 under `pivot-contact 2` (contacts on lines 6-13), then `tail`.
std::string grouped_file(const std::string& tail, const char* version = "2") {
  std::string text = contact_file("2 2", std::string(kContact) + kContact + tail);
  return text.replace(text.find(" 1\n"), 3, std::string(" ") + version + "\n");
}

INSTANTIATE_TEST_SUITE_P(
    Groups, ProblemFileError,
    ::testing::Values(
        BadFile{"GroupsInVersionOne", grouped_file("groups 1 max 100\ngroup 2 0 1\n", "1"),
                "p.txt:14: expected keyword 'solution' or end of file after the last contact, "
                "found 'groups' (groups need 'pivot-contact 2')"},
        BadFile{"VersionThree", grouped_file("", "3"),
                "p.txt:1: expected format version 1 to 2 after 'pivot-contact', found '3'"},
        BadFile{"MoreGroupsThanContacts", grouped_file("groups 3 max 100\n"),
                "p.txt:14: expected at most one group per contact (2) after 'groups', found 3"},
        BadFile{"UnknownFormulation", grouped_file("groups 1 groups 100\n"),
                "p.txt:14: expected 'max' or 'sum' after the number of groups, found 'groups'"},
        BadFile{"GammaNotAboveOne", grouped_file("groups 1 max 1\ngroup 2 0 1\n"),
                "p.txt:14: expected gamma > 1 after 'max', found '1'"},
        BadFile{"EpsilonNotPositive", grouped_file("groups 1 sum -0.01\ngroup 2 0 1\n"),
                "p.txt:14: expected epsilon/h > 0 after 'sum', found '-0.01'"},
        BadFile{"PlaneOutOfRange", grouped_file("groups 1 max 100\ngroup 2 0\n2\n"),
                "p.txt:16: expected a plane index in 0..1 (group 0, side 2 of 2), found '2'"},
        BadFile{"PlaneInTwoGroups", grouped_file("groups 2 max 100\ngroup 1 1\ngroup 1 1\n"),
                "p.txt:16: plane 1 (group 1, side 1 of 1) is already in group 0"},
        BadFile{"GroupMissing", grouped_file("groups 2 sum 0.01\ngroup 1 0\n"),
                "p.txt:15: expected keyword 'group' (group 1), found end of file"},
        BadFile{"SolutionAfterGroups",
                grouped_file("groups 1 max 100\ngroup 2 0 1\nsolution 0 0 0 0 0 0 0 0\n"),
                "p.txt:16: expected end of file after the last group, found 'solution' (a "
                "grouped problem has no solution block)"}),
    bad_file_name);

TEST(ProblemFile, GroupedProblemRoundTripsAndOldFilesStillRead) {
  const auto plain = std::get<ContactProblemFile>(parse_problem_file(grouped_file("", "1"), "a"));
  EXPECT_FALSE(plain.groups.has_value());
  const auto empty = std::get<ContactProblemFile>(parse_problem_file(grouped_file(""), "b"));
  EXPECT_FALSE(empty.groups.has_value());
  for (const char* groups :
       {"groups 1 max 100.5\ngroup 2 1 0\n", "groups 2 sum 0.01\ngroup 1 1\ngroup 1 0\n"}) {
    const auto read = std::get<ContactProblemFile>(parse_problem_file(grouped_file(groups), "c"));
    ASSERT_TRUE(read.groups.has_value()) << groups;
    const std::string path = temp_path("grouped.contact");
    write_contact_problem(path, read);
    const auto again = std::get<ContactProblemFile>(read_problem_file(path));
    ASSERT_TRUE(again.groups.has_value());
    EXPECT_EQ(again.groups->form, read.groups->form);
    EXPECT_EQ(again.groups->parameter, read.groups->parameter);
    EXPECT_EQ(again.groups->groups, read.groups->groups);
  }
  const auto max = std::get<ContactProblemFile>(
      parse_problem_file(grouped_file("groups 1 max 100.5\ngroup 2 1 0\n"), "d"));
  EXPECT_EQ(max.groups->form, NonconvexFormulation::Max);
  EXPECT_EQ(max.groups->parameter, 100.5);
  EXPECT_EQ(max.groups->groups, (NonconvexGroups{{1, 0}}));
  // What the reader refuses, the writer refuses too.
  ContactProblemFile bad = max;
  bad.groups->groups = {{0, 0}};
  EXPECT_THROW(write_contact_problem(temp_path("bad_groups.contact"), bad), std::invalid_argument);
  bad.groups->groups = {{0}};
  bad.groups->parameter = 1.0;
  EXPECT_THROW(write_contact_problem(temp_path("bad_groups.contact"), bad), std::invalid_argument);
}

TEST(ProblemFile, RejectsColumnTouchingThreeBodiesNamingThem) {
  std::string text = "pivot-contact 1\nbodies 4\n";
  for (int k = 0; k < 4; ++k) text += identity_mass();
  text += "kx" + numbers(std::vector<double>(24, 0.0)) + "\ncontacts 1 2\ncontact 0.5 0\n";
  std::vector<double> column(24, 0.0);
  column[2] = 1;   // body 0
  column[13] = 1;  // body 2
  column[23] = 1;  // body 3
  text += "n" + numbers(column) + "\n";
  const std::string zero_column = numbers(std::vector<double>(24, 0.0));
  text += "t" + zero_column + "\nt" + zero_column + "\n";
  EXPECT_EQ(error_of(text),
            "p.txt:10: expected a column touching at most 2 bodies after 'n' (contact 0), found "
            "one touching 3 (bodies 0, 2, 3)");
}

// Every single-token edit of a valid file (token deleted, doubled, or replaced by a word
// or a malformed number) fails with an InputError on one of the file's lines; nothing
// else escapes and, under ASan, nothing reads out of bounds.
TEST(ProblemFile, EditedFilesFailOnlyWithInputErrorOnARealLine) {
  const std::string valid = one_contact_file(kContact, "solution 1 0 0 0\n");
  std::vector<std::pair<size_t, size_t>> tokens;  // [begin, end) of each token
  for (size_t i = 0; i < valid.size();) {
    if (std::isspace(static_cast<unsigned char>(valid[i]))) {
      ++i;
      continue;
    }
    const size_t begin = i;
    while (i < valid.size() && !std::isspace(static_cast<unsigned char>(valid[i]))) ++i;
    tokens.emplace_back(begin, i);
  }
  const int lines = 10;
  for (const auto& [begin, end] : tokens) {
    const std::string token = valid.substr(begin, end - begin);
    for (const std::string& replacement :
         {std::string(), token + " " + token, std::string("x"), std::string("1e")}) {
      const std::string edited = valid.substr(0, begin) + replacement + valid.substr(end);
      try {
        parse_problem_file(edited, "p.txt");
        ADD_FAILURE() << "accepted:\n" << edited;
      } catch (const InputError& e) {
        EXPECT_GE(e.line(), 1) << edited;
        EXPECT_LE(e.line(), lines) << edited;
      }
    }
  }
}

TEST(ProblemFile, InputErrorCarriesFileAndLine) {
  try {
    parse_problem_file("pivot-lcp 1\n\nn x", "dir/p.lcp");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "dir/p.lcp");
    EXPECT_EQ(e.line(), 3);
    EXPECT_EQ(e.message(), "expected an integer count after 'n', found 'x'");
  }
}

TEST(ProblemFile, MissingFileIsAnInputErrorWithoutLine) {
  const std::string path = temp_path("does_not_exist.lcp");
  try {
    read_problem_file(path);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": cannot open: No such file or directory");
  }
}

TEST(ProblemFile, ReadsFromDiskDispatchingOnTheHeader) {
  const std::string path = temp_path("dispatch.contact");
  std::ofstream(path) << one_contact_file(kContact);
  const ProblemFile file = read_problem_file(path);
  ASSERT_TRUE(std::holds_alternative<ContactProblemFile>(file));
  EXPECT_EQ(std::get<ContactProblemFile>(file).problem.lcp_size(), 4);
}

// Values that a short decimal form would not carry exactly.
double awkward(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  switch (rng() % 4) {
    case 0:
      return u(rng) / 3.0;
    case 1:
      return u(rng) * 1e-300;
    case 2:
      return u(rng) * 1e300;
    default:
      return std::nextafter(0.1, 1.0);
  }
}

TEST(ProblemFile, GeneralLcpRoundTripsBitExactly) {
  std::mt19937_64 rng(7);
  LcpProblemFile original;
  original.M.resize(5, 5);
  for (int i = 0; i < 25; ++i) original.M(i / 5, i % 5) = awkward(rng);
  original.M(1, 2) = -0.0;
  original.M(3, 4) = std::numeric_limits<double>::denorm_min();
  original.q.resize(5);
  for (int i = 0; i < 5; ++i) original.q(i) = awkward(rng);
  original.solution = VecX::LinSpaced(5, 0.1, 0.5);
  const std::string path = temp_path("round_trip.lcp");
  write_lcp_problem(path, original);
  const auto read = std::get<LcpProblemFile>(read_problem_file(path));
  EXPECT_EQ(read.M, original.M);
  EXPECT_TRUE(std::signbit(read.M(1, 2)));
  EXPECT_EQ(read.q, original.q);
  ASSERT_TRUE(read.solution.has_value());
  EXPECT_EQ(*read.solution, *original.solution);
  EXPECT_FALSE(std::ifstream(path + ".tmp").good()) << "temporary file left behind";
}

TEST(ProblemFile, WriterUsesShortestExactDecimals) {
  LcpProblemFile lcp;
  lcp.M = MatX::Identity(1, 1) * 0.3;
  lcp.q = VecX::Constant(1, -0.1);
  const std::string path = temp_path("short.lcp");
  write_lcp_problem(path, lcp);
  std::ostringstream text;
  text << std::ifstream(path).rdbuf();
  EXPECT_EQ(text.str(), "pivot-lcp 1\nn 1\nM\n  0.3\nq -0.1\n");
}

Mat6 random_spd(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Mat6 A;
  for (int i = 0; i < 36; ++i) A(i / 6, i % 6) = u(rng);
  Mat6 M = A * A.transpose() + Mat6::Identity();
  return 0.5 * (M + M.transpose());
}

Vec6 random_vec6(std::mt19937_64& rng) {
  Vec6 v;
  for (int i = 0; i < 6; ++i) v(i) = awkward(rng) / 1e280 + 0.5;
  return v;
}

TEST(ProblemFile, ContactProblemRoundTripsBitExactly) {
  std::mt19937_64 rng(11);
  ContactProblemFile original;
  ContactProblem& p = original.problem;
  p.d = 3;
  for (int k = 0; k < 3; ++k) p.mass.push_back(random_spd(rng));
  p.kx.resize(18);
  for (int i = 0; i < 18; ++i) p.kx(i) = awkward(rng);
  for (int i = 0; i < 2; ++i) {
    p.mu.push_back(0.1 * (i + 1));
    p.b.push_back(awkward(rng));
    ContactColumn normal;  // two bodies, in increasing order as the reader produces them
    normal.body[0] = i;
    normal.body[1] = 2;
    normal.block[0] = random_vec6(rng);
    normal.block[1] = random_vec6(rng);
    p.normal.push_back(normal);
    for (int j = 0; j < p.d; ++j) {
      ContactColumn t;  // one body
      t.body[0] = (i + j) % 3;
      t.block[0] = random_vec6(rng);
      p.friction.push_back(t);
    }
  }
  original.solution = VecX::LinSpaced(p.lcp_size(), -1.0, 1.0);
  const std::string path = temp_path("round_trip.contact");
  write_contact_problem(path, original);
  const auto read = std::get<ContactProblemFile>(read_problem_file(path));
  const ContactProblem& r = read.problem;
  ASSERT_EQ(r.num_bodies(), 3);
  for (int k = 0; k < 3; ++k) EXPECT_EQ(r.mass[k], p.mass[k]);
  EXPECT_EQ(r.kx, p.kx);
  EXPECT_EQ(r.d, p.d);
  EXPECT_EQ(r.mu, p.mu);
  EXPECT_EQ(r.b, p.b);
  ASSERT_EQ(r.num_contacts(), 2);
  ASSERT_EQ(r.friction.size(), p.friction.size());
  auto same = [](const ContactColumn& a, const ContactColumn& b) {
    return a.body[0] == b.body[0] && a.body[1] == b.body[1] && a.block[0] == b.block[0] &&
           (a.body[1] < 0 || a.block[1] == b.block[1]);
  };
  for (int i = 0; i < 2; ++i) EXPECT_TRUE(same(r.normal[i], p.normal[i])) << "normal " << i;
  for (size_t j = 0; j < p.friction.size(); ++j) {
    EXPECT_TRUE(same(r.friction[j], p.friction[j])) << "friction " << j;
  }
  EXPECT_EQ(*read.solution, *original.solution);
}

TEST(ProblemFile, WriterRefusesWhatTheFormatCannotHold) {
  LcpProblemFile lcp;
  lcp.M = MatX::Identity(2, 2);
  lcp.q = VecX::Zero(3);
  EXPECT_THROW(write_lcp_problem(temp_path("bad.lcp"), lcp), std::invalid_argument);
  lcp.q = VecX::Zero(2);
  lcp.M(0, 1) = std::nan("");
  EXPECT_THROW(write_lcp_problem(temp_path("bad.lcp"), lcp), std::invalid_argument);

  ContactProblemFile contact;
  contact.problem.d = 2;
  contact.problem.mass = {Mat6::Identity()};
  contact.problem.kx = VecX::Zero(6);
  contact.problem.mu = {0.5};
  contact.problem.b = {0.0};
  ContactColumn column;
  column.body[0] = 1;  // there is only body 0
  contact.problem.normal = {column};
  contact.problem.friction = {ContactColumn{}, ContactColumn{}};
  EXPECT_THROW(write_contact_problem(temp_path("bad.contact"), contact), std::invalid_argument);
}

TEST(ProblemFile, WriterRefusesADTheReaderWouldRefuse) {
  // A failed step at d = 300 once wrote a file `pivot lcp solve` could not read.
  ContactProblemFile contact;
  contact.problem.d = kMaxFrictionDirections + 1;
  contact.problem.mass = {Mat6::Identity()};
  contact.problem.kx = VecX::Zero(6);
  try {
    write_contact_problem(temp_path("d_too_large.contact"), contact);
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "d must be in [2, 256], got 257");
  }
}

TEST(ProblemFile, WriterReportsUnwritablePath) {
  LcpProblemFile lcp;
  lcp.M = MatX::Identity(1, 1);
  lcp.q = VecX::Zero(1);
  try {
    write_lcp_problem(temp_path("no_such_dir/p.lcp"), lcp);
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("No such file or directory"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace pivot
