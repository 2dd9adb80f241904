// Recursive Newton-Euler on the spanning tree (RBDA Table 5.1; spec §6.2 with one body per cluster).
#include "grbda/algorithms/tree.hpp"
#include "grbda/spatial/cross.hpp"
#include "../kernels/checks.hpp"
#include "../kernels/tree_joint.hpp"
#include "data_workspace.hpp"

namespace grbda::tree {

const VecX& rnea(const Model& model, Data& data, const VecRef& q, const VecRef& v, const VecRef& qdd,
                 const ExternalForces* fext) {
  DataWorkspace& ws = data.work();
  detail::checkData(model, data, "tree::rnea");
  ++ws.kinematicsVersion;  // Xup, Xa, v, c now hold the spanning tree's state
  const Vec6 a0 = detail::gravityBias(model, data);
  const bool hasFext = fext && !fext->empty();
  for (int i = 0; i < model.numBodies(); ++i) {  // outward
    const Body& b = model.body(i);
    const Transform& X = ws.Xup[i] = b.joint.transformAfter(q.data() + b.qIndex, b.Xtree);
    const Vec6 vJ = detail::jointVelocity(b, v);
    const Vec6 aJ = detail::jointVelocity(b, qdd);
    if (b.parent < 0) {
      data.Xa[i] = X;
      data.v[i] = vJ;
      data.a[i] = X.apply(a0) + aJ;
    } else {
      data.Xa[i] = X * data.Xa[b.parent];
      data.v[i] = X.apply(data.v[b.parent]) + vJ;
      data.a[i] = X.apply(data.a[b.parent]) + aJ;
    }
    ws.c[i] = crossMotion(data.v[i], vJ);
    data.a[i] += ws.c[i];
    const Vec6 Iv = b.inertia * data.v[i];
    data.f[i] = b.inertia * data.a[i] + crossForce(data.v[i], Iv);  // f = I a + v ×* I v
    if (hasFext) data.f[i] -= data.Xa[i].applyForce((*fext)[i]);      // world force -> body
  }
  for (int i = model.numBodies() - 1; i >= 0; --i) {  // inward
    const Body& b = model.body(i);
    if (b.joint.hasQuaternion()) data.tauTree.segment(b.vIndex, b.joint.nv()) = data.f[i].head(b.joint.nv());
    else data.tauTree[b.vIndex] = b.joint.subspace().dot(data.f[i]);
    if (b.parent >= 0) data.f[b.parent] += ws.Xup[i].applyTranspose(data.f[i]);
  }
  return data.tauTree;
}

const VecX& nonLinearEffects(const Model& model, Data& data, const VecRef& q, const VecRef& v,
                             const ExternalForces* fext) {
  detail::checkData(model, data, "tree::nonLinearEffects");
  rnea(model, data, q, v, data.work().zeroVTree, fext);
  data.CTree = data.tauTree;
  return data.CTree;
}

}  // namespace grbda::tree
