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
  writeNames(w, report.positionNames ? *report.positionNames : model.positionNames());
  w.key("velocity_names");
  writeNames(w, report.velocityNames ? *report.velocityNames : model.velocityNames());
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
                     "' (nv = " + std::to_string(report.velocityNames ? report.velocityNames->size() : static_cast<size_t>(model.nv())) + ")" +
                     (report.method.empty() ? "" : ", method " + report.method) + "\n";
  for (const auto& [name, x] : report.scalars) head += "  " + name + " " + formatNumber(x, name) + "\n";
  return head;
}

const std::vector<std::string>& labels(const Model& model, const Report& report) {
  return report.labels ? *report.labels : model.velocityNames();
}

void writeReactions(JsonWriter& w, const std::vector<JointReaction>& reactions) {
  w.key("joint_reactions");
  w.beginArray();
  for (const JointReaction& r : reactions) {
    w.beginObject();
    w.member("joint", r.joint);
    w.key("moment");
    writeVector(w, r.moment, "moment of " + r.joint);
    w.key("force");
    writeVector(w, r.force, "force of " + r.joint);
    w.key("origin");
    writeVector(w, r.origin, "origin of " + r.joint);
    w.member("whole_cluster", r.wholeCluster);
    w.endObject();
  }
  w.endArray();
}

void printReactions(std::ostream& out, const std::vector<JointReaction>& reactions) {
  out << "joint reactions (parent on child, world axes, moment about the joint origin):\n";
  std::vector<Row> rows;
  for (const JointReaction& r : reactions)
    rows.push_back({r.joint + (r.wholeCluster ? " (cluster)" : ""), joinNumbers(r.moment, "moment"),
                    joinNumbers(r.force, "force"), joinNumbers(r.origin, "origin")});
  printTable(out, {"joint", "moment", "force", "origin"}, rows);
}
}  // namespace

void printVectorReport(std::ostream& out, bool json, const Model& model, const Report& report, const VecX& result) {
  std::ostringstream buf;
  if (json) {
    JsonWriter w(buf);
    writeJsonHead(w, model, report);
    writeVector(w, result, report.quantity);
    if (report.reactions) writeReactions(w, *report.reactions);
    w.endObject();
  } else {
    buf << textHead(model, report);
    printNamedVector(buf, labels(model, report), result, report.quantity);
    buf << report.textExtras;
    if (report.reactions) printReactions(buf, *report.reactions);
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
