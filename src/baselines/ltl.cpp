// Featherstone's LTL factorisation H = LᵀL and its solves (RBDA §6.5, Tables 6.3-6.4) on the DoF
// parent array of the cluster tree. Every loop walks an ancestor chain i, λ(i), λ²(i), ..., so
// entries off the chains are never written: L keeps H's sparsity (no fill-in).
#include <cmath>
#include <string>

#include "grbda/baselines/ltl.hpp"
#include "grbda/errors.hpp"

namespace grbda {

std::vector<int> dofParents(const Model& model) {
  std::vector<int> parent(static_cast<size_t>(model.nv()), -1);
  for (const Cluster& cl : model.clusters()) {
    int above = -1;  // last DoF of the nearest ancestor cluster that has DoFs
    for (int c = cl.parent; c >= 0; c = model.cluster(c).parent)
      if (model.cluster(c).nv > 0) {
        above = model.cluster(c).vIndex + model.cluster(c).nv - 1;
        break;
      }
    for (int j = 0; j < cl.nv; ++j) parent[static_cast<size_t>(cl.vIndex + j)] = j == 0 ? above : cl.vIndex + j - 1;
  }
  for (size_t i = 0; i < parent.size(); ++i)  // regular numbering: the factorisation relies on λ(i) < i
    if (parent[i] >= static_cast<int>(i))
      throw InputError("dofParents: model '" + model.name() + "' numbers DoF " + std::to_string(i) +
                       " before its parent DoF " + std::to_string(parent[i]));
  return parent;
}

LtlFactor::LtlFactor(const Model& model)
    : parent_(dofParents(model)), names_(model.velocityNames()), L_(MatX::Zero(model.nv(), model.nv())) {}

void LtlFactor::checkSize(Eigen::Index rows, const char* what) const {
  if (rows != size())
    throw InputError(std::string("LtlFactor::") + what + ": expected " + std::to_string(size()) + " rows, got " +
                     std::to_string(rows));
}

void LtlFactor::factorize(const MatX& H) {
  const int n = size();
  if (H.rows() != n || H.cols() != n)
    throw InputError("LtlFactor::factorize: H is " + std::to_string(H.rows()) + " x " + std::to_string(H.cols()) +
                     ", expected " + std::to_string(n) + " x " + std::to_string(n));
  for (int k = 0; k < n; ++k)  // copy the lower triangle on the pattern: row k, columns k, λ(k), ...
    for (int i = k; i >= 0; i = parent_[static_cast<size_t>(i)]) {
      if (!std::isfinite(H(k, i)))
        throw InputError("LtlFactor::factorize: H(" + std::to_string(k) + ", " + std::to_string(i) +
                         ") is not finite");
      L_(k, i) = H(k, i);
    }
  // RBDA Table 6.3 (LTL): from the last DoF to the first; row k of L is final once k is done.
  for (int k = n - 1; k >= 0; --k) {
    const double pivot = L_(k, k);
    if (!(pivot > 0.0))
      throw NumericalError("LtlFactor::factorize: H is not positive definite (pivot " + std::to_string(pivot) +
                           " at DoF " + std::to_string(k) + " '" + names_[static_cast<size_t>(k)] + "')");
    const double lkk = std::sqrt(pivot);
    L_(k, k) = lkk;
    for (int i = parent_[static_cast<size_t>(k)]; i >= 0; i = parent_[static_cast<size_t>(i)]) L_(k, i) /= lkk;
    // the rank-1 update H_ij −= L_ki L_kj stays on the chain of k: both i and j are ancestors of k
    for (int i = parent_[static_cast<size_t>(k)]; i >= 0; i = parent_[static_cast<size_t>(i)])
      for (int j = i; j >= 0; j = parent_[static_cast<size_t>(j)]) L_(i, j) -= L_(k, i) * L_(k, j);
  }
}

void LtlFactor::solveL(Eigen::Ref<VecX> x) const {
  checkSize(x.size(), "solveL");
  for (int i = 0; i < size(); ++i) {  // x_i = (b_i − Σ_{j ancestor} L_ij x_j) / L_ii
    double value = x[i];
    for (int j = parent_[static_cast<size_t>(i)]; j >= 0; j = parent_[static_cast<size_t>(j)]) value -= L_(i, j) * x[j];
    x[i] = value / L_(i, i);
  }
}

void LtlFactor::solveLt(Eigen::Ref<VecX> x) const {
  checkSize(x.size(), "solveLt");
  for (int i = size() - 1; i >= 0; --i) {  // x_i final once its descendants pushed their share
    if (x[i] == 0.0) continue;               // nothing to push: keeps a chain-supported b cheap
    x[i] /= L_(i, i);
    for (int j = parent_[static_cast<size_t>(i)]; j >= 0; j = parent_[static_cast<size_t>(j)]) x[j] -= L_(i, j) * x[i];
  }
}

void LtlFactor::solveH(Eigen::Ref<VecX> x) const {
  solveLt(x);
  solveL(x);
}

void ltlDelassus(const LtlFactor& factor, const MatX& J, MatX& Yt, MatX& out) {
  if (J.cols() != factor.size())
    throw InputError("ltlDelassus: J has " + std::to_string(J.cols()) + " columns, the factor " +
                     std::to_string(factor.size()) + " DoFs");
  if (Yt.rows() != J.cols() || Yt.cols() != J.rows()) Yt.resize(J.cols(), J.rows());
  if (out.rows() != J.rows() || out.cols() != J.rows()) out.resize(J.rows(), J.rows());
  Yt = J.transpose();
  for (Eigen::Index r = 0; r < Yt.cols(); ++r) factor.solveLt(Yt.col(r));  // Lᵀ y_r = j_r
  out.noalias() = Yt.transpose() * Yt;  // Y Yᵀ = J L⁻¹ L⁻ᵀ Jᵀ = J H⁻¹ Jᵀ
}

}  // namespace grbda
