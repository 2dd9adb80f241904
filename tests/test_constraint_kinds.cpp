// A constraint kind defined here, in the test alone, by writing one class (issue #22 §1, #26):
// "a point stays on a world plane", one row n · p̈ = 0 for a point p fixed in a link and a world
// normal n. Added to a ConstraintModel beside library kinds, it must be solved by every solver
// as the dense KKT system written below says (H, C from the library's CRBA and bias forces; the
// row from the frame Jacobian and the frame acceleration bias, not from the kind's own rows).
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "cluster_support/constrained_models.hpp"
#include "cluster_support/constraint_problems.hpp"
#include "grbda/constraints/constraint_type.hpp"
#include "grbda/grbda.hpp"
#include "support/allocation_counter.hpp"
#include "support/compare.hpp"
#include "support/random_model.hpp"

namespace grbda {
namespace {

using namespace testsupport;

/// n · p̈ = 0 for point p (link coordinates) of a link, n a unit world normal; λ is the force
/// along n that the plane exerts on the link at p. With n_b = R_bᵀ n (body axes) and p in body
/// coordinates: n · p̈ = [p × n_b; n_b] · a_b + n_b · (ω × v_p), so K = [p × n_b; n_b],
/// k = −n_b · (ω × v_p), and with Baumgarte k −= kv n · ṗ + kp n · (p − p_ref).
class PointOnPlane final : public ConstraintType {
 public:
  explicit PointOnPlane(const Vec3& normal) : n_(normal.normalized()) {}
  const char* name() const override { return "point-on-plane"; }

  int resolve(const Model& model, Constraint& c) const override {
    resolveConstraintLink(model, c);  // link, point -> frame, body, bodyPoint (errors name c)
    return 1;
  }

  struct Reference final : ConstraintTypeData {
    Vec3 p = Vec3::Zero();  ///< world position at the reference pose
  };
  std::unique_ptr<ConstraintTypeData> createData(const Model&, const Constraint&) const override {
    return std::make_unique<Reference>();
  }
  void setReference(const Model&, const Data& data, const Constraint& c, ConstraintTypeData* d) const override {
    static_cast<Reference*>(d)->p = data.Xa[static_cast<size_t>(c.body)].inverseTransformPoint(c.bodyPoint);
  }

  void calc(const Model&, const Data& data, const Constraint& c, ConstraintTypeData* d,
            const ConstraintRowSettings& s, ConstraintRowsOut out) const override {
    const Transform& X = data.Xa[static_cast<size_t>(c.body)];  // ^b X_0
    const Vec3 nb = X.E * n_;
    out.K(0) << c.bodyPoint.cross(nb), nb;
    if (!s.rightHandSides) return;
    const Vec6& v = data.v[static_cast<size_t>(c.body)];
    const Vec3 omega = v.head<3>(), vp = v.tail<3>() + omega.cross(c.bodyPoint);
    const Vec3 p = X.inverseTransformPoint(c.bodyPoint);
    out.k(0) = -nb.dot(omega.cross(vp)) - s.kv * nb.dot(vp) -
               s.kp * n_.dot(p - static_cast<const Reference*>(d)->p);
  }

 private:
  Vec3 n_;
};

Constraint onLink(const std::string& link, const Vec3& point) {
  Constraint c;
  c.link = link;
  c.point = point;
  return c;
}

/// The dense KKT reference: H q̈ + C = τ + Jᵀ λ, J q̈ + J̇ v = 0 with the rows of the test's
/// constraints (planes: nᵀ of the point's linear Jacobian; contacts: all three), then
/// J H⁻¹ Jᵀ λ = −J̇ v − J H⁻¹ (τ − C).
struct Reference {
  VecX qdd, lambda;
};
struct RowSpec {
  std::string link;
  Vec3 point;
  MatX N;  ///< world directions as rows (1 x 3 for a plane, identity for a contact)
};
Reference denseReference(const Model& m, const std::vector<RowSpec>& rows, const VecX& q, const VecX& v,
                         const VecX& tau) {
  Data d(m);
  const MatX H = massMatrix(m, d, q);
  const VecX C = biasForces(m, d, q, v);
  int nr = 0;
  for (const RowSpec& r : rows) nr += static_cast<int>(r.N.rows());
  MatX J(nr, m.nv());
  VecX bias(nr);
  forwardKinematics(m, d, q, v);
  int at = 0;
  for (const RowSpec& r : rows) {
    const int f = m.frameIndex(r.link);
    Mat6X Jf;
    frameJacobian(m, d, f, r.point, ReferenceFrame::LocalWorldAligned, Jf);
    const Vec6 a0 = frameAccelerationBias(m, d, f, r.point, ReferenceFrame::LocalWorldAligned);
    const auto k = r.N.rows();
    J.middleRows(at, k) = r.N * Jf.bottomRows<3>();
    bias.segment(at, k) = r.N * a0.tail<3>();
    at += static_cast<int>(k);
  }
  const Eigen::LLT<MatX> llt(H);
  const MatX HinvJt = llt.solve(J.transpose());
  const VecX free = llt.solve(tau - C);
  Reference ref;
  ref.lambda = (J * HinvJt).llt().solve(-bias - J * free);
  ref.qdd = free + HinvJt * ref.lambda;
  return ref;
}

const Vec3 kNormal = Vec3(0.3, -0.2, 1.0).normalized();
const Vec3 kTilted = Vec3(1.0, 0.4, 0.2).normalized();

TEST(ConstraintKinds, AKindWrittenInTheTestIsSolvedByEverySolverAsTheDenseKkt) {
  const Model m = loadUrdf(modelFile("mini_cheetah.urdf"));
  ConstraintModel cm(m);
  const int plane = cm.add(std::make_shared<PointOnPlane>(kNormal), onLink("FR_foot", Vec3(0.0, 0.01, 0.0)));
  cm.add(std::make_shared<PointOnPlane>(kTilted), onLink("FL_foot", Vec3::Zero()));
  cm.addPointContact("HR_foot");
  ASSERT_EQ(cm.numRows(), 5);
  EXPECT_EQ(cm.constraint(plane).kind, ConstraintKind::Other);
  EXPECT_STREQ(cm.constraint(plane).kindName(), "point-on-plane");
  EXPECT_EQ(cm.constraint(plane).name, "FR_foot");
  const std::vector<RowSpec> rows = {{"FR_foot", Vec3(0.0, 0.01, 0.0), kNormal.transpose()},
                                     {"FL_foot", Vec3::Zero(), kTilted.transpose()},
                                     {"HR_foot", Vec3::Zero(), Mat3::Identity()}};
  Rng rng(5);
  for (int trial = 0; trial < 3; ++trial) {
    const VecX q = randomIndependentConfiguration(rng, m);
    const VecX v = randomVector(rng, m.nv(), -2.0, 2.0), tau = randomVector(rng, m.nv());
    const Reference ref = denseReference(m, rows, q, v, tau);
    for (ConstraintSolver solver : {ConstraintSolver::PV, ConstraintSolver::KKT, ConstraintSolver::PVEarly,
                                    ConstraintSolver::LTL, ConstraintSolver::ProximalDelassus}) {
      SCOPED_TRACE(constraintSolverName(solver));
      Data data(m);
      ConstraintData cd(m, cm);
      ConstraintSolverSettings s;
      s.solver = solver;
      s.maxIterations = 200;
      const VecX qdd = constrainedForwardDynamics(m, data, cm, cd, q, v, tau, s);
      EXPECT_LT(relErr(qdd, ref.qdd), 1e-8);
      EXPECT_LT(relErr(cd.lambda, ref.lambda), 1e-8);
      // and the plane's point no longer accelerates along its normal (frame kinematics)
      Data kin(m);
      forwardKinematics(m, kin, q, v, qdd);
      const Vec6 a = frameAcceleration(m, kin, m.frameIndex("FR_foot"), Vec3(0.0, 0.01, 0.0));
      EXPECT_LT(std::abs(kNormal.dot(a.tail<3>())), 1e-8);
    }
  }
}

TEST(ConstraintKinds, TheNewKindIsSoftAndStabilisedLikeTheLibraryKinds) {
  // PV-soft with the new row: (H + Jᵀ R⁻¹ J) q̈ = τ − C + Jᵀ R⁻¹ (−J̇ v), the soft Gauss principle.
  const Model m = loadUrdf(modelFile("mini_cheetah.urdf"));
  ConstraintModel cm(m);
  cm.add(std::make_shared<PointOnPlane>(kNormal), onLink("HL_foot", Vec3::Zero()));
  const double R = 2e-3;
  cm.setCompliance(R);
  Rng rng(9);
  const VecX q = randomIndependentConfiguration(rng, m);
  const VecX v = randomVector(rng, m.nv()), tau = randomVector(rng, m.nv());
  Data data(m), d(m);
  ConstraintData cd(m, cm);
  ConstraintSolverSettings s;
  s.solver = ConstraintSolver::PVSoft;
  const VecX qdd = constrainedForwardDynamics(m, data, cm, cd, q, v, tau, s);
  const MatX H = massMatrix(m, d, q);
  const VecX C = biasForces(m, d, q, v);
  forwardKinematics(m, d, q, v);
  Mat6X Jf;
  frameJacobian(m, d, m.frameIndex("HL_foot"), Vec3::Zero(), ReferenceFrame::LocalWorldAligned, Jf);
  const MatX J = kNormal.transpose() * Jf.bottomRows<3>();
  const double bias = kNormal.dot(frameAccelerationBias(m, d, m.frameIndex("HL_foot")).tail<3>());
  const MatX A = H + J.transpose() * J / R;
  const VecX expected = A.llt().solve(tau - C - J.transpose() * (bias / R));
  EXPECT_LT(relErr(qdd, expected), 1e-9);

  // Baumgarte: displaced from its reference along n by δ at rest, the row asks n · p̈ = −δ / T².
  ConstraintModel stab(m);
  stab.add(std::make_shared<PointOnPlane>(kNormal), onLink("HL_foot", Vec3::Zero()));
  const double T = 0.1;
  stab.setBaumgarte(T);
  ConstraintData sd(m, stab);
  Data kin(m);
  forwardKinematics(m, kin, q);
  sd.setReference(m, kin, stab);
  VecX q2 = q;
  q2.head<3>() += 1e-3 * kNormal;  // the floating base moves the foot by 1 mm along n (world position)
  const VecX zero = VecX::Zero(m.nv());
  const VecX qdd2 = constrainedForwardDynamics(m, data, stab, sd, q2, zero, tau);
  forwardKinematics(m, kin, q2, zero, qdd2);
  const Vec6 a = frameAcceleration(m, kin, m.frameIndex("HL_foot"));
  EXPECT_NEAR(kNormal.dot(a.tail<3>()), -1e-3 / (T * T), 1e-8);
}

TEST(ConstraintKinds, SolvingTheNewKindAllocatesNothing) {
  if (!testsupport::allocationCounterLinked()) GTEST_SKIP() << "no counting allocator in this binary";
  const Model m = loadUrdf(modelFile("mini_cheetah.urdf"));
  ConstraintModel cm(m);
  cm.add(std::make_shared<PointOnPlane>(kNormal), onLink("FR_foot", Vec3::Zero()));
  cm.addPointContact("FL_foot");
  Rng rng(3);
  const VecX q = randomIndependentConfiguration(rng, m);
  const VecX v = randomVector(rng, m.nv()), tau = randomVector(rng, m.nv());
  Data data(m);
  ConstraintData cd(m, cm);
  for (ConstraintSolver solver : {ConstraintSolver::PV, ConstraintSolver::PVEarly, ConstraintSolver::KKT}) {
    ConstraintSolverSettings s;
    s.solver = solver;
    constrainedForwardDynamics(m, data, cm, cd, q, v, tau, s);  // warm: sizes whatever is lazily sized
    testsupport::AllocationScope scope;
    constrainedForwardDynamics(m, data, cm, cd, q, v, tau, s);
    EXPECT_EQ(scope.count(), 0) << constraintSolverName(solver);
  }
}

TEST(ConstraintKinds, ErrorsNameTheNewKindAndItsConstraint) {
  const Model m = loadUrdf(modelFile("mini_cheetah.urdf"));
  ConstraintModel cm(m);
  try {
    cm.add(std::make_shared<PointOnPlane>(kNormal), onLink("no_such_link", Vec3::Zero()));
    FAIL() << "an unknown link was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("point-on-plane constraint 'no_such_link'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(cm.add(nullptr, onLink("FR_foot", Vec3::Zero())), InputError);
  // its derivatives are not written: the derivatives call says so instead of returning wrong numbers
  cm.add(std::make_shared<PointOnPlane>(kNormal), onLink("FR_foot", Vec3::Zero()));
  Data data(m);
  ConstraintData cd(m, cm);
  Rng rng(1);
  const VecX q = randomIndependentConfiguration(rng, m);
  const VecX v = randomVector(rng, m.nv()), tau = randomVector(rng, m.nv());
  try {
    computeConstrainedDynamicsDerivatives(m, data, cm, cd, q, v, tau);
    FAIL() << "derivatives of a kind without them were returned";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("point-on-plane"), std::string::npos) << e.what();
  }
}

TEST(ConstraintKinds, LibraryKindsReportTheirClassNames) {
  const Model m = loadUrdf(modelFile("mini_cheetah.urdf"));
  ConstraintModel cm(m);
  cm.addPointContact("FR_foot");
  cm.addWeld("FL_foot");
  cm.addRelativePoint("HR_foot", Vec3::Zero(), "HL_foot", Vec3::Zero());
  cm.addRelativeWeld("HR_foot", Vec3::Zero(), "FL_foot", Vec3::Zero());
  cm.addCustomRows("FR_foot", MatX::Identity(2, 6), VecX::Zero(2));
  const char* names[] = {"contact", "weld", "relative", "relative-weld", "custom"};
  for (int i = 0; i < cm.size(); ++i) {
    EXPECT_STREQ(cm.constraint(i).kindName(), names[i]);
    EXPECT_STREQ(cm.constraint(i).kindName(), constraintKindName(cm.constraint(i).kind));
  }
  EXPECT_EQ(cm.constraint(2).name, "HR_foot-HL_foot");
}

}  // namespace
}  // namespace grbda
