#pragma once
// Test support for the MJCF tests: two models of one robot (one from MJCF, one from URDF or code)
// compared coordinate by coordinate, matched by coordinate name.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "cluster_support/constrained_models.hpp"
#include "grbda/grbda.hpp"
#include "grbda/mjcf/mjcf.hpp"
#include "support/compare.hpp"
#include "support/model_files.hpp"

namespace grbda::testsupport {

/// index in `b` of each name of `a` (a test failure when one is missing)
inline std::vector<int> nameMap(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::vector<int> out;
  for (const std::string& n : a) {
    const auto it = std::find(b.begin(), b.end(), n);
    EXPECT_NE(it, b.end()) << "coordinate '" << n << "' missing";
    out.push_back(it == b.end() ? 0 : static_cast<int>(it - b.begin()));
  }
  return out;
}

/// The worst relative differences of forward dynamics and mass matrix over random states.
struct Agreement {
  double qdd = 0.0, mass = 0.0;
  int samples = 0;
};

/// a and b describe one robot with the same coordinate names: q̈ = FD(q, v, τ) and H(q) agree.
inline Agreement compareModels(const Model& a, const Model& b, Rng& rng, int samples) {
  Agreement out;
  EXPECT_EQ(a.nq(), b.nq());
  EXPECT_EQ(a.nv(), b.nv());
  if (a.nq() != b.nq() || a.nv() != b.nv()) return out;
  const std::vector<int> pq = nameMap(a.positionNames(), b.positionNames());
  const std::vector<int> pv = nameMap(a.velocityNames(), b.velocityNames());
  Data da(a), db(b);
  for (int s = 0; s < samples; ++s) {
    const VecX qa = randomIndependentConfiguration(rng, a);
    const VecX va = randomVector(rng, a.nv()), ta = randomVector(rng, a.nv());
    VecX qb(b.nq()), vb(b.nv()), tb(b.nv());
    for (int i = 0; i < a.nq(); ++i) qb[pq[static_cast<size_t>(i)]] = qa[i];
    for (int i = 0; i < a.nv(); ++i) vb[pv[static_cast<size_t>(i)]] = va[i], tb[pv[static_cast<size_t>(i)]] = ta[i];
    const VecX fa = forwardDynamics(a, da, qa, va, ta);
    const VecX fb = forwardDynamics(b, db, qb, vb, tb);
    const MatX Ha = massMatrix(a, da, qa);
    const MatX Hb = massMatrix(b, db, qb);
    VecX fbInA(a.nv());
    MatX HbInA(a.nv(), a.nv());
    for (int i = 0; i < a.nv(); ++i) {
      fbInA[i] = fb[pv[static_cast<size_t>(i)]];
      for (int j = 0; j < a.nv(); ++j) HbInA(i, j) = Hb(pv[static_cast<size_t>(i)], pv[static_cast<size_t>(j)]);
    }
    out.qdd = std::max(out.qdd, relErr(fa, fbInA));
    out.mass = std::max(out.mass, relErr(Ha, HbInA));
    ++out.samples;
  }
  return out;
}

/// The cluster type names of a model, sorted (e.g. 12 x "RevoluteWithRotor", "Free").
inline std::vector<std::string> clusterTypes(const Model& m) {
  std::vector<std::string> out;
  for (int k = 0; k < m.numClusters(); ++k) out.push_back(m.cluster(k).typeName());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace grbda::testsupport
