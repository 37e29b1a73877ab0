// The threads a World steps on (WorldOptions::threads): the calling thread and threads - 1
// workers kept from step to step, for the two stages that split into independent parts:
// collision by candidate pair (each writes its own slot, CollisionPipeline) and the
// islands (each writes its own storage). The step gathers both in order, so its result is
// the same, to the bit, for any number of threads (tests/world/step_threads_test.cpp).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace pivot {

class StepWorkers {
 public:
  StepWorkers() = default;
  ~StepWorkers();
  StepWorkers(const StepWorkers&) = delete;
  StepWorkers& operator=(const StepWorkers&) = delete;

  // f(i) for every i in [0, count), on up to `threads` threads, the caller's among them;
  // returns when every call has returned. f must not throw. Thread t takes the t-th of
  // `threads` equal blocks of indices in order, then takes what is left of the others'
  // blocks, one index at a time: the islands of a scene at rest are met by the same
  // thread step after step, their storage in its core's cache (handed out one at a time
  // from a shared counter, each island's storage moved between the cores' caches, and
  // its stages took 30 % longer), and a large island holds back no other.
  template <class F>
  void run(int count, int threads, const F& f) {
    run_calls(
        count, threads, [](const void* context, int i) { (*static_cast<const F*>(context))(i); },
        &f);
  }

 private:
  using Call = void (*)(const void* context, int index);
  void run_calls(int count, int threads, Call call, const void* context);
  void start_workers(int workers);
  void stop_workers();
  // Worker `thread`'s loop: wait for a job after `seen`, take what is left of it.
  void work(int thread, std::uint64_t seen);
  void drain(int thread);  // take the current job's indices, own block first
  // Whether done() came true within kSpin_us.
  template <class Done>
  static bool spin_until(const Done& done) {
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::microseconds(kSpin_us);
    for (int k = 1; !done(); ++k) {
      if (k % 64 == 0 && std::chrono::steady_clock::now() > give_up) return done();
    }
    return true;
  }

  // A job ends when its calls have, not when every worker has looked at it: a worker the
  // kernel wakes late finds nothing left, and the caller did not wait for that wake (it
  // did, and each step of a resting grid waited for a wake that brought nothing).
  // Workers still inside a job's drain are counted (active_), and the next job waits for
  // none to be, so none reads a job's tables while they are set.
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_, done_, idle_;
  // Counts the jobs handed out; a worker waits for the next one. Written under mutex_,
  // read without it while a worker looks for the next job (work).
  std::atomic<std::uint64_t> job_{0};
  // How long a worker, and the caller at a job's end, look before they sleep. The kernel's
  // wake of a sleeping worker takes long enough that the caller had done most of a grid's
  // islands before the worker began: the 10 x 10 x 2 grid's 10 s took 0.59 s on two
  // threads with no spin, 0.56 s with 50 us, 0.535 s with 300 us, 0.545 s with 1 ms (medians of
  // three `pivot run grid.json --duration 10 --threads 2`; 0.80 s on one thread);
  // a step's serial stages (collision, integration) take less than 300 us there.
  static constexpr int kSpin_us = 300;
  bool stop_ = false;
  int active_ = 0;                // workers inside a job's drain
  std::atomic<int> finished_{0};  // the current job's calls that returned
  Call call_ = nullptr;
  const void* context_ = nullptr;
  int count_ = 0;
  int threads_ = 0;  // the current job's
  // Per thread: the next index of its block, and the block's end.
  std::unique_ptr<std::atomic<int>[]> next_;
  std::vector<int> end_;
};

}  // namespace pivot
