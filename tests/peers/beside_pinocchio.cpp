// grbda and Pinocchio 4.1 (the package index's cmeel wheels) linked into one program: each loads
// the same URDF with its own parser and copy of urdfdom/tinyxml2 (Debian's urdfdom 3 and tinyxml2 9
// for grbda, the wheels' 6 and 11 for Pinocchio; octomap 1.9 through FCL beside 1.10 through coal),
// computes forward dynamics at the same state, and the program exits cleanly. The two answers on a
// tree model agree (an independent implementation). Built twice, linking grbda first and last, so
// neither load order hides an interposition (tests/peers/CMakeLists.txt).
// Usage: beside_pinocchio MODEL.urdf
#include <pinocchio/algorithm/aba.hpp>
#include <pinocchio/algorithm/joint-configuration.hpp>
#include <pinocchio/parsers/urdf.hpp>

#include <cstdio>

#include "grbda/grbda.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: beside_pinocchio MODEL.urdf\n");
    return 2;
  }
  pinocchio::Model pinModel;
  pinocchio::urdf::buildModel(argv[1], pinModel);
  pinocchio::Data pinData(pinModel);
  const grbda::Model model = grbda::loadUrdf(argv[1]);
  grbda::Data data(model);
  if (model.nq() != pinModel.nq || model.nv() != pinModel.nv) {
    std::fprintf(stderr, "the two models differ: grbda nq %d nv %d, Pinocchio nq %d nv %d\n", model.nq(), model.nv(),
                 pinModel.nq, pinModel.nv);
    return 1;
  }
  const int n = model.nv();  // a tree of 1-DoF joints: the same coordinates in both
  Eigen::VectorXd q(n), v(n), tau(n);
  for (int i = 0; i < n; ++i) {
    q[i] = 0.3 + 0.2 * i;
    v[i] = -0.5 + 0.4 * i;
    tau[i] = 0.7 - 0.3 * i;
  }
  const Eigen::VectorXd pinQdd = pinocchio::aba(pinModel, pinData, q, v, tau);
  const grbda::VecX qdd = grbda::forwardDynamics(model, data, q, v, tau);
  const double difference = (qdd - pinQdd).cwiseAbs().maxCoeff() / (1.0 + pinQdd.cwiseAbs().maxCoeff());
  std::printf("grbda fd %s, Pinocchio aba: relative difference %.2e\n", model.name().c_str(), difference);
  return difference < 1e-10 ? 0 : 1;
}
