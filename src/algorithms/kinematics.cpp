// Frame queries and Jacobians on the spanning tree (spec §6.7).
#include "grbda/algorithms/kinematics.hpp"

#include "../kernels/checks.hpp"
#include "../kernels/cluster_state.hpp"
#include "grbda/algorithms/tree.hpp"
#include "data_workspace.hpp"

namespace grbda {

namespace {
/// ^P X_body for the frame point P: the frame placement followed by a shift to `point`.
Transform pointPlacement(const Frame& f, const Vec3& point) { return Transform::translation(point) * f.placement; }

/// The frame with index `frame`, or InputError naming the calling function (an index from user
/// code must not read outside the frame list).
const Frame& checkedFrame(const Model& model, const Data& data, int frame, const char* function) {
  detail::checkData(model, data, function);
  const int n = static_cast<int>(model.frames().size());
  if (frame < 0 || frame >= n)
    throw InputError(std::string(function) + ": frame index " + std::to_string(frame) + " is out of range (model '" +
                     model.name() + "' has " + std::to_string(n) + " frames)");
  return model.frame(frame);
}

/// J <- diag(R, R) J column by column: fixed-size products, so no temporary is allocated.
void rotateColumns(const Mat3& R, Mat6X& J) {
  for (Eigen::Index c = 0; c < J.cols(); ++c) {
    const Vec3 w = R * J.col(c).head<3>(), v = R * J.col(c).tail<3>();
    J.col(c) << w, v;
  }
}

Vec6 toAxes(const Vec6& local, const Mat3& R, ReferenceFrame axes) {
  if (axes == ReferenceFrame::Local) return local;
  Vec6 out;
  out.head<3>() = R * local.head<3>();
  out.tail<3>() = R * local.tail<3>();
  return out;
}
}  // namespace

void forwardKinematics(const Model& model, Data& data, const VecRef& q) {
  detail::prepareState(model, data, q, nullptr, "forwardKinematics");
}
void forwardKinematics(const Model& model, Data& data, const VecRef& q, const VecRef& v) {
  detail::prepareState(model, data, q, &v, "forwardKinematics");
}
void forwardKinematics(const Model& model, Data& data, const VecRef& q, const VecRef& v, const VecRef& qdd) {
  DataWorkspace& ws = data.work();
  detail::checkVector(qdd, model.nv(), "qdd", "forwardKinematics");
  detail::prepareState(model, data, q, &v, "forwardKinematics");
  for (int k = 0; k < model.numClusters(); ++k) {  // true accelerations: a_0 = 0
    const Cluster& cl = model.cluster(k);
    const ClusterData& cd = ws.clusters[static_cast<size_t>(k)];
    for (int r = 0; r < cl.numBodies; ++r) {
      const int i = cl.firstBody + r;
      Vec6 a = ws.c[i];
      if (cl.output >= 0) a += ws.Xout[i].apply(data.a[cl.output]);
      a.noalias() += cd.S.middleRows<6>(6 * r) * qdd.segment(cl.vIndex, cl.nv);
      data.a[i] = a;
    }
  }
}

Transform frameTransform(const Model& model, const Data& data, int frame) {
  const Frame& f = checkedFrame(model, data, frame, "frameTransform");
  return f.body < 0 ? f.placement : f.placement * data.Xa[f.body];
}

Vec3 framePosition(const Model& model, const Data& data, int frame, const Vec3& point) {
  return frameTransform(model, data, frame).inverseTransformPoint(point);
}

Mat3 frameRotation(const Model& model, const Data& data, int frame) {
  return frameTransform(model, data, frame).E.transpose();
}

Vec6 frameVelocity(const Model& model, const Data& data, int frame, const Vec3& point, ReferenceFrame axes) {
  const Frame& f = checkedFrame(model, data, frame, "frameVelocity");
  if (f.body < 0) return Vec6::Zero();
  if (axes == ReferenceFrame::World) return data.Xa[f.body].applyInverse(data.v[f.body]);
  const Vec6 local = pointPlacement(f, point).apply(data.v[f.body]);
  return toAxes(local, frameRotation(model, data, frame), axes);
}

Vec6 frameAcceleration(const Model& model, const Data& data, int frame, const Vec3& point, ReferenceFrame axes) {
  const Frame& f = checkedFrame(model, data, frame, "frameAcceleration");
  if (f.body < 0) return Vec6::Zero();
  if (axes == ReferenceFrame::World) return data.Xa[f.body].applyInverse(data.a[f.body]);  // spatial
  const Transform X = pointPlacement(f, point);
  const Vec6 v = X.apply(data.v[f.body]);
  Vec6 a = X.apply(data.a[f.body]);
  a.tail<3>() += v.head<3>().cross(v.tail<3>());  // spatial -> classical: a_p = a_lin + w × v_p
  return toAxes(a, frameRotation(model, data, frame), axes);
}

namespace {
/// Body j's spatial acceleration with ÿ = 0 and a_0 = 0: a_j = Xout_j a_Λ(j) + c_j, up its support path.
Vec6 biasAcceleration(const Model& model, const Data& data, int j) {
  const DataWorkspace& ws = data.work();
  const int o = model.body(j).output;
  Vec6 a = ws.c[static_cast<size_t>(j)];
  if (o >= 0) a += ws.Xout[static_cast<size_t>(j)].apply(biasAcceleration(model, data, o));
  return a;
}
}  // namespace

Vec6 frameAccelerationBias(const Model& model, const Data& data, int frame, const Vec3& point, ReferenceFrame axes) {
  const Frame& f = checkedFrame(model, data, frame, "frameAccelerationBias");
  if (f.body < 0) return Vec6::Zero();
  if (axes == ReferenceFrame::World) return data.Xa[f.body].applyInverse(biasAcceleration(model, data, f.body));
  const Transform X = pointPlacement(f, point);
  const Vec6 v = X.apply(data.v[f.body]);
  Vec6 a = X.apply(biasAcceleration(model, data, f.body));
  a.tail<3>() += v.head<3>().cross(v.tail<3>());  // spatial -> classical, as frameAcceleration
  return toAxes(a, frameRotation(model, data, frame), axes);
}

void frameJacobian(const Model& model, const Data& data, int frame, const Vec3& point, ReferenceFrame axes,
                   Mat6X& J) {
  const DataWorkspace& ws = data.work();
  const Frame& f = checkedFrame(model, data, frame, "frameJacobian");
  if (J.cols() != model.nv()) J.resize(6, model.nv());
  J.setZero();
  Transform X = pointPlacement(f, point);  // ^P X_j, walking j towards the root
  Mat3 R = Mat3::Identity();
  if (axes == ReferenceFrame::LocalWorldAligned) R = frameRotation(model, data, frame);
  // spec §6.7: the columns of cluster k come from S_k's rows of body j; then jump to the output
  // body (the in-cluster effects are already inside S_k)
  for (int j = f.body; j >= 0; j = model.body(j).output) {
    const Cluster& cl = model.cluster(model.body(j).cluster);
    const ClusterData& cd = ws.clusters[static_cast<size_t>(model.body(j).cluster)];
    const int r = j - cl.firstBody;
    if (axes == ReferenceFrame::World)  // ^0X_j S_k[j]: the same for every point of the subtree
      for (int c = 0; c < cl.nv; ++c) J.col(cl.vIndex + c) = data.Xa[j].applyInverse(cd.S.block<6, 1>(6 * r, c));
    else
      for (int c = 0; c < cl.nv; ++c) J.col(cl.vIndex + c) = X.apply(cd.S.block<6, 1>(6 * r, c));
    X = X * ws.Xout[j];
  }
  if (axes == ReferenceFrame::LocalWorldAligned) rotateColumns(R, J);
}

Vec6 frameAcceleration(const Model& model, Data& data, const VecRef& q, const VecRef& v, const VecRef& qdd, int frame,
                       const Vec3& point, ReferenceFrame axes) {
  forwardKinematics(model, data, q, v, qdd);
  return frameAcceleration(model, data, frame, point, axes);
}

Mat6X frameJacobian(const Model& model, Data& data, const VecRef& q, int frame, const Vec3& point,
                    ReferenceFrame axes) {
  forwardKinematics(model, data, q);
  Mat6X J(6, model.nv());
  frameJacobian(model, data, frame, point, axes, J);
  return J;
}

}  // namespace grbda

namespace grbda::tree {

void frameJacobian(const Model& model, const Data& data, int frame, const Vec3& point, ReferenceFrame axes,
                   Mat6X& J) {
  const Frame& f = checkedFrame(model, data, frame, "tree::frameJacobian");
  if (J.cols() != model.nvSpanning()) J.resize(6, model.nvSpanning());
  J.setZero();
  Transform X = Transform::translation(point) * f.placement;
  for (int j = f.body; j >= 0; j = model.body(j).parent) {
    const Body& b = model.body(j);
    if (axes == ReferenceFrame::World) {
      const Transform& Xa = data.Xa[j];
      for (int c = 0; c < b.joint.nv(); ++c) J.col(b.vIndex + c) = Xa.applyInverse(b.joint.subspaceColumn(c));
    } else if (b.joint.hasQuaternion()) {
      J.middleCols(b.vIndex, b.joint.nv()) = X.toMatrix().leftCols(b.joint.nv());
    } else {
      J.col(b.vIndex) = X.apply(b.joint.subspace());
    }
    X = X * data.work().Xup[j];
  }
  if (axes == ReferenceFrame::LocalWorldAligned) rotateColumns(frameRotation(model, data, frame), J);
}

}  // namespace grbda::tree
