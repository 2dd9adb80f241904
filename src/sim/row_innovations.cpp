// Row innovations: the inward sweeps, G by merging two groups' supporting clusters, and the one
// outward sweep of ℳ⁻¹ Jᵀ λ (row_innovations.hpp).
#include "row_innovations.hpp"

#include <algorithm>

#include "../kernels/cluster_blocks.hpp"
#include "../kernels/force_propagators.hpp"
#include "data_workspace.hpp"

namespace grbda::detail {

void RowInnovations::reserve(const Model& model, int maxRows) {
  const int cap = std::max(maxRows, 1);
  groups_.reserve(static_cast<size_t>(cap));
  cluster_.assign(static_cast<size_t>(cap) * static_cast<size_t>(model.numClusters()), -1);
  offset_.assign(cluster_.size(), 0);
  t_.setZero(static_cast<Eigen::Index>(cap) * model.nv());
  z_.setZero(t_.size());
  clear();
}

void RowInnovations::clear() {
  rows_ = entries_ = used_ = 0;
  groups_.clear();
}

void RowInnovations::store(int k, const ClusterData& cd, const Eigen::Ref<const MatX>& T) {
  const Eigen::Index d = T.rows(), g = T.cols();
  beginEntry(k);
  Eigen::Map<MatX>(t_.data() + used_, d, g) = T;
  Eigen::Map<MatX>(z_.data() + used_, d, g).noalias() = cd.Dinv * T;  // Z = D_k⁻¹ T
  used_ += static_cast<int>(d * g);
}

void RowInnovations::beginEntry(int k) {
  cluster_[static_cast<size_t>(entries_)] = k;
  offset_[static_cast<size_t>(entries_)] = used_;
  ++entries_;
  ++groups_.back().entries;
}

/// One supporting cluster of a group of Gc rows, d_k = D fixed where it can be: T = S_jᵀ P and
/// Z = D_k⁻¹ T into the pools, then P passed on to the output body (false at the root).
template <int D, int Gc>
bool RowInnovations::stepThrough(const Model& model, Data& data, int j, Eigen::Matrix<double, 6, Gc>& P) {
  DataWorkspace& ws = data.work();
  using MatDG = Eigen::Matrix<double, D, Gc>;
  const int k = model.body(j).cluster;
  const Cluster& cl = model.cluster(k);
  const ClusterData& cd = ws.clusters[static_cast<size_t>(k)];
  const int d = cl.nv;
  beginEntry(k);
  Eigen::Map<MatDG> T(t_.data() + used_, d, Gc), Z(z_.data() + used_, d, Gc);
  used_ += d * Gc;
  T.noalias() = rowsOf<D>(cd.S, j - cl.firstBody).transpose() * P;  // t_k = S_kᵀ p
  Z.noalias() = Eigen::Map<const typename Sizes<D>::MatD>(cd.Dinv.data(), d, d) * T;
  if (cl.output < 0) return false;
  // P ← Xoutᵀ P column by column (fixed-size products; a 3 x 3 block product through Eigen's
  // generic path is an out-of-line call that costs more than its arithmetic)
  ws.Xout[j].applyTransposeInPlace(P);
  P.noalias() -= Eigen::Map<const Eigen::Matrix<double, D, 6>>(cd.DinvXUt.data(), d, 6).transpose() * T;
  return true;
}

template <int Gc>
void RowInnovations::inward(const Model& model, Data& data, int body, Eigen::Matrix<double, 6, Gc> P) {
  for (int j = body; j >= 0; j = model.body(j).output) {
    const bool on = withClusterDof(model.cluster(model.body(j).cluster).nv, [&](auto D) {
      return stepThrough<decltype(D)::value, Gc>(model, data, j, P);
    });
    if (!on) return;
  }
}

void RowInnovations::addBodyForceRows(const Model& model, Data& data, int body, const Mat63& P) {
  groups_.push_back(Group{rows_, 3, entries_, 0});
  rows_ += 3;
  if (body >= 0) inward<3>(model, data, body, P);
}

template <int D>
bool RowInnovations::stepThroughBoth(const Model& model, Data& data, int j1, Mat63& P1, int j2, const Mat63& P2) {
  DataWorkspace& ws = data.work();
  using MatD3 = Eigen::Matrix<double, D, 3>;
  const int k = model.body(j1).cluster;
  const Cluster& cl = model.cluster(k);
  const ClusterData& cd = ws.clusters[static_cast<size_t>(k)];
  const int d = cl.nv;
  beginEntry(k);
  Eigen::Map<MatD3> T(t_.data() + used_, d, 3), Z(z_.data() + used_, d, 3);
  used_ += 3 * d;
  T.noalias() = rowsOf<D>(cd.S, j1 - cl.firstBody).transpose() * P1;
  T.noalias() += rowsOf<D>(cd.S, j2 - cl.firstBody).transpose() * P2;
  Z.noalias() = Eigen::Map<const typename Sizes<D>::MatD>(cd.Dinv.data(), d, d) * T;
  if (cl.output < 0) return false;
  // P ← Σ_i Xout_iᵀ P_i − XU D⁻¹ t (the stacked form of stepThrough's update)
  Mat63 P2out = P2;
  ws.Xout[j1].applyTransposeInPlace(P1);
  ws.Xout[j2].applyTransposeInPlace(P2out);
  P1 += P2out;
  P1.noalias() -= Eigen::Map<const Eigen::Matrix<double, D, 6>>(cd.DinvXUt.data(), d, 6).transpose() * T;
  return true;
}

void RowInnovations::addBodyPairForceRows(const Model& model, Data& data, int body1, const Mat63& P1, int body2,
                                          const Mat63& P2) {
  groups_.push_back(Group{rows_, 3, entries_, 0});
  rows_ += 3;
  Mat63 A = P1, B = P2;
  int j1 = body1, j2 = body2;
  // walk both paths leaf to root, the deeper cluster first (clusters are numbered parent first),
  // so the group's entries stay in the descending cluster order pairBlock merges on
  while (j1 >= 0 && j2 >= 0) {
    if (j1 == j2) {  // the paths met on a body: one path from here
      A += B;
      inward<3>(model, data, j1, A);
      return;
    }
    const int k1 = model.body(j1).cluster, k2 = model.body(j2).cluster;
    const auto step = [&](int j, Mat63& P) {
      return withClusterDof(model.cluster(model.body(j).cluster).nv,
                            [&](auto D) { return stepThrough<decltype(D)::value, 3>(model, data, j, P); });
    };
    if (k1 > k2) {
      j1 = step(j1, A) ? model.body(j1).output : -1;
    } else if (k2 > k1) {
      j2 = step(j2, B) ? model.body(j2).output : -1;
    } else {  // two bodies of one cluster: one entry, both forces
      const bool on = withClusterDof(model.cluster(k1).nv, [&](auto D) {
        return stepThroughBoth<decltype(D)::value>(model, data, j1, A, j2, B);
      });
      if (!on) return;
      j1 = j2 = model.cluster(k1).output;
      B.setZero();
    }
  }
  if (j1 >= 0) inward<3>(model, data, j1, A);
  if (j2 >= 0) inward<3>(model, data, j2, B);
}

void RowInnovations::addClusterForceRow(const Model& model, Data& data, int k, const Eigen::Ref<const VecX>& t) {
  groups_.push_back(Group{rows_, 1, entries_, 0});
  ++rows_;
  const Cluster& cl = model.cluster(k);
  const ClusterData& cd = data.work().clusters[static_cast<size_t>(k)];
  store(k, cd, t);
  if (cl.output >= 0) {
    Vec6 passed;
    passed.noalias() = -(cd.DinvXUt.transpose() * t);  // what the output body feels
    inward<1>(model, data, cl.output, passed);
  }
}

namespace {
/// acc += Tᵀ Z for one common cluster (d_k = D fixed where it can be).
template <int D, int Ga, int Gb>
void addCommonCluster(const double* t, const double* z, int d, Eigen::Matrix<double, Ga, Gb>& acc) {
  const Eigen::Map<const Eigen::Matrix<double, D, Ga>> T(t, d, Ga);
  const Eigen::Map<const Eigen::Matrix<double, D, Gb>> Z(z, d, Gb);
  acc.noalias() += T.transpose() * Z;  // t_k^iᵀ D_k⁻¹ t_k^j
}
}  // namespace

template <int Ga, int Gb>
void RowInnovations::pairBlock(const Model& model, const Group& A, const Group& B, MatX& G) const {
  Eigen::Matrix<double, Ga, Gb> acc = Eigen::Matrix<double, Ga, Gb>::Zero();
  int a = A.firstEntry, b = B.firstEntry;
  const int aEnd = a + A.entries, bEnd = b + B.entries;
  while (a < aEnd && b < bEnd) {  // both run from the leaf towards the root: merge on cluster
    const int ka = cluster_[static_cast<size_t>(a)], kb = cluster_[static_cast<size_t>(b)];
    if (ka == kb) {
      const int d = model.cluster(ka).nv;
      const double *t = t_.data() + offset_[static_cast<size_t>(a)], *z = z_.data() + offset_[static_cast<size_t>(b)];
      withClusterDof(d, [&](auto D) { addCommonCluster<decltype(D)::value, Ga, Gb>(t, z, d, acc); });
      ++a;
      ++b;
    } else if (ka > kb) {
      ++a;
    } else {
      ++b;
    }
  }
  G.block<Ga, Gb>(A.firstRow, B.firstRow) = acc;
  G.block<Gb, Ga>(B.firstRow, A.firstRow) = acc.transpose();
}

void RowInnovations::delassus(const Model& model, MatX& G) const {
  for (size_t ga = 0; ga < groups_.size(); ++ga)
    for (size_t gb = 0; gb <= ga; ++gb) {
      const Group &A = groups_[ga], &B = groups_[gb];
      if (A.rows == 3 && B.rows == 3) pairBlock<3, 3>(model, A, B, G);
      else if (A.rows == 3) pairBlock<3, 1>(model, A, B, G);
      else if (B.rows == 3) pairBlock<1, 3>(model, A, B, G);
      else pairBlock<1, 1>(model, A, B, G);
    }
}

void RowInnovations::velocityChange(const Model& model, Data& data, const Eigen::Ref<const VecX>& lambda,
                                    VecX& dv) const {
  dv.setZero();
  for (const Group& grp : groups_) {  // Σ_i λ_i D_k⁻¹ t_k^i, per cluster
    const auto l = lambda.segment(grp.firstRow, grp.rows);
    if (l.isZero(0.0)) continue;
    for (int e = grp.firstEntry; e < grp.firstEntry + grp.entries; ++e) {
      const Cluster& cl = model.cluster(cluster_[static_cast<size_t>(e)]);
      const Eigen::Map<const MatX> Z(z_.data() + offset_[static_cast<size_t>(e)], cl.nv, grp.rows);
      dv.segment(cl.vIndex, cl.nv).noalias() += Z * l;
    }
  }
  outwardResponse(model, data, dv);  // ÿ_k = D_k⁻¹ t_k − D_k⁻¹ XU_kᵀ a_o
}

void bodyVelocities(const Model& model, const Data& data, const VecRef& v, std::vector<Vec6>& V) {
  const DataWorkspace& ws = data.work();
  for (int k = 0; k < model.numClusters(); ++k) {
    const Cluster& cl = model.cluster(k);
    const ClusterData& cd = ws.clusters[static_cast<size_t>(k)];
    const Vec6 vo = cl.output < 0 ? Vec6::Zero() : V[static_cast<size_t>(cl.output)];
    withClusterDof(cl.nv, [&](auto D) {
      constexpr int Dk = decltype(D)::value;
      const auto vk = clusterSegment<Dk>(v, cl.vIndex, cl.nv);
      for (int r = 0; r < cl.numBodies; ++r) {
        const int i = cl.firstBody + r;
        V[static_cast<size_t>(i)] = ws.Xout[i].apply(vo);
        V[static_cast<size_t>(i)].noalias() += rowsOf<Dk>(cd.S, r) * vk;
      }
    });
  }
}

}  // namespace grbda::detail
