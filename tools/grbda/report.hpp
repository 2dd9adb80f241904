#pragma once
// Printing the result of a dynamics command, in JSON or as text. JSON always carries the ordered
// coordinate names next to the numbers:
//   {"command", "model", "quantity", ["method"], "position_names", "velocity_names", <name lists>...,
//    <inputs>..., <scalars>..., "result"}
#include <functional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "grbda/algorithms/reactions.hpp"
#include "grbda/model.hpp"
#include "json.hpp"

namespace grbda::cli {

struct Report {
  std::string command;   ///< "fd"
  std::string quantity;  ///< "qdd"
  std::string title;     ///< "joint accelerations", for the text header
  std::vector<std::pair<std::string, const VecX*>> inputs;  ///< echoed in JSON, e.g. {"q", &q}
  std::string method = {};  ///< JSON "method" and the text header, when not empty
  /// Extra name lists for JSON, after velocity_names (e.g. {"spanning_position_names", &names}).
  std::vector<std::pair<std::string, const std::vector<std::string>*>> nameLists = {};
  /// Extra numbers after the inputs (e.g. {"iterations", 3}); JSON members and text lines.
  std::vector<std::pair<std::string, double>> scalars = {};
  /// Names of the result's entries (vector) or rows and columns (matrix); default velocity names.
  const std::vector<std::string>* labels = nullptr;
  /// JSON "position_names" / "velocity_names" when not the model's (reduced coordinates, --loops).
  const std::vector<std::string>* positionNames = nullptr;
  const std::vector<std::string>* velocityNames = nullptr;
  /// More JSON members before "result" (e.g. fd's "contact_forces"), and text after the result.
  std::function<void(JsonWriter&)> jsonExtras = {};
  std::string textExtras = {};
  /// id --reactions: JSON "joint_reactions" after "result" ({"joint", "moment", "force", "origin",
  /// "whole_cluster"} each), a text table after the vector.
  const std::vector<JointReaction>* reactions = nullptr;
};

/// Result indexed by velocity coordinates (qdd, tau), or by report.labels.
void printVectorReport(std::ostream& out, bool json, const Model& model, const Report& report, const VecX& result);
/// nv x nv result (mass matrix), rows and columns indexed by velocity coordinates (or report.labels).
void printMatrixReport(std::ostream& out, bool json, const Model& model, const Report& report, const MatX& result);

}  // namespace grbda::cli
