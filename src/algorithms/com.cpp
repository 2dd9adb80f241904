// Centre of mass, its velocity, bias and Jacobian (algorithms/com.hpp). A body with spatial
// inertia I holds its mass m = I(5,5) and first moment h = m c (body axes) in I's off-diagonal
// block; its CoM point c moves with the body, so m ṗ_c = Eᵀ (m u + ω × h) for a body velocity
// [ω; u] (body axes, E the body's world -> body rotation).
#include "grbda/algorithms/com.hpp"

#include "../kernels/checks.hpp"
#include "../kernels/cluster_state.hpp"
#include "data_workspace.hpp"

namespace grbda {

namespace {

double bodyMass(const Body& b) { return b.inertia(5, 5); }
Vec3 bodyMoment(const Body& b) { return Vec3(b.inertia(2, 4), b.inertia(0, 5), b.inertia(1, 3)); }

/// Per body its mass and world first moment m p, summed over spanning subtrees (children have
/// higher indices: one backward sweep), then divided into CoMs.
void subtreeComs(const Model& model, Data& data, const char* algorithm) {
  CentroidalData& cd = data.centroidal;
  const int n = model.numBodies();
  for (int i = 0; i < n; ++i) {
    const Body& b = model.body(i);
    const Transform& X = data.Xa[static_cast<size_t>(i)];
    cd.subtreeMass[i] = bodyMass(b);
    cd.subtreeCom[i].noalias() = X.E.transpose() * bodyMoment(b);
    cd.subtreeCom[i] += bodyMass(b) * X.r;
  }
  double mass = 0.0;
  Vec3 moment = Vec3::Zero();
  for (int i = n - 1; i >= 0; --i) {
    const int p = model.body(i).parent;
    if (p >= 0) {
      cd.subtreeMass[p] += cd.subtreeMass[i];
      cd.subtreeCom[p] += cd.subtreeCom[i];
    } else {
      mass += cd.subtreeMass[i];
      moment += cd.subtreeCom[i];
    }
  }
  detail::checkTotalMass(model, mass, algorithm);
  cd.mass = mass;
  cd.com = moment / mass;
  for (int i = 0; i < n; ++i) {  // a massless subtree: its root's origin stands in for its CoM
    if (cd.subtreeMass[i] > 0.0) cd.subtreeCom[i] /= cd.subtreeMass[i];
    else cd.subtreeCom[i] = data.Xa[static_cast<size_t>(i)].r;
  }
}

/// ṗ_G and p̈_G at q̈ = 0: a_i = Xout_i a_Λ(i) + c_i (no gravity), and per body
/// m p̈_c = Eᵀ (m a_u + α × h + ω × (m u + ω × h)) for a = [α; a_u], v = [ω; u].
void comRates(const Model& model, Data& data) {
  DataWorkspace& ws = data.work();
  CentroidalData& cd = data.centroidal;
  Vec3 p = Vec3::Zero(), a = Vec3::Zero();
  for (int i = 0; i < model.numBodies(); ++i) {
    const Body& b = model.body(i);
    Vec6& ab = ws.centroidal.aBias[static_cast<size_t>(i)];
    ab = ws.c[static_cast<size_t>(i)];
    if (b.output >= 0) ab += ws.Xout[static_cast<size_t>(i)].apply(ws.centroidal.aBias[static_cast<size_t>(b.output)]);
    const Vec6& v = data.v[static_cast<size_t>(i)];
    const double m = bodyMass(b);
    const Vec3 h = bodyMoment(b), w = v.head<3>();
    const Vec3 mvc = m * v.tail<3>() + w.cross(h);                            // m ṗ_c (body axes)
    const Vec3 mac = m * ab.tail<3>() + ab.head<3>().cross(h) + w.cross(mvc);  // m p̈_c at q̈ = 0
    const Mat3& E = data.Xa[static_cast<size_t>(i)].E;
    p.noalias() += E.transpose() * mvc;
    a.noalias() += E.transpose() * mac;
  }
  cd.vcom = p / cd.mass;
  cd.acomBias = a / cd.mass;
}

}  // namespace

const Vec3& centerOfMass(const Model& model, Data& data, const VecRef& q) {
  detail::prepareState(model, data, q, nullptr, "centerOfMass");
  subtreeComs(model, data, "centerOfMass");
  return data.centroidal.com;
}

const Vec3& centerOfMass(const Model& model, Data& data, const VecRef& q, const VecRef& v) {
  detail::prepareState(model, data, q, &v, "centerOfMass");
  subtreeComs(model, data, "centerOfMass");
  comRates(model, data);
  return data.centroidal.com;
}

const Mat3X& centerOfMassJacobian(const Model& model, Data& data, const VecRef& q) {
  DataWorkspace& ws = data.work();
  detail::prepareState(model, data, q, nullptr, "centerOfMassJacobian");
  CentroidalData& cd = data.centroidal;
  // composites [m; h], starting as the bodies with their rotors folded in (data.cpp)
  std::vector<Eigen::Vector4d>& mh = ws.centroidal.massMoment;
  mh = ws.centroidal.foldedMassMoment;
  // Backward over clusters, composites (mass m, first moment h) over the cluster tree as in the
  // cluster CRBA: column s = [ω; u] of S_k at body i moves i's composite, whose linear momentum
  // is m u + ω × h (body axes); J_c's column is its sum over the cluster's bodies, in world
  // axes, over M. Fixed-size maps on the raw storage: the pass is a few flops a body, which
  // dynamic blocks would outweigh (bench/RESULTS.md, CoM Jacobian).
  cd.Jcom.setZero();
  double* J = cd.Jcom.data();
  double totalMass = 0.0;
  Vec3 totalMoment = Vec3::Zero();
  for (int k = model.numClusters() - 1; k >= 0; --k) {
    const Cluster& cl = model.cluster(k);
    const MatX& S = ws.clusters[static_cast<size_t>(k)].S;
    for (int r = 0; r < cl.numBodies; ++r) {
      const auto i = static_cast<size_t>(cl.firstBody + r);
      if (ws.centroidal.comOnAxis[i]) continue;  // its turning moves no mass; its parent carries it
      const double m = mh[i](0);
      const Vec3 h = mh[i].tail<3>();
      const Mat3& E = data.Xa[i].E;
      for (int c = 0; c < cl.nv; ++c) {
        const Eigen::Map<const Vec6> s(S.data() + c * S.rows() + 6 * r);
        Eigen::Map<Vec3>(J + 3 * (cl.vIndex + c)).noalias() += E.transpose() * (m * s.tail<3>() + s.head<3>().cross(h));
      }
      // the composite's first moment in the output body's (or world) coordinates: Eᵀ h + m r
      if (cl.output >= 0) {
        const Transform& X = ws.Xout[i];
        Eigen::Vector4d& to = mh[static_cast<size_t>(cl.output)];
        to(0) += m;
        to.tail<3>().noalias() += X.E.transpose() * h + m * X.r;
      } else {
        totalMass += m;
        totalMoment.noalias() += E.transpose() * h + m * data.Xa[i].r;
      }
    }
  }
  detail::checkTotalMass(model, totalMass, "centerOfMassJacobian");
  cd.mass = totalMass;
  cd.com = totalMoment / totalMass;
  cd.Jcom *= 1.0 / totalMass;
  return cd.Jcom;
}

}  // namespace grbda
