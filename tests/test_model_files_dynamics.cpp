// Every bundled model and every reference URDF+ file (when ../shared/reference-models exists):
// the cluster algorithms agree with the exact spanning-tree baselines at random valid states.
#include <gtest/gtest.h>

#include <filesystem>

#include "cluster_support/constrained_models.hpp"
#include "grbda/grbda.hpp"
#include "support/compare.hpp"

using namespace grbda;
using namespace grbda::testsupport;
namespace fs = std::filesystem;

namespace {

std::vector<fs::path> modelFiles() {
  std::vector<fs::path> files;
  for (const char* dir : {"/models", "/models/generated", "/../shared/reference-models/robot-models"}) {
    const fs::path d = fs::path(GRBDA_SOURCE_DIR).string() + dir;
    if (!fs::is_directory(d)) continue;
    for (const auto& e : fs::directory_iterator(d))
      if (e.path().extension() == ".urdf") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

TEST(ModelFiles, ClusterAlgorithmsMatchProjectionAndLagrangeOnEveryFile) {
  setLogLevel(LogLevel::Error);
  Rng rng(2024);
  int loaded = 0;
  double worst = 0.0;
  for (const auto& path : modelFiles()) {
    SCOPED_TRACE(path.string());
    Model model = [&] {
      try {
        return loadUrdf(path.string());
      } catch (const ModelError& e) {
        // the reference's single Mini Cheetah leg files are fragments (a leg without its trunk, or
        // the legacy leg whose couplings have no independent flags, spec §9.1)
        const std::string name = path.filename().string();
        if (name.rfind("mini_cheetah_", 0) == 0 && name.find("leg") != std::string::npos) return Model();
        throw;
        throw;
      }
    }();
    if (model.numBodies() == 0) continue;
    ++loaded;
    Data data(model);
    for (int s = 0; s < 5; ++s) {
      const VecX q = randomIndependentConfiguration(rng, model);
      const VecX v = randomVector(rng, model.nv()), tau = randomVector(rng, model.nv());
      VecX ydd;
      try {
        ydd = forwardDynamics(model, data, q, v, tau);
      } catch (const NumericalError&) {
        continue;  // a loop that does not close at this random configuration
      }
      const VecX proj = projectionForwardDynamics(model, data, q, v, tau);
      const VecX lag = lagrangeForwardDynamics(model, data, q, v, tau);
      EXPECT_LT(relErr(ydd, proj), 1e-9);
      EXPECT_LT(relErr(ydd, lag), 1e-8);
      const VecX tauBack = inverseDynamics(model, data, q, v, ydd);
      EXPECT_LT(relErr(tauBack, tau), 1e-9);
      EXPECT_LT(relErr(tauBack, projectionInverseDynamics(model, data, q, v, ydd)), 1e-9);
      worst = std::max({worst, relErr(ydd, proj), relErr(tauBack, tau)});
    }
  }
  EXPECT_GT(loaded, 10);
  std::cout << "[ measured ] " << loaded << " model files, worst relative error " << worst << "\n";
}
