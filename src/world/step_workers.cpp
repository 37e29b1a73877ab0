#include "world/step_workers.hpp"

namespace pivot {

StepWorkers::~StepWorkers() { stop_workers(); }

void StepWorkers::run_calls(int count, int threads, Call call, const void* context) {
  // One island, or one thread: nothing to share, and no worker to wake (a wake costs
  // tens of microseconds, a resting stack's whole step).
  if (threads <= 1 || count <= 1) {
    for (int i = 0; i < count; ++i) call(context, i);
    return;
  }
  if (static_cast<int>(workers_.size()) != threads - 1) {
    stop_workers();
    start_workers(threads - 1);
  }
  {
    std::unique_lock<std::mutex> lock(mutex_);
    idle_.wait(lock, [this] { return active_ == 0; });
    call_ = call;
    context_ = context;
    count_ = count;
    threads_ = threads;
    for (int t = 0; t < threads; ++t) {
      next_[t].store(static_cast<int>(static_cast<long long>(count) * t / threads),
                     std::memory_order_relaxed);
      end_[t] = static_cast<int>(static_cast<long long>(count) * (t + 1) / threads);
    }
    finished_.store(0, std::memory_order_relaxed);
    ++job_;
  }
  wake_.notify_all();
  drain(0);
  if (spin_until([&] { return finished_.load(std::memory_order_acquire) == count; })) return;
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [&] { return finished_.load(std::memory_order_acquire) == count; });
}

void StepWorkers::start_workers(int workers) {
  stop_ = false;
  next_ = std::make_unique<std::atomic<int>[]>(workers + 1);
  end_.assign(workers + 1, 0);
  // Each waits for the job after the current one: reading job_ in the new thread could
  // see the next job's number already, and that job would never be taken up.
  for (int k = 0; k < workers; ++k)
    workers_.emplace_back([this, k, seen = job_.load()] { work(k + 1, seen); });
}

void StepWorkers::stop_workers() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : workers_) t.join();
  workers_.clear();
}

void StepWorkers::work(int thread, std::uint64_t seen) {
  for (;;) {
    spin_until([&] { return job_.load(std::memory_order_acquire) != seen; });
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || job_ != seen; });
      if (stop_) return;
      seen = job_;
      ++active_;
    }
    drain(thread);
    const std::lock_guard<std::mutex> lock(mutex_);
    if (--active_ == 0) idle_.notify_one();
  }
}

void StepWorkers::drain(int thread) {
  for (int k = 0; k < threads_; ++k) {
    const int block = (thread + k) % threads_;
    for (int i = next_[block].fetch_add(1, std::memory_order_relaxed); i < end_[block];
         i = next_[block].fetch_add(1, std::memory_order_relaxed)) {
      call_(context_, i);
      if (finished_.fetch_add(1, std::memory_order_acq_rel) + 1 == count_) {
        // Under the mutex, so the caller cannot miss it between its test and its wait.
        const std::lock_guard<std::mutex> lock(mutex_);
        done_.notify_one();
      }
    }
  }
}

}  // namespace pivot
