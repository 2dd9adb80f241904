// libFuzzer target: bytes -> a random ModelBuilder program (tests/support/random_cluster_program.hpp).
// The first four bytes seed the continuous values (lengths, axes, masses); every later byte is one
// structural choice (base, number and kind of mechanisms, where each hangs, gear ratios, mass
// spread, a deliberate mistake), so coverage guidance mutates the structure itself. The program
// must build or throw ModelError (always ModelError when it carries a mistake); a model that
// builds must satisfy the cross-checks of tests/support/random_model_checks.hpp at one state near
// its neutral pose, or throw NumericalError there. Anything else is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "../tests/support/random_cluster_program.hpp"
#include "../tests/support/random_model_checks.hpp"

namespace {
bool quiet() {
  grbda::setLogLevel(grbda::LogLevel::Off);
  return true;
}

[[noreturn]] void finding(const grbda::testsupport::RandomProgram& program, const std::string& what) {
  std::fprintf(stderr, "fuzz_random_model: %s\n  program: %s\n", what.c_str(), program.description.c_str());
  std::abort();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size) {
  using namespace grbda;
  using namespace grbda::testsupport;
  static const bool silenced = quiet();
  (void)silenced;
  if (size > 256) return -1;  // a program needs a few dozen choices at most
  std::uint32_t seed = 0;
  for (size_t i = 0; i < 4 && i < size; ++i) seed = seed << 8 | bytes[i];
  Rng rng(seed);
  ByteChoices choose(bytes + std::min<size_t>(size, 4), size - std::min<size_t>(size, 4));
  const RandomProgram program = randomClusterProgram(choose, rng);
  Model model;
  try {
    model = program.builder.build();
  } catch (const ModelError&) {
    return 0;
  }
  if (program.hasMistake) finding(program, "a deliberate mistake was built");
  Data data(model);
  ProximalData proximal(model);
  const RandomState state = randomStateNear(model, data, rng);
  try {
    const StateCheck check = checkModelAtState(model, data, proximal, state.q, state.v, state.tau);
    if (!check.failure.empty()) finding(program, check.failure);
  } catch (const NumericalError&) {  // the state is out of reach of a loop: typed, allowed
  }
  return 0;
}
