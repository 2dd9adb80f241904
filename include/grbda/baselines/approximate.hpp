#pragma once
// Approximate baselines (spec §6.9.3): drop the dependent bodies (rotors) of a constrained model
// and keep the independent bodies as an ordinary tree, optionally adding the rotors' reflected
// inertia as a constant joint-space offset H_off:
//   τ ≈ RNEA_tree(y, ẏ, ÿ) + H_off ÿ,      H ≈ H_tree + H_off.
// None ("unconstrained"): H_off = 0. Diagonal ("approximate", MuJoCo-style armature): diag(R).
// BlockDiagonal: the full per-cluster blocks R (dense forward dynamics).
//
// R_k = Σ_rotors S_rᵀ I_r S_r with S_r = s_r G_r (joint axis times the rotor's row of the static
// constraint G), i.e. only the rotor's spin relative to its carrier is kept. For a geared rotor
// this is N² e_rᵀ I_r e_r (rotational inertia about the rotor frame origin). It is exact when the
// carrier is the ground. Clusters with implicit (loop) constraints have no such formula (spec:
// "no straightforward approximation" for four-bars): they get R_k = 0, i.e. they stay
// unconstrained under every option, and are listed in ApproximateModel::unsupportedClusters.
//
// Coordinates: the tree model's q, v are the original model's independent q, v, entry by entry
// (independentTreeModel checks this), so the functions below take the original model's
// independent state. They use a Data built from the tree: Data data(approx.tree).
#include <string>
#include <vector>

#include "grbda/data.hpp"

namespace grbda {

/// The independent tree of a constrained model: the bodies whose joints are independent, with
/// their joints, tree transforms and inertias (nothing added). A kept body whose parent was
/// removed hangs from its nearest kept ancestor (or the ground) through the composed tree
/// transforms at zero dependent coordinates (for geared rotors and belts the removed bodies are
/// leaves, so this never happens there). Frames: those of kept bodies and of the ground are kept
/// (merged links again as massless fixed children); frames of removed bodies are dropped.
/// Throws ModelError if the tree's coordinate order would differ from the model's independent
/// order (a cluster with two independent sibling bodies, one of which carries other clusters).
Model independentTreeModel(const Model& model);

/// Reflected inertia R (nv x nv, block-diagonal over clusters, constant). Names of the clusters
/// with dependent bodies but implicit constraints (R_k left 0) go to `unsupportedClusters`.
MatX reflectedInertia(const Model& model, std::vector<std::string>* unsupportedClusters = nullptr);

enum class RotorApproximation { None, Diagonal, BlockDiagonal };

/// The spanning tree of the independent joints with the rotors' inertia approximated (makeApproximateModel).
struct ApproximateModel {
  Model tree;                                  ///< independentTreeModel(original)
  RotorApproximation approximation = RotorApproximation::None;  ///< which approximation massOffset holds
  MatX reflectedInertia;                       ///< R, whatever the option
  VecX armature;                               ///< diag(H_off) (zero for None)
  MatX massOffset;                             ///< H_off: 0, diag(R) or R
  std::vector<std::string> unsupportedClusters;  ///< clusters left unconstrained (implicit loops)
};

ApproximateModel makeApproximateModel(const Model& model, RotorApproximation approximation);

/// τ = RNEA_tree(q, v, qdd) + H_off qdd (minus Jᵀ fext; fext per tree body). Result in data.tau.
const VecX& approximateInverseDynamics(const ApproximateModel& approx, Data& data, const VecRef& q, const VecRef& v,
                                       const VecRef& qdd, const ExternalForces* fext = nullptr);
/// qdd = (H_tree + H_off)^{-1}(τ − C_tree (+ Jᵀ fext)): ABA (None), ABA with armature (Diagonal),
/// dense Cholesky (BlockDiagonal; overwrites data.H with its factor). Result in data.qdd.
const VecX& approximateForwardDynamics(const ApproximateModel& approx, Data& data, const VecRef& q, const VecRef& v,
                                       const VecRef& tau, const ExternalForces* fext = nullptr);
/// H_tree(q) + H_off. Result in data.H.
const MatX& approximateMassMatrix(const ApproximateModel& approx, Data& data, const VecRef& q);
/// C_tree(q, v) (the offset does not depend on velocities). Result in data.C.
const VecX& approximateBiasForces(const ApproximateModel& approx, Data& data, const VecRef& q, const VecRef& v);

class OsimSet;  // algorithms/osim.hpp

/// Λ⁻¹ = J (H_tree + H_off)⁻¹ Jᵀ of the approximate model: C-EFPA (inverseOperationalSpaceInertia,
/// same layout and `linearOnly`) on the independent tree with H_off added to the articulated
/// joint-space inertias D_k (the armature). `set` is built on approx.tree (frames by
/// approx.tree.frameIndex). None and Diagonal always work; BlockDiagonal only when R has no
/// entries coupling two tree joints (InputError otherwise). Result in Data's workspace (as inverseOperationalSpaceInertia); allocates
/// nothing after the first call with a given set.
const MatX& approximateInverseOperationalSpaceInertia(const ApproximateModel& approx, Data& data, const OsimSet& set,
                                                      const VecRef& q, bool linearOnly = false);

}  // namespace grbda
