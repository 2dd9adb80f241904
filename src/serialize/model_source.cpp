// serializeModel / deserializeModel (model_source.hpp): the model's source as bytes, and the model
// rebuilt from them by the same loader or builder.
#include "grbda/model_source.hpp"

#include "serialize/archive.hpp"
#include "serialize/model_source_access.hpp"

namespace grbda {
namespace {

const char* const kModelMagic = "grbda-model";
constexpr int kModelVersion = 2;  // 2: LoadOptions::transmissions (a version-1 archive ignored transmissions)

using detail::ArchiveReader;
using detail::ArchiveWriter;

void writeWhere(ArchiveWriter& w, const SourceLocation& at) { w.str(at.file); w.i32(at.line); }
SourceLocation readWhere(ArchiveReader& r) { SourceLocation at; at.file = r.str(); at.line = r.i32(); return at; }

/// A mesh's hull: its vertices and triangles (the mesh file need not exist where it is read back).
void writeHull(ArchiveWriter& w, const ConvexHull& h) {
  w.u64(h.vertices.size());
  for (const Vec3& v : h.vertices) w.vec3(v);
  w.u64(h.faces.size());
  for (const auto& f : h.faces) { w.i32(f[0]); w.i32(f[1]); w.i32(f[2]); }
  w.str(h.source);
}
std::shared_ptr<const ConvexHull> readHull(ArchiveReader& r) {
  auto h = std::make_shared<ConvexHull>();
  for (size_t n = r.size(24), i = 0; i < n; ++i) h->vertices.push_back(r.vec3());
  for (size_t n = r.size(12), i = 0; i < n; ++i) {
    std::array<int, 3> f{r.i32(), r.i32(), r.i32()};
    for (int v : f)
      if (v < 0 || v >= static_cast<int>(h->vertices.size())) r.fail("a hull face names vertex " + std::to_string(v));
    h->faces.push_back(f);
  }
  h->source = r.str();
  return h;
}

void writeLimits(ArchiveWriter& w, const JointLimits& l) {
  w.flag(l.hasPositionLimits); w.f64(l.lower); w.f64(l.upper); w.f64(l.effort); w.f64(l.velocity);
}
JointLimits readLimits(ArchiveReader& r) {
  JointLimits l;
  l.hasPositionLimits = r.flag(); l.lower = r.f64(); l.upper = r.f64(); l.effort = r.f64(); l.velocity = r.f64();
  return l;
}

void writeBuilder(ArchiveWriter& w, const ModelBuilder& b) {
  for (const ConstraintSpec& c : b.constraints())
    throw ModelError("cannot serialise model '" + b.name() + "': its constraint '" + c.name +
                         "' is C++ code (an ImplicitConstraint given to ModelBuilder::addConstraint), not data; "
                         "load the robot from URDF (loops, couplings and mimics travel as text) or build it again "
                         "on the other side",
                     c.where.file, c.where.line, "constraint '" + c.name + "'");
  w.str(b.name()); w.str(b.sourceFile()); w.vec3(b.gravity());
  w.flag(b.specialisedJoints()); w.flag(b.strictInertias()); w.i32(static_cast<int>(b.loopTreatment()));
  w.u64(b.links().size());
  for (const LinkSpec& l : b.links()) { w.str(l.name); w.f64(l.mass); w.vec3(l.com); w.mat3(l.inertia); writeWhere(w, l.where); }
  w.u64(b.joints().size());
  for (const JointSpec& j : b.joints()) {
    w.str(j.name); w.i32(static_cast<int>(j.kind)); w.str(j.parent); w.str(j.child); w.transform(j.origin); w.vec3(j.axis);
    if (j.kind == JointKind::Screw) w.f64(j.pitch);  // only screws carry it: other archives keep their bytes
    w.flag(j.independent); w.flag(j.independentGiven); writeLimits(w, j.limits);
    w.f64(j.dynamics.damping); w.f64(j.dynamics.friction); writeWhere(w, j.where);
  }
  w.u64(b.loops().size());
  for (const LoopSpec& l : b.loops()) {
    w.str(l.name); w.i32(static_cast<int>(l.type)); w.str(l.predecessor); w.str(l.successor);
    w.transform(l.predecessorOrigin); w.transform(l.successorOrigin); w.vec3(l.axis);
    if (l.type == LoopKind::Universal) w.vec3(l.axis2);  // only universal loops carry it (as screw pitches)
    writeWhere(w, l.where);
  }
  w.u64(b.couplings().size());
  for (const CouplingSpec& c : b.couplings()) { w.str(c.name); w.str(c.predecessor); w.str(c.successor); w.f64(c.ratio); writeWhere(w, c.where); }
  w.u64(b.frames().size());
  for (const FrameSpec& f : b.frames()) { w.str(f.name); w.str(f.link); w.transform(f.origin); writeWhere(w, f.where); }
  w.u64(b.collisions().size());
  for (const CollisionSpec& c : b.collisions()) {
    w.str(c.link); w.i32(static_cast<int>(c.shape.type)); w.f64(c.shape.radius); w.f64(c.shape.length);
    w.vec3(c.shape.halfExtents); w.transform(c.origin); w.str(c.sourceFile); w.i32(c.sourceLine);
    if (c.shape.type == ShapeType::Mesh) writeHull(w, *c.shape.hull);
  }
}

ModelBuilder readBuilder(ArchiveReader& r) {
  const std::string name = r.str(), sourceFile = r.str();
  ModelBuilder b(name, sourceFile);
  b.setGravity(r.vec3());
  b.setSpecialisedJoints(r.flag());
  b.setStrictInertias(r.flag());
  b.setLoopTreatment(r.enumValue<LoopTreatment>(3, "loop treatment"));
  for (size_t n = r.size(1), i = 0; i < n; ++i) {
    LinkSpec l;
    l.name = r.str(); l.mass = r.f64(); l.com = r.vec3(); l.inertia = r.mat3(); l.where = readWhere(r);
    b.addLink(l);
  }
  for (size_t n = r.size(1), i = 0; i < n; ++i) {
    JointSpec j;
    j.name = r.str(); j.kind = r.enumValue<JointKind>(7, "joint kind"); j.parent = r.str(); j.child = r.str();
    j.origin = r.transform(); j.axis = r.vec3();
    if (j.kind == JointKind::Screw) j.pitch = r.f64();
    j.independent = r.flag(); j.independentGiven = r.flag();
    j.limits = readLimits(r); j.dynamics.damping = r.f64(); j.dynamics.friction = r.f64(); j.where = readWhere(r);
    b.addJoint(j);
  }
  for (size_t n = r.size(1), i = 0; i < n; ++i) {
    LoopSpec l;
    l.name = r.str(); l.type = r.enumValue<LoopKind>(7, "loop kind"); l.predecessor = r.str(); l.successor = r.str();
    l.predecessorOrigin = r.transform(); l.successorOrigin = r.transform(); l.axis = r.vec3();
    if (l.type == LoopKind::Universal) l.axis2 = r.vec3();
    l.where = readWhere(r);
    b.addLoop(l);
  }
  for (size_t n = r.size(1), i = 0; i < n; ++i) {
    CouplingSpec c;
    c.name = r.str(); c.predecessor = r.str(); c.successor = r.str(); c.ratio = r.f64(); c.where = readWhere(r);
    b.addCoupling(c);
  }
  for (size_t n = r.size(1), i = 0; i < n; ++i) {
    FrameSpec f;
    f.name = r.str(); f.link = r.str(); f.origin = r.transform(); f.where = readWhere(r);
    b.addFrame(f);
  }
  for (size_t n = r.size(1), i = 0; i < n; ++i) {
    CollisionSpec c;
    c.link = r.str(); c.shape.type = r.enumValue<ShapeType>(5, "shape type"); c.shape.radius = r.f64();
    c.shape.length = r.f64(); c.shape.halfExtents = r.vec3(); c.origin = r.transform(); c.sourceFile = r.str();
    c.sourceLine = r.i32();
    if (c.shape.type == ShapeType::Mesh) c.shape.hull = readHull(r);
    b.addCollision(c);
  }
  return b;
}

}  // namespace

std::string serializeModel(const Model& model) {
  detail::requireLittleEndian();
  const std::shared_ptr<const ModelSource>& source = model.source();
  if (!source || (source->urdf.empty() && !source->builder))
    throw ModelError("cannot serialise model '" + model.name() + "': it has no source (an empty Model)");
  ArchiveWriter w;
  w.str(kModelMagic);
  w.i32(kModelVersion);
  w.vec3(model.gravity());  // Model::setGravity may have changed it after build()
  w.flag(!source->urdf.empty());
  if (!source->urdf.empty()) {
    w.u64(source->urdf.size());
    for (const UrdfText& t : source->urdf) { w.str(t.name); w.str(t.text); }
    w.i32(static_cast<int>(source->options.loops));
    w.flag(source->options.floatingBase);
    w.i32(static_cast<int>(source->options.transmissions));
  } else {
    writeBuilder(w, *source->builder);
  }
  return w.bytes();
}

Model deserializeModel(const std::string& bytes) {
  ArchiveReader r(bytes, "deserializeModel");
  if (r.str() != kModelMagic) r.fail("it does not start with '" + std::string(kModelMagic) + "'");
  const int version = r.i32();
  if (version != kModelVersion && version != 1)
    r.fail("version " + std::to_string(version) + ", this build reads versions 1 and " + std::to_string(kModelVersion));
  const Vec3 gravity = r.vec3();
  Model model;
  if (r.flag()) {
    std::vector<UrdfText> texts(r.size(1));
    for (UrdfText& t : texts) { t.name = r.str(); t.text = r.str(); }
    LoadOptions options;
    options.loops = r.enumValue<LoopTreatment>(3, "loop treatment");
    options.floatingBase = r.flag();
    options.transmissions = version == 1 ? TransmissionTreatment::Ignore
                                         : r.enumValue<TransmissionTreatment>(2, "transmission treatment");
    model = detail::loadUrdfTexts(texts, options);
  } else {
    model = readBuilder(r).build();
  }
  if (!r.atEnd()) r.fail("bytes follow the model");
  model.setGravity(gravity);
  return model;
}

}  // namespace grbda
