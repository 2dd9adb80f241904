// info: what a model contains, as the loader understood it (after fixed joints were merged).
#include <sstream>

#include "cluster_dot.hpp"
#include "commands.hpp"
#include "inputs.hpp"
#include "json.hpp"
#include "table.hpp"

namespace grbda::cli {

namespace {
const char* jointTypeName(JointType t) {
  switch (t) {
    case JointType::Revolute: return "revolute";
    case JointType::Prismatic: return "prismatic";
    case JointType::Free: return "floating";
    case JointType::Screw: return "screw";
    case JointType::Spherical: return "spherical";
  }
  return "unknown";
}

std::string bodyName(const Model& model, int body) {
  return body < 0 ? groundName(model) : model.body(body).name;
}

bool hasAxis(const Body& b) { return !b.joint.hasQuaternion(); }

void writeInfoJson(std::ostream& out, const Model& model) {
  JsonWriter w(out);
  w.beginObject();
  w.member("name", model.name());
  w.member("source", model.sourceFile());
  w.member("nq", model.nq());
  w.member("nv", model.nv());
  w.member("floating_base", model.isFloatingBase());
  w.member("ground", groundName(model));
  w.key("gravity");
  writeVector(w, model.gravity(), "gravity");
  w.key("position_names");
  writeNames(w, model.positionNames());
  w.key("velocity_names");
  writeNames(w, model.velocityNames());
  // Spanning-tree coordinates: one per joint; equal to the above when the model has no loops.
  w.member("nq_spanning", model.nqSpanning());
  w.member("nv_spanning", model.nvSpanning());
  w.key("spanning_position_names");
  writeNames(w, model.spanningPositionNames());
  w.key("spanning_velocity_names");
  writeNames(w, model.spanningVelocityNames());
  w.key("bodies");
  w.beginArray();
  for (const auto& b : model.bodies()) {
    w.beginObject();
    w.member("name", b.name);
    w.member("joint", b.jointName);
    w.member("type", jointTypeName(b.joint.type));
    w.member("parent", bodyName(model, b.parent));
    w.key("axis");
    if (hasAxis(b)) writeVector(w, b.joint.axis, "axis of " + b.jointName);
    else w.null();
    w.member("spanning_q_index", b.qIndex);
    w.member("spanning_v_index", b.vIndex);
    w.member("nq", b.joint.nq());
    w.member("nv", b.joint.nv());
    w.member("cluster", b.cluster);
    w.member("independent", b.independent);
    w.endObject();
  }
  w.endArray();
  w.key("clusters");
  w.beginArray();
  for (const auto& c : model.clusters()) {
    w.beginObject();
    w.member("name", c.name);
    w.member("type", c.typeName());
    w.key("bodies");
    w.beginArray(true);
    for (int i = c.firstBody; i < c.firstBody + c.numBodies; ++i) w.value(model.body(i).name);
    w.endArray();
    w.member("parent", c.parent);
    w.member("q_index", c.qIndex);
    w.member("nq", c.nq);
    w.member("v_index", c.vIndex);
    w.member("nv", c.nv);
    w.endObject();
  }
  w.endArray();
  w.key("constraints");  // loops, couplings and constraints as written, with the cluster they formed
  w.beginArray();
  for (const auto& c : model.constraints()) {
    w.beginObject();
    w.member("name", c.name);
    w.member("kind", c.kind);
    w.member("cluster", c.cluster);
    w.member("description", c.description);
    w.endObject();
  }
  w.endArray();
  w.key("frames");
  w.beginArray();
  for (const auto& f : model.frames()) {
    w.beginObject();
    w.member("name", f.name);
    w.member("body", bodyName(model, f.body));
    w.key("position");  // frame origin in body coordinates
    writeVector(w, f.placement.r, "frame position");
    w.endObject();
  }
  w.endArray();
  w.endObject();
}

std::string joinNames(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : " ") + n;
  return s;
}

void writeInfoText(std::ostream& out, const Model& model) {
  printTable(out, {},
             {{"robot", model.name()},
              {"source file", model.sourceFile().empty() ? "(built in code)" : model.sourceFile()},
              {"nq", std::to_string(model.nq())},
              {"nv", std::to_string(model.nv())},
              {"nq, nv spanning", std::to_string(model.nqSpanning()) + ", " + std::to_string(model.nvSpanning())},
              {"floating base", model.isFloatingBase() ? "yes" : "no"},
              {"ground", groundName(model)},
              {"gravity", joinNumbers(model.gravity(), "gravity")}},
             0);

  out << "\nbodies (" << model.numBodies() << "; q, v: first spanning coordinate):\n";
  std::vector<Row> rows;
  for (int i = 0; i < model.numBodies(); ++i) {
    const Body& b = model.body(i);
    rows.push_back({std::to_string(i), b.name, b.jointName, jointTypeName(b.joint.type),
                    hasAxis(b) ? joinNumbers(b.joint.axis, "axis") : "-", bodyName(model, b.parent),
                    std::to_string(b.qIndex), std::to_string(b.vIndex), b.independent ? "yes" : "no"});
  }
  printTable(out, {"#", "body", "joint", "type", "axis", "parent", "q", "v", "independent"}, rows, 2,
             {true, false, false, false, false, false, true, true, false});

  if (model.hasConstraints()) {  // for a tree every body is its own cluster: nothing to add
    out << "\nclusters (" << model.numClusters() << "):\n";
    rows.clear();
    for (int k = 0; k < model.numClusters(); ++k) {
      const Cluster& c = model.cluster(k);
      std::string bodies;
      for (int i = c.firstBody; i < c.firstBody + c.numBodies; ++i) bodies += (bodies.empty() ? "" : " ") + model.body(i).name;
      rows.push_back({std::to_string(k), c.name, c.typeName(), c.parent < 0 ? "-" : std::to_string(c.parent),
                      std::to_string(c.nv), bodies});
    }
    printTable(out, {"#", "cluster", "type", "parent", "dof", "bodies"}, rows, 2,
               {true, false, false, true, true, false});

    out << "\nconstraints (" << model.constraints().size() << "; cluster #, as written):\n";
    rows.clear();
    for (const auto& c : model.constraints())
      rows.push_back({std::to_string(c.cluster), c.name, c.kind, c.description});
    printTable(out, {"cluster", "name", "kind", "what it ties"}, rows, 2, {true, false, false, false});
  }

  out << "\nframes (" << model.frames().size() << "):\n";
  rows.clear();
  for (const auto& f : model.frames())
    rows.push_back({f.name, bodyName(model, f.body), joinNumbers(f.placement.r, "frame position")});
  printTable(out, {"frame", "body", "position in body"}, rows);

  out << "\npositions (nq = " << model.nq() << "): " << joinNames(model.positionNames()) << "\n";
  out << "velocities (nv = " << model.nv() << "): " << joinNames(model.velocityNames()) << "\n";
  if (model.hasConstraints()) {
    out << "spanning positions (" << model.nqSpanning() << "): " << joinNames(model.spanningPositionNames()) << "\n";
    out << "spanning velocities (" << model.nvSpanning() << "): " << joinNames(model.spanningVelocityNames()) << "\n";
  }
}
}  // namespace

std::vector<OptionSpec> infoOptions() {
  std::vector<OptionSpec> options = outputOptions();
  options.push_back({"--dot", "", "the cluster tree as a Graphviz graph (clusters as boxes, loops dashed)"});
  return options;
}

int runInfo(const ParsedArgs& args, std::ostream& out) {
  const Model model = loadModelFromArgs(args);
  std::ostringstream buf;  // complete before printing: an error leaves no partial output
  if (args.has("--json") && args.has("--dot")) throw UsageError("info: give --json or --dot, not both");
  if (args.has("--json")) writeInfoJson(buf, model);
  else if (args.has("--dot")) writeClusterTreeDot(buf, model);
  else writeInfoText(buf, model);
  out << buf.str();
  return 0;
}

}  // namespace grbda::cli
