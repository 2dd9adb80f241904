// The Constraint Force Algorithm on a model (seed 004, spec §3.4), serial and parallel. One
// driver, run by every thread of the pool on its slice [i0, i1) of the chain (one thread for the
// serial CFA); the stages are separated by barriers:
//   K1-K5  kinematics and τ' = τ − ID(q, q̇, 0) in world coordinates, as parallel prefix scans
//          (transforms Xa_i = Xup_i Xa_{i−1}, velocities, bias accelerations) and one suffix scan
//          (bias joint forces); side branches are folded into their chain body as articulated
//          bodies (ABA passes 1-2, RBDA Table 7.1) between K3 and K4.
//   A      the block-tridiagonal immobilised system A μ = b (Eq. 16, steps 1-4).
//   solve  block Thomas (serial) or block odd-even cyclic reduction (parallel).
//   C, D   accelerations, q̈, joint wrenches; ABA pass 3 on the side branches.
// The scans are the blocked kind (local scan, then each slice adds the totals of the slices
// before it): depth O(N/T + T), the right shape for T ≪ N threads.
#include "grbda/algorithms/cfa.hpp"

#include <algorithm>
#include <atomic>
#include <string>

#include "cfa_chain.hpp"
#include "../kernels/checks.hpp"
#include "grbda/spatial/cross.hpp"
#include "../kernels/small_spd.hpp"
#include "thread_pool.hpp"
#include "../kernels/tree_joint.hpp"

namespace grbda {

using detail::CfaChain;
using detail::CyclicReduction;

namespace {

int ceilLog2(int n) {
  int k = 0;
  while ((1 << k) < n) ++k;
  return k;
}

/// Height of each body's subtree (bodies on the longest path down, itself included).
std::vector<int> subtreeHeights(const Model& model) {
  std::vector<int> height(static_cast<size_t>(model.numBodies()), 1);
  for (int i = model.numBodies() - 1; i >= 0; --i) {
    const int p = model.body(i).parent;
    if (p >= 0) height[p] = std::max(height[p], height[i] + 1);
  }
  return height;
}

/// The main chain: from the root, always into the child with the deepest subtree.
std::vector<int> mainChain(const Model& model, const std::vector<int>& height) {
  std::vector<int> chain;
  int body = 0;
  while (body >= 0) {
    chain.push_back(body);
    int next = -1;
    for (int j = body + 1; j < model.numBodies(); ++j)
      if (model.body(j).parent == body && (next < 0 || height[j] > height[next])) next = j;
    body = next;
  }
  return chain;
}

/// h^⊥ of a 1-DoF joint in body coordinates (padded to 6 columns): a basis of the forces with
/// zero power on S. Revolute about s: moments ⊥ s and every force; prismatic: the reverse; a
/// screw's: an orthonormal complement of S = [a; p a].
Mat6 constraintSubspaceInBody(const Joint& joint) {
  Mat6 hp = Mat6::Zero();
  if (joint.type == JointType::Free) return hp;
  if (joint.type == JointType::Screw) {  // S = [a; p a]: any orthonormal basis of S's complement
    const Eigen::HouseholderQR<Vec6> qr(joint.subspace());
    const Mat6 Q = qr.householderQ();
    hp.leftCols<5>() = Q.rightCols<5>();
    return hp;
  }
  const Vec3 s = joint.axis.normalized();
  const Vec3 t1 = s.unitOrthogonal(), t2 = s.cross(t1);
  const int rot = joint.type == JointType::Revolute ? 0 : 3;  // block holding the two ⊥ directions
  const int all = 3 - rot;                                    // block holding all three
  hp.block<3, 1>(rot, 0) = t1;
  hp.block<3, 1>(rot, 1) = t2;
  for (int k = 0; k < 3; ++k) hp(all + k, 2 + k) = 1.0;
  return hp;
}

}  // namespace

std::string cfaUnsupportedReason(const Model& model, int maxBranchDepth) {
  if (!model.keptLoopGroups().empty())
    return "it keeps loops as constraint rows ('" + model.keptLoopGroups().front().name +
           "'), which the CFA does not solve (build it with LoopTreatment::Embed)";
  if (model.numBodies() == 0) return "the model has no bodies";
  for (const Cluster& cl : model.clusters())
    if (cl.numBodies > 1)
      return "cluster '" + cl.name + "' has " + std::to_string(cl.numBodies) +
             " bodies (a loop or coupling): this CFA handles chains of single-body joints (cluster chains: "
             "the serial cluster CFA, clusterCfaForwardDynamics or grbda fd --method cfa)";
  for (const Body& b : model.bodies())
    if (b.joint.type == JointType::Spherical)
      return "joint '" + b.jointName + "' is spherical: this CFA takes 1-DoF joints and a floating base only (use "
             "C-ABA)";
  for (int i = 1; i < model.numBodies(); ++i)
    if (model.body(i).parent < 0)
      return "bodies '" + model.body(0).name + "' and '" + model.body(i).name +
             "' are both attached to the ground: the CFA needs one chain from the ground";
  const std::vector<int> height = subtreeHeights(model);
  const std::vector<int> chain = mainChain(model, height);
  const int limit = maxBranchDepth >= 0 ? maxBranchDepth : std::max(3, ceilLog2(static_cast<int>(chain.size())));
  std::vector<char> onChain(static_cast<size_t>(model.numBodies()), 0);
  for (int b : chain) onChain[b] = 1;
  for (int i = 0; i < model.numBodies(); ++i) {
    const Body& b = model.body(i);
    if (onChain[i] || !onChain[b.parent]) continue;
    if (height[i] > limit)
      return "body '" + b.name + "' starts a side branch of " + std::to_string(height[i]) + " bodies off chain body '" +
             model.body(b.parent).name + "' (the longest accepted is " + std::to_string(limit) +
             "): the CFA needs a chain with short side branches";
    if (b.joint.type == JointType::Free)
      return "body '" + b.name + "' is on a side branch with a floating joint";
  }
  return {};
}

struct CfaData::Impl {
  CfaOptions options;
  int nb = 0, N = 0;
  std::vector<int> chain;                    ///< chain position -> body
  std::vector<int> branchBegin, branchEnd;   ///< per chain position: its side-branch bodies in `branch`
  std::vector<int> branch;                   ///< side-branch bodies, grouped by chain position, parent first
  std::vector<Mat6> hpBody;                  ///< per body: h^⊥ in body coordinates
  // per body, body coordinates
  std::vector<Transform> Xup, Xa;
  std::vector<Vec6> v, c, pA, a, U;
  std::vector<Mat6> IA;
  std::vector<double> Dinv, u;
  // per chain position, world coordinates
  std::vector<Vec6> vJ, vw, cw, ab, pw, fb;
  std::vector<Mat6> Iw;
  CfaChain sys;
  // per thread: the totals of the scans' slices
  std::vector<Transform> partialX;
  std::vector<Vec6> partialV, partialC, partialF;
  std::unique_ptr<detail::ThreadPool> pool;
  // the call in progress
  const Model* model = nullptr;
  const VecRef *q = nullptr, *qd = nullptr, *tau = nullptr;
  const ExternalForces* fext = nullptr;
  CfaData* out = nullptr;
  bool parallel = false;
  std::atomic<int> badInertia{-1}, badPivot{-1};

  void run(int t, int T);
  int activeThreads = 1;  ///< threads running the current call (a serial call on a pooled workspace: 1)
  void barrier() {
    if (activeThreads > 1) pool->barrier();
  }
  void foldBranches(int i);
  void finishBranches(int i);
  void setBases(int i);
};

CfaData::CfaData(const Model& model, const CfaOptions& options) : impl(std::make_unique<Impl>()) {
  if (options.threads < 1 || options.threads > 256)
    throw InputError("CfaData: threads must be in 1..256, got " + std::to_string(options.threads));
  const std::string reason = cfaUnsupportedReason(model, options.maxBranchDepth);
  if (!reason.empty()) throw InputError("CFA does not apply to model '" + model.name() + "': " + reason);
  Impl& w = *impl;
  w.options = options;
  w.nb = model.numBodies();
  w.chain = mainChain(model, subtreeHeights(model));
  w.N = static_cast<int>(w.chain.size());
  std::vector<int> position(static_cast<size_t>(w.nb), -1), anchor(static_cast<size_t>(w.nb), -1);
  for (int i = 0; i < w.N; ++i) position[w.chain[i]] = anchor[w.chain[i]] = i;
  for (int b = 0; b < w.nb; ++b)
    if (position[b] < 0) anchor[b] = anchor[model.body(b).parent];
  for (int i = 0; i < w.N; ++i) {
    w.branchBegin.push_back(static_cast<int>(w.branch.size()));
    for (int b = 0; b < w.nb; ++b)
      if (position[b] < 0 && anchor[b] == i) w.branch.push_back(b);
    w.branchEnd.push_back(static_cast<int>(w.branch.size()));
  }
  for (int b = 0; b < w.nb; ++b) w.hpBody.push_back(constraintSubspaceInBody(model.body(b).joint));
  w.Xup.resize(w.nb);
  w.Xa.resize(w.nb);
  for (auto* x : {&w.v, &w.c, &w.pA, &w.a, &w.U}) x->assign(w.nb, Vec6::Zero());
  w.IA.assign(w.nb, Mat6::Zero());
  w.Dinv.assign(w.nb, 0.0);
  w.u.assign(w.nb, 0.0);
  for (auto* x : {&w.vJ, &w.vw, &w.cw, &w.ab, &w.pw, &w.fb}) x->assign(w.N, Vec6::Zero());
  w.Iw.assign(w.N, Mat6::Zero());
  w.sys.resize(w.N);
  for (int i = 0; i < w.N; ++i) w.sys.n[i] = model.body(w.chain[i]).joint.nv();
  w.partialX.resize(options.threads);
  for (auto* x : {&w.partialV, &w.partialC, &w.partialF}) x->assign(options.threads, Vec6::Zero());
  if (options.threads > 1) w.pool = std::make_unique<detail::ThreadPool>(options.threads);
  qdd = VecX::Zero(model.nv());
  jointWrench.assign(w.nb, Vec6::Zero());
  constraintWrench.assign(w.nb, Vec6::Zero());
}

CfaData::~CfaData() = default;
const std::vector<int>& CfaData::chainBodies() const { return impl->chain; }
int CfaData::threads() const { return impl->options.threads; }
const CfaOptions& CfaData::options() const { return impl->options; }
int CfaData::reductionLevels() const { return impl->sys.levels; }

/// h_i, h_i^⊥ of chain joint i in world coordinates; its velocity h_i q̇_i.
static void worldSubspaces(const Body& b, const Transform& Xa, const Mat6& hpBody, const double* qd, Mat6& h, Mat6& hp,
                           Vec6& vJ) {
  h.setZero();
  hp.setZero();
  for (int k = 0; k < b.joint.nv(); ++k) h.col(k) = detail::worldSubspaceColumn(b, Xa, k);  // h = ^0X_i S_i
  if (b.joint.type == JointType::Free) {
    vJ = h * Eigen::Map<const Vec6>(qd);
    return;
  }
  for (int k = 0; k < 5; ++k) hp.col(k) = Xa.applyTranspose(hpBody.col(k));  // forces body -> world
  vJ = h.col(0) * qd[0];
}

/// h̃_i: the T_1' block for the chosen I_X (Eq. 16), h_iᵀ h̃_i = 1.
void CfaData::Impl::setBases(int i) {
  const Body& b = model->body(chain[i]);
  Mat6& ht = sys.ht[i];
  ht.setZero();
  if (b.joint.type == JointType::Free) {  // h square: h̃ = h⁻ᵀ = ^0X*_i for every I_X
    for (int k = 0; k < 6; ++k) ht.col(k) = Xa[chain[i]].applyTranspose(Vec6::Unit(k));
    return;
  }
  const Vec6 h = sys.h[i].col(0);
  const Vec6 Ih = options.basis == CfaBasis::Inertia ? Vec6(Iw[i] * h) : h;
  ht.col(0) = Ih / h.dot(Ih);
}

/// ABA passes 1-2 on the side branches of chain position i, folded into the chain body as one
/// articulated body (1-handle): Iw_i, pw_i in world coordinates, Iinv_i.
void CfaData::Impl::foldBranches(int i) {
  const Model& m = *model;
  const int cb = chain[i];
  const Body& body = m.body(cb);
  v[cb] = Xa[cb].apply(vw[i]);
  IA[cb] = body.inertia;
  pA[cb] = crossForce(v[cb], body.inertia * v[cb]);
  if (fext) pA[cb] -= Xa[cb].applyForce((*fext)[cb]);
  for (int k = branchBegin[i]; k < branchEnd[i]; ++k) {  // outward: kinematics
    const int j = branch[k];
    const Body& bj = m.body(j);
    Xup[j] = bj.joint.transformAfter(q->data() + bj.qIndex, bj.Xtree);
    Xa[j] = Xup[j] * Xa[bj.parent];
    const Vec6 vJj = detail::jointVelocity(bj, *qd);
    v[j] = Xup[j].apply(v[bj.parent]) + vJj;
    c[j] = crossMotion(v[j], vJj);
    IA[j] = bj.inertia;
    pA[j] = crossForce(v[j], bj.inertia * v[j]);
    if (fext) pA[j] -= Xa[j].applyForce((*fext)[j]);
  }
  for (int k = branchEnd[i] - 1; k >= branchBegin[i]; --k) {  // inward: articulated inertias
    const int j = branch[k];
    const Body& bj = m.body(j);
    const Vec6 S = bj.joint.subspace();
    U[j] = IA[j] * S;
    const double D = S.dot(U[j]);
    Dinv[j] = 1.0 / D;
    u[j] = (*tau)[bj.vIndex] - S.dot(pA[j]);
    const Mat6 Ia = IA[j] - (Dinv[j] * U[j]) * U[j].transpose();
    const Vec6 pa = pA[j] + Ia * c[j] + (u[j] * Dinv[j]) * U[j];
    Xup[j].addTransformedInertia(Ia, IA[bj.parent]);
    pA[bj.parent] += Xup[j].applyTranspose(pa);
    if (!(D > 0.0)) badInertia.store(j);
  }
  Iw[i] = Xa[cb].transformInertia(IA[cb]);
  pw[i] = Xa[cb].applyTranspose(pA[cb]);
  if (!detail::spdInverse<6>(Iw[i], sys.Iinv[i])) badInertia.store(cb);
}

/// ABA pass 3 on the side branches of chain position i, and every joint wrench of them.
void CfaData::Impl::finishBranches(int i) {
  const Model& m = *model;
  const int cb = chain[i];
  a[cb] = Xa[cb].apply(ab[i] + sys.a[i]);
  for (int k = branchBegin[i]; k < branchEnd[i]; ++k) {
    const int j = branch[k];
    const Body& bj = m.body(j);
    const Vec6 S = bj.joint.subspace();
    const Vec6 ap = Xup[j].apply(a[bj.parent]) + c[j];
    const double qddj = Dinv[j] * (u[j] - U[j].dot(ap));
    out->qdd[bj.vIndex] = qddj;
    a[j] = ap + S * qddj;
    const Vec6 f = Xa[j].applyTranspose(IA[j] * a[j] + pA[j]);  // f = IA a + pA through the joint
    const Vec6 h = Xa[j].applyInverse(S);
    const Vec6 ht = options.basis == CfaBasis::Inertia ? Vec6(Xa[j].transformInertia(IA[j]) * h) : h;
    out->jointWrench[j] = f;
    out->constraintWrench[j] = f - ht * ((*tau)[bj.vIndex] / h.dot(ht));
  }
}

void CfaData::Impl::run(int t, int T) {
  const Model& m = *model;
  const int i0 = static_cast<int>(static_cast<long>(N) * t / T), i1 = static_cast<int>(static_cast<long>(N) * (t + 1) / T);
  // K1: Xup_i, and the slice's prefix product of transforms
  for (int i = i0; i < i1; ++i) {
    const int b = chain[i];
    const Body& body = m.body(b);
    Xup[b] = body.joint.transformAfter(q->data() + body.qIndex, body.Xtree);
    Xa[b] = i == i0 ? Xup[b] : Xup[b] * Xa[chain[i - 1]];
  }
  partialX[t] = i1 > i0 ? Xa[chain[i1 - 1]] : Transform();
  barrier();
  // K2: Xa_i = (slice product) · (product of the slices before); world h, h^⊥, h q̇; prefix sum of velocities
  Transform before;
  for (int s = 0; s < t; ++s) before = partialX[s] * before;
  for (int i = i0; i < i1; ++i) {
    const int b = chain[i];
    if (t > 0) Xa[b] = Xa[b] * before;
    const Body& body = m.body(b);
    worldSubspaces(body, Xa[b], hpBody[b], qd->data() + body.vIndex, sys.h[i], sys.hp[i], vJ[i]);
    vw[i] = i == i0 ? vJ[i] : Vec6(vw[i - 1] + vJ[i]);
  }
  partialV[t] = i1 > i0 ? vw[i1 - 1] : Vec6::Zero();
  barrier();
  // K3: velocities, c_i = v_i × h_i q̇_i, side branches as articulated bodies, I⁻¹, h̃; prefix sum of c
  Vec6 offset = Vec6::Zero();
  for (int s = 0; s < t; ++s) offset += partialV[s];
  for (int i = i0; i < i1; ++i) {
    vw[i] += offset;
    cw[i] = crossMotion(vw[i], vJ[i]);
    foldBranches(i);
    setBases(i);
    ab[i] = i == i0 ? cw[i] : Vec6(ab[i - 1] + cw[i]);
  }
  partialC[t] = i1 > i0 ? ab[i1 - 1] : Vec6::Zero();
  barrier();
  // K4: bias accelerations a_b,i = a_0 + Σ_{j≤i} c_j (q̈ = 0); body bias forces; suffix sum
  offset = detail::gravityBias(m.gravity());  // CfaData has no gravity of its own: the model's
  for (int s = 0; s < t; ++s) offset += partialC[s];
  for (int i = i1 - 1; i >= i0; --i) {
    ab[i] += offset;
    const Vec6 F = Iw[i] * ab[i] + pw[i];
    fb[i] = i == i1 - 1 ? F : Vec6(fb[i + 1] + F);
  }
  partialF[t] = i1 > i0 ? fb[i0] : Vec6::Zero();
  barrier();
  // K5: bias joint forces f_b,i = Σ_{j≥i} F_j, and τ' = τ − hᵀ f_b  (step 0)
  offset.setZero();
  for (int s = t + 1; s < T; ++s) offset += partialF[s];
  for (int i = i0; i < i1; ++i) {
    fb[i] += offset;
    const int n = sys.n[i], vi = m.body(chain[i]).vIndex;
    const Vec6 hTf = sys.h[i].transpose() * fb[i];  // fixed-size: h is zero beyond its n columns
    sys.tau[i].setZero();
    for (int k = 0; k < n; ++k) sys.tau[i][k] = (*tau)[vi + k] - hTf[k];
  }
  barrier();
  // A: the immobilised system (steps 1-4)
  sys.assemble(i0, i1);
  barrier();
  // solve (step 4)
  if (!parallel) {
    if (t == 0 && !sys.solveThomas()) badPivot.store(0);
  } else {
    if (t == 0) sys.levels = CyclicReduction::levelCount(N);
    barrier();
    const int levels = CyclicReduction::levelCount(N);
    for (int l = 0; l < levels; ++l) {
      if (!CyclicReduction::invertEliminated(sys, l, t, T)) badPivot.store(l);
      barrier();
      CyclicReduction::reduceKept(sys, l, t, T);
      barrier();
    }
    if (!CyclicReduction::solveRoot(sys, t)) badPivot.store(levels);
    barrier();
    for (int l = levels - 1; l >= 0; --l) {
      CyclicReduction::backSubstitute(sys, l, t, T);
      barrier();
    }
  }
  barrier();
  // C, D: accelerations, q̈, joint wrenches (steps 5-6); the side branches' ABA pass 3
  sys.accelerations(i0, i1);
  barrier();
  sys.jointAccelerations(i0, i1);
  for (int i = i0; i < i1; ++i) {
    const int b = chain[i];
    const int n = sys.n[i], vi = m.body(b).vIndex;
    Vec6 tauJ = Vec6::Zero();
    for (int k = 0; k < n; ++k) {
      out->qdd[vi + k] = sys.qdd[i][k];
      tauJ[k] = (*tau)[vi + k];
    }
    const Vec6 f = fb[i] + sys.w[i];  // the whole wrench through joint i: bias part + q̈ part
    out->jointWrench[b] = f;
    out->constraintWrench[b] = f - sys.ht[i] * tauJ;
    finishBranches(i);
  }
}

namespace {

void checkCall(const Model& model, const CfaData& cfa, const VecRef& q, const VecRef& v, const VecRef& tau,
               const ExternalForces* fext, const char* alg) {
  if (static_cast<int>(cfa.jointWrench.size()) != model.numBodies() || cfa.qdd.size() != model.nv())
    throw InputError(std::string(alg) + ": the CfaData was built for another model (" +
                     std::to_string(cfa.jointWrench.size()) + " bodies, this one has " +
                     std::to_string(model.numBodies()) + ")");
  detail::checkConfiguration(model, q, alg);
  detail::checkVector(v, model.nv(), "v", alg);
  detail::checkVector(tau, model.nv(), "tau", alg);
  detail::checkExternalForces(model, fext, alg);
}

void runTask(void* context, int t) {
  auto& w = *static_cast<CfaData::Impl*>(context);
  w.run(t, w.activeThreads);
}

const VecX& cfaRun(const Model& model, CfaData& cfa, const VecRef& q, const VecRef& v, const VecRef& tau,
                   const ExternalForces* fext, bool parallel, const char* alg) {
  checkCall(model, cfa, q, v, tau, fext, alg);
  CfaData::Impl& w = *cfa.impl;
  w.model = &model;
  w.q = &q;
  w.qd = &v;
  w.tau = &tau;
  w.fext = fext && !fext->empty() ? fext : nullptr;
  w.out = &cfa;
  w.parallel = parallel;
  w.badInertia.store(-1);
  w.badPivot.store(-1);
  w.activeThreads = parallel && w.pool ? w.pool->size() : 1;
  if (w.activeThreads > 1) w.pool->run(&runTask, &w);
  else w.run(0, 1);
  if (w.badInertia.load() >= 0)
    throw NumericalError(std::string(alg) + ": the (articulated) inertia of body '" +
                         model.body(w.badInertia.load()).name + "' is not positive definite");
  if (w.badPivot.load() >= 0)
    throw NumericalError(std::string(alg) + ": the immobilised system T2ᵀ I⁻¹ T2 is not positive definite");
  detail::checkResult(cfa.qdd, "qdd", alg);
  return cfa.qdd;
}

}  // namespace

const VecX& cfaForwardDynamics(const Model& model, CfaData& cfa, const VecRef& q, const VecRef& v, const VecRef& tau,
                               const ExternalForces* fext) {
  return cfaRun(model, cfa, q, v, tau, fext, false, "cfaForwardDynamics");
}

const VecX& cfaParallelForwardDynamics(const Model& model, CfaData& cfa, const VecRef& q, const VecRef& v,
                                       const VecRef& tau, const ExternalForces* fext) {
  return cfaRun(model, cfa, q, v, tau, fext, true, "cfaParallelForwardDynamics");
}

}  // namespace grbda
