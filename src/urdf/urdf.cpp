// The URDF / URDF+ reader of libgrbda_backends.so: texts to one ModelBuilder (the public calls of
// grbda/urdf/urdf.hpp are in loaders/urdf_loader.cpp and reach this through the backend table).
#include "backends/backend_table.hpp"
#include "grbda/errors.hpp"
#include "urdf/compound_joints.hpp"
#include "urdf/merge.hpp"
#include "urdf/transmission.hpp"
#include "urdf/urdf_file.hpp"
#include "urdf/urdf_plus.hpp"
#include "urdf/urdfdom_check.hpp"

// Design: our tinyxml2 pass is the source of the LinkSpec/JointSpec values, because it has to
// read every element and number anyway to report problems with their file and line (urdfdom
// only prints to the console, and silently drops an <inertial> whose numbers it cannot read).
// urdfdom then reads the same robot; the model is accepted only if it accepts it too and its
// tree agrees with ours. When urdfdom rejects a robot, ModelBuilder::build() is asked first,
// since its messages for graph problems (two roots, unknown links, cycles) name the element and
// line; only if it finds nothing is urdfdom's own message reported.

namespace grbda {
namespace {

using urdf_detail::UrdfFile;

/// A `<mimic>` set aside on a fixed joint must still name a joint of the robot.
void requireLeaders(const std::vector<ConstraintSpec>& ignored, const urdf_detail::MergedUrdf& merged) {
  for (const ConstraintSpec& c : ignored) {
    bool found = false;
    for (const auto& j : merged.joints) found = found || j.spec.name == c.joints[0];
    if (!found)
      throw ModelError("<mimic> names unknown joint '" + c.joints[0] + "'", c.where.file, c.where.line,
                       "joint '" + c.joints[1] + "'");
  }
}

ModelBuilder assemble(const std::vector<UrdfFile>& files, TransmissionTreatment transmissions) {
  const urdf_detail::MergedUrdf merged = urdf_detail::mergeUrdfFiles(files);
  // the links and joints grbda builds: universal and planar joints as chains of 1-DoF joints
  const urdf_detail::MergedUrdf tree = urdf_detail::expandCompoundJoints(merged);
  ModelBuilder builder(merged.robotName, merged.sourceFile);
  for (const auto& l : tree.links) {
    builder.addLink(l.spec);
    for (const CollisionSpec& c : l.collisions) builder.addCollision(c);
  }
  for (const auto& j : tree.joints) builder.addJoint(j.spec);
  for (const UrdfFile& f : files) {  // URDF+ <loop>, <coupling> (not seen by urdfdom) and <mimic>
    urdf_detail::UrdfConstraints extra = urdf_detail::readUrdfConstraints(f);
    for (auto& l : extra.loops) builder.addLoop(std::move(l));
    for (auto& c : extra.couplings) builder.addCoupling(std::move(c));
    for (auto& c : extra.mimics) builder.addConstraint(std::move(c));
    requireLeaders(extra.ignoredMimics, tree);
  }
  if (transmissions == TransmissionTreatment::ExactRotor) {  // all files at once: one rotor per joint
    std::vector<urdf_detail::RotorTransmission> rotors;
    for (const UrdfFile& f : files)
      for (auto& r : urdf_detail::readRotorTransmissions(f)) rotors.push_back(std::move(r));
    urdf_detail::addRotors(builder, tree, rotors);
  }

  const std::string xml = files.size() == 1 ? files.front().text : urdf_detail::mergedXml(files, merged);
  if (urdf_detail::jointsFormACycle(merged)) {
    builder.build();  // reports the cycle with its element and line
    throw ModelError("the joints form a cycle", merged.sourceFile);
  }
  std::string urdfdomErrors;
  if (!urdf_detail::checkWithUrdfdom(xml, merged, urdfdomErrors)) {
    builder.build();  // throws a located ModelError if it can diagnose the problem
    std::string names;
    for (const UrdfFile& f : files) names += (names.empty() ? "" : ", ") + f.source;
    throw ModelError("urdfdom rejected the robot description: " +
                         (urdfdomErrors.empty() ? std::string("no reason given") : urdfdomErrors),
                     names);
  }
  return builder;
}

}  // namespace

ModelBuilder detail::assembleUrdfTexts(const std::vector<UrdfText>& texts, TransmissionTreatment transmissions) {
  std::vector<UrdfFile> files;
  files.reserve(texts.size());
  for (const UrdfText& t : texts) files.push_back(urdf_detail::readUrdf(t.text, t.name));
  return assemble(files, transmissions);
}

}  // namespace grbda
