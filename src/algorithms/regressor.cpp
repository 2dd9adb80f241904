// The cluster-dynamics regressor (regressor.hpp): C-RNEA's outward pass for the bodies' v and
// gravity-biased a, the 6 x 10 body regressor per body, and each body's force columns carried
// inwards as C-RNEA's inward pass carries f (τ_k += S_kᵀ f at the body's cluster, f ← Xoutᵀ f
// onto the output body, repeat in the parent cluster).
#include "grbda/algorithms/regressor.hpp"

#include <string>

#include "../kernels/checks.hpp"
#include "cluster_rnea_halves.hpp"
#include "../kernels/cluster_state.hpp"
#include "grbda/errors.hpp"
#include "data_workspace.hpp"

namespace grbda {

namespace {

/// L(w) with Ī w = L(w) [xx, xy, yy, xz, yz, zz] for a symmetric Ī.
Eigen::Matrix<double, 3, 6> inertiaAction(const Vec3& w) {
  Eigen::Matrix<double, 3, 6> L;
  L << w.x(), w.y(), 0.0, w.z(), 0.0, 0.0,  //
      0.0, w.x(), w.y(), 0.0, w.z(), 0.0,   //
      0.0, 0.0, 0.0, w.x(), w.y(), w.z();
  return L;
}

void checkParameters(const Model& model, const VecRef& pi, const char* alg) {
  detail::checkVector(pi, 10 * static_cast<Eigen::Index>(model.numBodies()), "parameters", alg);
}

}  // namespace

Vec10 inertiaParameters(const Mat6& I) {
  Vec10 pi;
  pi[0] = I(5, 5);
  pi.segment<3>(1) << I(2, 4), I(0, 5), I(1, 3);  // top-right block is [m c]×
  pi.tail<6>() << I(0, 0), I(0, 1), I(1, 1), I(0, 2), I(1, 2), I(2, 2);
  return pi;
}

Mat6 inertiaFromParameters(const Vec10& pi) {
  Mat3 Io;
  Io << pi[4], pi[5], pi[7],  //
      pi[5], pi[6], pi[8],    //
      pi[7], pi[8], pi[9];
  const Mat3 h = skew(Vec3(pi[1], pi[2], pi[3]));
  Mat6 I;
  I << Io, h, h.transpose(), pi[0] * Mat3::Identity();
  return I;
}

VecX modelParameters(const Model& model) {
  VecX pi(10 * model.numBodies());
  for (int i = 0; i < model.numBodies(); ++i) pi.segment<10>(10 * i) = inertiaParameters(model.body(i).inertia);
  return pi;
}

std::vector<std::string> parameterNames(const Model& model) {
  static const char* const kNames[10] = {"m", "mcx", "mcy", "mcz", "Ixx", "Ixy", "Iyy", "Ixz", "Iyz", "Izz"};
  std::vector<std::string> names;
  names.reserve(10 * static_cast<size_t>(model.numBodies()));
  for (const Body& b : model.bodies())
    for (const char* n : kNames) names.push_back(b.name + "." + n);
  return names;
}

std::vector<Mat6> bodyInertiasFromParameters(const Model& model, const VecRef& pi) {
  checkParameters(model, pi, "bodyInertiasFromParameters");
  std::vector<Mat6> out(static_cast<size_t>(model.numBodies()));
  for (int i = 0; i < model.numBodies(); ++i) out[static_cast<size_t>(i)] = inertiaFromParameters(pi.segment<10>(10 * i));
  return out;
}

Model modelWithParameters(const Model& model, const VecRef& pi) {
  checkParameters(model, pi, "modelWithParameters");
  Model out = model;
  // Model has no mutators (it is shared read-only once built); `out` is our own non-const copy,
  // so writing its bodies' inertias through the const accessor is well defined. The structure
  // (and so Model::id and every Data made for `model`) stays the same.
  for (int i = 0; i < model.numBodies(); ++i)
    const_cast<Body&>(out.body(i)).inertia = inertiaFromParameters(pi.segment<10>(10 * i));
  return out;
}

Eigen::Matrix<double, 6, 10> bodyRegressor(const Vec6& v, const Vec6& a) {
  // f = I a + v ×* I v with I = [Ī_O, [h]×; [h]×ᵀ, m 1], h = m c, v = [ω; v_O], a = [ω̇; a_O]:
  //   n = Ī_O ω̇ + ω × Ī_O ω − [a_O + ω × v_O]× h
  //   f = m (a_O + ω × v_O) + ([ω̇]× + [ω]×²) h
  // (a_O + ω × v_O: the classical acceleration of the body origin)
  const Vec3 w = v.head<3>(), vo = v.tail<3>(), dw = a.head<3>();
  const Vec3 acc = a.tail<3>() + w.cross(vo);
  const Mat3 W = skew(w);
  Eigen::Matrix<double, 6, 10> Y = Eigen::Matrix<double, 6, 10>::Zero();
  Y.block<3, 1>(3, 0) = acc;
  Y.block<3, 3>(0, 1) = -skew(acc);
  Y.block<3, 3>(3, 1) = skew(dw) + W * W;
  Y.block<3, 6>(0, 4) = inertiaAction(dw) + W * inertiaAction(w);
  return Y;
}

const MatX& computeRegressor(const Model& model, Data& data, const VecRef& q, const VecRef& v, const VecRef& qdd, MatX& Y) {
  DataWorkspace& ws = data.work();
  constexpr const char* alg = "computeRegressor";
  detail::checkVector(qdd, model.nv(), "qdd", alg);
  detail::prepareState(model, data, q, &v, alg);
  detail::clusterRneaOutward(model, data, qdd, nullptr);  // v_i, gravity-biased a_i
  if (Y.rows() != model.nv() || Y.cols() != 10 * model.numBodies()) Y.resize(model.nv(), 10 * model.numBodies());
  Y.setZero();
  for (int i = 0; i < model.numBodies(); ++i) {
    Eigen::Matrix<double, 6, 10> F = bodyRegressor(data.v[static_cast<size_t>(i)], data.a[static_cast<size_t>(i)]);
    int b = i;  // the body F acts on, walking down to the root cluster
    while (b >= 0) {
      const Cluster& cl = model.cluster(model.body(b).cluster);
      const int r = b - cl.firstBody;
      const ClusterData& cd = ws.clusters[static_cast<size_t>(model.body(b).cluster)];
      // τ_k += S_{k,r}ᵀ F   (eq. 64 for one body's force)
      Y.block(cl.vIndex, 10 * i, cl.nv, 10).noalias() += cd.S.middleRows<6>(6 * r).transpose() * F;
      if (cl.output < 0) break;
      for (int c = 0; c < 10; ++c) F.col(c) = ws.Xout[static_cast<size_t>(b)].applyTranspose(F.col(c));  // (eq. 65)
      b = cl.output;
    }
  }
  if (!Y.allFinite()) throw NumericalError(std::string(alg) + ": the regressor is not finite (singular configuration)");
  return Y;
}

}  // namespace grbda
