// `pivot sweep FILE`: every sample of a sweep on the local cores, one World per sample and
// thread, into one results table; `--index I` prints one sample's row, which is what a
// Slurm array task or GNU parallel runs (docs/sweeps.md).
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "commands.hpp"
#include "pivot/sweep.hpp"

namespace pivot::cli {
namespace {

std::atomic<bool> g_interrupted{false};
void on_interrupt(int) { g_interrupted = true; }

struct SweepOptions {
  std::string file;
  std::optional<std::int64_t> index;
  bool columns = false;
  int jobs = 0;
  std::string out;
  bool resume = false;
  std::string failure_dir;
};

std::string clock_text(double seconds) {
  const auto s = static_cast<long long>(seconds + 0.5);
  char text[32];
  std::snprintf(text, sizeof text, "%lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
  return text;
}

// A bar redrawn in place on a terminal; a line per tenth of the work otherwise (a log).
class Progress {
 public:
  Progress(std::int64_t total, std::int64_t done_before)
      : total_(total),
        before_(done_before),
        tty_(::isatty(STDERR_FILENO) != 0),
        start_(std::chrono::steady_clock::now()) {}

  void show(std::int64_t done_now, bool last) {
    const std::int64_t done = before_ + done_now;
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const std::int64_t left = total_ - done;
    const std::string eta =
        done_now > 0
            ? clock_text(elapsed / static_cast<double>(done_now) * static_cast<double>(left))
            : std::string("?");
    const int percent = total_ > 0 ? static_cast<int>(100 * done / total_) : 100;
    if (tty_) {
      const int width = 30;
      const int filled = static_cast<int>(width * done / std::max<std::int64_t>(total_, 1));
      std::fprintf(stderr, "\r[%s%s] %lld/%lld %3d%% ETA %s ", std::string(filled, '#').c_str(),
                   std::string(width - filled, ' ').c_str(), static_cast<long long>(done),
                   static_cast<long long>(total_), percent, eta.c_str());
      if (last) std::fputc('\n', stderr);
    } else if (percent / 10 != last_tenth_ || last) {
      last_tenth_ = percent / 10;
      std::fprintf(stderr, "sweep: %lld/%lld samples (%d%%), elapsed %s, ETA %s\n",
                   static_cast<long long>(done), static_cast<long long>(total_), percent,
                   clock_text(elapsed).c_str(), eta.c_str());
    }
    std::fflush(stderr);
  }

 private:
  std::int64_t total_;
  std::int64_t before_;
  bool tty_;
  std::chrono::steady_clock::time_point start_;
  int last_tenth_ = -1;
};

std::string default_out(const std::string& file) {
  return std::filesystem::path(file).stem().string() + ".csv";
}

int run_sweep(const SweepOptions& o) {
  const Sweep sweep = read_sweep_file(o.file);
  if (o.columns) {
    std::cout << csv_line(sweep_columns(sweep)) << "\n";
    return 0;
  }
  if (o.index) {
    std::cout << csv_line(run_sweep_sample(sweep, *o.index, o.failure_dir)) << "\n";
    return 0;
  }
  g_interrupted = false;
  std::signal(SIGINT, on_interrupt);
  std::signal(SIGTERM, on_interrupt);
  // Every sample's scene is checked before the first runs: a bad combination fails now.
  validate_sweep_samples(sweep);
  const std::string out = o.out.empty() ? default_out(o.file) : o.out;
  std::vector<std::vector<std::string>> rows;
  if (o.resume && std::filesystem::exists(out)) rows = read_sweep_table(sweep, out);
  std::set<std::int64_t> finished;
  for (const auto& row : rows) finished.insert(std::stoll(row[0]));
  std::vector<std::int64_t> pending;
  const std::int64_t size = sweep_size(sweep);
  for (std::int64_t i = 0; i < size; ++i) {
    if (!finished.count(i)) pending.push_back(i);
  }
  if (!o.failure_dir.empty()) std::filesystem::create_directories(o.failure_dir);

  const int jobs = o.jobs > 0 ? o.jobs : std::max(1u, std::thread::hardware_concurrency());
  std::fprintf(stderr, "sweep: %lld samples, %zu to run (%zu already in %s), %d jobs\n",
               static_cast<long long>(size), pending.size(), finished.size(), out.c_str(), jobs);
  std::atomic<std::size_t> next{0};
  std::atomic<std::int64_t> done{0};
  std::mutex rows_mutex;
  std::condition_variable finished_one;  // wakes the progress loop when a sample ends
  std::exception_ptr failure;
  // A sample in flight finishes; no new one starts once interrupted or after an error.
  auto worker = [&] {
    while (!g_interrupted) {
      const std::size_t k = next++;
      if (k >= pending.size()) return;
      try {
        std::vector<std::string> row = run_sweep_sample(sweep, pending[k], o.failure_dir);
        const std::lock_guard<std::mutex> lock(rows_mutex);
        rows.push_back(std::move(row));
      } catch (...) {
        const std::lock_guard<std::mutex> lock(rows_mutex);
        if (!failure) failure = std::current_exception();
        g_interrupted = true;
      }
      ++done;
      finished_one.notify_one();
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < std::min<std::int64_t>(jobs, std::max<std::size_t>(pending.size(), 1)); ++t)
    threads.emplace_back(worker);
  Progress progress(size, static_cast<std::int64_t>(finished.size()));
  const auto all_done = [&] { return done >= static_cast<std::int64_t>(pending.size()); };
  while (!all_done() && !g_interrupted) {
    progress.show(done, false);
    // Redrawn five times a second; the last sample's end (not the next tick) ends the wait.
    std::unique_lock<std::mutex> lock(rows_mutex);
    finished_one.wait_for(lock, std::chrono::milliseconds(200), all_done);
  }
  for (std::thread& t : threads) t.join();
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  progress.show(done, true);
  const std::size_t written = rows.size();
  write_sweep_table(sweep, out, std::move(rows), PIVOT_GIT_HASH);
  std::fprintf(stderr, "sweep: %zu of %lld rows in %s (+ %s.json)\n", written,
               static_cast<long long>(size), out.c_str(), out.c_str());
  if (failure) std::rethrow_exception(failure);
  if (g_interrupted) {
    std::fprintf(stderr, "sweep: interrupted; `--resume` runs the %lld samples left\n",
                 static_cast<long long>(size) - static_cast<long long>(written));
    return 130;  // the shell's convention for death by SIGINT
  }
  return 0;
}

}  // namespace

void add_sweep_command(CLI::App& app, int* exit_code) {
  auto o = std::make_shared<SweepOptions>();
  CLI::App* cmd = app.add_subcommand("sweep", "Run a sweep file's samples into a results table");
  cmd->add_option("FILE", o->file, "Sweep file (JSON, docs/sweeps.md)")->required();
  cmd->add_option("--index", o->index, "Run only sample I and print its row (CSV, no header)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_flag("--columns", o->columns, "Print the table's header line and exit");
  cmd->add_option("-j,--jobs", o->jobs, "Samples run at once (default: the cores)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--out", o->out, "Results CSV (+ OUT.json sidecar); default: FILE's stem.csv");
  cmd->add_flag("--resume", o->resume, "Keep the rows already in --out and run only the others");
  cmd->add_option("--failure-dir", o->failure_dir,
                  "Where failed solves' problems are written (default: .)");
  cmd->callback([o, exit_code] { *exit_code = run_sweep(*o); });
}

}  // namespace pivot::cli
