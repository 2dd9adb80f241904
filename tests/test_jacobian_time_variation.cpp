// WORLD-frame Jacobians, J̇ and frame accelerations given q̈ (kinematics.hpp) against
// independent methods: the WORLD velocity against finite differences of the frame pose; J̇
// against finite differences of J along the motion in every convention; J̇ v against the
// acceleration bias; J q̈ + J̇ v against the frame acceleration.
#include <gtest/gtest.h>

#include "support/allocation_counter.hpp"
#include "support/wbc_models.hpp"

using namespace grbda;
using namespace grbda::testsupport;

namespace {
/// A frame on the deepest body and one in the middle of the body list.
std::vector<int> someFrames(const Model& m) {
  std::vector<int> frames;
  for (int target : {m.numBodies() - 1, m.numBodies() / 2})
    for (int f = 0; f < static_cast<int>(m.frames().size()); ++f)
      if (m.frame(f).body == target) {
        frames.push_back(f);
        break;
      }
  return frames;
}
const ReferenceFrame kAll[] = {ReferenceFrame::Local, ReferenceFrame::LocalWorldAligned, ReferenceFrame::World};
}  // namespace

TEST(JacobianTimeVariation, WorldVelocityMatchesFiniteDifferencesOfThePose) {
  Rng rng(41);
  for (const WbcCase& c : wbcCases()) {
    SCOPED_TRACE(c.name);
    Data data(c.model), fd(c.model);
    const VecX q = randomPositions(rng, c), v = randomVector(rng, c.model.nv());
    for (int f : someFrames(c.model)) {
      const Mat6X J = frameJacobian(c.model, data, q, f, Vec3::Zero(), ReferenceFrame::World);
      forwardKinematics(c.model, data, q, v);
      const Vec6 vw = frameVelocity(c.model, data, f, randomVec3(rng), ReferenceFrame::World);
      EXPECT_LT(maxRelErr(J * v, vw), 1e-12);
      // [ω; ṗ − ω × p] of the frame origin p, from its pose along the motion
      auto pose = [&](double t) {
        forwardKinematics(c.model, fd, integrate(c.model, q, v, t));
        const Transform X = frameTransform(c.model, fd, f);
        return std::make_pair(Mat3(X.E.transpose()), Vec3(X.r));
      };
      const double h = 1e-5;
      const auto [Rm, pm] = pose(-h);
      const auto [Rp, pp] = pose(h);
      const auto [R0, p0] = pose(0.0);
      const Eigen::AngleAxisd rel(Rp * Rm.transpose());
      const Vec3 w = rel.angle() * rel.axis() / (2 * h), pd = (pp - pm) / (2 * h);
      Vec6 expected;
      expected << w, pd - w.cross(p0);
      EXPECT_LT(maxRelErr(vw, expected), 1e-7);
    }
  }
}

TEST(JacobianTimeVariation, MatchesFiniteDifferencesOfTheJacobian) {
  Rng rng(42);
  for (const WbcCase& c : wbcCases()) {
    SCOPED_TRACE(c.name);
    Data data(c.model), fd(c.model);
    const VecX q = randomPositions(rng, c), v = randomVector(rng, c.model.nv());
    const Vec3 point = randomVec3(rng);
    for (int f : someFrames(c.model))
      for (ReferenceFrame axes : kAll) {
        SCOPED_TRACE(static_cast<int>(axes));
        const Mat6X dJ = frameJacobianTimeVariation(c.model, data, q, v, f, point, axes);
        const Mat6X ref = alongVelocity(c.model, q, v, 1e-4,
                                        [&](const VecX& qt) { return frameJacobian(c.model, fd, qt, f, point, axes); });
        EXPECT_LT(maxRelErr(dJ, ref), 1e-7);
        if (axes != ReferenceFrame::Local) {  // J̇ v is the (classical / spatial) acceleration bias
          // (1e-11 where Ġ is exact; K̇ of a URDF <loop> or user constraint is a central difference)
          forwardKinematics(c.model, data, q, v);
          EXPECT_LT(maxRelErr(dJ * v, frameAccelerationBias(c.model, data, f, point, axes)), 1e-9);
        }
      }
  }
}

TEST(JacobianTimeVariation, FrameAccelerationGivenQddIsJQddPlusJdotV) {
  Rng rng(43);
  for (const WbcCase& c : wbcCases(false)) {
    SCOPED_TRACE(c.name);
    Data data(c.model);
    const VecX q = randomPositions(rng, c), v = randomVector(rng, c.model.nv()), qdd = randomVector(rng, c.model.nv());
    for (int f : someFrames(c.model))
      for (ReferenceFrame axes : {ReferenceFrame::LocalWorldAligned, ReferenceFrame::World}) {
        const Mat6X J = frameJacobian(c.model, data, q, f, Vec3::Zero(), axes);
        const Mat6X dJ = frameJacobianTimeVariation(c.model, data, q, v, f, Vec3::Zero(), axes);
        const Vec6 a = frameAcceleration(c.model, data, q, v, qdd, f, Vec3::Zero(), axes);
        EXPECT_LT(maxRelErr(a, J * qdd + dJ * v), 1e-11);
      }
  }
}

TEST(JacobianTimeVariation, BadInputIsATypedError) {
  const Model m = bundledModel("mini_cheetah.urdf");
  Data data(m);
  const VecX q = m.neutralConfiguration(), v = VecX::Zero(m.nv());
  EXPECT_THROW(frameJacobianTimeVariation(m, data, q, v, 100000), InputError);
  EXPECT_THROW(frameJacobianTimeVariation(m, data, q, VecX::Zero(2), 1), InputError);
  EXPECT_THROW(frameJacobianTimeVariation(m, data, q, v, 1, Vec3(std::nan(""), 0, 0)), InputError);
  EXPECT_THROW(frameAcceleration(m, data, q, v, VecX::Zero(1), 1), InputError);
}

TEST(JacobianTimeVariation, DoesNotAllocateOnPreparedData) {
  if (!allocationCounterLinked()) GTEST_SKIP() << "no counting allocator in this build";
  for (const WbcCase& c : wbcCases(false)) {
    SCOPED_TRACE(c.name);
    Data data(c.model);
    forwardKinematics(c.model, data, c.model.neutralConfiguration(), VecX::Ones(c.model.nv()));
    Mat6X dJ(6, c.model.nv()), J(6, c.model.nv());
    const int f = someFrames(c.model).front();
    frameJacobianTimeVariation(c.model, data, f, Vec3::Zero(), ReferenceFrame::Local, dJ);
    AllocationScope scope;
    for (ReferenceFrame axes : kAll) {
      frameJacobianTimeVariation(c.model, data, f, Vec3::Zero(), axes, dJ);
      frameJacobian(c.model, data, f, Vec3::Zero(), axes, J);
    }
    EXPECT_EQ(scope.count(), 0);
  }
}
