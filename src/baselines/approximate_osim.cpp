// Inverse operational-space inertia of the approximate models (spec §6.9.3 with §6.5): the
// approximate model is an ordinary tree whose joints carry the constant offset H_off, so
// Λ⁻¹ = J (H_tree + H_off)⁻¹ Jᵀ is C-EFPA on that tree with H_off added to every D_k — the
// same change ABA with armature makes. The C-EFPA code itself is shared, not repeated here.
#include <string>

#include "../kernels/force_propagators.hpp"
#include "grbda/baselines/approximate.hpp"
#include "grbda/errors.hpp"
#include "data_workspace.hpp"

namespace grbda {

namespace {

/// C-EFPA adds only the diagonal blocks of H_off at each tree joint; anything coupling two
/// joints (BlockDiagonal on a cluster of several independent bodies) cannot be represented.
void checkOffsetFitsTheJoints(const ApproximateModel& am, const char* alg) {
  const MatX& M = am.massOffset;
  for (const Cluster& cl : am.tree.clusters())
    for (int c = cl.vIndex; c < cl.vIndex + cl.nv; ++c)
      for (int r = 0; r < M.rows(); ++r)
        if ((r < cl.vIndex || r >= cl.vIndex + cl.nv) && M(r, c) != 0.0)
          throw InputError(std::string(alg) + ": the reflected inertia couples joints '" +
                           am.tree.velocityNames()[static_cast<size_t>(r)] + "' and '" +
                           am.tree.velocityNames()[static_cast<size_t>(c)] +
                           "' (BlockDiagonal); use RotorApproximation::Diagonal or the mass matrix");
}

}  // namespace

const MatX& approximateInverseOperationalSpaceInertia(const ApproximateModel& am, Data& data, const OsimSet& set,
                                                      const VecRef& q, bool linearOnly) {
  DataWorkspace& ws = data.work();
  constexpr const char* alg = "approximateInverseOperationalSpaceInertia";
  const Model& tree = am.tree;
  if (static_cast<int>(ws.Xup.size()) != tree.numBodies() || static_cast<int>(ws.clusters.size()) != tree.numClusters())
    throw InputError(std::string(alg) + ": data was not created for the approximate model (use Data(approx.tree))");
  const MatX* offset = nullptr;
  switch (am.approximation) {
    case RotorApproximation::None: break;
    case RotorApproximation::Diagonal: offset = &am.massOffset; break;
    case RotorApproximation::BlockDiagonal:
      checkOffsetFitsTheJoints(am, alg);
      offset = &am.massOffset;
      break;
  }
  return detail::inverseOperationalSpaceInertia(tree, data, set, q, linearOnly, offset, alg);
}

}  // namespace grbda
