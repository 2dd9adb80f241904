#pragma once
// The change-of-basis technique of Featherstone & Fijany (seed 004, spec §3.2-3.3): for an SPD
// operator M from motion space U to force space V and a constraint u ∈ S_1, given either
// explicitly by a basis S_1 of the allowed motions (e.g. a cluster's G) or implicitly by a basis
// T_2 = S_1^⊥ of the constraint forces (e.g. Kᵀ), the constrained operator
//     S_1 (S_1ᵀ M S_1)⁻¹ S_1ᵀ  =  M⁻¹ − M⁻¹ T_2 (T_2ᵀ M⁻¹ T_2)⁻¹ T_2ᵀ M⁻¹          (Eq. 8)
// ("constrained = unconstrained − immobilised"): the left side is the projection method, the
// right side the Lagrange-multiplier method. Dense and allocating: a tool for analysis and tests,
// not a hot call. Errors: InputError for mismatched sizes or non-finite entries, NumericalError
// when M is not SPD or a basis is rank-deficient.
#include "grbda/spatial/types.hpp"

namespace grbda::cob {

/// The four bases of Eq. 1-2: S_1 ⊕ S_2 = U, T_1 ⊕ T_2 = V, T_1 = M S_1, T_2 = M S_2,
/// [S_1 S_2]ᵀ [T_1 T_2] = 1 (reciprocal basis pair).
struct Bases {
  /// the bases S_1, S_2 (motion) and T_1, T_2 (force), as columns
  ///@{
  MatX S1, S2, T1, T2;
  ///@}
};

/// T_2 = S_1^⊥: a basis of the forces that do no work on S_1 (S_1ᵀ T_2 = 0), n × (n − rank S_1).
/// Also gives S_1 from T_2 (the same operation: the reciprocal complement of a force subspace).
MatX reciprocalComplement(const MatX& S);
/// Eq. 2: T_2 = S_1^⊥, T_1 = M S_1 (S_1ᵀ M S_1)⁻¹, S_2 = M⁻¹ T_2 (T_2ᵀ M⁻¹ T_2)⁻¹.
Bases changeOfBasis(const MatX& M, const MatX& S1);

/// Explicit form (Eq. 7): S_1 (S_1ᵀ M S_1)⁻¹ S_1ᵀ.
MatX constrainedOperatorExplicit(const MatX& M, const MatX& S1);
/// Implicit form (Eq. 8, right side): M⁻¹ − immobilisedOperator(M, T_2).
MatX constrainedOperatorImplicit(const MatX& M, const MatX& T2);
/// The immobilised operator M⁻¹ T_2 (T_2ᵀ M⁻¹ T_2)⁻¹ T_2ᵀ M⁻¹ (Eq. 3, second term): the
/// response of the system when every motion in S_1 is locked.
MatX immobilisedOperator(const MatX& M, const MatX& T2);
/// Eq. 10: α_1 = T_1'ᵀ (constrained operator) T_1' β_1 as a matrix, for any T_1' with
/// S_1ᵀ T_1' = 1 (checked: InputError otherwise); equals (S_1ᵀ M S_1)⁻¹.
MatX reducedInverse(const MatX& M, const MatX& T2, const MatX& T1prime, const MatX& S1);

}  // namespace grbda::cob
