#include "grbda/builder.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "grbda/errors.hpp"
#include "grbda/model_source.hpp"
#include "cluster/model_compiler.hpp"
#include "log.hpp"

namespace grbda {
namespace {

std::string fmt(double x) {
  std::ostringstream s;
  s << x;
  return s.str();
}

bool finite(const Eigen::Ref<const MatX>& m) { return m.allFinite(); }

constexpr double kTriangleTolerance = 1e-3;  ///< relative to the largest moment: exporters' rounding
constexpr double kRotationTolerance = 1e-9;  ///< rpy in double precision is orthonormal to ~1e-15

[[noreturn]] void fail(const std::string& msg, const SourceLocation& at, const std::string& element) {
  throw ModelError(msg, at.file, at.line, element);
}

std::string where(const SourceLocation& at) {
  if (at.file.empty()) return "line " + std::to_string(at.line);
  return at.line > 0 ? at.file + ":" + std::to_string(at.line) : at.file;
}

std::string linkElement(const std::string& name) { return "link '" + name + "'"; }
std::string jointElement(const std::string& name) { return "joint '" + name + "'"; }

void validateLink(const LinkSpec& l) {
  const std::string el = linkElement(l.name);
  if (l.name.empty()) fail("link has no name", l.where, "link");
  if (!std::isfinite(l.mass) || l.mass < 0.0)
    fail("mass must be finite and non-negative (got " + fmt(l.mass) + ")", l.where, el);
  if (!finite(l.com)) fail("centre of mass is not finite", l.where, el);
  if (!finite(l.inertia)) fail("inertia has a non-finite entry", l.where, el);
  if ((l.inertia - l.inertia.transpose()).norm() > 1e-12 * (1.0 + l.inertia.norm()))
    fail("inertia matrix is not symmetric", l.where, el);
}

/// Empty when the rotational inertia is positive semi-definite (to rounding), else the complaint.
/// Judged once the tree is known: a link welded to the fixed world never enters the dynamics.
std::string indefiniteInertia(const LinkSpec& l) {
  const Vec3 ev = Eigen::SelfAdjointEigenSolver<Mat3>(l.inertia).eigenvalues();
  const double tol = 1e-12 * (1.0 + ev.cwiseAbs().maxCoeff());
  if (ev.minCoeff() >= -tol) return {};
  return "rotational inertia is not positive semi-definite (eigenvalues " + fmt(ev[0]) + ", " + fmt(ev[1]) + ", " +
         fmt(ev[2]) + ")";
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
  return "rotational inertia is physically impossible: principal moments " + fmt(ev[0]) + ", " + fmt(ev[1]) + ", " +
         fmt(ev[2]) + " violate the triangle inequality (the largest must not exceed the sum of the other two)";
}

/// A joint or loop origin must be a proper rotation (orthonormal, determinant +1): anything else
/// shears or mirrors the child frame and every transform built from it is wrong.
void requireRotation(const Mat3& E, const SourceLocation& at, const std::string& element, const char* what) {
  const double orthogonality = (E.transpose() * E - Mat3::Identity()).cwiseAbs().maxCoeff();
  const double det = E.determinant();
  if (orthogonality > kRotationTolerance || std::abs(det - 1.0) > kRotationTolerance)
    fail(std::string(what) + " is not a rotation matrix (max |EᵀE − I| = " + fmt(orthogonality) + ", det = " +
             fmt(det) + ")",
         at, element);
}

void validateJoint(JointSpec& j, const std::map<std::string, size_t>& linkIndex) {
  const std::string el = jointElement(j.name);
  if (j.name.empty()) fail("joint has no name", j.where, "joint");
  if (!linkIndex.count(j.parent)) fail("unknown parent link '" + j.parent + "'", j.where, el);
  if (!linkIndex.count(j.child)) fail("unknown child link '" + j.child + "'", j.where, el);
  if (j.parent == j.child) fail("parent and child are the same link '" + j.child + "'", j.where, el);
  if (!finite(j.origin.E) || !finite(j.origin.r)) fail("origin is not finite", j.where, el);
  requireRotation(j.origin.E, j.where, el, "origin rotation");
  if (j.kind == JointKind::Revolute || j.kind == JointKind::Continuous || j.kind == JointKind::Prismatic) {
    if (!finite(j.axis)) fail("axis is not finite", j.where, el);
    const double n = j.axis.norm();
    if (n < 1e-9) fail("axis has zero length", j.where, el);
    if (std::abs(n - 1.0) > 1e-6)
      detail::log().warn("{}: axis ({} {} {}) is not unit length; normalised", el, j.axis.x(), j.axis.y(),
                         j.axis.z());
    j.axis /= n;
  }
}

// A shape's sizes: positive and finite (a zero radius is no shape; NaN would poison a step).
void checkCollisionShape(const CollisionSpec& c, const SourceLocation& at, const std::string& el) {
  const auto positive = [&](double x, const char* what) {
    if (!(std::isfinite(x) && x > 0.0))
      fail(std::string(shapeTypeName(c.shape.type)) + " " + what + " must be positive and finite (got " + fmt(x) + ")",
           at, el);
  };
  switch (c.shape.type) {
    case ShapeType::Sphere: positive(c.shape.radius, "radius"); break;
    case ShapeType::Box:
      for (int a = 0; a < 3; ++a) positive(2.0 * c.shape.halfExtents[a], "size");
      break;
    case ShapeType::Cylinder:
    case ShapeType::Capsule:
      positive(c.shape.radius, "radius");
      positive(c.shape.length, "length");
      break;
    case ShapeType::Mesh:
      if (!c.shape.hull || c.shape.hull->vertices.size() < 4 || c.shape.hull->faces.size() < 4)
        fail("mesh has no convex hull of at least 4 vertices (collision/mesh.hpp: convexHull, loadMeshHull)", at, el);
      for (const Vec3& v : c.shape.hull->vertices)
        if (!v.allFinite()) fail("mesh hull has a non-finite vertex", at, el);
      break;
  }
  if (!finite(c.origin.E) || !finite(c.origin.r)) fail("origin is not finite", at, el);
}

// <limit> and <dynamics>: bounds in order, nothing negative or NaN (the simulator divides by none
// of them, but a negative damping would pump energy in and NaN would poison every step).
void checkJointPhysics(const JointSpec& j, const SourceLocation& at, const std::string& el) {
  const JointLimits& l = j.limits;
  if (std::isnan(l.lower) || std::isnan(l.upper)) fail("limit lower/upper is NaN", at, el);
  if (l.hasPositionLimits && l.lower > l.upper)
    fail("limit lower (" + fmt(l.lower) + ") is greater than upper (" + fmt(l.upper) + ")", at, el);
  if (!(l.effort >= 0.0)) fail("limit effort must be >= 0 (got " + fmt(l.effort) + ")", at, el);
  if (!(l.velocity >= 0.0)) fail("limit velocity must be >= 0 (got " + fmt(l.velocity) + ")", at, el);
  if (!(std::isfinite(j.dynamics.damping) && j.dynamics.damping >= 0.0))
    fail("dynamics damping must be >= 0 and finite (got " + fmt(j.dynamics.damping) + ")", at, el);
  if (!(std::isfinite(j.dynamics.friction) && j.dynamics.friction >= 0.0))
    fail("dynamics friction must be >= 0 and finite (got " + fmt(j.dynamics.friction) + ")", at, el);
}

}  // namespace

void ModelBuilder::addCollision(CollisionSpec collision) { collisions_.push_back(std::move(collision)); }

void ModelBuilder::addFloatingBase(const std::string& jointName) {
  std::vector<std::string> roots;
  for (const LinkSpec& l : links_) {
    bool child = false;
    for (const JointSpec& j : joints_) child = child || j.child == l.name;
    if (!child) roots.push_back(l.name);
  }
  if (roots.size() != 1)
    throw ModelError("cannot add a floating base: the robot has " + std::to_string(roots.size()) + " root links",
                     sourceFile_, 0, "robot '" + name_ + "'");
  for (const JointSpec& j : joints_)
    if (j.kind == JointKind::Floating)
      throw ModelError("cannot add a floating base: joint '" + j.name + "' already floats", j.where.file, j.where.line,
                       jointElement(j.name));
  std::string world = "world";
  for (int k = 1; std::any_of(links_.begin(), links_.end(), [&](const LinkSpec& l) { return l.name == world; }); ++k)
    world = "world_" + std::to_string(k);
  addLink(LinkSpec{world, 0.0, Vec3::Zero(), Mat3::Zero(), {}});
  JointSpec j;
  j.name = jointName;
  j.kind = JointKind::Floating;
  j.parent = world;
  j.child = roots.front();
  addJoint(j);
}

ModelBuilder::ModelBuilder(std::string robotName, std::string sourceFile)
    : name_(std::move(robotName)), sourceFile_(std::move(sourceFile)) {}

void ModelBuilder::addLink(LinkSpec link) {
  if (link.where.file.empty()) link.where.file = sourceFile_;
  links_.push_back(std::move(link));
}

void ModelBuilder::addFrame(FrameSpec frame) {
  if (frame.where.file.empty()) frame.where.file = sourceFile_;
  frames_.push_back(std::move(frame));
}

void ModelBuilder::addJoint(JointSpec joint) {
  if (joint.where.file.empty()) joint.where.file = sourceFile_;
  joints_.push_back(std::move(joint));
}

void ModelBuilder::addLoop(LoopSpec loop) {
  if (loop.where.file.empty()) loop.where.file = sourceFile_;
  loops_.push_back(std::move(loop));
}

void ModelBuilder::addCoupling(CouplingSpec coupling) {
  if (coupling.where.file.empty()) coupling.where.file = sourceFile_;
  couplings_.push_back(std::move(coupling));
}

void ModelBuilder::addConstraint(ConstraintSpec constraint) {
  if (constraint.where.file.empty()) constraint.where.file = sourceFile_;
  constraints_.push_back(std::move(constraint));
}

void ModelBuilder::merge(const ModelBuilder& other) {
  links_.insert(links_.end(), other.links_.begin(), other.links_.end());
  joints_.insert(joints_.end(), other.joints_.begin(), other.joints_.end());
  loops_.insert(loops_.end(), other.loops_.begin(), other.loops_.end());
  couplings_.insert(couplings_.end(), other.couplings_.begin(), other.couplings_.end());
  constraints_.insert(constraints_.end(), other.constraints_.begin(), other.constraints_.end());
  frames_.insert(frames_.end(), other.frames_.begin(), other.frames_.end());
  collisions_.insert(collisions_.end(), other.collisions_.begin(), other.collisions_.end());
}

Model ModelBuilder::build() const {
  if (links_.empty()) throw ModelError("model has no links", sourceFile_, 0, "robot '" + name_ + "'");

  // --- links ---
  std::map<std::string, size_t> linkIndex;
  std::vector<size_t> impossible;  // links whose inertia violates the triangle inequality
  std::vector<size_t> indefinite;  // links whose inertia is not positive semi-definite
  for (size_t i = 0; i < links_.size(); ++i) {
    validateLink(links_[i]);
    if (!indefiniteInertia(links_[i]).empty()) {
      indefinite.push_back(i);
    } else if (triangleViolation(links_[i]) > 0.0) {
      if (strictInertias_) fail(triangleMessage(links_[i]), links_[i].where, linkElement(links_[i].name));
      impossible.push_back(i);
    }
    const auto [it, fresh] = linkIndex.emplace(links_[i].name, i);
    if (!fresh)
      fail("duplicate link name (first defined at " + where(links_[it->second].where) + ")", links_[i].where,
           linkElement(links_[i].name));
  }

  if (!impossible.empty()) {
    // Published models do this (rounded CAD estimates, planar models giving only izz); the
    // dynamics stay well defined, so it is a warning unless setStrictInertias(true).
    const LinkSpec& first = links_[impossible.front()];
    detail::log().info("{}: {} link(s) have a rotational inertia that violates the triangle inequality, e.g. {}: {}; "
                       "accepted (ModelBuilder::setStrictInertias(true) rejects them)",
                       where(first.where), impossible.size(), linkElement(first.name), triangleMessage(first));
  }

  // --- joints ---
  std::vector<JointSpec> joints = joints_;
  std::map<std::string, size_t> jointIndex;
  std::vector<int> parentJointOf(links_.size(), -1);
  for (size_t j = 0; j < joints.size(); ++j) {
    validateJoint(joints[j], linkIndex);
    checkJointPhysics(joints[j], joints[j].where, jointElement(joints[j].name));
    const auto [it, fresh] = jointIndex.emplace(joints[j].name, j);
    if (!fresh)
      fail("duplicate joint name (first defined at " + where(joints[it->second].where) + ")", joints[j].where,
           jointElement(joints[j].name));
    const size_t c = linkIndex.at(joints[j].child);
    if (parentJointOf[c] >= 0)
      fail("link '" + joints[j].child + "' is already the child of joint '" +
               joints[static_cast<size_t>(parentJointOf[c])].name + "'",
           joints[j].where, jointElement(joints[j].name));
    parentJointOf[c] = static_cast<int>(j);
  }

  // --- root ---
  std::vector<size_t> roots;
  for (size_t i = 0; i < links_.size(); ++i)
    if (parentJointOf[i] < 0) roots.push_back(i);
  if (roots.empty())
    throw ModelError("no root link: every link is the child of a joint, so the joints form a cycle", sourceFile_,
                     0, "robot '" + name_ + "'");
  if (roots.size() > 1) {
    std::string names;
    for (size_t r : roots) names += (names.empty() ? "'" : ", '") + links_[r].name + "'";
    throw ModelError("more than one root link (" + names + "); every link but one needs a parent joint",
                     links_[roots[1]].where.file, links_[roots[1]].where.line, linkElement(links_[roots[1]].name));
  }
  const size_t root = roots[0];

  // children lists in declaration order
  std::vector<std::vector<size_t>> childJoints(links_.size());
  for (size_t j = 0; j < joints.size(); ++j) childJoints[linkIndex.at(joints[j].parent)].push_back(j);

  // --- depth-first compilation: regular numbering, fixed joints merged ---
  Model model;
  model.name_ = name_;
  model.sourceFile_ = sourceFile_;
  model.gravity_ = gravity_;
  std::vector<int> linkBody(links_.size(), -2);          // -2 = not reached yet
  std::vector<Transform> linkPlacement(links_.size());   // ^link X_body
  linkBody[root] = -1;
  if (links_[root].mass > 0.0)
    detail::log().info("root link '{}' is the fixed ground; its inertia is ignored", links_[root].name);
  model.frames_.push_back(Frame{links_[root].name, -1, Transform()});

  std::vector<size_t> stack;  // link indices; process children in declaration order
  stack.push_back(root);
  std::vector<size_t> order;
  while (!stack.empty()) {
    const size_t link = stack.back();
    stack.pop_back();
    order.push_back(link);
    const auto& kids = childJoints[link];
    for (auto it = kids.rbegin(); it != kids.rend(); ++it) stack.push_back(linkIndex.at(joints[*it].child));
  }
  for (size_t link : order) {
    if (link == root) continue;
    const JointSpec& j = joints[static_cast<size_t>(parentJointOf[link])];
    const size_t p = linkIndex.at(j.parent);
    const int parentBody = linkBody[p];
    const Transform XtoJoint = j.origin * linkPlacement[p];  // parent body -> joint frame
    const LinkSpec& L = links_[link];
    const Mat6 I = spatialInertia(L.mass, L.com, L.inertia);
    if (j.kind == JointKind::Fixed) {
      linkBody[link] = parentBody;
      linkPlacement[link] = XtoJoint;
      if (parentBody >= 0) {
        auto& B = model.bodies_[static_cast<size_t>(parentBody)];
        B.inertia += XtoJoint.transformInertia(I);
      } else if (L.mass > 0.0) {
        detail::log().info("link '{}' is welded to the ground; its inertia is ignored", L.name);
      }
      model.frames_.push_back(Frame{L.name, parentBody, XtoJoint});
      continue;
    }
    Body b;
    b.name = L.name;
    b.jointName = j.name;
    b.parent = parentBody;
    b.Xtree = XtoJoint;
    b.inertia = I;
    b.limits = j.limits;
    b.dynamics = j.dynamics;
    switch (j.kind) {
      case JointKind::Revolute:
      case JointKind::Continuous: b.joint = Joint{JointType::Revolute, j.axis}; break;
      case JointKind::Prismatic: b.joint = Joint{JointType::Prismatic, j.axis}; break;
      case JointKind::Floating:
        if (parentBody != -1)
          fail("a floating joint must connect the root (ground) to the base; its parent '" + j.parent +
                   "' moves",
               j.where, jointElement(j.name));
        b.joint = Joint{JointType::Free, Vec3::UnitX()};
        model.floatingBase_ = true;
        break;
      case JointKind::Fixed: break;
    }
    linkBody[link] = static_cast<int>(model.bodies_.size());
    linkPlacement[link] = Transform();
    model.frames_.push_back(Frame{L.name, linkBody[link], Transform()});
    model.bodies_.push_back(std::move(b));
  }
  for (size_t i = 0; i < links_.size(); ++i) {
    if (linkBody[i] == -2)
      fail("link '" + links_[i].name + "' is not connected to the root '" + links_[root].name +
               "' (its joints form a cycle)",
           links_[i].where, linkElement(links_[i].name));
  }

  // An indefinite inertia is refused on every link that moves; on a link welded to the fixed
  // world (Tiago's antenna: an eigenvalue of −3.5e-8) it never enters the dynamics: a warning.
  for (size_t i : indefinite) {
    if (linkBody[i] >= 0)
      fail(indefiniteInertia(links_[i]), links_[i].where, linkElement(links_[i].name));
    detail::log().warn("{}: {}: {}; the link is welded to the fixed world, so its inertia never enters the "
                       "dynamics: accepted",
                       where(links_[i].where), linkElement(links_[i].name), indefiniteInertia(links_[i]));
  }

  for (const FrameSpec& f : frames_) {  // named frames: placed like a fixed child link, no inertia
    const std::string el = "frame '" + f.name + "'";
    if (f.name.empty()) fail("frame has no name", f.where, "frame");
    for (const Frame& existing : model.frames_)
      if (existing.name == f.name) fail("duplicate name: a link or frame '" + f.name + "' exists", f.where, el);
    const auto link = linkIndex.find(f.link);
    if (link == linkIndex.end()) fail("unknown link '" + f.link + "'", f.where, el);
    if (!finite(f.origin.E) || !finite(f.origin.r)) fail("origin is not finite", f.where, el);
    requireRotation(f.origin.E, f.where, el, "origin rotation");
    model.frames_.push_back(Frame{f.name, linkBody[link->second], f.origin * linkPlacement[link->second]});
  }

  for (const LoopSpec& l : loops_)
    if (l.predecessorOrigin.E.allFinite() && l.successorOrigin.E.allFinite()) {  // non-finite: reported later
      requireRotation(l.predecessorOrigin.E, l.where, "loop '" + l.name + "'", "predecessor origin rotation");
      requireRotation(l.successorOrigin.E, l.where, "loop '" + l.name + "'", "successor origin rotation");
    }

  std::vector<const JointSpec*> bodyJoint;
  for (const auto& b : model.bodies_) bodyJoint.push_back(&joints[jointIndex.at(b.jointName)]);
  detail::ModelCompiler::formClusters(model, *this, linkIndex, linkBody, linkPlacement, bodyJoint);
  // collision shapes: placed on the body that carries their link (after any renumbering)
  for (const CollisionSpec& c : collisions_) {
    const SourceLocation at{c.sourceFile.empty() ? sourceFile_ : c.sourceFile, c.sourceLine};
    const std::string el = "link '" + c.link + "' <collision>";
    if (linkIndex.find(c.link) == linkIndex.end()) fail("unknown link '" + c.link + "'", at, el);
    checkCollisionShape(c, at, el);
    const Frame& f = model.frame(model.frameIndex(c.link));
    model.collisionGeometries_.push_back(CollisionGeometry{c.link, f.body, c.origin * f.placement, c.shape});
  }
  // its specs, so that it can be rebuilt elsewhere (model_source.hpp; the URDF loaders replace
  // this with the text they read)
  auto source = std::make_shared<ModelSource>();
  source->builder = std::make_shared<const ModelBuilder>(*this);
  model.source_ = std::move(source);
  return model;
}

}  // namespace grbda
