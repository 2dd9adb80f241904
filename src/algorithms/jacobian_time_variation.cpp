// J̇ of a frame point (kinematics.hpp). On the spanning tree, in world axes at the world origin,
// a joint's column s_m = ^0X_m s (s constant in its body m's axes) moves with its body:
// ṡ_m = v_m × s_m (v_m the body's world spatial velocity). The cluster Jacobian is J = J_s Ĝ
// (q̇_s = Ĝ ẏ), so J̇ = J̇_s Ĝ + J_s Ĝ̇. The other conventions follow from the world one:
//   LocalWorldAligned: [J_ω; J_u − p × J_ω],  J̇ adds −ṗ × J_ω (p, ṗ: the point, world)
//   Local:             ^PX_0 J,               J̇ = ^PX_0 (J̇_w − v_P × J_w)
#include "../kernels/checks.hpp"
#include "cluster_gdot.hpp"
#include "../kernels/cluster_state.hpp"
#include "grbda/algorithms/kinematics.hpp"
#include "grbda/spatial/cross.hpp"
#include "data_workspace.hpp"

namespace grbda {

void frameJacobianTimeVariation(const Model& model, Data& data, int frame, const Vec3& point, ReferenceFrame axes,
                                Mat6X& dJ) {
  DataWorkspace& ws = data.work();
  detail::checkData(model, data, "frameJacobianTimeVariation");
  const int nf = static_cast<int>(model.frames().size());
  if (frame < 0 || frame >= nf)
    throw InputError("frameJacobianTimeVariation: frame index " + std::to_string(frame) + " is out of range (model '" +
                     model.name() + "' has " + std::to_string(nf) + " frames)");
  if (!point.allFinite()) throw InputError("frameJacobianTimeVariation: point is not finite");
  const Frame& f = model.frame(frame);
  if (dJ.cols() != model.nv()) dJ.resize(6, model.nv());
  dJ.setZero();
  if (f.body < 0) return;
  Mat6X& J = ws.coriolis.S;  // scratch: the world Jacobian (6 x nv ≤ 6 x nvSpanning)
  auto Jw = J.leftCols(model.nv());
  Jw.setZero();
  detail::clusterGdot(model, data);
  for (int m = f.body; m >= 0; m = model.body(m).parent) {
    const Body& b = model.body(m);
    const Transform& Xa = data.Xa[static_cast<size_t>(m)];
    const Vec6 vw = Xa.applyInverse(data.v[static_cast<size_t>(m)]);
    for (int c = 0; c < b.joint.nv(); ++c) {
      const Vec6 s = Xa.applyInverse(b.joint.subspaceColumn(c));
      const int col = b.vIndex + c;
      const int k = b.cluster;
      const Cluster& cl = model.cluster(k);
      const MatX& G = ws.clusters[static_cast<size_t>(k)].G;
      const MatX& Gd = ws.coriolis.Gdot[static_cast<size_t>(k)];
      const int row = col - cl.vSpanIndex;
      const Vec6 ds = crossMotion(vw, s);
      for (int cc = 0; cc < cl.nv; ++cc) {
        const double g = G(row, cc), gd = Gd(row, cc);
        if (g == 0.0 && gd == 0.0) continue;
        Jw.col(cl.vIndex + cc) += g * s;
        dJ.col(cl.vIndex + cc) += g * ds + gd * s;
      }
    }
  }
  if (axes == ReferenceFrame::World) return;
  const Transform Xp = Transform::translation(point) * f.placement * data.Xa[static_cast<size_t>(f.body)];  // ^PX_0
  const Vec6 vw = data.Xa[static_cast<size_t>(f.body)].applyInverse(data.v[static_cast<size_t>(f.body)]);
  if (axes == ReferenceFrame::LocalWorldAligned) {
    const Vec3 p = Xp.r;                                   // the point, world coordinates
    const Vec3 pd = vw.tail<3>() + vw.head<3>().cross(p);  // its velocity
    // J_lin = J_u + J_ω × p  =>  J̇_lin = J̇_u + J̇_ω × p + J_ω × ṗ
    for (int c = 0; c < model.nv(); ++c) {
      const Vec3 w = Jw.col(c).head<3>(), dw = dJ.col(c).head<3>();
      dJ.col(c).tail<3>() += dw.cross(p) + w.cross(pd);
    }
    return;
  }
  for (int c = 0; c < model.nv(); ++c) dJ.col(c) = Xp.apply(Vec6(dJ.col(c) - crossMotion(vw, Jw.col(c))));
}

Mat6X frameJacobianTimeVariation(const Model& model, Data& data, const VecRef& q, const VecRef& v, int frame,
                                 const Vec3& point, ReferenceFrame axes) {
  forwardKinematics(model, data, q, v);
  Mat6X dJ(6, model.nv());
  frameJacobianTimeVariation(model, data, frame, point, axes, dJ);
  return dJ;
}

}  // namespace grbda
