// Custom rows (seed 003's K_i a_i = k_i): K a = k on a link's spatial acceleration a = [ω̇; a_O]
// (Featherstone's, link coordinates); K is m x 6, k has m entries; λ is the generalised force Kᵀλ
// on the link. In body coordinates K_body = ^link X_bodyᵀ K (the link frame may be a fixed child).
//
// Derivatives: a row K (body coordinates, on the true spatial acceleration) is the world
// force-like K_w = ^kX_0ᵀ K turning with the body, so ∂(K_w · (a_k − a_0))/∂q_j =
// K_w · (dAdq_j + dVdq_j × v_k + S_j × a_0), ∂/∂q̇_j = K_w · (Ṡ_j + dVdq_j − v_k × S_j).
#include <string>

#include "kinds.hpp"
#include "grbda/errors.hpp"
#include "grbda/spatial/cross.hpp"

#include "../../kernels/cluster_state.hpp"
#include "constraints/constraint_workspace.hpp"

namespace grbda::detail {

namespace {

class CustomRows final : public ConstraintType {
 public:
  const char* name() const override { return "custom"; }
  ConstraintKind kind() const override { return ConstraintKind::Custom; }

  int resolve(const Model& model, Constraint& c) const override {
    resolveConstraintLink(model, c);
    if (c.K.cols() != 6 || c.K.rows() < 1)
      throw InputError(describeConstraint(c) + ": K must be m x 6 with m >= 1, got " + std::to_string(c.K.rows()) +
                       " x " + std::to_string(c.K.cols()));
    if (c.k.size() != c.K.rows())
      throw InputError(describeConstraint(c) + ": k has " + std::to_string(c.k.size()) + " entries, K has " +
                       std::to_string(c.K.rows()) + " rows");
    if (!c.K.allFinite() || !c.k.allFinite()) throw InputError(describeConstraint(c) + ": K or k is not finite");
    for (Eigen::Index r = 0; r < c.K.rows(); ++r)
      if (c.K.row(r).norm() == 0.0)
        throw InputError(describeConstraint(c) + ": row " + std::to_string(r) + " of K is zero");
    return static_cast<int>(c.K.rows());
  }

  void calc(const Model& model, const Data&, const Constraint& c, ConstraintTypeData*, const ConstraintRowSettings& s,
            ConstraintRowsOut out) const override {
    const Transform& placement = model.frame(c.frame).placement;  // ^link X_body
    for (int r = 0; r < c.numRows; ++r) {
      out.K(r) = placement.applyTranspose(c.K.row(r).transpose());
      if (s.rightHandSides) out.k(r) = c.k[r];
    }
  }

  void addForcesAsExternal(const Model&, const Data& data, const Constraint& c, const ConstraintTypeData*,
                           const ConstraintData& cd, ConstraintDerivativesData& D) const override {
    for (int r = 0; r < c.numRows; ++r) {  // Kᵀλ on the body (body coordinates): turns with it, E = 0
      const ConstraintWorkspace::RowPart& part = cd.work().parts[static_cast<size_t>(cd.work().rowFirstPart[static_cast<size_t>(c.row + r)])];
      D.Fext[static_cast<size_t>(part.body)] +=
          data.Xa[static_cast<size_t>(part.body)].applyTranspose(part.K * cd.lambda[c.row + r]);
    }
  }

  void addAccelerationDerivatives(const Model& model, const Data& data, const Constraint& c,
                                  const ConstraintTypeData*, const ConstraintData& cd, double,
                                  ConstraintDerivativesData& D) const override {
    const DerivativesData& d = data.derivatives;
    const Vec6 a0 = gravityBias(model, data);
    for (int row = c.row; row < c.row + c.numRows; ++row) {
      const ConstraintWorkspace::RowPart& part = cd.work().parts[static_cast<size_t>(cd.work().rowFirstPart[static_cast<size_t>(row)])];
      const Vec6 Kw = data.Xa[static_cast<size_t>(part.body)].applyTranspose(part.K);
      const Vec6& vk = d.vw[static_cast<size_t>(part.body)];
      for (int j = part.body; j >= 0; j = model.body(j).parent) {
        const int jv = model.body(j).vIndex;
        for (int col = jv; col < jv + model.body(j).joint.nv(); ++col) {
          const Vec6 S = d.J.col(col), dV = d.dVdq.col(col);
          D.das_dq(row, col) = Kw.dot(d.dAdq.col(col) + crossMotion(dV, vk) + crossMotion(S, a0));
          D.das_dv(row, col) = Kw.dot(d.dJ.col(col) + dV - crossMotion(vk, S));
          D.Js(row, col) = Kw.dot(S);
        }
      }
    }
  }
};

}  // namespace

std::shared_ptr<const ConstraintType> customRowsType() {
  static const auto type = std::make_shared<const CustomRows>();
  return type;
}

}  // namespace grbda::detail
