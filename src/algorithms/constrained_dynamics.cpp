// Public entry point of constrained forward dynamics: validate, prepare the cluster state, gather
// the rows once, run the chosen solver, measure the residual.
#include "grbda/algorithms/constrained_dynamics.hpp"

#include "grbda/algorithms/dynamics.hpp"

#include <algorithm>
#include <string>

#include "../kernels/constraint_rows.hpp"
#include "../kernels/constraint_solvers.hpp"
#include "../kernels/checks.hpp"
#include "../kernels/cluster_state.hpp"
#include "grbda/errors.hpp"
#include "constraints/constraint_workspace.hpp"

namespace grbda {

namespace {
constexpr ConstraintSolver kSolvers[] = {ConstraintSolver::PV,  ConstraintSolver::PVSoft,
                                         ConstraintSolver::KKT, ConstraintSolver::ProximalDelassus,
                                         ConstraintSolver::LTL, ConstraintSolver::LTLSoft,
                                         ConstraintSolver::PVEarly};
}  // namespace

const char* constraintSolverName(ConstraintSolver solver) {
  switch (solver) {
    case ConstraintSolver::PV: return "pv";
    case ConstraintSolver::PVSoft: return "pv-soft";
    case ConstraintSolver::KKT: return "kkt";
    case ConstraintSolver::ProximalDelassus: return "proximal-delassus";
    case ConstraintSolver::LTL: return "ltl";
    case ConstraintSolver::LTLSoft: return "ltl-soft";
    case ConstraintSolver::PVEarly: return "pv-early";
  }
  return "?";
}

ConstraintSolver constraintSolverFromName(const std::string& name) {
  if (name == "proximal") return ConstraintSolver::ProximalDelassus;  // its old name, kept for scripts
  std::string valid;
  for (ConstraintSolver s : kSolvers) {
    if (name == constraintSolverName(s)) return s;
    valid += (valid.empty() ? "" : ", ") + std::string(constraintSolverName(s));
  }
  throw InputError("unknown constraint solver '" + name + "'; valid: " + valid);
}

const char* dynamicsCheckName(DynamicsCheck check) {
  switch (check) {
    case DynamicsCheck::Auto: return "auto";
    case DynamicsCheck::Always: return "always";
    case DynamicsCheck::Never: return "never";
  }
  return "?";
}

DynamicsCheck dynamicsCheckFromName(const std::string& name) {
  for (DynamicsCheck c : {DynamicsCheck::Auto, DynamicsCheck::Always, DynamicsCheck::Never})
    if (name == dynamicsCheckName(c)) return c;
  throw InputError("unknown dynamics check '" + name + "'; valid: auto, always, never");
}

const VecX& constrainedForwardDynamics(const Model& model, Data& data, const ConstraintModel& constraints,
                                       ConstraintData& cd, const VecRef& q, const VecRef& v, const VecRef& tau,
                                       const ConstraintSolverSettings& settings, const ExternalForces& fext) {
  constexpr const char* alg = "constrainedForwardDynamics";
  detail::checkData(model, data, alg);
  detail::checkConstraintWorkspace(model, constraints, cd, alg);
  detail::checkVector(tau, model.nv(), "tau", alg);
  detail::checkExternalForces(model, &fext, alg);
  if (settings.solver == ConstraintSolver::PVSoft || settings.solver == ConstraintSolver::LTLSoft)
    for (int r = 0; r < constraints.numRows(); ++r)
      if (!(constraints.compliance()[r] > 0.0))
        throw InputError(std::string(alg) + ": " + constraintSolverName(settings.solver) + " needs a compliance R > 0 on every row; row " +
                         std::to_string(r) + " has none (ConstraintModel::setCompliance, --compliance)");
  const bool articulated = settings.solver == ConstraintSolver::PV || settings.solver == ConstraintSolver::PVSoft ||
                           settings.solver == ConstraintSolver::PVEarly ||
                           settings.solver == ConstraintSolver::ProximalDelassus;
  if (articulated && cd.work().numRows == 0) {  // no rows (e.g. --loops auto embedded every loop): C-ABA itself
    forwardDynamics(model, data, q, v, tau, fext);
    cd.residual = cd.rowResidual = cd.dynamicsResidual = 0.0;
    cd.rank = 0;
    cd.redundant = false;
    cd.iterations = 0;
    return data.qdd;
  }
  detail::prepareState(model, data, q, &v, alg);
  detail::gatherConstraintRows(model, data, constraints, cd);
  switch (settings.solver) {
    case ConstraintSolver::PV: detail::pvForwardDynamics(model, data, cd, tau, &fext, settings, false, alg); break;
    case ConstraintSolver::ProximalDelassus:
      detail::pvForwardDynamics(model, data, cd, tau, &fext, settings, true, alg);
      break;
    case ConstraintSolver::PVSoft: detail::pvSoftForwardDynamics(model, data, constraints, cd, tau, &fext, alg); break;
    case ConstraintSolver::PVEarly: detail::pvEarlyForwardDynamics(model, data, cd, tau, &fext, settings, alg); break;
    case ConstraintSolver::KKT: detail::kktForwardDynamics(model, data, cd, tau, &fext, settings, alg); break;
    case ConstraintSolver::LTL:
    case ConstraintSolver::LTLSoft:
      detail::ltlForwardDynamics(model, data, constraints, cd, tau, &fext, settings,
                                 settings.solver == ConstraintSolver::LTLSoft, alg);
      break;
  }
  cd.rowResidual = detail::constraintResidual(data, cd);
  const bool mayMissDynamics =
      settings.solver == ConstraintSolver::PVEarly || settings.solver == ConstraintSolver::ProximalDelassus;
  const bool check = settings.checkDynamics == DynamicsCheck::Always ||
                     (settings.checkDynamics == DynamicsCheck::Auto && mayMissDynamics);
  cd.dynamicsResidual = check ? detail::dynamicsResidual(model, data, cd, tau, &fext) : -1.0;
  cd.residual = std::max(cd.rowResidual, cd.dynamicsResidual);
  detail::checkResult(data.qdd, "qdd", alg);
  detail::checkResult(cd.lambda, "lambda", alg);
  return data.qdd;
}

}  // namespace grbda
