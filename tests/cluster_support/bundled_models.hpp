#pragma once
// Every robot the repository bundles, loaded for the tests that sweep all of them
// (test_derivatives.cpp, test_ltl.cpp).
#include <algorithm>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "grbda/grbda.hpp"
#include "grbda/robots/tello.hpp"

namespace grbda::testsupport {

/// Every bundled model (generated ones included) and the Tello built in code.
inline std::vector<std::pair<std::string, Model>> bundledModels() {
  namespace fs = std::filesystem;
  std::vector<std::pair<std::string, Model>> models;
  std::vector<fs::path> files;
  for (const char* dir : {"/models", "/models/generated"})
    for (const auto& e : fs::directory_iterator(fs::path(GRBDA_SOURCE_DIR).string() + dir))
      if (e.path().extension() == ".urdf") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) models.emplace_back(f.filename().string(), loadUrdf(f.string()));
  models.emplace_back("builtin:tello", robots::tello());
  EXPECT_GE(models.size(), 30u);  // the loops below must not pass by running on nothing
  return models;
}

}  // namespace grbda::testsupport
