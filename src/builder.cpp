// ModelBuilder: collects the specs; build() is the model compiler (src/compiler/compile.cpp).
#include "grbda/builder.hpp"

#include <algorithm>

#include "grbda/errors.hpp"

namespace grbda {
namespace {

std::string jointElement(const std::string& name) { return "joint '" + name + "'"; }

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

}  // namespace grbda
