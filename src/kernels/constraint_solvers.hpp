#pragma once
// The solvers constrainedForwardDynamics (algorithms/constrained_dynamics.cpp) dispatches to,
// declared once: PV, PV-soft and PV-early live in src/algorithms/, the KKT and LTL baselines in
// src/baselines/. Each expects the cluster state prepared and the rows gathered into `cd`
// (constraint_rows.hpp) and leaves q̈ in data.qdd and λ in cd.lambda.
#include "grbda/algorithms/constrained_dynamics.hpp"

namespace grbda::detail {

/// PV (seed 003 Alg. 1); with `proximal` the Delassus system is solved by the proximal iteration.
void pvForwardDynamics(const Model& model, Data& data, ConstraintData& cd, const VecRef& tau, const ExternalForces* fext,
                       const ConstraintSolverSettings& settings, bool proximal, const char* algorithm);
/// PV-soft: rows with compliance (src/algorithms/pv.cpp).
void pvSoftForwardDynamics(const Model& model, Data& data, const ConstraintModel& constraints, ConstraintData& cd,
                           const VecRef& tau, const ExternalForces* fext, const char* algorithm);
/// PV-early: rows eliminated as soon as a cluster determines them (src/algorithms/pv_early.cpp).
void pvEarlyForwardDynamics(const Model& model, Data& data, ConstraintData& cd, const VecRef& tau,
                            const ExternalForces* fext, const ConstraintSolverSettings& settings,
                            const char* algorithm);
/// The dense KKT reference (src/baselines/kkt.cpp).
void kktForwardDynamics(const Model& model, Data& data, ConstraintData& cd, const VecRef& tau, const ExternalForces* fext,
                        const ConstraintSolverSettings& settings, const char* algorithm);
/// Featherstone's LTL baseline, hard or soft rows (src/baselines/ltl_dynamics.cpp).
void ltlForwardDynamics(const Model& model, Data& data, const ConstraintModel& constraints, ConstraintData& cd,
                        const VecRef& tau, const ExternalForces* fext, const ConstraintSolverSettings& settings,
                        bool soft, const char* algorithm);

}  // namespace grbda::detail
