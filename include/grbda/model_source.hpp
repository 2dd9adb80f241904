#pragma once
// What a Model was compiled from, and a byte form of it: a model is rebuilt from its source on the
// other side (a process, a machine) rather than its compiled tree being copied, because the tree
// holds cluster joints that are code (C++ objects), and rebuilding runs the same deterministic
// compiler on the same bits, so the rebuilt model is bitwise the same (its dynamics included).
//
//   loadUrdf / loadUrdfString  → the URDF text of every file (with its name) and the LoadOptions
//   ModelBuilder::build()      → the builder's specs (links, joints, loops, couplings, frames, ...)
//
// What cannot be serialised: a builder constraint given as C++ code (ConstraintSpec's
// ImplicitConstraint, e.g. the Tello differentials built in code); serializeModel names it in a
// ModelError. A URDF `<mimic>` is fine (it travels as URDF text).
#include <memory>
#include <string>
#include <vector>

#include "grbda/builder.hpp"
#include "grbda/model.hpp"
#include "grbda/urdf/urdf.hpp"

namespace grbda {

/// One URDF file as it was read: its name (for messages and Model::sourceFile) and its text.
struct UrdfText {
  std::string name;  ///< the path or source name it was loaded under
  std::string text;  ///< its XML
};

/// What a Model was compiled from (Model::source()).
struct ModelSource {
  /// The URDF files it was loaded from (empty: built in code by `builder`).
  std::vector<UrdfText> urdf;
  LoadOptions options;  ///< how the URDF files were loaded
  /// The builder whose build() made it (when `urdf` is empty).
  std::shared_ptr<const ModelBuilder> builder;
};

/// The model as bytes (its source and its gravity): ModelError naming what cannot be serialised
/// (a model without a source, a C++ ImplicitConstraint of a builder).
std::string serializeModel(const Model& model);
/// The model rebuilt from serializeModel's bytes: bitwise the same bodies, clusters and dynamics
/// (a new Model::id). InputError for bytes that are not such an archive.
Model deserializeModel(const std::string& bytes);

}  // namespace grbda
