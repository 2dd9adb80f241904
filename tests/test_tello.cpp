// The Tello humanoid built in code (robot-data/tello.md): counts and cluster types, agreement of
// the coded tree with models/tello_humanoid.urdf, the automatically differentiated differential
// Jacobians and biases against finite differences and the facts' reference numbers, loop closure
// from rotor angles, and the cluster algorithms against the exact spanning-tree baselines.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <iomanip>
#include <map>

#include "grbda/grbda.hpp"
#include "grbda/robots/tello.hpp"
#include "support/allocation_counter.hpp"
#include "support/random_model.hpp"
#include "support/compare.hpp"

using namespace grbda;
using namespace grbda::testsupport;
using grbda::robots::tello;

namespace {

namespace fs = std::filesystem;

std::map<std::string, int> clusterTypeCounts(const Model& m) {
  std::map<std::string, int> counts;
  for (const auto& cl : m.clusters()) ++counts[cl.typeName()];
  return counts;
}

int spanningIndex(const Model& m, const std::string& joint) {
  const auto& names = m.spanningPositionNames();
  const auto it = std::find(names.begin(), names.end(), joint);
  if (it == names.end()) throw InputError("no spanning coordinate " + joint);
  return static_cast<int>(it - names.begin());
}

int independentIndex(const Model& m, const std::string& joint) {
  const auto& names = m.positionNames();
  const auto it = std::find(names.begin(), names.end(), joint);
  if (it == names.end()) throw InputError("no independent coordinate " + joint);
  return static_cast<int>(it - names.begin());
}

VecX phiOf(const ImplicitConstraint& c, const VecX& q) {
  VecX phi(c.numRows());
  c.residual(q, phi);
  return phi;
}

/// Spanning joint names of one differential, in the constraint's coordinate order.
struct Differential {
  std::string name;
  std::shared_ptr<const ImplicitConstraint> phi;
  std::vector<std::string> joints;
};

std::vector<Differential> differentials() {
  std::vector<Differential> d;
  for (const std::string s : {"left", "right"}) {
    d.push_back({s + " hip", robots::telloHipDifferential(),
                 {s + "-hip-clamp-to-hip-rotor-1", s + "-hip-clamp-to-hip-rotor-2", s + "-hip-clamp-to-gimbal",
                  s + "-gimbal-to-thigh"}});
    d.push_back({s + " knee-ankle", robots::telloKneeAnkleDifferential(),
                 {s + "-thigh-to-knee-ankle-rotor-1", s + "-thigh-to-knee-ankle-rotor-2", s + "-thigh-to-shin",
                  s + "-shin-to-foot"}});
  }
  return d;
}

VecX gather(const Model& m, const VecX& qSpan, const std::vector<std::string>& joints) {
  VecX q(static_cast<Eigen::Index>(joints.size()));
  for (size_t j = 0; j < joints.size(); ++j) q[static_cast<Eigen::Index>(j)] = qSpan[spanningIndex(m, joints[j])];
  return q;
}

/// Range of pre-gearbox rotor angles (rad) drawn for the differentials: every draw closes
/// (ClosureFromRandomRotorAngles checks it) with K_d far from singular.
constexpr double kRotorRange = 3.0;

/// A random valid independent configuration: random torso pose, joints in [-1, 1], differential
/// rotors in [-kRotorRange, kRotorRange].
VecX randomTelloConfiguration(Rng& rng, const Model& m) {
  VecX q = randomVector(rng, m.nq(), -1.0, 1.0);
  const Eigen::Quaterniond r = randomQuaternion(rng);
  q.segment<4>(3) << r.w(), r.x(), r.y(), r.z();
  for (const auto& d : differentials())
    for (size_t j = 0; j < 2; ++j) q[independentIndex(m, d.joints[j])] = uniform(rng, -kRotorRange, kRotorRange);
  return q;
}


}  // namespace

TEST(Tello, CountsAndClusterTypes) {
  const Model m = tello(true);
  EXPECT_EQ(m.numBodies(), 37);
  EXPECT_EQ(m.nvSpanning(), 42);
  EXPECT_EQ(m.nqSpanning(), 43);  // quaternion
  EXPECT_EQ(m.nv(), 24);
  EXPECT_EQ(m.nq(), 25);
  EXPECT_TRUE(m.isFloatingBase());
  EXPECT_EQ(m.gravity(), Vec3(0.0, 0.0, -9.81));
  const auto types = clusterTypeCounts(m);
  EXPECT_EQ(types, (std::map<std::string, int>{{"Free", 1},
                                                {"RevoluteWithRotor", 10},
                                                {robots::kTelloHipDifferential, 2},
                                                {robots::kTelloKneeAnkleDifferential, 2}}));
  EXPECT_EQ(m.numClusters(), 15);
  for (const auto& cl : m.clusters()) {
    const std::string type = cl.typeName();
    if (type == robots::kTelloHipDifferential || type == robots::kTelloKneeAnkleDifferential) {
      EXPECT_EQ(cl.numBodies, 4);
      EXPECT_EQ(cl.nv, 2);
      EXPECT_EQ(cl.nvSpan, 4);
    }
  }
  // the differentials' independent coordinates are the rotor angles, the links are dependent
  const auto& names = m.positionNames();
  auto has = [&](const std::string& n) { return std::find(names.begin(), names.end(), n) != names.end(); };
  EXPECT_TRUE(has("left-hip-clamp-to-hip-rotor-1"));
  EXPECT_TRUE(has("right-thigh-to-knee-ankle-rotor-2"));
  EXPECT_TRUE(has("torso-to-left-hip-clamp"));
  EXPECT_TRUE(has("right-shoulder-rz-to-elbow"));
  EXPECT_FALSE(has("left-hip-clamp-to-gimbal"));
  EXPECT_FALSE(has("right-shin-to-foot"));
  EXPECT_FALSE(has("torso-to-left-hip-clamp-rotor"));
  EXPECT_FALSE(has("left-shoulder-rz-to-elbow-rotor"));

  const Model legs = robots::telloLegs();
  EXPECT_EQ(legs.numBodies(), 21);
  EXPECT_EQ(legs.nvSpanning(), 26);
  EXPECT_EQ(legs.nv(), 16);
  EXPECT_EQ(clusterTypeCounts(legs), (std::map<std::string, int>{{"Free", 1},
                                                                  {"RevoluteWithRotor", 2},
                                                                  {robots::kTelloHipDifferential, 2},
                                                                  {robots::kTelloKneeAnkleDifferential, 2}}));
}

// The coded tree and models/tello_humanoid.urdf are two transcriptions of the same facts.
TEST(Tello, CodedTreeMatchesTheUrdf) {
  const ModelBuilder urdf = parseUrdfFile((fs::path(GRBDA_SOURCE_DIR) / "models" / "tello_humanoid.urdf").string());
  const ModelBuilder coded = robots::telloBuilder(true);
  ASSERT_EQ(urdf.links().size(), coded.links().size());
  ASSERT_EQ(urdf.joints().size(), coded.joints().size());
  for (const LinkSpec& c : coded.links()) {
    SCOPED_TRACE(c.name);
    const auto it =
        std::find_if(urdf.links().begin(), urdf.links().end(), [&](const LinkSpec& l) { return l.name == c.name; });
    ASSERT_NE(it, urdf.links().end());
    EXPECT_NEAR(it->mass, c.mass, 1e-12);
    EXPECT_LT((it->com - c.com).norm(), 1e-12);
    EXPECT_LT((it->inertia - c.inertia).norm(), 1e-12);
  }
  for (const JointSpec& c : coded.joints()) {
    SCOPED_TRACE(c.name);
    const auto it =
        std::find_if(urdf.joints().begin(), urdf.joints().end(), [&](const JointSpec& j) { return j.name == c.name; });
    ASSERT_NE(it, urdf.joints().end());
    EXPECT_EQ(it->parent, c.parent);
    EXPECT_EQ(it->child, c.child);
    EXPECT_EQ(it->kind, c.kind);
    EXPECT_EQ(it->independent, c.independent);
    if (c.kind == JointKind::Floating) continue;
    EXPECT_LT((it->origin.E - c.origin.E).norm(), 1e-12);
    EXPECT_LT((it->origin.r - c.origin.r).norm(), 1e-12);
    EXPECT_LT((it->axis.normalized() - c.axis.normalized()).norm(), 1e-12);
  }

  // The URDF tree plus the constraints added in code gives the same dynamics as tello().
  ModelBuilder fromUrdf = urdf;
  robots::addTelloConstraints(fromUrdf, true);
  const Model a = fromUrdf.build(), b = tello(true);
  ASSERT_EQ(a.positionNames(), b.positionNames());
  Rng rng(31);
  Data da(a), db(b);
  const VecX q = randomTelloConfiguration(rng, b), v = randomVector(rng, b.nv()), tau = randomVector(rng, b.nv());
  EXPECT_LT(strictRelErr(forwardDynamics(a, da, q, v, tau), forwardDynamics(b, db, q, v, tau)), 1e-12);
}

// K by forward-mode AD against central differences of φ; k = −q̇ᵀ∇²φ q̇ against the second
// difference of t ↦ φ(q + t q̇). Both at random (not necessarily closed) coordinates.
TEST(Tello, DifferentialJacobianAndBiasMatchFiniteDifferences) {
  Rng rng(11);
  double worstK = 0.0, worstk = 0.0, worstkAbs = 0.0;
  for (const auto& d : differentials()) {
    SCOPED_TRACE(d.name);
    const ImplicitConstraint& c = *d.phi;
    ASSERT_EQ(c.numRows(), 2);
    ASSERT_EQ(c.numCoordinates(), 4);
    for (int s = 0; s < 20; ++s) {
      VecX q = randomVector(rng, 4, -1.0, 1.0);
      q.head<2>() *= kRotorRange;
      const VecX qd = randomVector(rng, 4, -2.0, 2.0);
      MatX K(2, 4);
      c.jacobian(q, K);
      MatX Kfd(2, 4);
      const double h = 1e-6;
      for (int j = 0; j < 4; ++j) {
        const VecX e = VecX::Unit(4, j) * h;
        Kfd.col(j) = (phiOf(c, q + e) - phiOf(c, q - e)) / (2.0 * h);
      }
      const double eK = (K - Kfd).norm() / Kfd.norm();
      EXPECT_LT(eK, 1e-6);
      worstK = std::max(worstK, eK);

      VecX k(2);
      c.bias(q, qd, k);
      // second difference with step t and t/2, Richardson-extrapolated (error O(t^4)); a larger
      // step keeps the round-off of the linear knee row (|φ| ~ 1) below 1e-10
      auto secondDifference = [&](double t) {
        return VecX((phiOf(c, q + t * qd) - 2.0 * phiOf(c, q) + phiOf(c, q - t * qd)) / (t * t));
      };
      const double t = 2e-3;
      const VecX second = (4.0 * secondDifference(t / 2) - secondDifference(t)) / 3.0;
      // the second difference carries round-off ~ eps |φ| / t² ≈ 1e-10 (the linear knee row has
      // |φ| ~ 1), hence an absolute floor of 1e-9 besides the relative 1e-6
      const double ek = (k + second).norm();
      EXPECT_LT(ek, 1e-9 + 1e-6 * second.norm()) << k.transpose() << " vs " << (-second).transpose();
      worstk = std::max(worstk, ek / second.norm());
      worstkAbs = std::max(worstkAbs, ek);
    }
  }
  std::cout << std::scientific << std::setprecision(3)
            << "[ measured ] AD vs finite differences: K worst relative error " << worstK << ", k " << worstk
            << " (absolute " << worstkAbs << ")\n" << std::defaultfloat;
}

// The facts' reference Jacobians at the zero-link states (rotors from the table).
TEST(Tello, DifferentialJacobiansMatchTheReferenceNumbers) {
  MatX K(2, 4);
  VecX q(4);
  q << 0.941120969, 0.941120969, 0.0, 0.0;
  robots::telloHipDifferential()->jacobian(q, K);
  MatX expected(2, 4);
  expected << 0.0040866, 0, -0.021699564, -0.024799502, 0, 0.0040866, 0.021699564, -0.024799502;
  EXPECT_LT((K - expected).cwiseAbs().maxCoeff(), 1e-7) << K;
  q << 2.75034e-4, -2.75034e-4, 0.0, 0.0;
  robots::telloKneeAnkleDifferential()->jacobian(q, K);
  expected << 0.0011855, -0.0011855, 0, 0.013360344, -1.0 / 12, -1.0 / 12, 1, 0;
  EXPECT_LT((K - expected).cwiseAbs().maxCoeff(), 1e-7) << K;
}

// Rotor angles from the facts' inverse-kinematics table close to the tabulated link angles.
TEST(Tello, ClosureReproducesTheReferenceTable) {
  const Model m = tello(true);
  struct Row {
    bool hip;
    double r1, r2, link1, link2;
  };
  const Row rows[] = {
      {true, 0.941120969, 0.941120969, 0.0, 0.0},
      {true, 0.274738090, -0.775962515, 0.1, -0.2},
      {true, 1.626274676, 5.192444450, -0.3, 0.4},
      {false, 2.75034e-4, -2.75034e-4, 0.0, 0.0},
      {false, 4.660773727, 1.339226273, 0.5, -0.3},
      {false, 4.857946443, 7.142053557, 1.0, 0.2},
  };
  const auto diffs = differentials();
  for (const Row& row : rows) {
    for (const auto& d : diffs) {
      if ((d.name.find("hip") != std::string::npos) != row.hip) continue;
      SCOPED_TRACE(d.name + " rotors " + std::to_string(row.r1) + ", " + std::to_string(row.r2));
      Data data(m);  // warm start from zeros
      VecX q = m.neutralConfiguration();
      q[independentIndex(m, d.joints[0])] = row.r1;
      q[independentIndex(m, d.joints[1])] = row.r2;
      const VecX qSpan = completeConfiguration(m, data, q);
      const VecX local = gather(m, qSpan, d.joints);
      EXPECT_NEAR(local[2], row.link1, 1e-7);
      EXPECT_NEAR(local[3], row.link2, 1e-7);
      EXPECT_LT(phiOf(*d.phi, local).cwiseAbs().maxCoeff(), 1e-12);
    }
  }
}

// Completion closes every differential from random rotor angles in ±kRotorRange, warm-started
// from the previous configuration as in a simulation loop, and from zeros.
TEST(Tello, ClosureFromRandomRotorAngles) {
  const Model m = tello(true);
  Rng rng(5);
  Data warm(m);
  double worst = 0.0;
  for (int s = 0; s < 100; ++s) {
    const VecX q = randomTelloConfiguration(rng, m);
    Data cold(m);
    for (Data* data : {&warm, &cold}) {
      const VecX qSpan = completeConfiguration(m, *data, q);
      for (const auto& d : differentials()) {
        const VecX local = gather(m, qSpan, d.joints);
        const double phi = phiOf(*d.phi, local).cwiseAbs().maxCoeff();
        EXPECT_LT(phi, 1e-12) << d.name;
        worst = std::max(worst, phi);
        MatX K(2, 4);
        d.phi->jacobian(local, K);
        EXPECT_GT(std::abs(K.rightCols<2>().determinant()), 1e-5) << d.name << " near a singularity";
      }
    }
  }
  std::cout << std::scientific << std::setprecision(3)
            << "[ measured ] worst |phi| after completion " << worst << std::defaultfloat
            << " (rotors in +-" << kRotorRange << " rad)\n";
}

TEST(Tello, ClusterAlgorithmsMatchTheBaselines) {
  const Model m = tello(true);
  Rng rng(21);
  Data data(m);
  double worstFd = 0.0, worstId = 0.0, worstRound = 0.0, worstH = 0.0;
  for (int s = 0; s < 20; ++s) {
    const VecX q = randomTelloConfiguration(rng, m);
    const VecX v = randomVector(rng, m.nv()), tau = randomVector(rng, m.nv()), a = randomVector(rng, m.nv());
    const VecX cluster = forwardDynamics(m, data, q, v, tau);
    const VecX projection = projectionForwardDynamics(m, data, q, v, tau);
    const VecX lagrange = lagrangeForwardDynamics(m, data, q, v, tau);
    worstFd = std::max({worstFd, strictRelErr(cluster, projection), strictRelErr(cluster, lagrange)});
    EXPECT_LT(strictRelErr(cluster, projection), 1e-9);
    EXPECT_LT(strictRelErr(cluster, lagrange), 1e-9);

    const VecX id = inverseDynamics(m, data, q, v, a);
    const VecX projected = projectionInverseDynamics(m, data, q, v, a);
    worstId = std::max(worstId, strictRelErr(id, projected));
    EXPECT_LT(strictRelErr(id, projected), 1e-9);
    const VecX back = forwardDynamics(m, data, q, v, id);
    worstRound = std::max(worstRound, strictRelErr(back, a));
    EXPECT_LT(strictRelErr(back, a), 1e-9);

    const MatX H = massMatrix(m, data, q);
    const MatX Hp = projectionMassMatrix(m, data, q);
    worstH = std::max(worstH, (H - Hp).norm() / Hp.norm());
    EXPECT_LT((H - Hp).norm() / Hp.norm(), 1e-9);
  }
  std::cout << std::scientific << std::setprecision(3)
            << "[ measured ] Tello C-ABA vs projection/Lagrange " << worstFd << ", C-RNEA vs projected RNEA "
            << worstId << ", FD(ID(a)) vs a " << worstRound << ", CRBA vs GtHG " << worstH << "\n"
            << std::defaultfloat;
}

// Dynamics on a prepared Data, including closing the differentials by Newton, allocate nothing.
TEST(Tello, HotCallsAllocateNothing) {
  if (!allocationCounterLinked()) GTEST_SKIP() << "no counting allocator linked into this binary";
  const Model m = tello(true);
  Rng rng(3);
  Data data(m);
  const VecX q0 = randomTelloConfiguration(rng, m), q1 = randomTelloConfiguration(rng, m);
  const VecX v = randomVector(rng, m.nv()), tau = randomVector(rng, m.nv());
  forwardDynamics(m, data, q0, v, tau);  // warm-up
  long count = 0;
  {
    AllocationScope scope;
    forwardDynamics(m, data, q1, v, tau);
    inverseDynamics(m, data, q0, v, tau);
    massMatrix(m, data, q1);
    biasForces(m, data, q0, v);
    count = scope.count();
  }
  EXPECT_EQ(count, 0);
}
