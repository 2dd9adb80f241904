#pragma once
// The Constraint Force Algorithm (seed 004: Featherstone & Fijany, "A technique for analysing
// constrained rigid-body systems, and its application to the Constraint Force Algorithm"; spec
// §3.4). Forward dynamics of a chain with any joints (revolute, prismatic, a floating base as a
// 6-DoF first joint) and short side branches (articulated bodies), in absolute coordinates:
//     q̈ = T_1'ᵀ (I⁻¹ − I⁻¹ T_2 (T_2ᵀ I⁻¹ T_2)⁻¹ T_2ᵀ I⁻¹) T_1' τ'                     (Eq. 16)
// with T_2 = Pᵀ H^⊥ (joint constraint-force spaces) and the corrected T_1' = Pᵀ I_X H (Hᵀ I_X H)⁻¹.
// The immobilised system A = T_2ᵀ I⁻¹ T_2 is block-tridiagonal: the serial CFA solves it by block
// Thomas in O(N), the parallel CFA by block odd-even cyclic reduction in ⌊log2 N⌋ levels on a
// thread pool. Both also return the joint constraint wrenches (reaction forces).
//
// Usage: CfaData cfa(model);  (throws InputError naming why when the model is not a chain with
// short side branches), then cfaForwardDynamics(model, cfa, q, v, tau) as often as needed: no
// allocation per call.
#include <memory>
#include <string>
#include <vector>

#include "grbda/data.hpp"

namespace grbda {

/// I_X of T_1' (Eq. 16): any block-diagonal SPD choice gives the same q̈; it decides how a joint
/// wrench is split into actuation h̃ τ and constraint wrench.
enum class CfaBasis {
  Identity,  ///< I_X = 1 in world coordinates: h̃ = h (hᵀh)⁻¹ (the paper's "identity of the current basis")
  Inertia,   ///< I_X = the body's articulated inertia: h̃ = I h (hᵀ I h)⁻¹ (unit- and origin-invariant)
};

/// Options of the Constraint Force Algorithm's workspace.
struct CfaOptions {
  int threads = 1;                     ///< threads of the parallel CFA (the caller included), 1..256
  CfaBasis basis = CfaBasis::Identity;  ///< the I_X of T_1' (how joint wrenches split into actuation and constraint)
  int maxBranchDepth = -1;             ///< longest side branch accepted, in bodies; -1: max(3, ⌈log2 N⌉)
};

/// Workspace (and thread pool) of the CFA on one chain-like model.
class CfaData {
 public:
  /// Prepares the chain of `model` (InputError when CFA does not apply, naming the body or
  /// cluster at fault) and, for threads > 1, starts the thread pool.
  explicit CfaData(const Model& model, const CfaOptions& options = {});
  ~CfaData();
  CfaData(const CfaData&) = delete;
  CfaData& operator=(const CfaData&) = delete;

  /// Bodies of the main chain, root first; every other body is on a side branch.
  const std::vector<int>& chainBodies() const;
  int threads() const;  ///< threads of the parallel solve (the caller included)
  const CfaOptions& options() const;  ///< the options it was made with
  /// Elimination levels of the last parallel solve (block cyclic reduction): ⌊log2 N⌋ for N
  /// chain joints (k for N = 2^k). 0 before the first parallel call.
  int reductionLevels() const;

  // Results of the last call
  VecX qdd;                            ///< joint accelerations (model.nv())
  /// Per body: the wrench its parent exerts on it through its joint (world axes, moment about
  /// the world origin): the whole transmitted wrench, actuation included (hᵀ f = τ).
  std::vector<Vec6> jointWrench;
  /// Per body: the workless part of jointWrench, f − h̃ τ (in the joint's constraint-force space
  /// h^⊥, so hᵀ(f − h̃ τ) = 0), with h̃ of the chosen CfaBasis. For the chain joints this is −h^⊥ μ.
  std::vector<Vec6> constraintWrench;

  struct Impl;
  std::unique_ptr<Impl> impl;  ///< the workspace (internal)
};

/// Why CFA does not apply to `model` ("" when it does): a loop cluster, a second body on the
/// ground, or a side branch longer than maxBranchDepth (-1: max(3, ⌈log2 N⌉)), with its body.
std::string cfaUnsupportedReason(const Model& model, int maxBranchDepth = -1);

/// Serial CFA (block Thomas): q̈ = H⁻¹(τ − C + Jᵀ f_ext). q, v, τ as in dynamics.hpp (a model
/// without loops: independent = spanning coordinates). Results also in cfa.qdd, cfa.jointWrench,
/// cfa.constraintWrench. InputError for bad arguments or a CfaData of another model,
/// NumericalError for a singular inertia.
const VecX& cfaForwardDynamics(const Model& model, CfaData& cfa, const VecRef& q, const VecRef& v, const VecRef& tau,
                               const ExternalForces* fext = nullptr);
/// Parallel CFA: the same on cfa.threads() threads (parallel-prefix kinematics, block cyclic
/// reduction). Equal to the serial CFA up to round-off.
const VecX& cfaParallelForwardDynamics(const Model& model, CfaData& cfa, const VecRef& q, const VecRef& v,
                                       const VecRef& tau, const ExternalForces* fext = nullptr);

}  // namespace grbda
