// Centroidal momentum, its matrix and its bias (algorithms/centroidal.hpp). Everything is summed
// about the world origin in world axes ([moment; force], angular first), then moved to p_G and
// reordered to Pinocchio's [linear; angular].
#include "grbda/algorithms/centroidal.hpp"

#include "../kernels/checks.hpp"
#include "../kernels/cluster_state.hpp"
#include "grbda/spatial/cross.hpp"
#include "spatial/rigid_params.hpp"
#include "data_workspace.hpp"

namespace grbda {

namespace {

Vec3 firstMoment(const Mat6& I) { return Vec3(I(2, 4), I(0, 5), I(1, 3)); }

/// [moment about the origin; force] -> [force; moment about p] (world axes).
Vec6 aboutPoint(const Vec6& f0, const Vec3& p) {
  Vec6 out;
  out.head<3>() = f0.tail<3>();
  out.tail<3>() = f0.head<3>() - p.cross(f0.tail<3>());
  return out;
}

/// Total mass and p_G from the bodies' world first moments (poses only).
void massAndCom(const Model& model, Data& data, const char* algorithm) {
  double m = 0.0;
  Vec3 h = Vec3::Zero();
  for (int i = 0; i < model.numBodies(); ++i) {
    const Mat6& I = model.body(i).inertia;
    const Transform& X = data.Xa[static_cast<size_t>(i)];
    h.noalias() += X.E.transpose() * firstMoment(I);
    h += I(5, 5) * X.r;
    m += I(5, 5);
  }
  detail::checkTotalMass(model, m, algorithm);
  data.centroidal.mass = m;
  data.centroidal.com = h / m;
}

/// Ī_G of a world inertia p0 (ten parameters, about the origin) with mass M and CoM p:
/// Ī_O − M ((p·p) 1 − p pᵀ).
Mat6 centroidalInertia(const detail::RigidParams& p0, double M, const Vec3& p) {
  Mat6 Ig = Mat6::Zero();
  Mat3 Ibar = detail::rotationalInertia(p0);
  Ibar.noalias() += M * p * p.transpose();
  Ibar.diagonal().array() -= M * p.squaredNorm();
  Ig.topLeftCorner<3, 3>() = Ibar;
  Ig.bottomRightCorner<3, 3>().diagonal().setConstant(M);
  return Ig;
}

/// Mass, p_G, Ī_G from the composite about the world origin I0; A_0's columns moved to p_G.
void finishAtCom(const Model& model, Data& data, const detail::RigidParams& I0, const char* algorithm) {
  CentroidalData& cd = data.centroidal;
  const double M = I0(0);
  detail::checkTotalMass(model, M, algorithm);
  cd.mass = M;
  cd.com = I0.segment<3>(1) / M;
  cd.Ig = centroidalInertia(I0, M, cd.com);
  for (int c = 0; c < model.nv(); ++c) cd.Ag.col(c) = aboutPoint(cd.Ag.col(c), cd.com);
}

/// The CCRBA pass, backward over clusters, with inertias as ten parameters: composites Ic over
/// the cluster tree (the workspace's compositeParams); A_0's columns of cluster k (about the world origin) =
/// Σ_i ^iX_0ᵀ Ic_i S_k[i]; with `bias`, also f0 = Σ_i ^iX_0ᵀ (Ic_i c_i + v_i ×* I_i v_i) — the
/// composite form of Σ_i ^iX_0ᵀ I_i a_i (a_i = Σ over i's support of the velocity products c_j,
/// each moving j's whole composite).
void ccrbaPass(const Model& model, Data& data, bool bias) {
  DataWorkspace& ws = data.work();
  CentroidalData& cd = data.centroidal;
  std::vector<detail::RigidParams>& Ic = ws.centroidal.compositeParams;
  for (int i = 0; i < model.numBodies(); ++i) Ic[static_cast<size_t>(i)] = ws.centroidal.bodyParams[static_cast<size_t>(i)];
  detail::RigidParams I0 = detail::RigidParams::Zero();
  Vec6 f0 = Vec6::Zero();
  for (int k = model.numClusters() - 1; k >= 0; --k) {
    const Cluster& cl = model.cluster(k);
    const ClusterData& cld = ws.clusters[static_cast<size_t>(k)];
    auto columns = cd.Ag.middleCols(cl.vIndex, cl.nv);
    columns.setZero();
    for (int r = 0; r < cl.numBodies; ++r) {
      const auto i = static_cast<size_t>(cl.firstBody + r);
      const detail::RigidParams& Ici = Ic[i];
      const Transform& Xa = data.Xa[i];
      for (int c = 0; c < cl.nv; ++c)
        columns.col(c) += Xa.applyTranspose(detail::rigidTimes(Ici, cld.S.block<6, 1>(6 * r, c)));
      if (bias) {
        const Vec6& v = data.v[i];
        const Vec6 f = detail::rigidTimes(Ici, ws.c[i]) +
                       crossForce(v, detail::rigidTimes(ws.centroidal.bodyParams[i], v));
        f0 += Xa.applyTranspose(f);
      }
      if (cl.output >= 0) detail::addRigidTransformed(ws.Xout[i], Ici, Ic[static_cast<size_t>(cl.output)]);
      else detail::addRigidTransformed(Xa, Ici, I0);
    }
  }
  ws.centroidal.f0 = f0;
  finishAtCom(model, data, I0, bias ? "centroidalDynamics" : "centroidalMomentumMatrix");
}

/// Forward in world axes (positions only were computed): per body its S columns ^0S_i = ^iX_0⁻¹ S_i,
/// velocity ^0v_i = ^0v_out + ^0S_i ẏ, velocity product ^0c_i = ^0v_i × ^0S_i ẏ (S constant),
/// inertia ^0I_i (the composites' start) and momentum ^0I_i ^0v_i; h0 is their sum. A symmetric
/// rotor (data.cpp) rides in its parent's inertia: it adds only its spin momentum ^pX_0ᵀ (I_r S_r) ẏ,
/// to its cluster's columns of A_0, to h0 and to its parent's momentum. Valid when the
/// workspace's worldAxes holds. Raw column maps: a few flops a column.
void worldForward(const Model& model, Data& data, const VecRef& v, Vec6& h0) {
  DataWorkspace& ws = data.work();
  CentroidalScratch& cs = ws.centroidal;
  double* worldS = cs.worldS.data();
  const double* rotorMomentum = cs.rotorMomentum.data();
  double* A = data.centroidal.Ag.data();
  h0.setZero();
  for (int k = 0; k < model.numClusters(); ++k) {
    const Cluster& cl = model.cluster(k);
    const MatX& S = ws.clusters[static_cast<size_t>(k)].S;
    const double* yd = v.data() + cl.vIndex;
    data.centroidal.Ag.middleCols(cl.vIndex, cl.nv).setZero();
    for (int r = 0; r < cl.numBodies; ++r) {
      const auto i = static_cast<size_t>(cl.firstBody + r);
      if (cs.symmetricRotor[i]) {
        const auto p = static_cast<size_t>(cl.output);
        const Transform& Xp = data.Xa[p];
        Vec6 spin = Vec6::Zero();
        for (int c = 0; c < cl.nv; ++c) {
          const Vec6 column = Xp.applyTranspose(Eigen::Map<const Vec6>(rotorMomentum + 6 * (cs.worldSColumn[i] + c)));
          Eigen::Map<Vec6>(A + 6 * (cl.vIndex + c)) += column;
          spin += column * yd[c];
        }
        cs.worldMomentum[p] += spin;
        h0 += spin;
        continue;
      }
      const Transform& X = data.Xa[i];
      double* s0 = worldS + 6 * cs.worldSColumn[i];
      Vec6 vJ = Vec6::Zero();
      for (int c = 0; c < cl.nv; ++c) {
        Eigen::Map<Vec6> s(s0 + 6 * c);
        s = X.applyInverse(Eigen::Map<const Vec6>(S.data() + c * S.rows() + 6 * r));
        vJ += s * yd[c];
      }
      Vec6& vi = cs.worldVelocity[i];
      vi = vJ;
      if (cl.output >= 0) vi += cs.worldVelocity[static_cast<size_t>(cl.output)];
      cs.worldBias[i] = crossMotion(vi, vJ);
      detail::RigidParams& Ii = cs.compositeParams[i];
      Ii.setZero();
      detail::addRigidTransformed(X, cs.foldedParams[i], Ii);
      cs.worldMomentum[i] = detail::rigidTimes(Ii, vi);
      h0 += cs.worldMomentum[i];
    }
  }
}

/// Backward in world axes: composites are sums (no transforms); A_0's columns += Σ_i ^0Ic_i ^0S_i
/// and f0 = Σ_i (^0Ic_i ^0c_i + ^0v_i ×* ^0h_i) (ccrbaPass's bias, every term in world axes; a
/// folded rotor's terms are its parent's, data.cpp says why).
void worldBackward(const Model& model, Data& data) {
  DataWorkspace& ws = data.work();
  CentroidalScratch& cs = ws.centroidal;
  std::vector<detail::RigidParams>& Ic = cs.compositeParams;
  const double* worldS = cs.worldS.data();
  double* A = data.centroidal.Ag.data();
  detail::RigidParams I0 = detail::RigidParams::Zero();
  Vec6 f0 = Vec6::Zero();
  for (int k = model.numClusters() - 1; k >= 0; --k) {
    const Cluster& cl = model.cluster(k);
    for (int r = 0; r < cl.numBodies; ++r) {
      const auto i = static_cast<size_t>(cl.firstBody + r);
      if (cs.symmetricRotor[i]) continue;
      const detail::RigidParams& Ici = Ic[i];
      const double* s0 = worldS + 6 * cs.worldSColumn[i];
      for (int c = 0; c < cl.nv; ++c)
        Eigen::Map<Vec6>(A + 6 * (cl.vIndex + c)) += detail::rigidTimes(Ici, Eigen::Map<const Vec6>(s0 + 6 * c));
      f0 += detail::rigidTimes(Ici, cs.worldBias[i]) + crossForce(cs.worldVelocity[i], cs.worldMomentum[i]);
      if (cl.output >= 0) Ic[static_cast<size_t>(cl.output)] += Ici;
      else I0 += Ici;
    }
  }
  ws.centroidal.f0 = f0;
  finishAtCom(model, data, I0, "centroidalDynamics");
}

}  // namespace

const Vec6& centroidalMomentum(const Model& model, Data& data, const VecRef& q, const VecRef& v) {
  detail::prepareState(model, data, q, &v, "centroidalMomentum");
  massAndCom(model, data, "centroidalMomentum");
  CentroidalData& cd = data.centroidal;
  CentroidalScratch& scratch = data.work().centroidal;
  scratch.h0.setZero();
  for (int i = 0; i < model.numBodies(); ++i)
    scratch.h0 += data.Xa[static_cast<size_t>(i)].applyTranspose(model.body(i).inertia * data.v[static_cast<size_t>(i)]);
  cd.hg = aboutPoint(scratch.h0, cd.com);
  return cd.hg;
}

const Mat6X& centroidalMomentumMatrix(const Model& model, Data& data, const VecRef& q) {
  detail::prepareState(model, data, q, nullptr, "centroidalMomentumMatrix");
  ccrbaPass(model, data, false);
  return data.centroidal.Ag;
}

const Vec6& centroidalMomentumBias(const Model& model, Data& data, const VecRef& q, const VecRef& v) {
  DataWorkspace& ws = data.work();
  detail::prepareState(model, data, q, &v, "centroidalMomentumBias");
  massAndCom(model, data, "centroidalMomentumBias");
  CentroidalData& cd = data.centroidal;
  CentroidalScratch& scratch = ws.centroidal;
  scratch.h0.setZero();
  scratch.f0.setZero();
  for (int i = 0; i < model.numBodies(); ++i) {  // a_i = Xout_i a_Λ(i) + c_i, outward
    const Body& b = model.body(i);
    Vec6& a = scratch.aBias[static_cast<size_t>(i)];
    a = ws.c[static_cast<size_t>(i)];
    if (b.output >= 0) a += ws.Xout[static_cast<size_t>(i)].apply(scratch.aBias[static_cast<size_t>(b.output)]);
    const Vec6& vi = data.v[static_cast<size_t>(i)];
    const Vec6 h = b.inertia * vi;
    Vec6 f = b.inertia * a;
    f += crossForce(vi, h);
    const Transform& X = data.Xa[static_cast<size_t>(i)];
    scratch.h0 += X.applyTranspose(h);
    scratch.f0 += X.applyTranspose(f);
  }
  cd.hg = aboutPoint(scratch.h0, cd.com);
  // d/dt (n_O − p_G × f) = ṅ_O − ṗ_G × f − p_G × ḟ, and ṗ_G × f = ṗ_G × M ṗ_G = 0
  cd.dhg = aboutPoint(scratch.f0, cd.com);
  return cd.dhg;
}

void centroidalDynamics(const Model& model, Data& data, const VecRef& q, const VecRef& v) {
  if (data.work().centroidal.worldAxes) {  // positions only: the velocities add up in world axes
    detail::prepareState(model, data, q, nullptr, "centroidalDynamics");
    detail::checkVector(v, model.nv(), "v", "centroidalDynamics");
    Vec6 h0;
    worldForward(model, data, v, h0);
    worldBackward(model, data);
    data.centroidal.hg = aboutPoint(h0, data.centroidal.com);
  } else {
    detail::prepareState(model, data, q, &v, "centroidalDynamics");
    ccrbaPass(model, data, true);
    data.centroidal.hg.noalias() = data.centroidal.Ag * v;
  }
  CentroidalData& cd = data.centroidal;
  cd.dhg = aboutPoint(data.work().centroidal.f0, cd.com);
}

}  // namespace grbda
