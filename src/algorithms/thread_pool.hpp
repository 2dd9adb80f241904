#pragma once
// Internal: a small fixed thread pool for the parallel CFA. The threads are created once (with
// the workspace) and run one function at a time on every thread, the caller being thread 0:
// pool.run(fn, ctx) calls fn(ctx, t) for t = 0..T−1 and returns when all are done. Inside fn the
// threads meet at barrier(). No allocation, std::function or lock on the hot path: the start
// signal and the barrier are atomics (spinning briefly, then yielding); idle workers sleep on a
// condition variable, so a pool between calls costs no CPU.
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace grbda::detail {

class ThreadPool {
 public:
  using Task = void (*)(void* context, int thread);

  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int size() const { return size_; }
  /// Runs task(context, t) on every thread t (the caller is t = 0) and waits for all.
  void run(Task task, void* context);
  /// Called by every thread inside a task: returns when all threads have arrived.
  void barrier();

 private:
  void workerLoop(int thread);

  int size_;
  std::vector<std::thread> workers_;
  Task task_ = nullptr;
  void* context_ = nullptr;
  std::atomic<unsigned> generation_{0};  ///< incremented by run(): a new task is there
  std::atomic<int> finished_{0};         ///< workers done with the current task
  std::atomic<bool> stop_{false};
  std::atomic<int> arrived_{0};          ///< barrier: threads arrived in this round
  std::atomic<unsigned> round_{0};       ///< barrier: completed rounds
  std::mutex mutex_;
  std::condition_variable wake_;
};

}  // namespace grbda::detail
