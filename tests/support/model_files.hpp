#pragma once
// The bundled models (models/), shared by the tests that load them by name: one definition, so the
// test files stay free of same-named file-level constants (the sanitizer build compiles them in
// batches, tests/CMakeLists.txt).
#include <filesystem>
#include <string>

namespace grbda::testsupport {

/// models/ without a trailing slash.
inline std::string modelsDir() { return std::string(GRBDA_SOURCE_DIR) + "/models"; }
inline std::filesystem::path modelsPath() { return std::filesystem::path(GRBDA_SOURCE_DIR) / "models"; }
/// models/NAME (NAME may hold a subdirectory: "generated/…").
inline std::string modelFile(const std::string& name) { return modelsDir() + "/" + name; }

}  // namespace grbda::testsupport
