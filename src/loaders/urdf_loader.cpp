// The URDF / URDF+ calls of grbda/urdf/urdf.hpp. The files are read here; the texts are parsed by
// the backend's reader (urdf/urdf.cpp in libgrbda_backends.so, loaders/backends.cpp) into one
// ModelBuilder, which is built here.
#include "grbda/urdf/urdf.hpp"

#include "grbda/errors.hpp"
#include "grbda/model_source.hpp"
#include "loaders/backends.hpp"
#include "loaders/build_with.hpp"
#include "loaders/mass_check.hpp"
#include "loaders/text_file.hpp"
#include "serialize/model_source_access.hpp"

namespace grbda {
namespace {

std::vector<UrdfText> readFiles(const std::vector<std::string>& paths) {
  if (paths.empty()) throw ModelError("no URDF files given");
  std::vector<UrdfText> texts;
  texts.reserve(paths.size());
  for (const std::string& p : paths) texts.push_back(UrdfText{p, detail::readTextFile(p)});
  return texts;
}


/// Loads the texts and keeps them as the model's source (model_source.hpp): parsing the same
/// text with the same options rebuilds the same model.
Model loadTexts(std::vector<UrdfText> texts, const LoadOptions& options) {
  Model model = detail::buildWith(detail::backends().assembleUrdf(texts, options.transmissions), options);
  urdf_detail::warnSingularMassMatrix(model);
  auto source = std::make_shared<ModelSource>();
  source->urdf = std::move(texts);
  source->options = options;
  detail::ModelSourceAccess::set(model, std::move(source));
  return model;
}

}  // namespace

ModelBuilder parseUrdfFile(const std::string& path) { return parseUrdfFiles({path}); }

ModelBuilder parseUrdfFiles(const std::vector<std::string>& paths) {
  return detail::backends().assembleUrdf(readFiles(paths), TransmissionTreatment::ExactRotor);
}

ModelBuilder parseUrdfString(const std::string& xml, const std::string& sourceName) {
  return detail::backends().assembleUrdf({UrdfText{sourceName, xml}}, TransmissionTreatment::ExactRotor);
}

Model loadUrdf(const std::string& path, const LoadOptions& options) { return loadUrdf(std::vector<std::string>{path}, options); }

Model loadUrdf(const std::vector<std::string>& paths, const LoadOptions& options) {
  return loadTexts(readFiles(paths), options);
}

Model loadUrdfString(const std::string& xml, const std::string& sourceName, const LoadOptions& options) {
  return loadTexts({UrdfText{sourceName, xml}}, options);
}

Model detail::loadUrdfTexts(const std::vector<UrdfText>& texts, const LoadOptions& options) {
  return loadTexts(texts, options);
}

}  // namespace grbda
