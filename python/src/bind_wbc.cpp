// Whole-body-control quantities (issue #24 part A): centre of mass, centroidal momentum, Coriolis
// matrix, gravity vector, static torque (com.hpp, centroidal.hpp, coriolis.hpp) and J̇
// (kinematics.hpp). Every function returns new numpy arrays.
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "convert.hpp"
#include "grbda/algorithms/centroidal.hpp"
#include "grbda/algorithms/com.hpp"
#include "grbda/algorithms/coriolis.hpp"
#include "grbda/algorithms/kinematics.hpp"

namespace grbda::python {

namespace {

constexpr const char* kState =
    "\n\nq: independent positions (model.nq) or spanning positions (model.nq_spanning); v: independent "
    "velocities (model.nv). World frame, SI units. Rotors count as bodies (their mass, their spin).";

void bindCom(py::module_& m) {
  m.def(
      "com",
      [](const Model& model, BoundData& d, ArrayLike q, ArrayLike v) -> py::tuple {
        Data& data = d.of(model, "com");
        if (v.is_none()) return py::make_tuple(Vec3(centerOfMass(model, data, toVector(q, "q"))));
        centerOfMass(model, data, toVector(q, "q"), toVector(v, "v"));
        const CentroidalData& c = data.centroidal;
        return py::make_tuple(c.com, c.vcom, c.acomBias);
      },
      py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v") = py::none(),
      (std::string("com(model, data, q, v=None) -> (com,) or (com, com_velocity, com_acceleration_bias)\n\n"
                   "Centre of mass p_G (3); with v also its velocity and J_c' v (its acceleration at qdd = 0, "
                   "gravity not included). Links welded to the world do not count (as in Pinocchio).") +
       kState)
          .c_str());
  m.def(
      "total_mass",
      [](const Model& model, BoundData& d) {
        Data& data = d.of(model, "total_mass");
        centerOfMass(model, data, model.neutralConfiguration());
        return data.centroidal.mass;
      },
      py::arg("model"), py::arg("data"), "total_mass(model, data) -> M (kg), rotors included.");
  m.def(
      "subtree_coms",
      [](const Model& model, BoundData& d, ArrayLike q) {
        Data& data = d.of(model, "subtree_coms");
        centerOfMass(model, data, toVector(q, "q"));
        const CentroidalData& c = data.centroidal;
        MatX coms(model.numBodies(), 3);
        VecX masses(model.numBodies());
        for (int i = 0; i < model.numBodies(); ++i) {
          coms.row(i) = c.subtreeCom[static_cast<size_t>(i)].transpose();
          masses[i] = c.subtreeMass[static_cast<size_t>(i)];
        }
        return py::make_tuple(coms, masses);
      },
      py::arg("model"), py::arg("data"), py::arg("q"),
      (std::string("subtree_coms(model, data, q) -> (coms (num_bodies x 3), masses (num_bodies))\n\n"
                   "Per body: CoM and mass of its spanning subtree (the body and every body whose spanning-tree "
                   "path passes through it; Pinocchio's data.com[i], data.mass[i]).") +
       kState)
          .c_str());
  m.def(
      "com_jacobian",
      [](const Model& model, BoundData& d, ArrayLike q) {
        return Mat3X(centerOfMassJacobian(model, d.of(model, "com_jacobian"), toVector(q, "q")));
      },
      py::arg("model"), py::arg("data"), py::arg("q"),
      (std::string("com_jacobian(model, data, q) -> J_c (3 x nv)\n\nCoM Jacobian in independent coordinates: "
                   "com velocity = J_c v (composite masses folded over the cluster tree).") +
       kState)
          .c_str());
}

void bindCentroidal(py::module_& m) {
  m.def(
      "centroidal_momentum",
      [](const Model& model, BoundData& d, ArrayLike q, ArrayLike v) {
        return Vec6(centroidalMomentum(model, d.of(model, "centroidal_momentum"), toVector(q, "q"), toVector(v, "v")));
      },
      py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v"),
      (std::string("centroidal_momentum(model, data, q, v) -> h_G (6)\n\n[linear momentum; angular momentum about "
                   "the CoM], world axes (Pinocchio's order); the rotors' spin included.") +
       kState)
          .c_str());
  m.def(
      "centroidal_momentum_matrix",
      [](const Model& model, BoundData& d, ArrayLike q) {
        return Mat6X(centroidalMomentumMatrix(model, d.of(model, "centroidal_momentum_matrix"), toVector(q, "q")));
      },
      py::arg("model"), py::arg("data"), py::arg("q"),
      (std::string("centroidal_momentum_matrix(model, data, q) -> A_G (6 x nv)\n\nh_G = A_G v, by a CCRBA pass over "
                   "the clusters (H is not formed).") +
       kState)
          .c_str());
  m.def(
      "centroidal_momentum_bias",
      [](const Model& model, BoundData& d, ArrayLike q, ArrayLike v) {
        return Vec6(centroidalMomentumBias(model, d.of(model, "centroidal_momentum_bias"), toVector(q, "q"),
                                           toVector(v, "v")));
      },
      py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v"),
      (std::string("centroidal_momentum_bias(model, data, q, v) -> dA_G/dt v (6)\n\nThe rate of h_G at qdd = 0, "
                   "gravity not included, loop-closure accelerations included: dh_G/dt = A_G qdd + this.") +
       kState)
          .c_str());
  m.def(
      "centroidal_dynamics",
      [](const Model& model, BoundData& d, ArrayLike q, ArrayLike v) {
        Data& data = d.of(model, "centroidal_dynamics");
        centroidalDynamics(model, data, toVector(q, "q"), toVector(v, "v"));
        const CentroidalData& c = data.centroidal;
        py::dict out;
        out["centroidal_momentum"] = c.hg;
        out["centroidal_momentum_matrix"] = c.Ag;
        out["centroidal_bias"] = c.dhg;
        out["centroidal_inertia"] = c.Ig;
        out["com"] = c.com;
        out["mass"] = c.mass;
        return out;
      },
      py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v"),
      (std::string("centroidal_dynamics(model, data, q, v) -> dict\n\nA_G, h_G = A_G v and dA_G/dt v in one pass: "
                   "keys centroidal_momentum, centroidal_momentum_matrix, centroidal_bias, centroidal_inertia "
                   "(6 x 6, angular first, about the CoM), com, mass.") +
       kState)
          .c_str());
}

void bindCoriolis(py::module_& m) {
  m.def(
      "coriolis_matrix",
      [](const Model& model, BoundData& d, ArrayLike q, ArrayLike v) {
        return MatX(coriolisMatrix(model, d.of(model, "coriolis_matrix"), toVector(q, "q"), toVector(v, "v")));
      },
      py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v"),
      (std::string("coriolis_matrix(model, data, q, v) -> C (nv x nv)\n\nC v + g = bias_forces and dH/dt - 2C "
                   "skew-symmetric; exact through rotors and loops (C = G^T C_s G + G^T H_s dG/dt).") +
       kState)
          .c_str());
  m.def(
      "gravity_vector",
      [](const Model& model, BoundData& d, ArrayLike q) {
        return VecX(gravityVector(model, d.of(model, "gravity_vector"), toVector(q, "q")));
      },
      py::arg("model"), py::arg("data"), py::arg("q"),
      (std::string("gravity_vector(model, data, q) -> g (nv)\n\nGeneralized gravity forces: tau = g holds the robot "
                   "still.") +
       kState)
          .c_str());
  m.def(
      "static_torque",
      [](const Model& model, BoundData& d, ArrayLike q, ArrayLike fext) {
        const ExternalForces f = toExternalForces(fext, model);
        return VecX(staticTorque(model, d.of(model, "static_torque"), toVector(q, "q"), f));
      },
      py::arg("model"), py::arg("data"), py::arg("q"), py::arg("fext"),
      (std::string("static_torque(model, data, q, fext) -> tau (nv)\n\ntau = g(q) - J^T fext: the torques that hold "
                   "the robot still under fext, a (num_bodies, 6) array of world spatial forces [moment about the "
                   "world origin; force] on each body (or None).") +
       kState)
          .c_str());
  m.def(
      "frame_jacobian_time_variation",
      [](const Model& model, BoundData& d, ArrayLike q, ArrayLike v, FrameLike frame, ArrayLike point,
         ReferenceFrame axes) {
        return Mat6X(frameJacobianTimeVariation(model, d.of(model, "frame_jacobian_time_variation"), toVector(q, "q"),
                                                toVector(v, "v"), toFrame(frame, model), toVec3(point, "point"), axes));
      },
      py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v"), py::arg("frame"),
      py::arg("point") = Vec3::Zero().eval(), py::arg("reference") = ReferenceFrame::LocalWorldAligned,
      (std::string("frame_jacobian_time_variation(model, data, q, v, frame, point=0, reference=LOCAL_WORLD_ALIGNED) "
                   "-> dJ (6 x nv)\n\nThe time derivative of frame_jacobian(frame, point, reference) along v: "
                   "d/dt (J v) = J qdd + dJ v. For LOCAL_WORLD_ALIGNED, dJ v is frame_acceleration_bias "
                   "(classical); for WORLD the spatial bias; for LOCAL the derivative of the local-axes "
                   "velocity.") +
       kState)
          .c_str());
  m.def(
      "frame_acceleration_at",
      [](const Model& model, BoundData& d, ArrayLike q, ArrayLike v, ArrayLike qdd, FrameLike frame, ArrayLike point,
         ReferenceFrame axes) {
        return frameAcceleration(model, d.of(model, "frame_acceleration_at"), toVector(q, "q"), toVector(v, "v"),
                                 toVector(qdd, "qdd"), toFrame(frame, model), toVec3(point, "point"), axes);
      },
      py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v"), py::arg("qdd"), py::arg("frame"),
      py::arg("point") = Vec3::Zero().eval(), py::arg("reference") = ReferenceFrame::LocalWorldAligned,
      (std::string("frame_acceleration_at(model, data, q, v, qdd, frame, point=0, reference=LOCAL_WORLD_ALIGNED) -> "
                   "[dw; a] (6)\n\nForward kinematics at (q, v, qdd), then frame_acceleration: angular and classical "
                   "linear acceleration of the point (spatial for WORLD), gravity not included.") +
       kState)
          .c_str());
}

}  // namespace

void bindWbc(py::module_& m) {
  bindCom(m);
  bindCentroidal(m);
  bindCoriolis(m);
}

}  // namespace grbda::python
