// Whether a running solve should stop (LemkeOptions::cancel or ::deadline). The pivoting
// loops ask before every pivot and end with LcpStatus::Cancelled.
#pragma once

#include <atomic>
#include <chrono>
#include <optional>

#include "pivot/lcp.hpp"

namespace pivot {

class StopRequest {
 public:
  explicit StopRequest(const LemkeOptions& options)
      : cancel_(options.cancel), deadline_(options.deadline) {}

  // True once the flag is set or the deadline passed. The clock is read on the first call
  // and every kClockPeriod calls after: a pivot of the smallest problems costs about one
  // clock read.
  bool operator()() {
    if (cancel_ && cancel_->load(std::memory_order_relaxed)) return true;
    return deadline_ && calls_++ % kClockPeriod == 0 &&
           std::chrono::steady_clock::now() >= *deadline_;
  }

 private:
  static constexpr int kClockPeriod = 8;
  const std::atomic<bool>* cancel_;
  std::optional<std::chrono::steady_clock::time_point> deadline_;
  int calls_ = 0;
};

}  // namespace pivot
