#pragma once
// Printing the result of a dynamics command, in JSON or as text. JSON always carries the ordered
// coordinate names next to the numbers:
//   {"command", "model", "quantity", "position_names", "velocity_names", <inputs>..., "result"}
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "grbda/model.hpp"

namespace grbda::cli {

struct Report {
  std::string command;   ///< "fd"
  std::string quantity;  ///< "qdd"
  std::string title;     ///< "joint accelerations", for the text header
  std::vector<std::pair<std::string, const VecX*>> inputs;  ///< echoed in JSON, e.g. {"q", &q}
};

/// Result indexed by velocity coordinates (qdd, tau).
void printVectorReport(std::ostream& out, bool json, const Model& model, const Report& report, const VecX& result);
/// nv x nv result (mass matrix), rows and columns indexed by velocity coordinates.
void printMatrixReport(std::ostream& out, bool json, const Model& model, const Report& report, const MatX& result);

}  // namespace grbda::cli
