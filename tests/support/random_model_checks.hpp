#pragma once
// Test support: the identities every model must satisfy, checked at one state with tolerances
// that follow the conditioning of the model (a random program may put 1e-6 kg next to 1e6 kg):
// C-ABA = projection = Lagrange = proximal, C-RNEA = projected RNEA, H = GᵀH_tree G symmetric
// positive definite. Shared by tests/test_random_cluster_models.cpp and fuzz/fuzz_random_model.cpp,
// so it reports instead of asserting.
#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>

#include <Eigen/Eigenvalues>
#include <Eigen/SVD>

#include "grbda/grbda.hpp"

namespace grbda::testsupport {

struct StateCheck {
  std::string failure;   ///< empty when every identity held
  double worstRatio = 0; ///< largest error / tolerance seen (≤ 1 when it passed)
  double condition = 0;  ///< cond(H), the scale the tolerances follow
  double treeCondition = 0;  ///< cond(H_tree), for the methods on the spanning tree
  double kktCondition = 0;   ///< cond([H_tree Kᵀ; K 0]), for the Lagrange method
  double kktSmallest = 0;    ///< its smallest singular value: ‖[q̈; λ]‖ ≤ ‖right-hand side‖ / this
  bool proximalConverged = true;  ///< false: the proximal solver had not settled (not compared)
};

namespace checks {

/// cond₂ of a symmetric positive-definite matrix (∞ if it is not).
inline double condition(const MatX& A) {
  if (A.rows() == 0) return 1.0;
  const VecX ev = Eigen::SelfAdjointEigenSolver<MatX>(A, Eigen::EigenvaluesOnly).eigenvalues();
  return ev[0] > 0.0 ? ev[ev.size() - 1] / ev[0] : std::numeric_limits<double>::infinity();
}

/// cond₂ of the Lagrange method's saddle-point matrix [H_tree Kᵀ; K 0] at (q, v) (∞ if singular),
/// and its smallest singular value in `smallest`; data.HTree must hold H_tree at q.
inline double kktCondition(const Model& model, Data& data, const VecX& q, const VecX& v, double& smallest) {
  ProjectionMatrices cm;
  projectionMatrices(model, data, q, v, cm);
  const Eigen::Index n = data.HTree.rows(), r = cm.K.rows();
  MatX kkt = MatX::Zero(n + r, n + r);
  kkt.topLeftCorner(n, n) = data.HTree;
  kkt.topRightCorner(n, r) = cm.K.transpose();
  kkt.bottomLeftCorner(r, n) = cm.K;
  if (kkt.rows() == 0) return smallest = 1.0;
  const VecX sv = Eigen::JacobiSVD<MatX>(kkt).singularValues();
  smallest = sv[sv.size() - 1];
  return sv[sv.size() - 1] > 0.0 ? sv[0] / sv[sv.size() - 1] : std::numeric_limits<double>::infinity();
}

/// ‖a − b‖ / ‖scale‖ against a tolerance; records the worst ratio and the first failure.
inline void compare(StateCheck& out, const char* what, double error, double scale, double tolerance) {
  const double ratio = error / (std::max(scale, std::numeric_limits<double>::min()) * tolerance);
  out.worstRatio = std::max(out.worstRatio, std::isnan(ratio) ? std::numeric_limits<double>::infinity() : ratio);
  if (!(ratio <= 1.0) && out.failure.empty()) {
    std::ostringstream s;
    s << what << ": relative error " << error / scale << " above the tolerance " << tolerance << " (cond H "
      << out.condition << ", cond H_tree " << out.treeCondition << ", cond KKT " << out.kktCondition << ")";
    out.failure = s.str();
  }
}

}  // namespace checks

/// Checks the identities at (q, v, tau) on a model that built. A NumericalError of the first
/// call (the state cannot be reached, e.g. a loop that does not close there) is rethrown for
/// the caller to count; any later error is a failure (every method must agree on what works).
inline StateCheck checkModelAtState(const Model& model, Data& data, ProximalData& proximal, const VecX& q,
                                    const VecX& v, const VecX& tau) {
  StateCheck out;
  const VecX qdd = forwardDynamics(model, data, q, v, tau);  // may throw NumericalError: the caller's business
  try {
    const MatX H = massMatrix(model, data, q);
    const VecX C = biasForces(model, data, q, v);
    out.condition = checks::condition(H);
    const double eps = std::numeric_limits<double>::epsilon();
    // H: symmetric to roundoff, positive definite, equal to the projected tree mass matrix
    checks::compare(out, "H - H^T", (H - H.transpose()).norm(), H.norm(), 100 * eps);
    if (Eigen::LLT<MatX>(H).info() != Eigen::Success && out.failure.empty()) out.failure = "H is not positive definite";
    checks::compare(out, "H vs G^T H_tree G", (H - projectionMassMatrix(model, data, q)).norm(), H.norm(), 1e-11);

    // Forward dynamics: the error of a backward-stable solve grows with the condition number;
    // C-ABA's with cond(H), the baselines' with that of the spanning tree's mass matrix they
    // factorise (a rotor of 1e-6 kg beside a link of 1e6 kg makes it far worse than H's).
    const double fdScale = qdd.norm() + (tau.norm() + C.norm()) / std::max(H.norm(), 1e-300);
    tree::crba(model, data, completeConfiguration(model, data, q));
    out.treeCondition = checks::condition(data.HTree);
    out.kktCondition = checks::kktCondition(model, data, q, v, out.kktSmallest);
    const double treeTolerance = std::max(1e-10, 1e-13 * std::max(out.condition, out.treeCondition));
    checks::compare(out, "C-ABA vs projection", (qdd - projectionForwardDynamics(model, data, q, v, tau)).norm(),
                    fdScale, treeTolerance);
    // Lagrange solves the saddle-point system [H_tree Kᵀ; K 0]: its error follows that matrix's
    // condition, which a steep joint-to-joint constraint (a finger whose q₂ = 868 q₁) drives far
    // above cond(H_tree) (the fuzzer: 2.4e-10 at cond H = 1, cond H_tree = 3, cond KKT = 8e4).
    // Capped at 1e-6, so that a wrong Lagrange solve is still caught. Its error is relative to the
    // whole solution [q̈; λ], and λ can dwarf q̈ (the long run: a finger of 1.6e7 kg m² under
    // τ = 8e4 has q̈ = 6e-3, λ ~ τ; Lagrange 5e-12 off, C-ABA exact): the scale adds the bound
    // ‖λ‖ ≤ ‖(τ, C)‖ / σ_min([H_tree Kᵀ; K 0]), at most 1e3 × q̈'s scale (a nearly singular
    // saddle point must not excuse any answer).
    const double lagrangeTolerance = std::max(treeTolerance, std::min(1e-13 * out.kktCondition, 1e-6));
    const double lambdaBound = (tau.norm() + C.norm()) / std::max(out.kktSmallest, std::numeric_limits<double>::min());
    const double lagrangeScale = fdScale + std::min(lambdaBound, 1e3 * fdScale);
    checks::compare(out, "C-ABA vs Lagrange", (qdd - lagrangeForwardDynamics(model, data, q, v, tau)).norm(),
                    lagrangeScale, lagrangeTolerance);
    ProximalSettings settings;
    settings.maxIterations = 50;
    settings.tolerance = 1e-12;
    const ProximalResult& prox = proximalSparseForwardDynamics(model, data, proximal, q, v, tau, settings);
    // The proximal solver iterates with a regularisation μ = 1e-8 until ‖K q̈ − k‖∞ ≤ 1e-12, an
    // absolute bound that roundoff alone exceeds when q̈ is large: it has settled when the residual
    // is at roundoff relative to q̈. Its answer is exact to about 1e-9 even when well conditioned
    // (the fuzzer found 3e-10 on a geared rotor with a gear ratio near 1e3). When it has not
    // settled it says so (ProximalResult::converged, documented): nothing to compare then.
    out.proximalConverged =
        prox.converged || prox.primalResidual <= 1e-11 * (1.0 + prox.qddSpanning.lpNorm<Eigen::Infinity>());
    if (out.proximalConverged)
      checks::compare(out, "C-ABA vs proximal", (qdd - prox.qdd).norm(), fdScale, std::max(1e-8, treeTolerance));

    // Inverse dynamics: backward stable on both sides; errors scale with the largest term.
    const VecX tauCluster = inverseDynamics(model, data, q, v, qdd);
    const double idScale = tau.norm() + C.norm() + H.norm() * qdd.norm();
    checks::compare(out, "C-RNEA vs projected RNEA",
                    (tauCluster - projectionInverseDynamics(model, data, q, v, qdd)).norm(), idScale, 1e-11);
    checks::compare(out, "C-RNEA(C-ABA(tau)) vs tau", (tauCluster - tau).norm(), idScale,
                    std::max(1e-11, 1e-14 * out.condition));
  } catch (const Error& e) {
    if (out.failure.empty()) out.failure = std::string("C-ABA succeeded but another method threw: ") + e.what();
  }
  return out;
}

/// A state near the model's neutral configuration: 1-DoF coordinates moved by up to ±0.4
/// (loops stay in reach), free joints at a random pose; velocities and torques in ±1, torques
/// scaled by the model's weight so that they matter next to gravity.
struct RandomState {
  VecX q, v, tau;
};
inline RandomState randomStateNear(const Model& model, Data& data, Rng& rng) {
  RandomState s;
  s.q = model.neutralConfiguration() + randomVector(rng, model.nq(), -0.4, 0.4);
  for (const auto& cl : model.clusters())
    if (std::string(cl.typeName()) == "Free") {
      s.q.segment<3>(cl.qIndex) = randomVec3(rng);
      const Eigen::Quaterniond r = randomQuaternion(rng);
      s.q.segment<4>(cl.qIndex + 3) << r.w(), r.x(), r.y(), r.z();
    }
  s.v = randomVector(rng, model.nv());
  const double weight = biasForces(model, data, model.neutralConfiguration(), VecX::Zero(model.nv())).norm();
  s.tau = randomVector(rng, model.nv()) * std::max(1.0, weight);
  return s;
}

}  // namespace grbda::testsupport
