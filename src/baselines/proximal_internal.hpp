#pragma once
// Internal pieces of the proximal solver (include/grbda/baselines/proximal.hpp): gathering the
// constraint rows K, k and the sparse LTDL factorisation / solves of the KKT matrix on the
// pattern fixed by ProximalData. None of them allocates.
#include "grbda/baselines/proximal.hpp"
#include "data_workspace.hpp"

namespace grbda::detail {

/// K, k of the chosen rows at the state last prepared in `data` (cluster kinematics with v, then
/// tree::nonLinearEffects, so data.v, the workspace's c, data.Xa, the workspace's Xup are the spanning-tree ones).
void gatherConstraintRows(const Model& model, const Data& data, ProximalData& pd);

/// KKT matrix [H Kᵀ; K −μ1] (lower pattern) into pd.A, from H = data.HTree and pd.K.
void assembleKkt(const MatX& H, double mu, ProximalData& pd);
/// In-place A = Lᵀ D L (L unit lower, on the pattern). Throws NumericalError on a zero or
/// wrong-signed pivot (coordinates must give D > 0, constraint rows D < 0).
void factorKkt(double mu, const MatX& H, ProximalData& pd, const char* algorithm);
/// pd.z = A⁻¹ pd.rhs with the factor in pd.A, pd.D.
void solveKkt(ProximalData& pd);

}  // namespace grbda::detail
