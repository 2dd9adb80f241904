#pragma once
// What the C++ examples share: the bundled models' folder, a --short flag, an optional --csv FILE,
// and the Mini Cheetah's poses by joint name.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "grbda/grbda.hpp"
#include "grbda/sim/simulator.hpp"

namespace example {

struct Args {
  bool isShort = false;  ///< the CI length
  std::string csv;       ///< where to write the time series (none: not written)
};

inline Args parseArgs(int argc, char** argv, const char* usage) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--short")) a.isShort = true;
    else if (!std::strcmp(argv[i], "--csv") && i + 1 < argc) a.csv = argv[++i];
    else {
      std::fprintf(stderr, "usage: %s\n", usage);
      std::exit(2);
    }
  }
  return a;
}

inline std::string model(const std::string& file) { return std::string(GRBDA_MODELS_DIR) + "/" + file; }

/// Positions with every leg joint whose name ends in "_<part>_j" at angles[part], the base at height.
inline grbda::VecX legPose(const grbda::Model& model, double height, double abad, double hip, double knee) {
  grbda::VecX q = model.neutralConfiguration();
  q[2] = height;
  const std::vector<std::pair<std::string, double>> parts = {{"_abad_j", abad}, {"_hip_j", hip}, {"_knee_j", knee}};
  for (int i = 0; i < model.nq(); ++i)
    for (const auto& [suffix, angle] : parts) {
      const std::string& name = model.positionNames()[static_cast<size_t>(i)];
      if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
        q[i] = angle;
    }
  return q;
}

/// Total mass [kg] (the bodies' spatial inertias hold m at (5, 5)).
inline double mass(const grbda::Model& model) {
  double m = 0.0;
  for (int b = 0; b < model.numBodies(); ++b) m += model.body(b).inertia(5, 5);
  return m;
}

/// Writes columns (a header, then one row per sample) when path is not empty.
inline void writeCsv(const std::string& path, const std::string& header, const std::vector<std::vector<double>>& rows) {
  if (path.empty()) return;
  std::ofstream out(path);
  out << header << "\n";
  for (const auto& row : rows) {
    for (size_t i = 0; i < row.size(); ++i) out << (i ? "," : "") << row[i];
    out << "\n";
  }
  std::printf("time series: %s\n", path.c_str());
}

/// Fails the example (exit 1) with a message unless ok.
inline void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "FAILED: %s\n", what);
    std::exit(1);
  }
}

}  // namespace example
