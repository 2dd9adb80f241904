// Frame queries and Jacobians on the spanning tree (spec §6.7).
#include "grbda/algorithms/kinematics.hpp"

#include "checks.hpp"
#include "grbda/algorithms/tree.hpp"

namespace grbda {

namespace {
/// ^P X_body for the frame point P: the frame placement followed by a shift to `point`.
Transform pointPlacement(const Frame& f, const Vec3& point) { return Transform::translation(point) * f.placement; }

Vec6 toAxes(const Vec6& local, const Mat3& R, ReferenceFrame axes) {
  if (axes == ReferenceFrame::Local) return local;
  Vec6 out;
  out.head<3>() = R * local.head<3>();
  out.tail<3>() = R * local.tail<3>();
  return out;
}
}  // namespace

void forwardKinematics(const Model& model, Data& data, const VecX& q) {
  detail::checkConfiguration(model, q, "forwardKinematics");
  tree::forwardKinematics(model, data, q);
}
void forwardKinematics(const Model& model, Data& data, const VecX& q, const VecX& v) {
  detail::checkConfiguration(model, q, "forwardKinematics");
  detail::checkVector(v, model.nv(), "v", "forwardKinematics");
  tree::forwardKinematics(model, data, q, v);
}
void forwardKinematics(const Model& model, Data& data, const VecX& q, const VecX& v, const VecX& qdd) {
  detail::checkConfiguration(model, q, "forwardKinematics");
  detail::checkVector(v, model.nv(), "v", "forwardKinematics");
  detail::checkVector(qdd, model.nv(), "qdd", "forwardKinematics");
  tree::forwardKinematics(model, data, q, v, qdd);
}

Transform frameTransform(const Model& model, const Data& data, int frame) {
  const Frame& f = model.frame(frame);
  return f.body < 0 ? f.placement : f.placement * data.Xa[f.body];
}

Vec3 framePosition(const Model& model, const Data& data, int frame, const Vec3& point) {
  return frameTransform(model, data, frame).inverseTransformPoint(point);
}

Mat3 frameRotation(const Model& model, const Data& data, int frame) {
  return frameTransform(model, data, frame).E.transpose();
}

Vec6 frameVelocity(const Model& model, const Data& data, int frame, const Vec3& point, ReferenceFrame axes) {
  const Frame& f = model.frame(frame);
  if (f.body < 0) return Vec6::Zero();
  const Vec6 local = pointPlacement(f, point).apply(data.v[f.body]);
  return toAxes(local, frameRotation(model, data, frame), axes);
}

Vec6 frameAcceleration(const Model& model, const Data& data, int frame, const Vec3& point, ReferenceFrame axes) {
  const Frame& f = model.frame(frame);
  if (f.body < 0) return Vec6::Zero();
  const Transform X = pointPlacement(f, point);
  const Vec6 v = X.apply(data.v[f.body]);
  Vec6 a = X.apply(data.a[f.body]);
  a.tail<3>() += v.head<3>().cross(v.tail<3>());  // spatial -> classical: a_p = a_lin + w × v_p
  return toAxes(a, frameRotation(model, data, frame), axes);
}

void frameJacobian(const Model& model, const Data& data, int frame, const Vec3& point, ReferenceFrame axes,
                   Mat6X& J) {
  if (J.cols() != model.nv()) J.resize(6, model.nv());
  J.setZero();
  const Frame& f = model.frame(frame);
  Transform X = pointPlacement(f, point);  // ^P X_j, walking j towards the root
  Mat3 R = Mat3::Identity();
  if (axes == ReferenceFrame::LocalWorldAligned) R = frameRotation(model, data, frame);
  for (int j = f.body; j >= 0; j = model.body(j).parent) {
    const Body& b = model.body(j);
    if (b.joint.type == JointType::Free) {
      const Mat6 Xm = X.toMatrix();
      J.middleCols<6>(b.vIndex) = Xm;
    } else {
      J.col(b.vIndex) = X.apply(b.joint.subspace());
    }
    X = X * data.Xup[j];
  }
  if (axes == ReferenceFrame::LocalWorldAligned) {
    J.topRows<3>() = R * J.topRows<3>();
    J.bottomRows<3>() = R * J.bottomRows<3>();
  }
}

Mat6X frameJacobian(const Model& model, Data& data, const VecX& q, int frame, const Vec3& point,
                    ReferenceFrame axes) {
  forwardKinematics(model, data, q);
  Mat6X J(6, model.nv());
  frameJacobian(model, data, frame, point, axes, J);
  return J;
}

}  // namespace grbda
