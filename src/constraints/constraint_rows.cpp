// The row gatherer shared by every constrained solver (PV, PV-soft, proximal, KKT): each
// constraint's kind (kinds/, constraint_type.hpp) writes its rows as parts K (a 6-vector on one
// body's spatial acceleration, body coordinates) and right-hand sides k for true accelerations;
// then kBiased for the gravity-biased accelerations the articulated pass computes. Gravity trick
// (seed 003 §2.9): the solvers see a_b + ^bX_0 a_0 with a_0 = −a_g, so kBiased = k + K · (^bX_0 a_0).
#include "../kernels/constraint_rows.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "grbda/constraints/constraint_type.hpp"
#include "grbda/errors.hpp"

#include "../kernels/checks.hpp"
#include "../kernels/cluster_state.hpp"
#include "constraints/constraint_workspace.hpp"

namespace grbda {

ConstraintRowsOut::ConstraintRowsOut(ConstraintData& cd, int row)
    : parts_(cd.work().parts.data()),
      rowFirstPart_(cd.work().rowFirstPart.data() + row),
      k_(cd.work().k.data() + row) {}

}  // namespace grbda

namespace grbda::detail {

void checkConstraintWorkspace(const Model& model, const ConstraintModel& constraints, const ConstraintData& cd,
                              const char* algorithm) {
  if (constraints.modelId() != model.id())
    throw InputError(std::string(algorithm) + ": the ConstraintModel was made for another model than '" +
                     model.name() + "'");
  if (cd.movedFrom()) throw InputError(std::string(algorithm) + ": the ConstraintData was moved from");
  if (cd.work().modelId != model.id() || cd.work().constraintsVersion != constraints.version() ||
      cd.work().numRows != constraints.numRows())
    throw InputError(std::string(algorithm) +
                     ": the ConstraintData does not match the ConstraintModel (made for another model, or the "
                     "constraints changed since); make a new ConstraintData(model, constraints)");
}

void gatherConstraintRows(const Model& model, const Data& data, const ConstraintModel& constraints,
                          ConstraintData& cd, bool rightHandSides) {
  if (rightHandSides && constraints.baumgarte() > 0.0 && !cd.work().hasReference) cd.setReference(model, data, constraints);
  const double T = rightHandSides ? constraints.baumgarte() : 0.0;
  const double kv = T > 0.0 ? 2.0 / T : 0.0, kp = T > 0.0 ? 1.0 / (T * T) : 0.0;
  const ConstraintRowSettings settings{rightHandSides, kv, kp};
  for (int ci = 0; ci < constraints.size(); ++ci) {  // one call per constraint: its kind writes its rows
    const Constraint& c = constraints.constraint(ci);
    c.type->calc(model, data, c, cd.work().typeData[static_cast<size_t>(ci)].get(), settings, ConstraintRowsOut(cd, c.row));
  }
  if (!rightHandSides) return;
  const Vec6 a0 = gravityBias(model, data);
  cd.work().kBiased = cd.work().k;
  for (const ConstraintWorkspace::RowPart& p : cd.work().parts)
    cd.work().kBiased[p.row] += p.K.dot(data.Xa[static_cast<size_t>(p.body)].apply(a0));
}

double constraintResidual(const Data& data, ConstraintData& cd) {
  double worst = 0.0;
  for (int r = 0; r < cd.work().numRows; ++r) {
    double value = -cd.work().kBiased[r];
    for (int p = cd.work().rowFirstPart[static_cast<size_t>(r)]; p < cd.work().rowFirstPart[static_cast<size_t>(r) + 1]; ++p)
      value += cd.work().parts[static_cast<size_t>(p)].K.dot(data.a[static_cast<size_t>(cd.work().parts[static_cast<size_t>(p)].body)]);
    worst = std::max(worst, std::abs(value));
  }
  return worst;
}

}  // namespace grbda::detail

namespace grbda {

void ConstraintData::setReference(const Model& model, const Data& data, const ConstraintModel& constraints) {
  detail::checkData(model, data, "ConstraintData::setReference");
  detail::checkConstraintWorkspace(model, constraints, *this, "ConstraintData::setReference");
  for (int ci = 0; ci < constraints.size(); ++ci) {
    const Constraint& c = constraints.constraint(ci);
    c.type->setReference(model, data, c, work_->typeData[static_cast<size_t>(ci)].get());
  }
  work_->hasReference = true;
}

}  // namespace grbda
