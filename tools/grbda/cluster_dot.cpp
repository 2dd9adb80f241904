#include "cluster_dot.hpp"

namespace grbda::cli {

namespace {

/// A Graphviz double-quoted string: quotes and backslashes escaped.
std::string quoted(const std::string& text) {
  std::string s = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') s += '\\';
    s += c;
  }
  return s + "\"";
}

std::string node(int body) { return body < 0 ? "ground" : "b" + std::to_string(body); }

std::string dofText(int n) { return std::to_string(n) + " DoF"; }

}  // namespace

std::string groundName(const Model& model) {
  for (const auto& f : model.frames())
    if (f.body < 0) return f.name;
  return "world";
}

void writeClusterTreeDot(std::ostream& out, const Model& model) {
  const std::string ground = groundName(model);
  out << "digraph " << quoted(model.name()) << " {\n"
      << "  // grbda info --dot: clusters as boxes, cluster joints labelled with their type, loops dashed\n"
      << "  graph [rankdir=TB, compound=true, fontname=\"Helvetica\", fontsize=11, label="
      << quoted(model.name() + ": " + std::to_string(model.numClusters()) + " clusters, " +
                std::to_string(model.numBodies()) + " bodies, " + dofText(model.nv()))
      << "];\n"
      << "  node [shape=box, style=\"rounded,filled\", fillcolor=white, fontname=\"Helvetica\", fontsize=10];\n"
      << "  edge [fontname=\"Helvetica\", fontsize=9];\n"
      << "  ground [label=" << quoted(ground == "ground" ? ground : ground + " (ground)") << ", shape=ellipse, fillcolor=\"#eeeeee\"];\n";

  for (int k = 0; k < model.numClusters(); ++k) {
    const Cluster& c = model.cluster(k);
    out << "  subgraph cluster_" << k << " {\n"
        << "    label=" << quoted(c.name + "\n" + c.typeName() + ", " + dofText(c.nv)) << ";\n"
        << "    style=\"rounded,filled\"; fillcolor=\"#e8f0fa\"; color=\"#4a78b0\";\n";
    for (int i = c.firstBody; i < c.firstBody + c.numBodies; ++i) {
      const Body& b = model.body(i);
      out << "    " << node(i) << " [label=" << quoted(b.name)
          << (b.independent ? "" : ", fillcolor=\"#dddddd\", fontcolor=\"#555555\"") << "];\n";
    }
    out << "  }\n";
  }

  for (int k = 0; k < model.numClusters(); ++k) {
    const Cluster& c = model.cluster(k);
    // the cluster joint: from the output body in the parent cluster into the cluster's box
    out << "  " << node(c.output) << " -> " << node(c.firstBody) << " [lhead=cluster_" << k
        << ", penwidth=2, label=" << quoted(c.typeName()) << "];\n";
    // the spanning-tree joints of the cluster's bodies, but the one the cluster-joint edge stands for
    for (int i = c.firstBody + 1; i < c.firstBody + c.numBodies; ++i)
      out << "  " << node(model.body(i).parent) << " -> " << node(i) << " [color=\"#777777\", arrowsize=0.6, label="
          << quoted(model.body(i).jointName) << "];\n";
  }

  for (const LoopFrames& loop : model.loops())
    out << "  " << node(loop.predecessorBody) << " -> " << node(loop.successorBody)
        << " [style=dashed, dir=none, constraint=false, color=\"#b04a4a\", label=" << quoted(loop.name) << "];\n";
  out << "}\n";
}

}  // namespace grbda::cli
