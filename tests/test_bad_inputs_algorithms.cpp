// Bad input gets a typed error that says what is wrong, never a crash or a NaN result:
// algorithm arguments (InputError / NumericalError) and builder misuse (ModelError).
#include <gtest/gtest.h>

#include <functional>
#include <limits>

#include "support/random_model.hpp"

using namespace grbda;
using namespace grbda::testsupport;

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();

/// Runs f, expects it to throw E, and checks the message contains every fragment.
template <typename E>
void expectError(const std::function<void()>& f, const std::vector<std::string>& fragments) {
  try {
    f();
    ADD_FAILURE() << "no exception thrown; expected one mentioning '" << fragments.front() << "'";
  } catch (const E& e) {
    const std::string what = e.what();
    for (const auto& frag : fragments)
      EXPECT_NE(what.find(frag), std::string::npos) << "'" << what << "' lacks '" << frag << "'";
  } catch (const std::exception& e) {
    ADD_FAILURE() << "wrong exception type: " << e.what();
  }
}

/// A floating base with a revolute arm: q has 8 entries, v 7.
Model floatingArm() {
  ModelBuilder b("floating_arm");
  LinkSpec world;
  world.name = "world";
  b.addLink(world);
  for (const char* name : {"base", "arm"}) {
    LinkSpec l;
    l.name = name;
    l.mass = 1.0;
    l.inertia = Mat3::Identity() * 0.1;
    b.addLink(l);
  }
  addFloatingBaseJoint(b, "base");
  JointSpec hinge;
  hinge.name = "hinge";
  hinge.parent = "base";
  hinge.child = "arm";
  hinge.origin = Transform::translation(Vec3(0.3, 0, 0));
  b.addJoint(hinge);
  return b.build();
}

using Call = std::function<void(const VecX& q, const VecX& v, const VecX& x)>;

/// The public algorithms as (name, call, which arguments they take: q, v, x).
struct Algorithm {
  std::string name;
  Call call;
  bool takesV, takesX;
  std::string xName;
};

std::vector<Algorithm> algorithms(const Model& m, Data& d) {
  return {
      {"forwardDynamics", [&](const VecX& q, const VecX& v, const VecX& x) { forwardDynamics(m, d, q, v, x); }, true,
       true, "tau"},
      {"inverseDynamics", [&](const VecX& q, const VecX& v, const VecX& x) { inverseDynamics(m, d, q, v, x); }, true,
       true, "qdd"},
      {"massMatrix", [&](const VecX& q, const VecX&, const VecX&) { massMatrix(m, d, q); }, false, false, ""},
      {"biasForces", [&](const VecX& q, const VecX& v, const VecX&) { biasForces(m, d, q, v); }, true, false, ""},
      {"forwardKinematics", [&](const VecX& q, const VecX& v, const VecX& x) { forwardKinematics(m, d, q, v, x); },
       true, true, "qdd"},
  };
}

}  // namespace

TEST(BadAlgorithmInputs, WrongVectorLengthNamesAlgorithmArgumentAndBothLengths) {
  const Model m = floatingArm();
  Data d(m);
  const VecX q = m.neutralConfiguration(), v = VecX::Zero(m.nv()), x = VecX::Zero(m.nv());
  for (const auto& alg : algorithms(m, d)) {
    SCOPED_TRACE(alg.name);
    expectError<InputError>([&] { alg.call(VecX::Zero(5), v, x); }, {alg.name, "q", "5", "8"});
    if (alg.takesV) expectError<InputError>([&] { alg.call(q, VecX::Zero(9), x); }, {alg.name, "v", "9", "7"});
    if (alg.takesX) expectError<InputError>([&] { alg.call(q, v, VecX::Zero(3)); }, {alg.name, alg.xName, "3", "7"});
  }
}

TEST(BadAlgorithmInputs, NonFiniteEntryNamesArgumentAndIndex) {
  const Model m = floatingArm();
  Data d(m);
  const VecX q = m.neutralConfiguration(), v = VecX::Zero(m.nv()), x = VecX::Zero(m.nv());
  for (const auto& alg : algorithms(m, d)) {
    SCOPED_TRACE(alg.name);
    VecX badQ = q;
    badQ[7] = kNaN;
    expectError<InputError>([&] { alg.call(badQ, v, x); }, {alg.name, "q[7]"});
    badQ = q;
    badQ[4] = std::numeric_limits<double>::infinity();  // inside the quaternion
    expectError<InputError>([&] { alg.call(badQ, v, x); }, {alg.name, "q[4]"});
    if (alg.takesV) {
      VecX badV = v;
      badV[2] = kNaN;
      expectError<InputError>([&] { alg.call(q, badV, x); }, {alg.name, "v[2]"});
    }
    if (alg.takesX) {
      VecX badX = x;
      badX[6] = -kNaN;
      expectError<InputError>([&] { alg.call(q, v, badX); }, {alg.name, alg.xName + "[6]"});
    }
  }
}

TEST(BadAlgorithmInputs, ZeroQuaternionIsRejected) {
  const Model m = floatingArm();
  Data d(m);
  VecX q = m.neutralConfiguration();
  q.segment<4>(3).setZero();
  const VecX v = VecX::Zero(m.nv()), x = VecX::Zero(m.nv());
  for (const auto& alg : algorithms(m, d)) {
    SCOPED_TRACE(alg.name);
    expectError<InputError>([&] { alg.call(q, v, x); }, {alg.name, "quaternion", "float"});
  }
}

TEST(BadAlgorithmInputs, ExternalForcesOfWrongCountOrNotFiniteAreRejected) {
  const Model m = floatingArm();
  Data d(m);
  const VecX q = m.neutralConfiguration(), v = VecX::Zero(m.nv()), x = VecX::Zero(m.nv());
  const ExternalForces three(3, Vec6::Zero());
  expectError<InputError>([&] { forwardDynamics(m, d, q, v, x, three); }, {"forwardDynamics", "3", "2"});
  expectError<InputError>([&] { inverseDynamics(m, d, q, v, x, three); }, {"inverseDynamics", "3", "2"});
  ExternalForces nan(2, Vec6::Zero());
  nan[1][4] = kNaN;
  expectError<InputError>([&] { forwardDynamics(m, d, q, v, x, nan); }, {"forwardDynamics", "arm"});
  expectError<InputError>([&] { inverseDynamics(m, d, q, v, x, nan); }, {"inverseDynamics", "arm"});
  // An empty list means "no external forces".
  EXPECT_NO_THROW(forwardDynamics(m, d, q, v, x, ExternalForces()));
}

TEST(BadAlgorithmInputs, FrameIndexOutOfRangeIsRejected) {
  const Model m = floatingArm();
  Data d(m);
  forwardKinematics(m, d, m.neutralConfiguration(), VecX::Zero(m.nv()), VecX::Zero(m.nv()));
  const int n = static_cast<int>(m.frames().size());
  Mat6X J(6, m.nv());
  for (int bad : {-1, n, n + 100}) {
    SCOPED_TRACE(bad);
    expectError<InputError>([&] { frameTransform(m, d, bad); }, {std::to_string(bad)});
    expectError<InputError>([&] { framePosition(m, d, bad); }, {std::to_string(bad)});
    expectError<InputError>([&] { frameVelocity(m, d, bad); }, {std::to_string(bad)});
    expectError<InputError>([&] { frameAcceleration(m, d, bad); }, {std::to_string(bad)});
    expectError<InputError>([&] { frameJacobian(m, d, bad, Vec3::Zero(), ReferenceFrame::Local, J); },
                            {std::to_string(bad)});
  }
  expectError<InputError>([&] { m.frameIndex("no_such_link"); }, {"no_such_link"});
}

namespace {
/// world -> link (1 kg) -> tip (massless) on revolute joints j1 and `tipJoint`: the tip joint
/// carries nothing, so D = Sᵀ IA S = 0 there and its acceleration is undetermined.
Model masslessTip(const std::string& tipJoint) {
  ModelBuilder b("massless_tip");
  LinkSpec world, link, tip;
  world.name = "world";
  link.name = "link";
  link.mass = 1.0;
  link.com = Vec3(0.2, 0, 0);
  link.inertia = Mat3::Identity() * 0.01;
  tip.name = "tip";  // mass 0, inertia 0
  b.addLink(world);
  b.addLink(link);
  b.addLink(tip);
  JointSpec j1, j2;
  j1.name = "j1";
  j1.parent = "world";
  j1.child = "link";
  j1.axis = Vec3::UnitZ();
  j2.name = tipJoint;
  j2.parent = "link";
  j2.child = "tip";
  j2.axis = Vec3::UnitY();
  j2.origin = Transform::translation(Vec3(0.4, 0, 0));
  b.addJoint(j1);
  b.addJoint(j2);
  return b.build();
}
}  // namespace

TEST(BadAlgorithmInputs, MasslessTipMakesForwardDynamicsRaiseNumericalError) {
  const Model m = masslessTip("j2");
  Data d(m);
  const VecX q = VecX::Constant(2, 0.3), v = VecX::Constant(2, 0.5);
  for (const VecX& tau : {VecX(VecX::Zero(2)), VecX(VecX::Constant(2, 1.0))})
    expectError<NumericalError>([&] { forwardDynamics(m, d, q, v, tau); }, {"forwardDynamics"});
  // The other algorithms are well defined for it.
  EXPECT_TRUE(inverseDynamics(m, d, q, v, VecX::Ones(2)).allFinite());
  EXPECT_TRUE(massMatrix(m, d, q).allFinite());
  EXPECT_EQ(massMatrix(m, d, q)(1, 1), 0.0);
}

namespace {
/// A massless floating body: its 6x6 articulated inertia is zero.
Model masslessFloatingBase() {
  ModelBuilder b("massless_float");
  LinkSpec world, base;
  world.name = "world";
  base.name = "base";
  b.addLink(world);
  b.addLink(base);
  addFloatingBaseJoint(b, "base");
  return b.build();
}
}  // namespace

TEST(BadAlgorithmInputs, MasslessFloatingBaseMakesForwardDynamicsRaiseNumericalError) {
  const Model m = masslessFloatingBase();
  Data d(m);
  expectError<NumericalError>([&] { forwardDynamics(m, d, m.neutralConfiguration(), VecX::Zero(6), VecX::Ones(6)); },
                              {"forwardDynamics"});
}

// ---------------------------------------------------------------------------------------------
// Builder misuse: ModelError naming the element.

namespace {

/// world -> a -> b, revolute joints ja, jb; `edit` breaks something before build().
ModelBuilder chain(const std::function<void(std::vector<LinkSpec>&, std::vector<JointSpec>&)>& edit) {
  std::vector<LinkSpec> links(3);
  links[0].name = "world";
  links[1].name = "a";
  links[2].name = "b";
  for (int i = 1; i < 3; ++i) {
    links[i].mass = 1.0;
    links[i].inertia = Mat3::Identity() * 0.1;
  }
  std::vector<JointSpec> joints(2);
  joints[0].name = "ja";
  joints[0].parent = "world";
  joints[0].child = "a";
  joints[1].name = "jb";
  joints[1].parent = "a";
  joints[1].child = "b";
  edit(links, joints);
  ModelBuilder builder("chain", "chain.urdf");
  for (auto& l : links) builder.addLink(l);
  for (auto& j : joints) builder.addJoint(j);
  return builder;
}

void expectModelError(const std::function<void(std::vector<LinkSpec>&, std::vector<JointSpec>&)>& edit,
                      const std::string& element, const std::string& fragment) {
  const ModelBuilder b = chain(edit);
  try {
    b.build();
    ADD_FAILURE() << "no ModelError; expected one about " << element;
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.element()).find(element), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("chain.urdf"), std::string::npos) << e.what();
  }
}

}  // namespace

TEST(BadBuilderInputs, TheUnbrokenChainBuilds) {
  EXPECT_NO_THROW(chain([](auto&, auto&) {}).build());
}

TEST(BadBuilderInputs, InvalidLinksAreNamed) {
  expectModelError([](auto& l, auto&) { l[2].mass = -1.0; }, "link 'b'", "mass");
  expectModelError([](auto& l, auto&) { l[1].mass = kNaN; }, "link 'a'", "mass");
  expectModelError([](auto& l, auto&) { l[1].com.y() = kNaN; }, "link 'a'", "centre of mass");
  expectModelError([](auto& l, auto&) { l[2].inertia(0, 0) = -0.5; }, "link 'b'", "positive semi-definite");
  expectModelError([](auto& l, auto&) { l[2].inertia(0, 1) = 0.05; }, "link 'b'", "symmetric");
  expectModelError([](auto& l, auto&) { l[1].inertia(2, 2) = kNaN; }, "link 'a'", "inertia");
}

TEST(BadBuilderInputs, InvalidJointsAreNamed) {
  expectModelError([](auto&, auto& j) { j[1].axis = Vec3::Zero(); }, "joint 'jb'", "axis");
  expectModelError([](auto&, auto& j) { j[0].axis = Vec3(kNaN, 0, 1); }, "joint 'ja'", "axis");
  expectModelError([](auto&, auto& j) { j[1].origin.r.x() = kNaN; }, "joint 'jb'", "origin");
  expectModelError([](auto&, auto& j) { j[1].parent = "ghost"; }, "joint 'jb'", "ghost");
  expectModelError([](auto&, auto& j) { j[1].child = "ghost"; }, "joint 'jb'", "ghost");
}

TEST(BadBuilderInputs, TreeStructureErrorsAreNamed) {
  // Two roots: "b" has no parent joint.
  expectModelError([](auto&, auto& j) { j.pop_back(); }, "link", "more than one root");
  // Duplicate names.
  expectModelError([](auto& l, auto&) { l[2].name = "a"; }, "link 'a'", "duplicate");
  expectModelError([](auto&, auto& j) { j[1].name = "ja"; }, "joint 'ja'", "duplicate");
  // A link with two parent joints.
  expectModelError(
      [](auto&, auto& j) {
        JointSpec extra = j[1];
        extra.name = "jc";
        extra.parent = "world";
        j.push_back(extra);
      },
      "joint 'jc'", "already the child");
}

TEST(BadBuilderInputs, CyclesAreRejected) {
  // world -> a -> b plus c <-> d forming a cycle detached from the root.
  const ModelBuilder detached = chain([](auto& l, auto& j) {
    LinkSpec c = l[1], d = l[1];
    c.name = "c";
    d.name = "d";
    l.push_back(c);
    l.push_back(d);
    JointSpec cd = j[1], dc = j[1];
    cd.name = "jcd";
    cd.parent = "c";
    cd.child = "d";
    dc.name = "jdc";
    dc.parent = "d";
    dc.child = "c";
    j.push_back(cd);
    j.push_back(dc);
  });
  try {
    detached.build();
    ADD_FAILURE() << "cycle accepted";
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("cycle"), std::string::npos) << e.what();
  }
  // Every link a child: no root at all.
  const ModelBuilder noRoot = chain([](auto&, auto& j) {
    JointSpec back = j[0];
    back.name = "jback";
    back.parent = "b";
    back.child = "world";
    j.push_back(back);
  });
  try {
    noRoot.build();
    ADD_FAILURE() << "cycle accepted";
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("cycle"), std::string::npos) << e.what();
  }
}

TEST(BadBuilderInputs, FloatingJointBelowAMovingLinkIsRejected) {
  expectModelError([](auto&, auto& j) { j[1].kind = JointKind::Floating; }, "joint 'jb'", "floating");
}

// tree::aba is public: a zero articulated inertia (a joint moving only massless bodies) is a
// NumericalError naming the joint, not a NaN result.
TEST(BadAlgorithmInputs, TreeAbaZeroPivotRaisesNumericalErrorNamingTheJoint) {
  const Model m = masslessTip("tip_joint");
  Data d(m);
  const VecX q = VecX::Constant(2, 0.3), v = VecX::Constant(2, 0.5), tau = VecX::Ones(2);
  expectError<NumericalError>([&] { tree::aba(m, d, q, v, tau); }, {"tree::aba", "joint 'tip_joint'"});
  // with armature on that joint the pivot is positive and the result finite
  const VecX armature = (VecX(2) << 0.0, 0.1).finished();
  EXPECT_TRUE(tree::aba(m, d, q, v, tau, nullptr, &armature).allFinite());

  const Model mf = masslessFloatingBase();
  Data df(mf);
  expectError<NumericalError>([&] { tree::aba(mf, df, mf.neutralConfiguration(), VecX::Zero(6), VecX::Ones(6)); },
                              {"tree::aba"});
}
