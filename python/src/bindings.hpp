#pragma once
// One function per part of the public API (include/grbda/), called in this order by module.cpp:
// later parts use the Python types the earlier ones register.
#include <pybind11/pybind11.h>

namespace grbda::python {

void bindErrors(pybind11::module_& m);      // grbda.Error, ModelError, InputError, NumericalError
void bindModel(pybind11::module_& m);       // Transform, Body, Cluster, Frame, Loop, Model
void bindBuilder(pybind11::module_& m);     // spec structs, ModelBuilder, URDF loading, robots, logging
void bindDynamics(pybind11::module_& m);    // Data, dynamics.hpp, kinematics.hpp
void bindBatch(pybind11::module_& m);       // forward_dynamics_batch (threads, GIL released)
void bindOsim(pybind11::module_& m);        // OsimSet, C-EFPA, apply-test-force
void bindBaselines(pybind11::module_& m);   // projection, Lagrange, proximal, approximate
void bindTree(pybind11::module_& m);        // grbda.tree: the spanning-tree algorithms
void bindConstraints(pybind11::module_& m); // ConstraintModel, ConstraintData, solvers, H^-1, log det H
void bindIntegration(pybind11::module_& m); // integrate, difference, position_rate, energies
void bindDerivatives(pybind11::module_& m); // compute_rnea_derivatives, compute_aba_derivatives
void bindConstrainedDerivatives(pybind11::module_& m); // compute_constrained_dynamics_derivatives
void bindCfa(pybind11::module_& m);         // CfaData, cfa_forward_dynamics, joint_reactions
void bindSimulator(pybind11::module_& m);   // World, Simulator (contact physics, controllers)
void bindWbc(pybind11::module_& m);         // com, centroidal momentum, Coriolis matrix, J̇ (issue #24 A)
void bindContactDynamics(pybind11::module_& m); // contact_inverse_dynamics, impulse_dynamics, regressor
void bindMjcf(pybind11::module_& m);        // load_mjcf, parse_mjcf_file, MjcfMotor
void bindRollout(pybind11::module_& m);     // rollout (threads); pickling of Model, World, Simulator
void bindMethods(pybind11::module_& m);     // methods(), Solver (the method table)

}  // namespace grbda::python
