#pragma once
// Human-readable output: text tables with aligned columns.
#include <ostream>
#include <string>
#include <vector>

#include "grbda/spatial/types.hpp"

namespace grbda::cli {

using Row = std::vector<std::string>;

/// Left-aligned columns separated by two spaces, each line indented by `indent` spaces.
/// The header (if not empty) is printed first. Columns listed in `rightAligned` are right-aligned
/// (numbers).
void printTable(std::ostream& out, const Row& header, const std::vector<Row>& rows, int indent = 2,
                const std::vector<bool>& rightAligned = {});

/// One line per coordinate: "name  value" (names aligned, numbers right-aligned, full precision).
void printNamedVector(std::ostream& out, const std::vector<std::string>& names, const VecX& values,
                      const std::string& what);

/// A matrix with its rows and columns labelled by coordinate names.
void printNamedMatrix(std::ostream& out, const std::vector<std::string>& rowNames,
                      const std::vector<std::string>& colNames, const MatX& m, const std::string& what);

/// "a b c" with the numbers in full precision.
std::string joinNumbers(const VecX& x, const std::string& what);

}  // namespace grbda::cli
