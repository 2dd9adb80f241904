// PV and PV-soft on the cluster tree (seed 003 Alg. 1 and §VI; spec §2.3-2.4), and the proximal
// variant, all on the articulated-cluster pass (articulated_pass.hpp).
//
// Rows travel towards the root as force-like 6-vectors F on the body they are attached to (the
// K_i^A of eq. 42c, transposed). At cluster k, with t = Sᵀ F (d_k x m_k; SF below):
//   e  += Fᵀ c + tᵀ D⁻¹ w        free motion of the row (w = u − Uᵀ c)          (42d, l = −k + e)
//   L  += tᵀ D⁻¹ t               Delassus matrix J H⁻¹ Jᵀ of the rows             (42e)
//   F  ← Xoutᵀ F − XU D⁻¹ t      the row seen from the output body                (42c)
// so that K a = e + Fᵀ a_o + L λ with λ the force the environment applies. A root cluster sees
// a_o = a_0 (= −a_g; a free base's F vanishes), so L λ = kBiased − e gives λ (43/47), and the
// outward pass adds Sᵀ F λ to u (41). m = 0 is C-ABA step for step.
#include <string>

#include "../constraints/constraint_rows.hpp"
#include "articulated_pass.hpp"
#include "cluster_state.hpp"
#include "grbda/errors.hpp"

namespace grbda::detail {

namespace {

/// The articulated pass hook that propagates the rows of `sys` (eq. 42c-e).
struct RowPropagation {
  Data& data;
  ConstraintData& cd;
  ConstraintData::RowSystem& sys;
  Vec6 a0;

  void operator()(int k, const Cluster& cl, ClusterData& kd) const {
    ConstraintData::ClusterRows& cr = sys.clusters[static_cast<size_t>(k)];
    if (cr.rows.empty()) return;
    withClusterDof(cl.nv, [&](auto D) { step<decltype(D)::value>(cl, kd, cr); });
  }

  /// Cluster k's rows with d_k = D known at compile time (fixed-size blocks for 1, 2, 3, 6).
  template <int D>
  void step(const Cluster& cl, ClusterData& kd, ConstraintData::ClusterRows& cr) const {
    using Sz = Sizes<D>;
    const int d = cl.nv, m = static_cast<int>(cr.rows.size());
    const bool root = cl.output < 0;
    const Eigen::Map<const typename Sz::MatD> Dinv(kd.Dinv.data(), d, d);
    // d-vectors in the cluster's scratch columns (no allocation for a dynamic d either)
    Eigen::Map<typename Sz::VecD> w(kd.scratchD6.col(0).data(), d), z(kd.scratchD6.col(1).data(), d),
        t(kd.scratchD6.col(2).data(), d);
    w = Eigen::Map<const typename Sz::VecD>(kd.w.data(), d);
    if (root) {  // w' = u − Uᵀ a' with a' = Xout a_0 + c, the known motion of the ground (in data.a)
      predictAccelerations(cl, data, a0);
      w = Eigen::Map<const typename Sz::VecD>(kd.u.data(), d);
      for (int r = 0; r < cl.numBodies; ++r) w.noalias() -= rowsOf<D>(kd.U, r).transpose() * predicted(cl.firstBody + r, true);
    }
    z.noalias() = Dinv * w;  // D⁻¹ w: the cluster's free ÿ with a_o = 0 (a_0 at the root)
    using MatDX = Eigen::Matrix<double, D, Eigen::Dynamic>;
    Eigen::Map<MatDX> SF(cr.SF.data(), d, m), DinvSF(cr.DinvSF.data(), d, m);
    for (int j = 0; j < m; ++j) {
      t.setZero();
      double& e = sys.e[cr.rows[static_cast<size_t>(j)]];
      for (int s = cr.slotStart[static_cast<size_t>(j)]; s < cr.slotStart[static_cast<size_t>(j) + 1]; ++s) {
        const int b = cr.slotBody[static_cast<size_t>(s)];
        const Vec6& F = cd.F[static_cast<size_t>(cr.slots[static_cast<size_t>(s)])];
        t.noalias() += rowsOf<D>(kd.S, b - cl.firstBody).transpose() * F;
        e += F.dot(predicted(b, root));
      }
      e += t.dot(z);
      SF.col(j) = t;
      DinvSF.col(j).noalias() = Dinv * t;
    }
    for (int j = 0; j < m; ++j)  // L += tᵀ D⁻¹ t (lower triangle of the system's rows)
      for (int i = j; i < m; ++i) {
        const int ri = cr.rows[static_cast<size_t>(i)], rj = cr.rows[static_cast<size_t>(j)];
        const double value = SF.col(i).dot(DinvSF.col(j));
        if (ri >= rj) sys.L(ri, rj) += value;
        else sys.L(rj, ri) += value;
      }
    if (root) return;
    const Eigen::Map<const Eigen::Matrix<double, D, 6>> DinvXUt(kd.DinvXUt.data(), d, 6);
    for (int j = 0; j < m; ++j) {  // F ← Σ Xoutᵀ F − XU D⁻¹ t at the output body, in the first slot
      const int s0 = cr.slotStart[static_cast<size_t>(j)], s1 = cr.slotStart[static_cast<size_t>(j) + 1];
      Vec6 Fo;
      Fo.noalias() = -(DinvXUt.transpose() * SF.col(j));
      for (int s = s0; s < s1; ++s)
        Fo += data.Xout[static_cast<size_t>(cr.slotBody[static_cast<size_t>(s)])].applyTranspose(
            cd.F[static_cast<size_t>(cr.slots[static_cast<size_t>(s)])]);
      cd.F[static_cast<size_t>(cr.slots[static_cast<size_t>(s0)])] = Fo;
    }
  }

  /// Acceleration of body i with ÿ = 0 and a_o = 0 (c_i), or a_o = a_0 for a root cluster (its
  /// bodies' a' = Xout a_0 + c, put in data.a by the root step; the outward pass rewrites it).
  const Vec6& predicted(int i, bool root) const {
    return root ? data.a[static_cast<size_t>(i)] : data.c[static_cast<size_t>(i)];
  }
};

/// PV-soft's leaf terms (eq. 52, transpose fixed): IA += K R⁻¹ Kᵀ, pA −= K R⁻¹ k for every row on
/// one body. A contact's rows K_a = [p × n_a; n_a] over the world axes n_a (orthonormal) with one
/// R sum to Σ K_a K_aᵀ / R = the spatial inertia of a point mass 1/R at p; a weld's angular rows
/// [n_a; 0] add 1/R to the rotational block. So IA stays a rigid-body inertia (cheaper fold).
struct SoftLeafTerms {
  const ConstraintModel& constraints;
  const ConstraintData& cd;
  void operator()(Data& data) const {
    for (int ci : cd.softPointMasses) {
      const Constraint& c = constraints.constraint(ci);
      const double w = 1.0 / constraints.compliance()[c.row];
      const Mat3 S = skew(c.bodyPoint);
      Mat6& IA = data.IA[static_cast<size_t>(c.body)];
      IA.topLeftCorner<3, 3>().noalias() -= w * (S * S);
      if (c.hasAngularRows()) IA.topLeftCorner<3, 3>().diagonal().array() += w;
      IA.topRightCorner<3, 3>() += w * S;
      IA.bottomLeftCorner<3, 3>() -= w * S;
      IA.bottomRightCorner<3, 3>().diagonal().array() += w;
      Vec6& pA = data.pA[static_cast<size_t>(c.body)];
      for (int r = c.row; r < c.row + c.numRows; ++r)
        pA.noalias() -= (w * cd.kBiased[r]) * cd.parts[static_cast<size_t>(cd.rowFirstPart[static_cast<size_t>(r)])].K;
    }
    for (int r : cd.softRowTerms) {
      const ConstraintData::RowPart& p = cd.parts[static_cast<size_t>(cd.rowFirstPart[static_cast<size_t>(r)])];
      const double Rinv = 1.0 / constraints.compliance()[r];
      data.IA[static_cast<size_t>(p.body)].noalias() += (Rinv * p.K) * p.K.transpose();
      data.pA[static_cast<size_t>(p.body)].noalias() -= (Rinv * cd.kBiased[r]) * p.K;
    }
  }
};

void startSystem(ConstraintData& cd, ConstraintData::RowSystem& sys) {
  sys.e.setZero();
  sys.L.setZero();
  for (size_t j = 0; j < cd.parts.size(); ++j) cd.F[j] = cd.parts[j].K;
}

/// The outward pass with the constraint forces: u_k + (Sᵀ F)_k λ_k.
void outwardWithForces(const Model& model, Data& data, ConstraintData::RowSystem& sys) {
  outwardPass(model, data, gravityBias(model, data), [&](int k, auto& t) {
    const ConstraintData::ClusterRows& cr = sys.clusters[static_cast<size_t>(k)];
    for (size_t j = 0; j < cr.rows.size(); ++j)
      t += sys.lambda[cr.rows[j]] * cr.SF.col(static_cast<Eigen::Index>(j)).head(t.size());
  });
}

}  // namespace

/// PV (proximal = false) or its proximal variant on the prepared state and gathered rows.
void pvForwardDynamics(const Model& model, Data& data, ConstraintData& cd, const VecX& tau, const ExternalForces* fext,
                       const ConstraintSolverSettings& settings, bool proximal, const char* algorithm) {
  ConstraintData::RowSystem& sys = cd.hard;
  startSystem(cd, sys);
  ArticulatedPassInputs in;
  in.tau = &tau;
  in.fext = fext;
  if (!articulatedPass<true>(model, data, in, NoLeafTerms{}, RowPropagation{data, cd, sys, gravityBias(model, data)}))
    throwArticulatedInertiaNotPositive(model, data, algorithm);
  for (int j = 0; j < sys.size(); ++j) sys.b[j] = cd.kBiased[sys.rowOf[static_cast<size_t>(j)]] - sys.e[j];
  solveDelassus(sys, cd, settings, proximal, algorithm);
  cd.lambda = sys.lambda;
  outwardWithForces(model, data, sys);
}

/// PV-soft on the prepared state and gathered rows (compliances checked by the caller).
void pvSoftForwardDynamics(const Model& model, Data& data, const ConstraintModel& constraints, ConstraintData& cd,
                           const VecX& tau, const ExternalForces* fext, const char* algorithm) {
  ConstraintData::RowSystem& sys = cd.soft;
  startSystem(cd, sys);
  ArticulatedPassInputs in;
  in.tau = &tau;
  in.fext = fext;
  in.generalInertia = &cd.softBody;
  if (!articulatedPass<true>(model, data, in, SoftLeafTerms{constraints, cd},
                             RowPropagation{data, cd, sys, gravityBias(model, data)}, false))
    throwArticulatedInertiaNotPositive(model, data, algorithm);
  for (int j = 0; j < sys.size(); ++j) {  // (J H⁻¹ Jᵀ + R) λ = k − e for rows on two bodies
    const int r = sys.rowOf[static_cast<size_t>(j)];
    sys.b[j] = cd.kBiased[r] - sys.e[j];
    sys.L(j, j) += constraints.compliance()[r];
  }
  solveSoftDelassus(sys, algorithm);
  outwardWithForces(model, data, sys);
  for (int j = 0; j < sys.size(); ++j) cd.lambda[sys.rowOf[static_cast<size_t>(j)]] = sys.lambda[j];
  for (int r : cd.leafRows) {  // λ = R⁻¹ (k − K a)
    const ConstraintData::RowPart& p = cd.parts[static_cast<size_t>(cd.rowFirstPart[static_cast<size_t>(r)])];
    cd.lambda[r] = (cd.kBiased[r] - p.K.dot(data.a[static_cast<size_t>(p.body)])) / constraints.compliance()[r];
  }
  cd.rank = cd.numRows;
  cd.redundant = false;
  cd.iterations = 0;
}

}  // namespace grbda::detail
