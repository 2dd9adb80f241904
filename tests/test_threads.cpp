// One Model shared read-only by several threads, each with its own Data, gives exactly the
// single-threaded answers (no hidden shared mutable state in the model or the algorithms).
#include <gtest/gtest.h>

#include <thread>

#include "support/random_model.hpp"

using namespace grbda;
using namespace grbda::testsupport;

namespace {

struct ThreadState {
  VecX q, v, x;
};

struct Answers {
  std::vector<VecX> qdd, tau;
  std::vector<MatX> H;
};

Answers solve(const Model& model, const std::vector<ThreadState>& states) {
  Data data(model);  // this thread's own workspace
  Answers out;
  for (const ThreadState& s : states) {
    out.qdd.push_back(forwardDynamics(model, data, s.q, s.v, s.x));
    out.tau.push_back(inverseDynamics(model, data, s.q, s.v, s.x));
    out.H.push_back(massMatrix(model, data, s.q));
  }
  return out;
}

void expectSharedModelGivesSingleThreadedAnswers(const Model& model, Rng& rng) {
  constexpr int kThreads = 4, kStates = 200;
  std::vector<std::vector<ThreadState>> work(kThreads);
  for (auto& list : work)
    for (int s = 0; s < kStates; ++s)
      list.push_back({randomConfiguration(rng, model), randomVector(rng, model.nv()), randomVector(rng, model.nv())});

  std::vector<Answers> serial;
  for (const auto& list : work) serial.push_back(solve(model, list));

  std::vector<Answers> parallel(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] { parallel[t] = solve(model, work[t]); });
  for (auto& th : threads) th.join();

  for (int t = 0; t < kThreads; ++t)
    for (int s = 0; s < kStates; ++s) {
      // Bit for bit: the same operations in the same order on the same inputs.
      ASSERT_TRUE(parallel[t].qdd[s] == serial[t].qdd[s]) << "thread " << t << " state " << s;
      ASSERT_TRUE(parallel[t].tau[s] == serial[t].tau[s]) << "thread " << t << " state " << s;
      ASSERT_TRUE(parallel[t].H[s] == serial[t].H[s]) << "thread " << t << " state " << s;
    }
}

}  // namespace

TEST(Threads, SharedFixedBaseModelGivesSingleThreadedAnswersBitForBit) {
  Rng rng(71);
  TreeOptions opt;
  opt.numLinks = 12;
  expectSharedModelGivesSingleThreadedAnswers(randomTree(rng, opt), rng);
}

TEST(Threads, SharedFloatingBaseModelGivesSingleThreadedAnswersBitForBit) {
  Rng rng(72);
  TreeOptions opt;
  opt.numLinks = 12;
  opt.floatingBase = true;
  expectSharedModelGivesSingleThreadedAnswers(randomTree(rng, opt), rng);
}
