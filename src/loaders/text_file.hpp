#pragma once
#include <string>

namespace grbda::detail {

/// Reads the whole file; ModelError "cannot open file" (naming it) when it cannot.
std::string readTextFile(const std::string& path);

}  // namespace grbda::detail
