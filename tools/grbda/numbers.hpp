#pragma once
// Numbers in and out of the command line. Input: comma-separated decimal lists ("0.1,-2,3e-4"),
// finite values only. Output: the shortest text that reads back to the same double, so a value
// printed by one command can be fed to another without loss.
#include <string>

#include "grbda/spatial/types.hpp"

namespace grbda::cli {

/// One finite number; `what` names the argument in the UsageError (e.g. "--q entry 2").
double parseNumber(const std::string& text, const std::string& what);
/// A comma-separated list of finite numbers; an empty text is the empty vector.
VecX parseVector(const std::string& text, const std::string& what);
/// A non-negative integer (counts such as --repeat).
long parseCount(const std::string& text, const std::string& what);

/// Shortest round-trip decimal text of a finite number. A NaN or infinity is a numerical failure
/// (grbda::NumericalError naming `what`), never printed.
std::string formatNumber(double x, const std::string& what = "result");

}  // namespace grbda::cli
