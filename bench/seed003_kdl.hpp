#pragma once
// KDL 1.5.1's Popov–Vereshchagin solver (ChainHdSolver_Vereshchagin) on the same serial chain as
// seed003::zyChain(N): the seed-003 anchor of issue #12. Only compiled when CMake found
// orocos_kdl (GRBDA_HAVE_KDL).
//
// The same chain in KDL's conventions: a KDL segment's joint sits at the segment's root and its
// frame ("tip") is f_tip = translation (0, 0, L) after the joint, so KDL's tip frame k is our link
// frame k moved by L along its z axis (our joint 1 is at the world origin, joint k+1 at
// (0, 0, L) of link k). The inertia is given in the tip frame: COM at (0, 0, −L/2), the same
// rotational inertia about the COM. Gravity: KDL's root acceleration is −g.
#include <kdl/chain.hpp>
#include <kdl/chainhdsolver_vereshchagin.hpp>
#include <kdl/jacobian.hpp>
#include <kdl/jntarray.hpp>

#include <memory>

#include "seed003_models.hpp"

namespace grbda::seed003 {

struct KdlChain {
  KDL::Chain chain;
  std::unique_ptr<KDL::ChainHdSolver_Vereshchagin> solver;
  KDL::JntArray q, qd, qdd, tau, constraintTau, beta;
  KDL::Jacobian alpha;
  KDL::Wrenches fext;

  /// N links; `constrained`: a 6-D end-effector constraint (alpha = identity: the tip's spatial
  /// acceleration is zero), otherwise none (alpha = 0: KDL's ABA). `gravity` in world
  /// coordinates, as Model::gravity().
  KdlChain(int n, bool constrained, const Vec3& gravity = Vec3(0, 0, -9.81)) {
    const Mat3 I = chainLinkInertia();
    const double L = kChainLinkLength;
    for (int k = 1; k <= n; ++k) {
      const Vec3 a = chainAxis(k);
      const KDL::Joint joint(a.z() != 0.0 ? KDL::Joint::RotZ : KDL::Joint::RotY);
      chain.addSegment(KDL::Segment(joint, KDL::Frame(KDL::Vector(0, 0, L)),
                                    KDL::RigidBodyInertia(kChainLinkMass, KDL::Vector(0, 0, -0.5 * L),
                                                          KDL::RotationalInertia(I(0, 0), I(1, 1), I(2, 2)))));
    }
    const KDL::Twist rootAcc(KDL::Vector(-gravity.x(), -gravity.y(), -gravity.z()), KDL::Vector::Zero());
    solver = std::make_unique<KDL::ChainHdSolver_Vereshchagin>(chain, rootAcc, 6);
    q.resize(n), qd.resize(n), qdd.resize(n), tau.resize(n), constraintTau.resize(n), beta.resize(6);
    alpha.resize(6);
    alpha.data.setZero();
    if (constrained) alpha.data.setIdentity();
    // KDL's accelerations carry the gravity trick (the root accelerates by −g) and its constraint
    // acts on them as they are: beta = alphaᵀ(−g) asks for a zero true tip acceleration, the
    // correction seed 003 writes k ← k − K a_grav.
    Eigen::Matrix<double, 6, 1> minusG;
    minusG << -gravity, Vec3::Zero();
    beta.data = alpha.data.transpose() * minusG;
    fext.assign(static_cast<std::size_t>(n), KDL::Wrench::Zero());
  }

  /// q̈ for (q, v, tau); the result stays in qdd.data. Returns KDL's status (0: success).
  int solve(const VecX& qIn, const VecX& vIn, const VecX& tauIn) {
    q.data = qIn, qd.data = vIn, tau.data = tauIn;
    return solver->CartToJnt(q, qd, qdd, alpha, beta, fext, tau, constraintTau);
  }
};

}  // namespace grbda::seed003
