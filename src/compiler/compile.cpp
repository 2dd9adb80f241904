// The model compiler's driver: the passes in order, each one job (compiler.hpp lists what each
// reads and writes). ModelBuilder::build() is this pipeline.
#include <sstream>

#include "compiler.hpp"
#include "grbda/model_source.hpp"

namespace grbda::detail {

Model ModelCompiler::compile(const ModelBuilder& builder) {
  const std::optional<ModelBuilder> expanded = expandBallsOnConstraintChains(builder);
  CompilerState s(expanded ? *expanded : builder);
  // the spanning tree: bodies joined by the file's joints, fixed joints merged
  checkLinks(s);
  checkJoints(s);
  findRoot(s);
  buildSpanningTree(s);
  checkMovingInertias(s);
  placeFrames(s);
  checkLoopOrigins(s);
  // clusters: bodies grouped by loops, couplings and constraints (spec §3)
  resolveConstraints(s);
  groupBodies(s);
  findOutputBodies(s);
  renumberBodies(s);
  numberSpanningCoordinates(s);
  describeGroups(s);
  buildConstraintSets(s);
  selectJoints(s);
  chooseLoopTreatment(s);
  numberCoordinates(s);
  listConstraints(s);
  fixAssembly(s);
  // the model's clusters (each group embedded, or its bodies and a KeptLoopGroup), then what
  // hangs on the final bodies
  writeClusters(s);
  placeCollisions(s);
  // its specs, so that it can be rebuilt elsewhere (model_source.hpp; the URDF loaders replace
  // this with the text they read)
  auto source = std::make_shared<ModelSource>();
  source->builder = std::make_shared<const ModelBuilder>(builder);
  s.m.source = std::move(source);
  return std::move(s.model);
}

ModelFields ModelCompiler::fieldsOf(Model& m) {
  return ModelFields{m.name_,          m.sourceFile_,     m.bodies_,
                     m.frames_,        m.collisionGeometries_, m.clusters_,
                     m.loops_,         m.keptLoopGroups_, m.constraints_,
                     m.positionNames_, m.velocityNames_,  m.spanningPositionNames_,
                     m.spanningVelocityNames_, m.nq_,      m.nv_,
                     m.nqSpan_,        m.nvSpan_,         m.floatingBase_,
                     m.gravity_,       m.neutral_,        m.source_};
}

std::string fmtNumber(double x) {
  std::ostringstream s;
  s << x;
  return s.str();
}

std::string joinNames(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

}  // namespace grbda::detail

namespace grbda {

Model ModelBuilder::build() const { return detail::ModelCompiler::compile(*this); }

}  // namespace grbda
