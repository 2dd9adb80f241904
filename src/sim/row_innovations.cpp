// Row innovations: the inward sweeps, G by merging two rows' supporting clusters, and the one
// outward sweep of ℳ⁻¹ Jᵀ λ (row_innovations.hpp).
#include "row_innovations.hpp"

#include <algorithm>

#include "algorithms/force_propagators.hpp"
#include "grbda/errors.hpp"

namespace grbda::detail {

void RowInnovations::reserve(const Model& model, int maxRows) {
  const int cap = std::max(maxRows, 1);
  int maxDof = 1;
  for (const Cluster& cl : model.clusters()) maxDof = std::max(maxDof, cl.nv);
  rowStart_.assign(static_cast<size_t>(cap) + 1, 0);
  cluster_.assign(static_cast<size_t>(cap) * static_cast<size_t>(model.numClusters()), -1);
  offset_.assign(cluster_.size(), 0);
  t_.setZero(static_cast<Eigen::Index>(cap) * model.nv());
  z_.setZero(t_.size());
  u_.setZero(maxDof);
  clear();
}

void RowInnovations::clear() {
  rows_ = entries_ = used_ = 0;
  rowStart_[0] = 0;
}

void RowInnovations::store(int k, const Cluster& cl, const ClusterData& cd, const Eigen::Ref<const VecX>& t) {
  cluster_[static_cast<size_t>(entries_)] = k;
  offset_[static_cast<size_t>(entries_)] = used_;
  t_.segment(used_, cl.nv) = t;
  z_.segment(used_, cl.nv).noalias() = cd.Dinv * t;  // D_k⁻¹ t_k
  used_ += cl.nv;
  ++entries_;
}

void RowInnovations::inward(const Model& model, Data& data, int body, Vec6 p) {
  for (int j = body; j >= 0; j = model.body(j).output) {
    const int k = model.body(j).cluster;
    const Cluster& cl = model.cluster(k);
    const ClusterData& cd = data.clusters[static_cast<size_t>(k)];
    auto t = u_.head(cl.nv);
    t.noalias() = cd.S.middleRows<6>(6 * (j - cl.firstBody)).transpose() * p;  // t_k = S_kᵀ p
    store(k, cl, cd, t);
    if (cl.output < 0) return;
    p = data.Xout[j].applyTranspose(p);  // on to the output body, less what cluster k absorbed
    p.noalias() -= cd.DinvXUt.transpose() * t;
  }
}

void RowInnovations::addBodyForceRow(const Model& model, Data& data, int body, const Vec6& p) {
  if (body >= 0) inward(model, data, body, p);
  rowStart_[static_cast<size_t>(++rows_)] = entries_;
}

void RowInnovations::addClusterForceRow(const Model& model, Data& data, int k, const Eigen::Ref<const VecX>& t) {
  const Cluster& cl = model.cluster(k);
  const ClusterData& cd = data.clusters[static_cast<size_t>(k)];
  store(k, cl, cd, t);
  if (cl.output >= 0) {
    Vec6 passed;
    passed.noalias() = -(cd.DinvXUt.transpose() * t);  // what the output body feels
    inward(model, data, cl.output, passed);
  }
  rowStart_[static_cast<size_t>(++rows_)] = entries_;
}

void RowInnovations::delassus(const Model& model, MatX& G) const {
  for (int i = 0; i < rows_; ++i)
    for (int j = 0; j <= i; ++j) {
      double g = 0.0;
      int a = rowStart_[static_cast<size_t>(i)], b = rowStart_[static_cast<size_t>(j)];
      const int aEnd = rowStart_[static_cast<size_t>(i) + 1], bEnd = rowStart_[static_cast<size_t>(j) + 1];
      while (a < aEnd && b < bEnd) {  // both lists run from the leaf towards the root
        const int ka = cluster_[static_cast<size_t>(a)], kb = cluster_[static_cast<size_t>(b)];
        if (ka == kb) {
          const int d = model.cluster(ka).nv;
          g += t_.segment(offset_[static_cast<size_t>(a)], d).dot(z_.segment(offset_[static_cast<size_t>(b)], d));  // t_k^iᵀ D_k⁻¹ t_k^j
          ++a;
          ++b;
        } else if (ka > kb) {
          ++a;
        } else {
          ++b;
        }
      }
      G(i, j) = G(j, i) = g;
    }
}

void RowInnovations::velocityChange(const Model& model, Data& data, const Eigen::Ref<const VecX>& lambda, VecX& dv) {
  dv.setZero();
  for (int i = 0; i < rows_; ++i) {  // Σ_i λ_i D_k⁻¹ t_k^i, per cluster
    if (lambda[i] == 0.0) continue;
    for (int e = rowStart_[static_cast<size_t>(i)]; e < rowStart_[static_cast<size_t>(i) + 1]; ++e) {
      const Cluster& cl = model.cluster(cluster_[static_cast<size_t>(e)]);
      dv.segment(cl.vIndex, cl.nv) += lambda[i] * z_.segment(offset_[static_cast<size_t>(e)], cl.nv);
    }
  }
  outwardResponse(model, data, dv);  // ÿ_k = D_k⁻¹ t_k − D_k⁻¹ XU_kᵀ a_o
}

void bodyVelocities(const Model& model, const Data& data, const VecX& v, std::vector<Vec6>& V) {
  for (int k = 0; k < model.numClusters(); ++k) {
    const Cluster& cl = model.cluster(k);
    const ClusterData& cd = data.clusters[static_cast<size_t>(k)];
    const Vec6 vo = cl.output < 0 ? Vec6::Zero() : V[static_cast<size_t>(cl.output)];
    for (int r = 0; r < cl.numBodies; ++r) {
      const int i = cl.firstBody + r;
      V[static_cast<size_t>(i)] = data.Xout[i].apply(vo);
      V[static_cast<size_t>(i)].noalias() += cd.S.middleRows<6>(6 * r) * v.segment(cl.vIndex, cl.nv);
    }
  }
}

}  // namespace grbda::detail
