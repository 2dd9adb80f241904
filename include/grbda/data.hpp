#pragma once
// Data: the preallocated workspace of the algorithms (Pinocchio's Data). One per thread; sized
// once from a Model, after which no algorithm allocates.
#include <vector>

#include "grbda/model.hpp"

namespace grbda {

/// External spatial forces, one per body, in world coordinates (moment about the world origin
/// first, then force) — spec §6.2. An empty vector means "no external forces".
using ExternalForces = std::vector<Vec6>;

class Data {
 public:
  explicit Data(const Model& model);

  // Kinematics (per body, regular order)
  std::vector<Transform> Xup;  ///< ^i X_λ(i) = X_J(q_i) X_T(i)
  std::vector<Transform> Xa;   ///< ^i X_0: world -> body i
  std::vector<Vec6> v;         ///< body spatial velocity, body coordinates
  std::vector<Vec6> a;         ///< body spatial acceleration (gravity-biased inside RNEA/ABA)
  std::vector<Vec6> c;         ///< velocity-product acceleration v × vJ
  std::vector<Vec6> f;         ///< body forces (RNEA), articulated bias forces pA (ABA)

  // Articulated-body quantities (ABA)
  std::vector<Mat6> IA;        ///< articulated inertia
  std::vector<Mat6> U;         ///< IA S (first nv_i columns used)
  std::vector<Mat6> Dinv;      ///< (S^T IA S)^{-1} (top-left nv_i block used)
  std::vector<Vec6> u;         ///< tau_i - S^T pA (first nv_i entries used)

  // Composite-rigid-body quantities (CRBA)
  std::vector<Mat6> Ic;

  // Results
  VecX tau;   ///< generalized forces (RNEA)
  VecX qdd;   ///< generalized accelerations (ABA)
  VecX C;     ///< bias forces C(q, v) (gravity, velocity products)
  MatX H;     ///< joint-space mass matrix (CRBA)
  VecX zeroV; ///< a zero velocity vector, reused
};

}  // namespace grbda
