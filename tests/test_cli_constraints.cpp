// `grbda fd --contact/--weld/--relative/--relative-weld` as a subprocess: the four feet of the
// Mini Cheetah (the acceptance command), the JSON contract (contact_forces in command-line
// order, kinds, moments for welds, link2/point2 for relative constraints, constraint_residual), the
// methods agreeing, and the usage errors.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/mini_json.hpp"
#include "grbda/grbda.hpp"
#include "support/cli_runner.hpp"
#include "support/temp_dir.hpp"

#ifdef GRBDA_CLI_PATH

namespace {

using namespace grbda::testing;
using Args = std::vector<std::string>;

Json fdJson(Args args) {
  args.insert(args.begin(), "fd");
  args.push_back("--json");
  const CommandResult r = runGrbda(args);
  EXPECT_EQ(r.exitCode, 0) << commandLine(args) << "\n" << r.err;
  if (r.exitCode != 0) return Json{};
  return JsonReader::parse(r.out);
}

const Args kFourFeet = {kCheetah, "--contact", "FR_foot", "--contact", "FL_foot", "--contact", "HR_foot",
                        "--contact", "HL_foot"};

/// Σ m_i a_com,i (classical accelerations of the bodies' centres of mass, world axes) after
/// forwardKinematics with accelerations; `mass` gets the total mass.
grbda::Vec3 linearMomentumRate(const grbda::Model& m, const grbda::Data& data, double& mass) {
  grbda::Vec3 rate = grbda::Vec3::Zero();
  mass = 0.0;
  for (size_t f = 0; f < m.frames().size(); ++f) {
    const grbda::Frame& fr = m.frames()[f];
    if (fr.body < 0 || fr.name != m.body(fr.body).name) continue;  // each body once, at its own frame
    const grbda::Mat6& I = m.body(fr.body).inertia;
    const double mi = I(5, 5);
    if (mi <= 0.0) continue;
    const grbda::Vec3 com(I(2, 4) / mi, I(0, 5) / mi, I(1, 3) / mi);
    mass += mi;
    rate += mi * grbda::frameAcceleration(m, data, static_cast<int>(f), fr.placement.transformPoint(com)).tail<3>();
  }
  return rate;
}

}  // namespace

TEST(CliConstraints, FourFeetForcesSumWithGravityToTheMomentumRate) {
  // At rest (v = 0) the linear momentum rate is Σ m_i a_com_i; the library computes it from q̈.
  const Json j = fdJson(kFourFeet);
  ASSERT_TRUE(j.has("contact_forces"));
  const Json& forces = j["contact_forces"];
  ASSERT_EQ(forces.size(), 4u);
  const char* feet[] = {"FR_foot", "FL_foot", "HR_foot", "HL_foot"};
  grbda::Vec3 total = grbda::Vec3::Zero();
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(forces[i]["link"].text, feet[i]);
    EXPECT_EQ(forces[i]["kind"].text, "contact");
    EXPECT_FALSE(forces[i].has("moment"));
    const std::vector<double> f = forces[i]["force"].numbers();
    ASSERT_EQ(f.size(), 3u);
    total += grbda::Vec3(f[0], f[1], f[2]);
  }
  EXPECT_LT(j["constraint_residual"].number, 1e-9);

  const grbda::Model m = grbda::loadUrdf(kCheetah);
  grbda::Data data(m);
  const std::vector<double> qdd = j["result"].numbers();
  const grbda::VecX a = Eigen::Map<const grbda::VecX>(qdd.data(), static_cast<Eigen::Index>(qdd.size()));
  const grbda::VecX q = m.neutralConfiguration(), v = grbda::VecX::Zero(m.nv());
  grbda::forwardKinematics(m, data, q, v, a);
  double mass = 0.0;
  const grbda::Vec3 rate = linearMomentumRate(m, data, mass);
  EXPECT_LT((total + mass * m.gravity() - rate).norm(), 1e-8);
}

TEST(CliConstraints, MethodsAgreeAndWeldsReportMoments) {
  const Args base = {kCheetah, "--weld", "FR_foot:0.01,0,0", "--contact", "HL_foot", "--v",
                     "0.1,0.2,-0.1,0.3,0,0.1,0,0,0,0,0,0,0,0,0,0,0,0"};
  const Json pv = fdJson(base);
  Args kkt = base;
  kkt.insert(kkt.end(), {"--method", "kkt"});
  Args prox = base;
  prox.insert(prox.end(), {"--method", "proximal"});
  Args soft = base;
  soft.insert(soft.end(), {"--method", "pv-soft", "--compliance", "1e-9"});
  Args early = base;
  early.insert(early.end(), {"--method", "pv-early"});
  const Json jk = fdJson(kkt), jp = fdJson(prox), js = fdJson(soft), je = fdJson(early);
  ASSERT_EQ(pv["contact_forces"].size(), 2u);
  EXPECT_EQ(pv["contact_forces"][0]["kind"].text, "weld");
  EXPECT_EQ(pv["contact_forces"][0]["point"].numbers(), (std::vector<double>{0.01, 0.0, 0.0}));
  EXPECT_TRUE(pv["contact_forces"][0].has("moment"));
  EXPECT_EQ(pv["method"].text, "pv");
  const std::vector<double> a = pv["result"].numbers();
  EXPECT_EQ(je["method"].text, "pv-early");
  for (const Json* other : {&jk, &jp, &js, &je}) {
    const std::vector<double> b = (*other)["result"].numbers();
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], other == &js ? 1e-4 : 1e-9) << (*other)["method"].text;
  }
}

TEST(CliConstraints, RelativeConstraintsMatchTheLibraryAndAreInternal) {
  // Two feet joined at a point, the other two welded to each other across the body (legs bent,
  // so the rows are independent): internal forces, so the free-floating robot's linear momentum
  // changes by gravity alone; λ equals an in-process solve with the same set.
  const std::string qs = "0,0,0.3,1,0,0,0,0.1,-0.8,1.6,-0.1,-0.7,1.5,0.05,-0.9,1.7,-0.05,-0.6,1.4";
  const std::string v = "0.1,0.2,-0.1,0.3,0,0.1,0.2,0,0,0,0.1,0,0,0,0,-0.2,0,0";
  const Args args = {kCheetah, "--relative", "FL_foot:0,0.01,0/HR_foot", "--relative-weld", "FR_foot/HL_foot",
                     "--q", qs, "--v", v, "--method", "kkt"};
  const Json j = fdJson(args);
  const Json& forces = j["contact_forces"];
  ASSERT_EQ(forces.size(), 2u);
  EXPECT_EQ(forces[0]["kind"].text, "relative");
  EXPECT_EQ(forces[0]["link2"].text, "HR_foot");
  EXPECT_EQ(forces[0]["point"].numbers(), (std::vector<double>{0.0, 0.01, 0.0}));
  EXPECT_EQ(forces[0]["point2"].numbers(), (std::vector<double>{0.0, 0.0, 0.0}));
  EXPECT_FALSE(forces[0].has("moment"));
  EXPECT_EQ(forces[1]["kind"].text, "relative-weld");
  EXPECT_TRUE(forces[1].has("moment"));
  EXPECT_LT(j["constraint_residual"].number, 1e-9);

  const grbda::Model m = grbda::loadUrdf(kCheetah);
  grbda::ConstraintModel cm(m);
  cm.addRelativePoint("FL_foot", grbda::Vec3(0.0, 0.01, 0.0), "HR_foot", grbda::Vec3::Zero());
  cm.addRelativeWeld("FR_foot", grbda::Vec3::Zero(), "HL_foot", grbda::Vec3::Zero());
  grbda::Data data(m);
  grbda::ConstraintData cd(m, cm);
  const std::vector<double> vs = JsonReader::parse("[" + v + "]").numbers(),
                            qv = JsonReader::parse("[" + qs + "]").numbers();
  const grbda::VecX vel = Eigen::Map<const grbda::VecX>(vs.data(), static_cast<Eigen::Index>(vs.size()));
  const grbda::VecX q = Eigen::Map<const grbda::VecX>(qv.data(), static_cast<Eigen::Index>(qv.size()));
  const grbda::VecX tau = grbda::VecX::Zero(m.nv());
  grbda::ConstraintSolverSettings settings;
  settings.solver = grbda::ConstraintSolver::PV;  // a different solver than the command's kkt
  const grbda::VecX qdd = grbda::constrainedForwardDynamics(m, data, cm, cd, q, vel, tau, settings);
  const std::vector<double> cliQdd = j["result"].numbers();
  for (int i = 0; i < m.nv(); ++i) EXPECT_NEAR(cliQdd[static_cast<size_t>(i)], qdd[i], 1e-9) << i;
  const std::vector<double> f0 = forces[0]["force"].numbers(), f1 = forces[1]["force"].numbers(),
                            n1 = forces[1]["moment"].numbers();
  for (int a = 0; a < 3; ++a) {
    EXPECT_NEAR(f0[static_cast<size_t>(a)], cd.lambda[a], 1e-7);
    EXPECT_NEAR(n1[static_cast<size_t>(a)], cd.lambda[3 + a], 1e-7);
    EXPECT_NEAR(f1[static_cast<size_t>(a)], cd.lambda[6 + a], 1e-7);
  }

  // Internal forces: Σ m_i a_com,i = m g (classical accelerations of the centres of mass).
  grbda::forwardKinematics(m, data, q, vel, qdd);
  double mass = 0.0;
  const grbda::Vec3 rate = linearMomentumRate(m, data, mass);
  EXPECT_LT((mass * m.gravity() - rate).norm(), 1e-8 * mass);
}

TEST(CliConstraints, UsageErrorsNameTheProblem) {
  expectCommandError({"fd", kCheetah, "--relative", "FR_foot"}, 2, {"--relative", "A[:X,Y,Z]/B[:X,Y,Z]"});
  expectCommandError({"fd", kCheetah, "--relative-weld", "FR_foot/nowhere"}, 2, {"unknown link 'nowhere'"});
  expectCommandError({"fd", kCheetah, "--contact", "no_such_link"}, 2, {"unknown link 'no_such_link'"});
  expectCommandError({"fd", kCheetah, "--contact", "FR_foot:1,2"}, 2, {"--contact", "3 coordinates"});
  expectCommandError({"fd", kCheetah, "--contact", "FR_foot", "--method", "projection"}, 2,
                     {"pv, pv-soft, kkt, proximal, proximal-sparse, ltl, ltl-soft or pv-early"});
  expectCommandError({"fd", kCheetah, "--contact", "FR_foot", "--compliance", "1e-3"}, 2, {"pv-soft"});
  expectCommandError({"fd", kCheetah, "--contact", "FR_foot", "--method", "pv-soft"}, 2, {"--compliance"});
  expectCommandError({"fd", kCheetah, "--baumgarte", "0.1"}, 2, {"--baumgarte needs --contact, --weld"});
  expectCommandError({"fd", kCheetah, "--contact", "FR_foot", "--method", "pv-soft", "--compliance", "-1"}, 2,
                     {"--compliance must be > 0"});
}


TEST(CliConstraints, AnExpandedJointsLinkIsNamedWithOrWithoutAPoint) {
  // `hip::1` (the cross of a universal joint) names a link; the point after a single ':' is the
  // optional contact point, so `hip::1` and `hip::1:0,0,0` are the same contact
  TempDir dir;
  const std::string model = dir.write(
      "cardan.urdf",
      "<robot name=\"cardan\"><link name=\"base\"/>"
      "<link name=\"leg\"><inertial><origin xyz=\"0 0 -0.3\"/><mass value=\"2\"/>"
      "<inertia ixx=\"0.02\" iyy=\"0.02\" izz=\"0.003\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>"
      "<joint name=\"hip\" type=\"universal\"><parent link=\"base\"/><child link=\"leg\"/>"
      "<axis xyz=\"1 0 0\"/><axis2 xyz=\"0 1 0\"/></joint></robot>");
  const Json bare = fdJson({model, "--contact", "hip::1", "--q", "0.2,-0.1"});
  const Json pointed = fdJson({model, "--contact", "hip::1:0,0,0", "--q", "0.2,-0.1"});
  ASSERT_TRUE(bare.has("contact_forces") && pointed.has("contact_forces"));
  EXPECT_EQ(bare["contact_forces"][0]["link"].text, "hip::1");
  EXPECT_EQ(bare["result"].numbers(), pointed["result"].numbers());
  EXPECT_EQ(bare["contact_forces"][0]["force"].numbers(), pointed["contact_forces"][0]["force"].numbers());
}

#endif  // GRBDA_CLI_PATH
