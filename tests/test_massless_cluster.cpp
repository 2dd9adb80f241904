// A massless cluster (its articulated inertia D_k is zero) makes every algorithm built on the
// articulated-cluster pass raise a NumericalError that names the cluster, its bodies and joints,
// so a user of a large model learns which part carries no mass.
#include <gtest/gtest.h>

#include <string>

#include "grbda/grbda.hpp"

using namespace grbda;

namespace {

/// world -> link1 (1 kg) geared to rotor1 ("gear1"); link1 -> link2, geared to rotor2 on link1
/// ("gear2"), both massless: cluster "gear2" moves nothing with mass.
Model masslessGearedCluster() {
  ModelBuilder b("massless_cluster");
  auto link = [&](const std::string& name, double mass) {
    LinkSpec l;
    l.name = name;
    l.mass = mass;
    l.com = Vec3(0.1, 0.0, 0.0);
    l.inertia = Mat3::Identity() * 0.01 * mass;
    b.addLink(l);
  };
  auto joint = [&](const std::string& parent, const std::string& child, bool independent) {
    JointSpec j;
    j.name = child + "_joint";
    j.parent = parent;
    j.child = child;
    j.axis = Vec3::UnitZ();
    j.origin = Transform::translation(Vec3(0.3, 0.0, 0.0));
    j.independent = independent;
    b.addJoint(j);
  };
  auto gear = [&](const std::string& name, const std::string& from, const std::string& to) {
    CouplingSpec c;
    c.name = name;
    c.predecessor = from;
    c.successor = to;
    c.ratio = 6.0;
    b.addCoupling(c);
  };
  link("world", 0.0);
  link("link1", 1.0);
  link("rotor1", 0.2);
  link("link2", 0.0);
  link("rotor2", 0.0);
  joint("world", "link1", true);
  joint("world", "rotor1", false);
  joint("link1", "link2", true);
  joint("link1", "rotor2", false);
  gear("gear1", "link1", "rotor1");
  gear("gear2", "link2", "rotor2");
  return b.build();
}

template <class F>
void expectNamesTheCluster(F&& f, const std::string& algorithm) {
  try {
    f();
    ADD_FAILURE() << algorithm << ": no error";
  } catch (const NumericalError& e) {
    const std::string what = e.what();
    for (const char* part : {"cluster 'gear2'", "'link2'", "'rotor2'", "'link2_joint'", "'rotor2_joint'", "massless"})
      EXPECT_NE(what.find(part), std::string::npos) << algorithm << ": '" << what << "' lacks " << part;
    EXPECT_EQ(what.rfind(algorithm, 0), 0u) << what;
  }
}

}  // namespace

TEST(MasslessCluster, EveryArticulatedAlgorithmNamesTheCluster) {
  const Model m = masslessGearedCluster();
  ASSERT_EQ(m.numClusters(), 2);
  Data d(m);
  const VecX q = VecX::Constant(m.nq(), 0.3), v = VecX::Constant(m.nv(), 0.5), tau = VecX::Ones(m.nv());
  expectNamesTheCluster([&] { forwardDynamics(m, d, q, v, tau); }, "forwardDynamics");
  expectNamesTheCluster([&] { inverseMassMatrix(m, d, q); }, "inverseMassMatrix");
  expectNamesTheCluster([&] { logDetMassMatrix(m, d, q); }, "logDetMassMatrix");
  const OsimSet tip(m, {{m.frameIndex("link1"), Vec3::Zero()}});
  expectNamesTheCluster([&] { inverseOperationalSpaceInertia(m, d, tip, q); }, "inverseOperationalSpaceInertia");
  ConstraintModel contacts(m);
  contacts.addPointContact("link1");
  ConstraintSolverSettings s;
  for (ConstraintSolver solver : {ConstraintSolver::PV, ConstraintSolver::PVSoft}) {
    s.solver = solver;
    if (solver == ConstraintSolver::PVSoft) contacts.setCompliance(1e-3);
    ConstraintData soft(m, contacts);
    expectNamesTheCluster([&] { constrainedForwardDynamics(m, d, contacts, soft, q, v, tau, s); },
                          "constrainedForwardDynamics");
  }
  // Inverse dynamics and the mass matrix stay defined (H is singular, not undefined).
  EXPECT_TRUE(inverseDynamics(m, d, q, v, tau).allFinite());
  EXPECT_TRUE(massMatrix(m, d, q).allFinite());
}
