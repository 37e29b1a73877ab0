// The threads a World steps its islands on (WorldOptions::threads): the calling thread and
// threads - 1 workers kept from step to step. Islands share no bodies and no contacts, so
// each island's stages may run on any thread; each writes only its own storage, and the
// step merges what they wrote in island order, so a step's result is the same, to the bit,
// for any number of threads (tests/world/island_threads_test.cpp).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace pivot {

class IslandWorkers {
 public:
  IslandWorkers() = default;
  ~IslandWorkers();
  IslandWorkers(const IslandWorkers&) = delete;
  IslandWorkers& operator=(const IslandWorkers&) = delete;

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
  // Worker `thread`'s loop: wait for a job after `seen`, take its indices, report done.
  void work(int thread, std::uint64_t seen);
  void drain(int thread);  // take the current job's indices, own block first

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::uint64_t job_ = 0;  // counts the jobs handed out; a worker waits for the next one
  bool stop_ = false;
  int busy_ = 0;  // workers not yet done with the current job
  Call call_ = nullptr;
  const void* context_ = nullptr;
  int count_ = 0;
  int threads_ = 0;  // the current job's
  // Per thread: the next index of its block, and the block's end.
  std::unique_ptr<std::atomic<int>[]> next_;
  std::vector<int> end_;
};

}  // namespace pivot
