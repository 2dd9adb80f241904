// Passes over the builder's specs before any tree exists: each link and joint checked on its own
// (finite, symmetric, rotations, limits), names unique, one parent per link, one root.
#include <Eigen/Eigenvalues>
#include <cmath>

#include "check_specs.hpp"
#include "compiler.hpp"
#include "log.hpp"

namespace grbda::detail {

namespace {

bool finite(const Eigen::Ref<const MatX>& m) { return m.allFinite(); }

constexpr double kTriangleTolerance = 1e-3;  ///< relative to the largest moment: exporters' rounding
constexpr double kRotationTolerance = 1e-9;  ///< rpy in double precision is orthonormal to ~1e-15

void validateLink(const LinkSpec& l) {
  const std::string el = linkElement(l.name);
  if (l.name.empty()) fail("link has no name", l.where, "link");
  if (!std::isfinite(l.mass) || l.mass < 0.0)
    fail("mass must be finite and non-negative (got " + fmtNumber(l.mass) + ")", l.where, el);
  if (!finite(l.com)) fail("centre of mass is not finite", l.where, el);
  if (!finite(l.inertia)) fail("inertia has a non-finite entry", l.where, el);
  if ((l.inertia - l.inertia.transpose()).norm() > 1e-12 * (1.0 + l.inertia.norm()))
    fail("inertia matrix is not symmetric", l.where, el);
}

/// Principal moments of a real body are sums of second moments (Ixx = ∫y² + z² dm, ...), so each
/// is at most the sum of the other two. Returns the violation relative to the largest moment (0
/// when the inequality holds within kTriangleTolerance, which allows exporters' rounding: thin
/// rods and discs sit exactly on the bound).
double triangleViolation(const LinkSpec& l) {
  const Vec3 ev = Eigen::SelfAdjointEigenSolver<Mat3>(l.inertia).eigenvalues();
  if (ev[2] <= 0.0) return 0.0;
  const double violation = (ev[2] - ev[0] - ev[1]) / ev[2];
  return violation > kTriangleTolerance ? violation : 0.0;
}

std::string triangleMessage(const LinkSpec& l) {
  const Vec3 ev = Eigen::SelfAdjointEigenSolver<Mat3>(l.inertia).eigenvalues();
  return "rotational inertia is physically impossible: principal moments " + fmtNumber(ev[0]) + ", " +
         fmtNumber(ev[1]) + ", " + fmtNumber(ev[2]) +
         " violate the triangle inequality (the largest must not exceed the sum of the other two)";
}

void validateJoint(JointSpec& j, const std::map<std::string, size_t>& linkIndex) {
  const std::string el = jointElement(j.name);
  if (j.name.empty()) fail("joint has no name", j.where, "joint");
  if (!linkIndex.count(j.parent)) fail("unknown parent link '" + j.parent + "'", j.where, el);
  if (!linkIndex.count(j.child)) fail("unknown child link '" + j.child + "'", j.where, el);
  if (j.parent == j.child) fail("parent and child are the same link '" + j.child + "'", j.where, el);
  if (!finite(j.origin.E) || !finite(j.origin.r)) fail("origin is not finite", j.where, el);
  requireRotation(j.origin.E, j.where, el, "origin rotation");
  if (j.kind == JointKind::Screw && !std::isfinite(j.pitch))
    fail("screw pitch " + fmtNumber(j.pitch) + " is not finite", j.where, el);
  if (j.kind == JointKind::Revolute || j.kind == JointKind::Continuous || j.kind == JointKind::Prismatic ||
      j.kind == JointKind::Screw) {
    if (!finite(j.axis)) fail("axis is not finite", j.where, el);
    const double n = j.axis.norm();
    if (n < 1e-9) fail("axis has zero length", j.where, el);
    if (std::abs(n - 1.0) > 1e-6)
      log().warn("{}: axis ({} {} {}) is not unit length; normalised", el, j.axis.x(), j.axis.y(), j.axis.z());
    j.axis /= n;
  }
}

// <limit> and <dynamics>: bounds in order, nothing negative or NaN (the simulator divides by none
// of them, but a negative damping would pump energy in and NaN would poison every step).
void checkJointPhysics(const JointSpec& j, const SourceLocation& at, const std::string& el) {
  const JointLimits& l = j.limits;
  if (std::isnan(l.lower) || std::isnan(l.upper)) fail("limit lower/upper is NaN", at, el);
  if (l.hasPositionLimits && l.lower > l.upper)
    fail("limit lower (" + fmtNumber(l.lower) + ") is greater than upper (" + fmtNumber(l.upper) + ")", at, el);
  if (!(l.effort >= 0.0)) fail("limit effort must be >= 0 (got " + fmtNumber(l.effort) + ")", at, el);
  if (!(l.velocity >= 0.0)) fail("limit velocity must be >= 0 (got " + fmtNumber(l.velocity) + ")", at, el);
  if (!(std::isfinite(j.dynamics.damping) && j.dynamics.damping >= 0.0))
    fail("dynamics damping must be >= 0 and finite (got " + fmtNumber(j.dynamics.damping) + ")", at, el);
  if (!(std::isfinite(j.dynamics.friction) && j.dynamics.friction >= 0.0))
    fail("dynamics friction must be >= 0 and finite (got " + fmtNumber(j.dynamics.friction) + ")", at, el);
}

}  // namespace

std::string where(const SourceLocation& at) {
  if (at.file.empty()) return "line " + std::to_string(at.line);
  return at.line > 0 ? at.file + ":" + std::to_string(at.line) : at.file;
}

std::string indefiniteInertia(const LinkSpec& l) {
  const Vec3 ev = Eigen::SelfAdjointEigenSolver<Mat3>(l.inertia).eigenvalues();
  const double tol = 1e-12 * (1.0 + ev.cwiseAbs().maxCoeff());
  if (ev.minCoeff() >= -tol) return {};
  return "rotational inertia is not positive semi-definite (eigenvalues " + fmtNumber(ev[0]) + ", " +
         fmtNumber(ev[1]) + ", " + fmtNumber(ev[2]) + ")";
}

void requireRotation(const Mat3& E, const SourceLocation& at, const std::string& element, const char* what) {
  const double orthogonality = (E.transpose() * E - Mat3::Identity()).cwiseAbs().maxCoeff();
  const double det = E.determinant();
  if (orthogonality > kRotationTolerance || std::abs(det - 1.0) > kRotationTolerance)
    fail(std::string(what) + " is not a rotation matrix (max |EᵀE − I| = " + fmtNumber(orthogonality) +
             ", det = " + fmtNumber(det) + ")",
         at, element);
}

void checkLinks(CompilerState& s) {
  const auto& links = s.builder.links();
  if (links.empty())
    throw ModelError("model has no links", s.builder.sourceFile(), 0, "robot '" + s.builder.name() + "'");
  std::vector<size_t> impossible;  // links whose inertia violates the triangle inequality
  for (size_t i = 0; i < links.size(); ++i) {
    validateLink(links[i]);
    if (!indefiniteInertia(links[i]).empty()) {
      s.indefinite.push_back(i);
    } else if (triangleViolation(links[i]) > 0.0) {
      if (s.builder.strictInertias()) fail(triangleMessage(links[i]), links[i].where, linkElement(links[i].name));
      impossible.push_back(i);
    }
    const auto [it, fresh] = s.linkIndex.emplace(links[i].name, i);
    if (!fresh)
      fail("duplicate link name (first defined at " + where(links[it->second].where) + ")", links[i].where,
           linkElement(links[i].name));
  }
  if (!impossible.empty()) {
    // Published models do this (rounded CAD estimates, planar models giving only izz); the
    // dynamics stay well defined, so it is a warning unless setStrictInertias(true).
    const LinkSpec& first = links[impossible.front()];
    log().info("{}: {} link(s) have a rotational inertia that violates the triangle inequality, e.g. {}: {}; "
               "accepted (ModelBuilder::setStrictInertias(true) rejects them)",
               where(first.where), impossible.size(), linkElement(first.name), triangleMessage(first));
  }
}

void checkJoints(CompilerState& s) {
  s.joints = s.builder.joints();
  s.parentJointOf.assign(s.builder.links().size(), -1);
  for (size_t j = 0; j < s.joints.size(); ++j) {
    JointSpec& joint = s.joints[j];
    validateJoint(joint, s.linkIndex);
    checkJointPhysics(joint, joint.where, jointElement(joint.name));
    const auto [it, fresh] = s.jointIndex.emplace(joint.name, j);
    if (!fresh)
      fail("duplicate joint name (first defined at " + where(s.joints[it->second].where) + ")", joint.where,
           jointElement(joint.name));
    const size_t c = s.linkIndex.at(joint.child);
    if (s.parentJointOf[c] >= 0)
      fail("link '" + joint.child + "' is already the child of joint '" +
               s.joints[static_cast<size_t>(s.parentJointOf[c])].name + "'",
           joint.where, jointElement(joint.name));
    s.parentJointOf[c] = static_cast<int>(j);
  }
}

void findRoot(CompilerState& s) {
  const auto& links = s.builder.links();
  std::vector<size_t> roots;
  for (size_t i = 0; i < links.size(); ++i)
    if (s.parentJointOf[i] < 0) roots.push_back(i);
  if (roots.empty())
    throw ModelError("no root link: every link is the child of a joint, so the joints form a cycle",
                     s.builder.sourceFile(), 0, "robot '" + s.builder.name() + "'");
  if (roots.size() > 1) {
    std::string names;
    for (size_t r : roots) names += (names.empty() ? "'" : ", '") + links[r].name + "'";
    throw ModelError("more than one root link (" + names + "); every link but one needs a parent joint",
                     links[roots[1]].where.file, links[roots[1]].where.line, linkElement(links[roots[1]].name));
  }
  s.root = roots[0];
}

void checkLoopOrigins(CompilerState& s) {
  for (const LoopSpec& l : s.builder.loops())
    if (l.predecessorOrigin.E.allFinite() && l.successorOrigin.E.allFinite()) {  // non-finite: reported later
      requireRotation(l.predecessorOrigin.E, l.where, "loop '" + l.name + "'", "predecessor origin rotation");
      requireRotation(l.successorOrigin.E, l.where, "loop '" + l.name + "'", "successor origin rotation");
    }
}

}  // namespace grbda::detail
