// Data and the calls every user writes (dynamics.hpp, kinematics.hpp). Functions return new numpy
// arrays; the Data properties (data.qdd, data.tau, data.H, data.C, data.q_spanning) are read-only
// views of the workspace without a copy, valid while the Data lives and overwritten by the next
// call that uses it.
#include "bindings.hpp"
#include "convert.hpp"
#include "grbda/algorithms/dynamics.hpp"
#include "grbda/algorithms/kinematics.hpp"

namespace grbda::python {

namespace {

constexpr const char* kStateDoc =
    "q: independent positions (model.nq, position_names; loops closed on the as-built assembly branch, the "
    "same bits whatever this data computed before) or spanning positions (model.nq_spanning, checked against the loops); "
    "v: independent velocities (model.nv). Floating base: q = [x y z qw qx qy qz], v = [wx wy wz vx vy vz] "
    "in the body frame. SI units (m, rad, kg, N, N m).";

/// A read-only numpy view of a Data member, kept alive by the Data.
template <typename T>
void dataView(py::class_<BoundData>& cls, const char* name, T Data::*member, const char* doc) {
  cls.def_property_readonly(
      name, [member](const BoundData& d) -> const T& { return d.data.*member; }, py::return_value_policy::reference_internal,
      doc);
}

void bindData(py::module_& m) {
  py::class_<BoundData> cls(m, "Data",
                            "Data(model): the preallocated workspace of the algorithms for one model. One per thread; "
                            "no algorithm allocates after it is made. Keeps its model alive; using it with another "
                            "model raises InputError.");
  cls.def(py::init<const Model&>(), py::arg("model"), py::keep_alive<1, 2>());
  cls.def_property_readonly(
      "model", [](const BoundData& d) { return d.model; }, py::return_value_policy::reference,
      "the Model this Data was made for (the same Python object; kept alive by the Data)");
  cls.def(
      "set_gravity", [](BoundData& d, ArrayLike g) { d.data.setGravity(toVec3(g, "gravity")); }, py::arg("gravity"),
      "set_gravity(gravity): gravity a_g (world coordinates, m/s^2) for the calls made with this Data only, "
      "overriding model.gravity. The thread-safe way to vary gravity when one Model is shared: setting "
      "model.gravity changes it for every Data without an override.");
  cls.def(
      "use_model_gravity", [](BoundData& d) { d.data.useModelGravity(); },
      "use_model_gravity(): drop the override of set_gravity; calls follow model.gravity again.");
  cls.def_property_readonly(
      "gravity", [](const BoundData& d) { return Vec3(d.data.gravity(*d.model)); },
      "the gravity the algorithms use with this Data: its own (set_gravity) or else the model's");
  cls.def_property_readonly(
      "overrides_gravity", [](const BoundData& d) { return d.data.overridesGravity(); },
      "True after set_gravity, until use_model_gravity");
  dataView(cls, "qdd", &Data::qdd, "view: accelerations of the last forward_dynamics (nv)");
  dataView(cls, "tau", &Data::tau, "view: generalized forces of the last inverse_dynamics (nv)");
  dataView(cls, "H", &Data::H, "view: mass matrix of the last mass_matrix (nv x nv)");
  dataView(cls, "C", &Data::C, "view: bias forces of the last bias_forces (nv)");
  dataView(cls, "q_spanning", &Data::qSpan, "view: spanning positions of the last call (nq_spanning)");
}

void bindDynamicsCalls(py::module_& m) {
  m.def(
      "forward_dynamics",
      [](const Model& model, BoundData& d, ArrayLike q, ArrayLike v, ArrayLike tau, ArrayLike fext) {
        const auto f = toExternalForces(fext, model);
        return VecX(forwardDynamics(model, d.of(model, "forward_dynamics"), toVector(q, "q"), toVector(v, "v"),
                                    toVector(tau, "tau"), f));
      },
      py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v"), py::arg("tau"), py::arg("fext") = py::none(),
      (std::string("forward_dynamics(model, data, q, v, tau, fext=None) -> qdd\n\n"
                   "Forward dynamics by C-ABA: qdd = H^-1 (tau - C + J^T fext), independent accelerations (nv).\n") +
       kStateDoc +
       "\ntau: independent generalized forces (nv). fext: None or (num_bodies, 6) spatial forces [moment about the "
       "world origin; force], world coordinates. Raises InputError (sizes, NaN), NumericalError (singular state).")
          .c_str());
  m.def(
      "inverse_dynamics",
      [](const Model& model, BoundData& d, ArrayLike q, ArrayLike v, ArrayLike qdd, ArrayLike fext) {
        const auto f = toExternalForces(fext, model);
        return VecX(inverseDynamics(model, d.of(model, "inverse_dynamics"), toVector(q, "q"), toVector(v, "v"),
                                    toVector(qdd, "qdd"), f));
      },
      py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v"), py::arg("qdd"), py::arg("fext") = py::none(),
      (std::string("inverse_dynamics(model, data, q, v, qdd, fext=None) -> tau\n\n"
                   "Inverse dynamics by C-RNEA: tau = H qdd + C - J^T fext (nv).\n") +
       kStateDoc + "\nqdd: independent accelerations (nv). fext as in forward_dynamics.")
          .c_str());
  m.def(
      "cluster_joint_force",
      [](const Model& model, BoundData& d, int k) { return clusterJointForce(model, d.of(model, "cluster_joint_force"), k); },
      py::arg("model"), py::arg("data"), py::arg("cluster"),
      "cluster_joint_force(model, data, cluster) -> f (6)\n\nAfter inverse_dynamics: the spatial force [n; f] that "
      "cluster k's joint transmits from its output body to the cluster, in the output body's coordinates (world "
      "coordinates for a cluster on the ground). InputError for k out of range.");
  m.def(
      "mass_matrix",
      [](const Model& model, BoundData& d, ArrayLike q) {
        return MatX(massMatrix(model, d.of(model, "mass_matrix"), toVector(q, "q")));
      },
      py::arg("model"), py::arg("data"), py::arg("q"),
      (std::string("mass_matrix(model, data, q) -> H\n\nJoint-space mass matrix H(q) by the cluster CRBA, nv x nv, "
                   "symmetric.\n") + kStateDoc).c_str());
  m.def(
      "bias_forces",
      [](const Model& model, BoundData& d, ArrayLike q, ArrayLike v) {
        return VecX(biasForces(model, d.of(model, "bias_forces"), toVector(q, "q"), toVector(v, "v")));
      },
      py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v"),
      (std::string("bias_forces(model, data, q, v) -> C\n\nBias forces C(q, v): gravity, Coriolis and centrifugal "
                   "terms (nv), so that tau = H qdd + C.\n") + kStateDoc).c_str());
  m.def(
      "complete_configuration",
      [](const Model& model, BoundData& d, ArrayLike q) {
        return VecX(completeConfiguration(model, d.of(model, "complete_configuration"), toVector(q, "q")));
      },
      py::arg("model"), py::arg("data"), py::arg("q"),
      "complete_configuration(model, data, q) -> q_spanning\n\nSpanning positions (nq_spanning, "
      "spanning_position_names) that close the loops for independent positions q (nq); NumericalError if they cannot "
      "be closed. Spanning positions are checked and returned.");
}

void bindKinematics(py::module_& m) {
  py::enum_<ReferenceFrame>(m, "ReferenceFrame",
                            "Axes of 6-D frame quantities. LOCAL: the frame's own axes, reference point the frame "
                            "point; LOCAL_WORLD_ALIGNED: world axes, reference point the frame point; WORLD "
                            "(Pinocchio's WORLD): the body's spatial quantity at the world origin in world axes "
                            "(accelerations spatial, not classical).")
      .value("LOCAL", ReferenceFrame::Local)
      .value("LOCAL_WORLD_ALIGNED", ReferenceFrame::LocalWorldAligned)
      .value("WORLD", ReferenceFrame::World);

  m.def(
      "forward_kinematics",
      [](const Model& model, BoundData& bd, ArrayLike q, ArrayLike v, ArrayLike qdd) {
        Data& d = bd.of(model, "forward_kinematics");
        if (v.is_none() && !qdd.is_none()) throw InputError("forward_kinematics: qdd given without v");
        if (v.is_none()) forwardKinematics(model, d, toVector(q, "q"));
        else if (qdd.is_none()) forwardKinematics(model, d, toVector(q, "q"), toVector(v, "v"));
        else forwardKinematics(model, d, toVector(q, "q"), toVector(v, "v"), toVector(qdd, "qdd"));
      },
      py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v") = py::none(), py::arg("qdd") = py::none(),
      "forward_kinematics(model, data, q, v=None, qdd=None)\n\nPoses (and velocities with v, and true accelerations "
      "with qdd, gravity not included) of every body into data, for the frame_* functions. q independent or spanning; "
      "v, qdd independent (nv).");
  m.def(
      "frame_transform",
      [](const Model& model, BoundData& d, FrameLike frame) {
        return frameTransform(model, d.of(model, "frame_transform"), toFrame(frame, model));
      },
      py::arg("model"), py::arg("data"), py::arg("frame"),
      "frame_transform(model, data, frame) -> Transform\n\n^F X_0 (world -> frame coordinates) at the last "
      "forward_kinematics. frame: name or index.");
  m.def(
      "frame_placement",
      [](const Model& model, BoundData& d, FrameLike frame) {
        return homogeneousPose(frameTransform(model, d.of(model, "frame_placement"), toFrame(frame, model)));
      },
      py::arg("model"), py::arg("data"), py::arg("frame"),
      "frame_placement(model, data, frame) -> 4x4\n\nPose of the frame in the world at the last forward_kinematics: "
      "[[R, p], [0, 1]] with R frame -> world rotation and p the frame origin in world coordinates (m).");
  m.def(
      "frame_position",
      [](const Model& model, BoundData& d, FrameLike frame, ArrayLike point) {
        return framePosition(model, d.of(model, "frame_position"), toFrame(frame, model), toVec3(point, "point"));
      },
      py::arg("model"), py::arg("data"), py::arg("frame"), py::arg("point") = Vec3::Zero().eval(),
      "frame_position(model, data, frame, point=0) -> p (3)\n\nWorld position (m) of `point` (frame coordinates) at "
      "the last forward_kinematics.");
  m.def(
      "frame_rotation",
      [](const Model& model, BoundData& d, FrameLike frame) {
        return frameRotation(model, d.of(model, "frame_rotation"), toFrame(frame, model));
      },
      py::arg("model"), py::arg("data"), py::arg("frame"),
      "frame_rotation(model, data, frame) -> R (3x3)\n\nRotation frame -> world (columns: the frame axes in world "
      "coordinates).");
  m.def(
      "frame_velocity",
      [](const Model& model, BoundData& d, FrameLike frame, ArrayLike point, ReferenceFrame axes) {
        return frameVelocity(model, d.of(model, "frame_velocity"), toFrame(frame, model), toVec3(point, "point"), axes);
      },
      py::arg("model"), py::arg("data"), py::arg("frame"), py::arg("point") = Vec3::Zero().eval(),
      py::arg("reference") = ReferenceFrame::LocalWorldAligned,
      "frame_velocity(model, data, frame, point=0, reference=LOCAL_WORLD_ALIGNED) -> [w; v] (6)\n\nAngular velocity "
      "(rad/s) and linear velocity (m/s) of the point, after forward_kinematics(model, data, q, v).");
  m.def(
      "frame_acceleration",
      [](const Model& model, BoundData& d, FrameLike frame, ArrayLike point, ReferenceFrame axes) {
        return frameAcceleration(model, d.of(model, "frame_acceleration"), toFrame(frame, model), toVec3(point, "point"),
                                 axes);
      },
      py::arg("model"), py::arg("data"), py::arg("frame"), py::arg("point") = Vec3::Zero().eval(),
      py::arg("reference") = ReferenceFrame::LocalWorldAligned,
      "frame_acceleration(model, data, frame, point=0, reference=LOCAL_WORLD_ALIGNED) -> [dw; a] (6)\n\nAngular "
      "acceleration and classical linear acceleration of the point (true accelerations, gravity not included), after "
      "forward_kinematics(model, data, q, v, qdd).");
  m.def(
      "frame_acceleration_bias",
      [](const Model& model, BoundData& d, FrameLike frame, ArrayLike point, ReferenceFrame axes) {
        return frameAccelerationBias(model, d.of(model, "frame_acceleration_bias"), toFrame(frame, model),
                                     toVec3(point, "point"), axes);
      },
      py::arg("model"), py::arg("data"), py::arg("frame"), py::arg("point") = Vec3::Zero().eval(),
      py::arg("reference") = ReferenceFrame::LocalWorldAligned,
      "frame_acceleration_bias(model, data, frame, point=0, reference=LOCAL_WORLD_ALIGNED) -> J_dot v (6)\n\n"
      "The frame point's acceleration with qdd = 0 (velocity-product terms only, gravity not included), after "
      "forward_kinematics(model, data, q, v): frame_acceleration = J qdd + this.");
  m.def(
      "frame_jacobian",
      [](const Model& model, BoundData& d, ArrayLike q, FrameLike frame, ArrayLike point, ReferenceFrame axes) {
        return Mat6X(frameJacobian(model, d.of(model, "frame_jacobian"), toVector(q, "q"), toFrame(frame, model),
                                   toVec3(point, "point"), axes));
      },
      py::arg("model"), py::arg("data"), py::arg("q"), py::arg("frame"), py::arg("point") = Vec3::Zero().eval(),
      py::arg("reference") = ReferenceFrame::LocalWorldAligned,
      "frame_jacobian(model, data, q, frame, point=0, reference=LOCAL_WORLD_ALIGNED) -> J (6 x nv)\n\nRuns forward "
      "kinematics at q and returns J with J v = frame_velocity(frame, point, reference), independent coordinates.");
}

}  // namespace

void bindDynamics(py::module_& m) {
  bindData(m);
  bindDynamicsCalls(m);
  bindKinematics(m);
}

}  // namespace grbda::python
