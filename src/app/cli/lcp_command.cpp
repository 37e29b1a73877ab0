// `pivot lcp solve FILE` and `pivot lcp check FILE`: one problem file
// (shared/formats/problem-files.md) read, solved and checked; the report goes to stdout
// as text or as one JSON object.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands.hpp"
#include "pivot/lcp.hpp"
#include "pivot/nonconvex.hpp"
#include "pivot/problem_file.hpp"

namespace pivot::cli {

namespace {

struct SolveOptions {
  std::string file;
  std::string method;  // empty: the default for the file's kind
  int repeat = 1;
  bool json = false;
  int max_pivots = 0;
};

// z agrees with a file's solution when |z - solution|_inf <= 1e-6 max(1, |solution|_inf):
// loose enough for any pivoting order, tight enough to tell distinct vertices apart.
constexpr double kMatchTolerance = 1e-6;

// What one file's solve produced, in the form both reports print.
struct SolveReport {
  std::string kind;  // "lcp" or "contact"
  LcpMethod method = LcpMethod::Standard;
  int size = 0;
  LcpResult result;
  LcpCheck check;
  bool checked = false;  // z has the problem's size, so check and residual mean something
  // General LCPs: Lemke's own status, and the complete search's figures when Lemke ended
  // without an answer on a problem of at most kCompleteSearchMaxSize (then it answered).
  LcpStatus lemke_status = LcpStatus::Solved;
  int lemke_pivots = 0;
  std::optional<CompleteSearchStats> search;
  // Grouped contact files: the formulation's search, checked on its full LCP.
  int selections = 0;
  int failed_selections = 0;
  double median_us = 0.0;
  VecX velocity;  // contact problems: body velocities after the step, 6m
  // Against the file's solution block, when it has one.
  bool has_solution = false;
  bool solution_accepted = false;
  double z_difference = 0.0;
  bool z_matches = false;
  double velocity_difference = 0.0;
  bool velocity_matches = false;
};

double max_abs(const VecX& v) { return v.size() ? v.lpNorm<Eigen::Infinity>() : 0.0; }

bool agrees(double difference, const VecX& reference) {
  return difference <= kMatchTolerance * std::max(1.0, max_abs(reference));
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t mid = values.size() / 2;
  return values.size() % 2 ? values[mid] : 0.5 * (values[mid - 1] + values[mid]);
}

// Runs solve() `repeat` times, keeps the last result, and the median wall time.
template <typename Solve>
LcpResult timed_solves(int repeat, Solve solve, double* median_us) {
  std::vector<double> times;
  LcpResult result;
  for (int r = 0; r < repeat; ++r) {
    const auto start = std::chrono::steady_clock::now();
    result = solve();
    const auto stop = std::chrono::steady_clock::now();
    times.push_back(std::chrono::duration<double, std::micro>(stop - start).count());
  }
  *median_us = median(times);
  return result;
}

double column_dot(const ContactColumn& c, const VecX& v) {
  double sum = 0.0;
  for (int s = 0; s < 2; ++s) {
    if (c.body[s] >= 0) sum += c.block[s].dot(v.segment<6>(6 * c.body[s]));
  }
  return sum;
}

// w of Lloyd (8) from the velocity, without forming M: since N'N theta + N'D phi + N'k =
// N~' M^-1 (N~ theta + D~ phi + k~_x) = N~' v, nu = N~' v + b, sigma = D~' v + E lambda,
// gamma = mu theta - E' phi.
VecX contact_w(const ContactProblem& p, const VecX& z, const VecX& v) {
  const int n = p.num_contacts();
  const int d = p.d;
  VecX w(p.lcp_size());
  for (int i = 0; i < n; ++i) {
    const double lambda = z(n + n * d + i);
    w(i) = column_dot(p.normal[i], v) + p.b[i];
    double phi_sum = 0.0;
    for (int j = 0; j < d; ++j) {
      w(n + i * d + j) = column_dot(p.friction[i * d + j], v) + lambda;
      phi_sum += z(n + i * d + j);
    }
    w(n + n * d + i) = p.mu[i] * z(i) - phi_sum;
  }
  return w;
}

SolveReport solve_lcp_file(const LcpProblemFile& file, const SolveOptions& options) {
  SolveReport report;
  report.kind = "lcp";
  report.size = static_cast<int>(file.q.size());
  LemkeOptions lemke;
  lemke.max_pivots = options.max_pivots;
  // Lemke's ray proves nothing unless M is copositive-plus: a small problem it leaves
  // unanswered (a ray or a numerical failure; a pivot limit is the user's) goes on to the
  // complete search, which finds a solution or proves there is none.
  const auto solve = [&] {
    LcpResult result = solve_lemke(file.M, file.q, lemke);
    report.lemke_status = result.status;
    report.lemke_pivots = result.pivots;
    report.search.reset();
    const bool unanswered =
        result.status == LcpStatus::SecondaryRay || result.status == LcpStatus::NumericalFailure;
    if (unanswered && report.size <= kCompleteSearchMaxSize) {
      CompleteSearchStats stats;
      result = solve_lcp_complete(file.M, file.q, {}, &stats);
      report.search = stats;
    }
    return result;
  };
  report.result = timed_solves(options.repeat, solve, &report.median_us);
  const VecX& z = report.result.z;
  report.checked = z.size() == report.size && report.result.w.size() == report.size;
  if (report.checked) {
    report.check = check_lcp_solution(file.M, file.q, z);
    report.check.residual = max_abs(report.result.w - (file.M * z + file.q));
  }
  if (file.solution) {
    report.has_solution = true;
    report.solution_accepted = check_lcp_solution(file.M, file.q, *file.solution).accepted;
    if (z.size() == report.size) {
      report.z_difference = max_abs(z - *file.solution);
      report.z_matches = agrees(report.z_difference, *file.solution);
    }
  }
  return report;
}

// Largest max-formulation LCP whose dense M the residual forms (32 MB of doubles).
constexpr Eigen::Index kDenseResidualMaxSize = 2048;

// |w - (M z + q)|_inf of a grouped answer, M z + q found another way than w was. The max
// search's w is written by the rows grouped_lcp_w evaluates (Egan (32)-(33) from the planes'
// rows), so against them it is 0 by construction: it is taken against the formulation's
// dense M z + q, up to kDenseResidualMaxSize, and above that not at all (NaN, "not
// computed"; the check still judges every row). The summation formulation's w is Lemke's on
// its dense LCP, and the rows are the other way.
double grouped_residual(const ContactProblem& planes, const PlaneGroups& groups, const VecX& w,
                        const VecX& z) {
  if (groups.form != NonconvexFormulation::Max)
    return max_abs(w - grouped_lcp_w(planes, groups, z));
  if (z.size() > kDenseResidualMaxSize) return std::numeric_limits<double>::quiet_NaN();
  const NonconvexLcp dense = build_grouped_lcp(planes, groups);
  return max_abs(w - (dense.lcp.M * z + dense.lcp.q));
}

SolveReport solve_contact_file(const ContactProblemFile& file, LcpMethod method,
                               const SolveOptions& options) {
  const ContactProblem& p = file.problem;
  SolveReport report;
  report.kind = "contact";
  report.method = method;
  report.size = p.lcp_size();
  LemkeOptions lemke;
  lemke.max_pivots = options.max_pivots;
  const VecX& z = report.result.z;
  if (file.groups) {
    // The step's own solve (solve_grouped_contact), judged on the formulation's full LCP:
    // its z holds the artificial variables the plane impulses come with.
    GroupedSolve grouped;
    report.result = timed_solves(
        options.repeat,
        [&] {
          grouped = solve_grouped_contact(p, *file.groups, method, lemke);
          return grouped.lcp;
        },
        &report.median_us);
    report.selections = grouped.selections;
    report.failed_selections = grouped.failed_selections;
    // Row by row (grouped_lcp_w): the dense LCP of a pile's island does not fit in memory.
    const VecX& fz = grouped.formulation_z;
    report.checked = report.result.status == LcpStatus::Solved && z.size() == report.size &&
                     fz.size() == report.result.w.size();
    if (report.checked) {
      report.check = check_grouped_solution(p, *file.groups, fz);
      report.check.residual = grouped_residual(p, *file.groups, report.result.w, fz);
      report.velocity = contact_velocity(p, z);
    }
  } else {
    report.result = timed_solves(
        options.repeat, [&] { return solve_contact(p, method, lemke); }, &report.median_us);
    report.checked = z.size() == report.size && report.result.w.size() == report.size;
    if (report.checked) {
      report.check = check_contact_solution(p, z);
      report.velocity = contact_velocity(p, z);
      report.check.residual = max_abs(report.result.w - contact_w(p, z, report.velocity));
    }
  }
  if (file.solution) {
    report.has_solution = true;
    report.solution_accepted = check_contact_solution(p, *file.solution).accepted;
    if (report.checked) {
      report.z_difference = max_abs(z - *file.solution);
      report.z_matches = agrees(report.z_difference, *file.solution);
      const VecX v_file = contact_velocity(p, *file.solution);
      report.velocity_difference = max_abs(report.velocity - v_file);
      report.velocity_matches = agrees(report.velocity_difference, v_file);
    }
  }
  return report;
}

std::string format_number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", value);
  return buffer;
}

std::string format_vector(const VecX& v) {
  std::string out;
  for (Eigen::Index i = 0; i < v.size(); ++i) out += (i ? " " : "") + format_number(v(i));
  return out;
}

std::string describe_problem(const ProblemFile& problem) {
  if (const auto* lcp = std::get_if<LcpProblemFile>(&problem)) {
    return "general LCP, n = " + std::to_string(lcp->q.size());
  }
  const ContactProblemFile& file = std::get<ContactProblemFile>(problem);
  const ContactProblem& p = file.problem;
  std::string text = "contact problem, " + std::to_string(p.num_bodies()) +
                     (p.num_bodies() == 1 ? " body, " : " bodies, ") +
                     std::to_string(p.num_contacts()) +
                     (p.num_contacts() == 1 ? " contact" : " contacts") +
                     ", d = " + std::to_string(p.d) + ", LCP size " + std::to_string(p.lcp_size());
  if (file.groups) {
    const PlaneGroups& g = *file.groups;
    const bool max = g.form == NonconvexFormulation::Max;
    text += ", " + std::to_string(g.groups.size()) + " nonconvex group" +
            (g.groups.size() == 1 ? "" : "s") + " (" + to_string(g.form) + ", " +
            (max ? "gamma = " : "epsilon/h = ") + format_number(g.parameter) + ")";
  }
  return text;
}

void print_text(const std::string& file, const ProblemFile& problem, const SolveReport& r,
                int repeat) {
  auto line = [](const char* label, const std::string& value) {
    std::printf("%-16s %s\n", label, value.c_str());
  };
  line("file", file);
  line("problem", describe_problem(problem));
  line("method", to_string(r.method));
  line("status", to_string(r.result.status));
  if (r.search) {
    const CompleteSearchStats& s = *r.search;
    line("answered by", "complete search (Lemke: " + std::string(to_string(r.lemke_status)) +
                            " after " + std::to_string(r.lemke_pivots) +
                            " pivots; branches: " + std::to_string(s.nodes) + " searched, " +
                            std::to_string(s.infeasible_nodes) + " closed infeasible, " +
                            std::to_string(s.undecided_nodes) + " undecided)");
    if (r.result.status == LcpStatus::NoSolution) {
      line("proof",
           "every branch closed by a Farkas certificate: no solution with "
           "|z|_1 < " +
               format_number(s.certified_radius));
    }
  }
  if (r.selections > 0) {
    std::string text = std::to_string(r.selections) + " tried, " +
                       std::to_string(r.failed_selections) +
                       " failed numerically or at the pivot limit";
    if (r.result.status != LcpStatus::Solved && r.failed_selections > 0) {
      text += " (none accepted: this proves nothing about a solution)";
    }
    line("selections", text);
  }
  line("pivots", std::to_string(r.result.pivots));
  if (r.checked) {
    line("residual", std::isfinite(r.check.residual)
                         ? format_number(r.check.residual) + "  (|w - (M z + q)|_inf)"
                         : "not computed (a dense M is not formed above " +
                               std::to_string(kDenseResidualMaxSize) +
                               " rows; every row is checked)");
    line("min entry", format_number(r.check.min_entry) + "  (min over z and w)");
    line("complementarity", format_number(r.check.max_complementarity) + "  (max |w_i z_i|)");
  }
  line("accepted", r.checked && r.check.accepted ? "yes" : "no");
  line("median time", format_number(r.median_us) + " us over " + std::to_string(repeat) +
                          (repeat == 1 ? " solve" : " solves"));
  if (r.has_solution) {
    std::string text = std::string("the file's solution is ") +
                       (r.solution_accepted ? "accepted" : "NOT accepted") +
                       "; computed z matches it: " + (r.z_matches ? "yes" : "no") + " (max |dz| " +
                       format_number(r.z_difference) + ")";
    if (r.kind == "contact") {
      text += "; velocities match: " + std::string(r.velocity_matches ? "yes" : "no") +
              " (max |dv| " + format_number(r.velocity_difference) + ")";
    }
    line("solution", text);
  }
  for (Eigen::Index k = 0; 6 * k < r.velocity.size(); ++k) {
    line(k == 0 ? "velocity" : "", "body " + std::to_string(k) + ": " +
                                       format_vector(r.velocity.segment<6>(6 * k)) +
                                       "  (linear, angular)");
  }
}

// Finite numbers as numbers, anything else as null (JSON has no nan or inf).
nlohmann::json json_number(double value) {
  return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
}

nlohmann::json json_vector(const VecX& v) {
  nlohmann::json out = nlohmann::json::array();
  for (Eigen::Index i = 0; i < v.size(); ++i) out.push_back(json_number(v(i)));
  return out;
}

void print_json(const std::string& file, const ProblemFile& problem, const SolveReport& r,
                int repeat) {
  nlohmann::json out;
  out["file"] = file;
  out["kind"] = r.kind;
  out["n"] = r.size;
  if (const auto* contact = std::get_if<ContactProblemFile>(&problem)) {
    out["bodies"] = contact->problem.num_bodies();
    out["contacts"] = contact->problem.num_contacts();
    out["d"] = contact->problem.d;
    if (contact->groups) {
      out["groups"] = {{"count", contact->groups->groups.size()},
                       {"formulation", to_string(contact->groups->form)},
                       {"parameter", contact->groups->parameter},
                       {"selections", r.selections},
                       {"failed_selections", r.failed_selections}};
    }
  }
  out["method"] = to_string(r.method);
  out["status"] = to_string(r.result.status);
  out["pivots"] = r.result.pivots;
  if (r.kind == "lcp") {
    out["answered_by"] = r.search ? "complete_search" : "lemke";
    out["lemke_status"] = to_string(r.lemke_status);
    out["lemke_pivots"] = r.lemke_pivots;
  }
  if (r.search) {
    out["search"] = {{"nodes", r.search->nodes},
                     {"infeasible_nodes", r.search->infeasible_nodes},
                     {"undecided_nodes", r.search->undecided_nodes}};
    if (r.result.status == LcpStatus::NoSolution) {
      out["search"]["certified_radius"] = json_number(r.search->certified_radius);
    }
  }
  out["accepted"] = r.checked && r.check.accepted;
  if (r.checked) {
    out["residual"] = json_number(r.check.residual);
    out["min_entry"] = json_number(r.check.min_entry);
    out["complementarity"] = json_number(r.check.max_complementarity);
  }
  out["median_us"] = r.median_us;
  out["repeat"] = repeat;
  out["z"] = json_vector(r.result.z);
  out["w"] = json_vector(r.result.w);
  if (r.kind == "contact" && r.checked) out["velocity"] = json_vector(r.velocity);
  if (r.has_solution) {
    nlohmann::json s;
    s["accepted"] = r.solution_accepted;
    s["z_matches"] = r.z_matches;
    s["max_z_difference"] = json_number(r.z_difference);
    if (r.kind == "contact") {
      s["velocity_matches"] = r.velocity_matches;
      s["max_velocity_difference"] = json_number(r.velocity_difference);
    }
    out["solution"] = s;
  }
  std::cout << out.dump() << "\n";
}

int run_solve(const SolveOptions& options) {
  const ProblemFile problem = read_problem_file(options.file);
  SolveReport report;
  if (const auto* lcp = std::get_if<LcpProblemFile>(&problem)) {
    if (!options.method.empty() && options.method != to_string(LcpMethod::Standard)) {
      throw std::invalid_argument("--method " + options.method + " needs a contact problem; " +
                                  options.file +
                                  " is a general LCP (pivot-lcp), solved by the standard method");
    }
    report = solve_lcp_file(*lcp, options);
  } else {
    LcpMethod method = LcpMethod::Reduced;
    if (!options.method.empty() && !parse_lcp_method(options.method, &method)) {
      throw std::invalid_argument("unknown --method " + options.method);
    }
    report = solve_contact_file(std::get<ContactProblemFile>(problem), method, options);
  }
  if (options.json) {
    print_json(options.file, problem, report, options.repeat);
  } else {
    print_text(options.file, problem, report, options.repeat);
  }
  std::fflush(stdout);
  return report.result.status == LcpStatus::Solved && report.checked && report.check.accepted ? 0
                                                                                              : 1;
}

int run_check(const std::string& file) {
  const ProblemFile problem = read_problem_file(file);
  std::string solution = "no solution block";
  if (const auto* lcp = std::get_if<LcpProblemFile>(&problem)) {
    if (lcp->solution) {
      const bool ok = check_lcp_solution(lcp->M, lcp->q, *lcp->solution).accepted;
      solution = ok ? "solution block accepted" : "solution block NOT accepted";
    }
  } else {
    const ContactProblemFile& contact = std::get<ContactProblemFile>(problem);
    if (contact.solution) {
      const bool ok = check_contact_solution(contact.problem, *contact.solution).accepted;
      solution = ok ? "solution block accepted" : "solution block NOT accepted";
    }
  }
  std::printf("%s: %s, %s\n", file.c_str(), describe_problem(problem).c_str(), solution.c_str());
  std::fflush(stdout);
  return 0;
}

}  // namespace

void add_lcp_commands(CLI::App& app, int* exit_code) {
  CLI::App* lcp =
      app.add_subcommand("lcp", "Solve or check a problem file (pivot-lcp, pivot-contact)");
  lcp->require_subcommand(1);

  auto options = std::make_shared<SolveOptions>();
  CLI::App* solve = lcp->add_subcommand("solve", "Solve a problem file and report the result");
  solve->add_option("file", options->file, "pivot-lcp or pivot-contact file")->required();
  solve
      ->add_option("--method", options->method,
                   "standard | structural | reduced (contact files; default reduced). "
                   "General LCP files are solved by the standard method")
      ->check(CLI::IsMember({"standard", "structural", "reduced"}));
  solve->add_option("--repeat", options->repeat, "Solve N times and report the median time")
      ->check(CLI::PositiveNumber);
  solve->add_flag("--json", options->json, "Print one JSON object instead of text");
  solve
      ->add_option("--max-pivots", options->max_pivots,
                   "Give up after K pivots (0: a default that grows with the size)")
      ->check(CLI::NonNegativeNumber);
  solve->callback([options, exit_code] { *exit_code = run_solve(*options); });

  auto check_file = std::make_shared<std::string>();
  CLI::App* check = lcp->add_subcommand("check", "Validate a problem file and print its size");
  check->add_option("file", *check_file, "pivot-lcp or pivot-contact file")->required();
  check->callback([check_file, exit_code] { *exit_code = run_check(*check_file); });
}

}  // namespace pivot::cli
