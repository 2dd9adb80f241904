#include "thread_pool.hpp"

namespace grbda::detail {

namespace {
/// Spin on a condition a little, then give the core away between checks.
template <class Ready>
void spinWait(Ready ready) {
  for (int k = 0; !ready(); ++k)
    if (k > 64) std::this_thread::yield();
}
constexpr int kSpinsBeforeSleep = 20000;
}  // namespace

ThreadPool::ThreadPool(int threads) : size_(threads < 1 ? 1 : threads) {
  workers_.reserve(static_cast<size_t>(size_ - 1));
  for (int t = 1; t < size_; ++t) workers_.emplace_back([this, t] { workerLoop(t); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_.store(true);
    generation_.fetch_add(1);
  }
  wake_.notify_all();
  for (auto& w : workers_) w.join();
}

void ThreadPool::run(Task task, void* context) {
  if (size_ == 1) {
    task(context, 0);
    return;
  }
  task_ = task;
  context_ = context;
  finished_.store(0);
  {
    std::lock_guard<std::mutex> lock(mutex_);  // pairs with the workers' sleep
    generation_.fetch_add(1);
  }
  wake_.notify_all();
  task(context, 0);
  spinWait([&] { return finished_.load() == size_ - 1; });
}

void ThreadPool::barrier() {
  if (size_ == 1) return;
  const unsigned round = round_.load();
  if (arrived_.fetch_add(1) == size_ - 1) {
    arrived_.store(0);
    round_.fetch_add(1);  // releases the others
  } else {
    spinWait([&] { return round_.load() != round; });
  }
}

void ThreadPool::workerLoop(int thread) {
  unsigned seen = 0;
  for (;;) {
    // wait for the next task: spin first (calls come in bursts), then sleep
    int spins = 0;
    while (generation_.load() == seen && spins < kSpinsBeforeSleep) {
      ++spins;
      if (spins > 64) std::this_thread::yield();
    }
    if (generation_.load() == seen) {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return generation_.load() != seen; });
    }
    seen = generation_.load();
    if (stop_.load()) return;
    task_(context_, thread);
    finished_.fetch_add(1);
  }
}

}  // namespace grbda::detail
