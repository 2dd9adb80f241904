// Spanning-tree forward kinematics (RBDA §4, spec §6.1 with one body per cluster).
#include "grbda/algorithms/tree.hpp"
#include "grbda/spatial/cross.hpp"
#include "../kernels/checks.hpp"
#include "../kernels/tree_joint.hpp"
#include "data_workspace.hpp"

namespace grbda::tree {

void forwardKinematics(const Model& model, Data& data, const VecRef& q) {
  DataWorkspace& ws = data.work();
  detail::checkData(model, data, "tree::forwardKinematics");
  ++ws.kinematicsVersion;  // Xup, Xa (and v, c) now hold the spanning tree's state
  for (int i = 0; i < model.numBodies(); ++i) {
    const Body& b = model.body(i);
    ws.Xup[i] = b.joint.transformAfter(q.data() + b.qIndex, b.Xtree);
    data.Xa[i] = b.parent < 0 ? ws.Xup[i] : ws.Xup[i] * data.Xa[b.parent];
  }
}

void forwardKinematics(const Model& model, Data& data, const VecRef& q, const VecRef& v) {
  DataWorkspace& ws = data.work();
  detail::checkData(model, data, "tree::forwardKinematics");
  ++ws.kinematicsVersion;  // Xup, Xa (and v, c) now hold the spanning tree's state
  for (int i = 0; i < model.numBodies(); ++i) {
    const Body& b = model.body(i);
    ws.Xup[i] = b.joint.transformAfter(q.data() + b.qIndex, b.Xtree);
    const Vec6 vJ = detail::jointVelocity(b, v);
    if (b.parent < 0) {
      data.Xa[i] = ws.Xup[i];
      data.v[i] = vJ;
    } else {
      data.Xa[i] = ws.Xup[i] * data.Xa[b.parent];
      data.v[i] = ws.Xup[i].apply(data.v[b.parent]) + vJ;
    }
    ws.c[i] = crossMotion(data.v[i], vJ);  // c_i = v_i × S_i qd_i
  }
}

void forwardKinematics(const Model& model, Data& data, const VecRef& q, const VecRef& v, const VecRef& qdd) {
  DataWorkspace& ws = data.work();
  detail::checkData(model, data, "tree::forwardKinematics");
  tree::forwardKinematics(model, data, q, v);
  for (int i = 0; i < model.numBodies(); ++i) {
    const Body& b = model.body(i);
    const Vec6 aJ = detail::jointVelocity(b, qdd) + ws.c[i];
    data.a[i] = b.parent < 0 ? aJ : Vec6(ws.Xup[i].apply(data.a[b.parent]) + aJ);
  }
}

}  // namespace grbda::tree
