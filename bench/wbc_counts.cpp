// The callgrind driver of tools/count_wbc_instructions.sh (issue #24 part A): runs one
// whole-body-control call R times inside wbc_measured_calls (valgrind
// --toggle-collect=wbc_measured_calls counts only those calls), after a warm-up call, at a fixed
// pseudo-random state (joint angles, velocities in [-0.5, 0.5], identity base orientation), the
// spanning positions given (as for the other counts: no Newton completion inside the call).
//
//   wbc_counts MODEL METHOD [REPEAT]
//     MODEL   a URDF file
//     METHOD  c-rnea (inverseDynamics), com (centerOfMass with v), com-jacobian, centroidal
//             (centroidalDynamics: A_G, h_G, dA_G/dt v), centroidal-matrix, centroidal-momentum,
//             centroidal-bias, coriolis, gravity
#include <cstdio>
#include <functional>
#include <iostream>
#include <random>
#include <string>

#include "grbda/grbda.hpp"

using namespace grbda;

extern "C" __attribute__((noinline)) void wbc_measured_calls(const std::function<void()>& call, int repeat) {
  for (int i = 0; i < repeat; ++i) call();
}

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: wbc_counts MODEL METHOD [REPEAT]\n";
    return 1;
  }
  try {
    const Model model = loadUrdf(argv[1]);
    const std::string method = argv[2];
    const int repeat = argc > 3 ? std::stoi(argv[3]) : 10;
    Data data(model);
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(-0.5, 0.5);
    VecX q = model.neutralConfiguration(), v(model.nv()), a(model.nv());
    for (const Cluster& cl : model.clusters())
      if (!model.body(cl.firstBody).joint.hasQuaternion())  // the base keeps its unit quaternion
        for (int i = 0; i < cl.nq; ++i) q[cl.qIndex + i] += u(rng);
    for (int i = 0; i < model.nv(); ++i) v[i] = u(rng), a[i] = u(rng);
    const VecX qs = completeConfiguration(model, data, q);
    std::function<void()> call;
    if (method == "c-rnea") call = [&] { inverseDynamics(model, data, qs, v, a); };
    else if (method == "com") call = [&] { centerOfMass(model, data, qs, v); };
    else if (method == "com-jacobian") call = [&] { centerOfMassJacobian(model, data, qs); };
    else if (method == "centroidal") call = [&] { centroidalDynamics(model, data, qs, v); };
    else if (method == "centroidal-matrix") call = [&] { centroidalMomentumMatrix(model, data, qs); };
    else if (method == "centroidal-momentum") call = [&] { centroidalMomentum(model, data, qs, v); };
    else if (method == "centroidal-bias") call = [&] { centroidalMomentumBias(model, data, qs, v); };
    else if (method == "coriolis") call = [&] { coriolisMatrix(model, data, qs, v); };
    else if (method == "gravity") call = [&] { gravityVector(model, data, qs); };
    else {
      std::cerr << "wbc_counts: unknown method '" << method << "'\n";
      return 1;
    }
    call();  // warm-up: sizes anything sized on first use
    wbc_measured_calls(call, repeat);
    std::cout << model.name() << " " << method << " nv " << model.nv() << "\n";
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "wbc_counts: " << e.what() << "\n";
    return 1;
  }
}
