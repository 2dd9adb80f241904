#include "report.hpp"

#include <sstream>

#include "json.hpp"
#include "numbers.hpp"
#include "table.hpp"

namespace grbda::cli {

namespace {
// Everything is formatted into a buffer first: a non-finite number throws before any output.
void writeJsonHead(JsonWriter& w, const Model& model, const Report& report) {
  w.beginObject();
  w.member("command", report.command);
  w.member("model", model.name());
  w.member("quantity", report.quantity);
  if (!report.method.empty()) w.member("method", report.method);
  w.key("position_names");
  writeNames(w, model.positionNames());
  w.key("velocity_names");
  writeNames(w, model.velocityNames());
  for (const auto& [name, names] : report.nameLists) {
    w.key(name);
    writeNames(w, *names);
  }
  for (const auto& [name, values] : report.inputs) {
    w.key(name);
    writeVector(w, *values, name);
  }
  for (const auto& [name, x] : report.scalars) w.member(name, x);
  if (report.jsonExtras) report.jsonExtras(w);
  w.key("result");
}

std::string textHead(const Model& model, const Report& report) {
  std::string head = report.command + ": " + report.title + " " + report.quantity + " of '" + model.name() +
                     "' (nv = " + std::to_string(model.nv()) + ")" +
                     (report.method.empty() ? "" : ", method " + report.method) + "\n";
  for (const auto& [name, x] : report.scalars) head += "  " + name + " " + formatNumber(x, name) + "\n";
  return head;
}

const std::vector<std::string>& labels(const Model& model, const Report& report) {
  return report.labels ? *report.labels : model.velocityNames();
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
    printNamedVector(buf, labels(model, report), result, report.quantity);
    buf << report.textExtras;
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
    printNamedMatrix(buf, labels(model, report), labels(model, report), result, report.quantity);
  }
  out << buf.str();
}

}  // namespace grbda::cli
