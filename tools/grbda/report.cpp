#include "report.hpp"

#include <sstream>

#include "json.hpp"
#include "table.hpp"

namespace grbda::cli {

namespace {
// Everything is formatted into a buffer first: a non-finite number throws before any output.
void writeJsonHead(JsonWriter& w, const Model& model, const Report& report) {
  w.beginObject();
  w.member("command", report.command);
  w.member("model", model.name());
  w.member("quantity", report.quantity);
  w.key("position_names");
  writeNames(w, model.positionNames());
  w.key("velocity_names");
  writeNames(w, model.velocityNames());
  for (const auto& [name, values] : report.inputs) {
    w.key(name);
    writeVector(w, *values, name);
  }
  w.key("result");
}

std::string textHead(const Model& model, const Report& report) {
  return report.command + ": " + report.title + " " + report.quantity + " of '" + model.name() + "' (nv = " +
         std::to_string(model.nv()) + ")\n";
}
}  // namespace

void printVectorReport(std::ostream& out, bool json, const Model& model, const Report& report, const VecX& result) {
  std::ostringstream buf;
  if (json) {
    JsonWriter w(buf);
    writeJsonHead(w, model, report);
    writeVector(w, result, report.quantity);
    w.endObject();
  } else {
    buf << textHead(model, report);
    printNamedVector(buf, model.velocityNames(), result, report.quantity);
  }
  out << buf.str();
}

void printMatrixReport(std::ostream& out, bool json, const Model& model, const Report& report, const MatX& result) {
  std::ostringstream buf;
  if (json) {
    JsonWriter w(buf);
    writeJsonHead(w, model, report);
    writeMatrix(w, result, report.quantity);
    w.endObject();
  } else {
    buf << textHead(model, report);
    printNamedMatrix(buf, model.velocityNames(), model.velocityNames(), result, report.quantity);
  }
  out << buf.str();
}

}  // namespace grbda::cli
