#include "grbda/urdf/urdf.hpp"

#include "grbda/errors.hpp"
#include "grbda/model_source.hpp"
#include "serialize/model_source_access.hpp"
#include "urdf/compound_joints.hpp"
#include "urdf/mass_check.hpp"
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

std::vector<UrdfFile> readFiles(const std::vector<std::string>& paths) {
  std::vector<UrdfFile> files;
  files.reserve(paths.size());
  for (const std::string& p : paths) files.push_back(urdf_detail::readUrdf(urdf_detail::readTextFile(p), p));
  return files;
}

}  // namespace

ModelBuilder parseUrdfFile(const std::string& path) { return parseUrdfFiles({path}); }

ModelBuilder parseUrdfFiles(const std::vector<std::string>& paths) {
  if (paths.empty()) throw ModelError("no URDF files given");
  return assemble(readFiles(paths), TransmissionTreatment::ExactRotor);
}

ModelBuilder parseUrdfString(const std::string& xml, const std::string& sourceName) {
  std::vector<UrdfFile> files;
  files.push_back(urdf_detail::readUrdf(xml, sourceName));
  return assemble(files, TransmissionTreatment::ExactRotor);
}

namespace {
Model buildWith(ModelBuilder builder, const LoadOptions& options) {
  builder.setLoopTreatment(options.loops);
  if (options.floatingBase) builder.addFloatingBase();
  return builder.build();
}

/// Loads the files and keeps their text as the model's source (model_source.hpp): parsing the
/// same text with the same options rebuilds the same model.
Model loadFiles(const std::vector<UrdfFile>& files, const LoadOptions& options) {
  Model model = buildWith(assemble(files, options.transmissions), options);
  urdf_detail::warnSingularMassMatrix(model);
  auto source = std::make_shared<ModelSource>();
  for (const UrdfFile& f : files) source->urdf.push_back(UrdfText{f.source, f.text});
  source->options = options;
  detail::ModelSourceAccess::set(model, std::move(source));
  return model;
}
}  // namespace

Model loadUrdf(const std::string& path, const LoadOptions& options) { return loadUrdf(std::vector<std::string>{path}, options); }

Model loadUrdf(const std::vector<std::string>& paths, const LoadOptions& options) {
  if (paths.empty()) throw ModelError("no URDF files given");
  return loadFiles(readFiles(paths), options);
}

Model loadUrdfString(const std::string& xml, const std::string& sourceName, const LoadOptions& options) {
  std::vector<UrdfFile> files;
  files.push_back(urdf_detail::readUrdf(xml, sourceName));
  return loadFiles(files, options);
}

Model detail::loadUrdfTexts(const std::vector<UrdfText>& texts, const LoadOptions& options) {
  std::vector<UrdfFile> files;
  for (const UrdfText& t : texts) files.push_back(urdf_detail::readUrdf(t.text, t.name));
  return loadFiles(files, options);
}

}  // namespace grbda
