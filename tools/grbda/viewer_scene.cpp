#include "viewer_scene.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <tuple>
#include <utility>

#include "grbda/algorithms/kinematics.hpp"
#include "grbda/errors.hpp"
#include "json.hpp"

namespace grbda::cli {

namespace {
// Placements are written to the micrometre: plenty for a picture, and a long trajectory stays small.
double rounded(double x) { return std::round(x * 1e6) / 1e6; }

void writeNumbers(JsonWriter& w, const std::vector<double>& xs, const std::string& what) {
  w.beginArray(true);
  for (double x : xs) w.number(rounded(x), what);
  w.endArray();
}

void appendPose(std::vector<double>& out, const Vec3& p, const Mat3& rotationToWorld) {
  const Eigen::Quaterniond q(rotationToWorld);
  out.insert(out.end(), {p.x(), p.y(), p.z(), q.x(), q.y(), q.z(), q.w()});
}

void appendPoint(std::vector<double>& out, const Vec3& p) { out.insert(out.end(), {p.x(), p.y(), p.z()}); }

bool hasChildren(const Model& model, int body) {
  for (const Body& b : model.bodies())
    if (b.parent == body) return true;
  return false;
}

bool clusterHasLoop(const Model& model, int cluster) {
  for (const LoopFrames& l : model.loops())
    if (l.cluster == cluster) return true;
  return false;
}

// A rotor: a body of a transmission cluster (coupled, without <loop>s, so no four-bar bar) that
// carries nothing and spins about its own centre of mass (the centre lies on the joint axis), like
// the motors of the Mini Cheetah and the Tello differentials; links and feet have their centre off
// the axis. Drawn as a disc instead of a link.
bool isRotor(const Model& model, int body) {
  const Body& b = model.body(body);
  if (b.joint.hasQuaternion() || model.cluster(b.cluster).numBodies < 2 || hasChildren(model, body) ||
      clusterHasLoop(model, b.cluster))
    return false;
  const Mat3 hHat = b.inertia.block<3, 3>(0, 3);  // [h]x with h = m c (a massless rotor has h = 0)
  const Vec3 h(hHat(2, 1), hHat(0, 2), hHat(1, 0));
  return h.cross(b.joint.axis.normalized()).norm() <= 1e-6 * b.inertia(5, 5);
}

// A loop's point in world coordinates, seen from one of the two bodies it joins.
Vec3 loopPoint(const Data& data, int body, const Transform& placement) {
  const Vec3& local = placement.r;  // ^loop X_body: r is the loop frame's origin in body coordinates
  return body < 0 ? local : data.Xa[static_cast<size_t>(body)].inverseTransformPoint(local);
}

struct Segment {
  std::string fromList;
  int from;
  std::string toList;
  int to, cluster;
};

// The links to draw: parent joint origin -> child joint origins, body origin -> its frames (feet,
// merged links) and -> its loop points; rotors and the ground have none.
std::vector<Segment> linkSegments(const Model& model, const std::vector<bool>& rotor) {
  std::vector<Segment> segments;
  auto isLink = [&](int body) { return body >= 0 && !rotor[static_cast<size_t>(body)]; };
  for (int i = 0; i < model.numBodies(); ++i)
    if (isLink(i) && isLink(model.body(i).parent))
      segments.push_back({"bodies", model.body(i).parent, "bodies", i, model.body(model.body(i).parent).cluster});
  for (size_t f = 0; f < model.frames().size(); ++f) {
    const Frame& frame = model.frame(static_cast<int>(f));
    if (isLink(frame.body) && frame.placement.r.norm() > 1e-9)
      segments.push_back({"bodies", frame.body, "frames", static_cast<int>(f), model.body(frame.body).cluster});
  }
  for (size_t l = 0; l < model.loops().size(); ++l) {
    const LoopFrames& loop = model.loops()[l];
    const int side = static_cast<int>(2 * l);
    if (isLink(loop.predecessorBody)) segments.push_back({"bodies", loop.predecessorBody, "loops", side, loop.cluster});
    if (isLink(loop.successorBody)) segments.push_back({"bodies", loop.successorBody, "loops", side + 1, loop.cluster});
  }
  return segments;
}

struct PosePlacements {
  std::vector<double> bodies, frames, loops, contacts;
};

PosePlacements placements(const Model& model, Data& data, const ViewerPose& pose, const std::vector<int>& contactFrames,
                          const std::vector<NamedPoint>& contacts) {
  try {
    forwardKinematics(model, data, pose.q);
  } catch (const NumericalError& e) {
    throw NumericalError(pose.where + ": " + e.what());
  } catch (const InputError& e) {
    throw InputError(pose.where + ": " + e.what());
  }
  PosePlacements p;
  for (int i = 0; i < model.numBodies(); ++i) {
    const Transform& X = data.Xa[static_cast<size_t>(i)];  // world -> body
    appendPose(p.bodies, X.r, X.E.transpose());
  }
  for (int f = 0; f < static_cast<int>(model.frames().size()); ++f)
    appendPose(p.frames, framePosition(model, data, f), frameRotation(model, data, f));
  for (const LoopFrames& loop : model.loops()) {
    appendPoint(p.loops, loopPoint(data, loop.predecessorBody, loop.predecessorPlacement));
    appendPoint(p.loops, loopPoint(data, loop.successorBody, loop.successorPlacement));
  }
  for (size_t c = 0; c < contacts.size(); ++c)
    appendPoint(p.contacts, framePosition(model, data, contactFrames[c], contacts[c].point));
  return p;
}

// A shape in body coordinates: its origin and the rotation shape -> body, as placements are written.
void writeShape(JsonWriter& w, const ViewerShape& s) {
  w.beginObject();
  w.member("kind", s.kind);
  w.member("type", s.type);
  w.member("link", s.link);
  w.member("body", s.body);
  std::vector<double> place;
  const Mat3 shapeToBody = s.placement.E.transpose();
  appendPose(place, s.placement.r, shapeToBody);
  w.key("place");
  writeNumbers(w, place, "shape placement");
  w.key("size");
  writeNumbers(w, {s.size.x(), s.size.y(), s.size.z()}, "shape size");
  w.member("radius", rounded(s.radius));
  w.member("length", rounded(s.length));
  if (s.hasColor) {
    w.key("color");
    writeNumbers(w, {s.rgba[0], s.rgba[1], s.rgba[2], s.rgba[3]}, "colour");
  }
  w.member("mesh", s.mesh);
  w.endObject();
}

ViewerShape collisionShape(const CollisionGeometry& g) {
  ViewerShape s;
  s.kind = "collision";
  s.type = shapeTypeName(g.shape.type);
  s.link = g.link;
  s.body = g.body;
  s.placement = g.placement;
  s.size = 2.0 * g.shape.halfExtents;
  s.radius = g.shape.radius;
  s.length = g.shape.length;
  return s;
}

// The shapes, the meshes they use, the ground and the links whose contact forces the poses carry.
void writeExtras(JsonWriter& w, const Model& model, const ViewerExtras& extras) {
  w.key("ground");
  if (extras.groundHeight) {
    w.beginObject();
    w.member("height", *extras.groundHeight);
    w.endObject();
  } else {
    w.null();
  }
  w.key("shapes");
  w.beginArray();
  for (const ViewerShape& s : extras.visuals) writeShape(w, s);
  for (const CollisionGeometry& g : model.collisionGeometries()) writeShape(w, collisionShape(g));
  w.endArray();
  w.key("meshes");
  w.beginArray();
  for (const ViewerMesh& m : extras.meshes) {
    w.beginObject();
    w.member("format", m.format);
    w.member("data", m.base64);
    w.endObject();
  }
  w.endArray();
  w.key("force_links");
  writeNames(w, extras.forceLinks);
}

// Camera and grid: the bounding box of the first configuration's joints, frames and loop points.
// With a ground, the grid lies on it.
void writeExtent(JsonWriter& w, const PosePlacements& first, const std::optional<double>& groundHeight) {
  Vec3 lo = Vec3::Constant(1e300), hi = Vec3::Constant(-1e300);
  for (const auto& [list, stride] : {std::pair{&first.bodies, 7}, std::pair{&first.frames, 7}, std::pair{&first.loops, 3}})
    for (size_t i = 0; i + 2 < list->size(); i += stride) {
      const Vec3 p((*list)[i], (*list)[i + 1], (*list)[i + 2]);
      lo = lo.cwiseMin(p);
      hi = hi.cwiseMax(p);
    }
  const Vec3 center = 0.5 * (lo + hi);
  w.key("center");
  writeNumbers(w, {center.x(), center.y(), center.z()}, "center");
  w.member("size", rounded(std::max(0.2, (hi - lo).norm())));  // a single body still gets a view
  w.member("ground_height", rounded(groundHeight ? *groundHeight : lo.z()));
}

// What does not move: clusters, bodies (rotor or link, joint axis), frames, contacts, segments.
void writeStructure(JsonWriter& w, const Model& model, const std::vector<bool>& rotor,
                    const std::vector<NamedPoint>& contacts) {
  w.key("clusters");
  w.beginArray();
  for (const Cluster& c : model.clusters()) {
    w.beginObject();
    w.member("name", c.name);
    w.member("type", c.typeName());
    w.endObject();
  }
  w.endArray();
  w.key("bodies");
  w.beginArray();
  for (int i = 0; i < model.numBodies(); ++i) {
    const Body& b = model.body(i);
    w.beginObject();
    w.member("name", b.name);
    w.member("cluster", b.cluster);
    w.member("rotor", static_cast<bool>(rotor[static_cast<size_t>(i)]));
    w.key("axis");  // the joint axis in body coordinates: a rotor's disc is drawn about it
    writeVector(w, b.joint.axis, "axis of " + b.name);
    w.endObject();
  }
  w.endArray();
  w.key("frames");
  w.beginArray();
  for (const Frame& f : model.frames()) {
    w.beginObject();
    w.member("name", f.name);
    w.member("body", f.body);
    w.endObject();
  }
  w.endArray();
  w.key("contacts");
  w.beginArray();
  for (const NamedPoint& c : contacts) {
    w.beginObject();
    w.member("link", c.link);
    w.key("point");
    writeVector(w, c.point, "contact point");
    w.endObject();
  }
  w.endArray();
  w.key("segments");
  w.beginArray();
  for (const Segment& s : linkSegments(model, rotor)) {
    w.beginObject();
    for (const auto& [name, list, index] : {std::tuple{"from", s.fromList, s.from}, std::tuple{"to", s.toList, s.to}}) {
      w.key(name);
      w.beginArray(true);
      w.value(list);
      w.value(index);
      w.endArray();
    }
    w.member("cluster", s.cluster);
    w.endObject();
  }
  w.endArray();
}

// Where everything is, per configuration.
void writePoses(JsonWriter& w, const std::vector<ViewerPose>& poses, const std::vector<PosePlacements>& placed) {
  w.key("poses");
  w.beginArray();
  for (size_t k = 0; k < poses.size(); ++k) {
    w.beginObject();
    w.member("t", poses[k].t);
    w.key("bodies");
    writeNumbers(w, placed[k].bodies, "body placement");
    w.key("frames");
    writeNumbers(w, placed[k].frames, "frame placement");
    w.key("loops");
    writeNumbers(w, placed[k].loops, "loop point");
    w.key("contacts");
    writeNumbers(w, placed[k].contacts, "contact point");
    w.key("forces");
    writeNumbers(w, poses[k].forces, "contact force");
    w.endObject();
  }
  w.endArray();
}
}  // namespace

std::string viewerSceneJson(const Model& model, const std::vector<ViewerPose>& poses,
                            const std::vector<NamedPoint>& contacts, const ViewerExtras& extras) {
  std::vector<int> contactFrames;
  for (const NamedPoint& c : contacts) contactFrames.push_back(model.frameIndex(c.link));
  std::vector<bool> rotor;
  for (int i = 0; i < model.numBodies(); ++i) rotor.push_back(isRotor(model, i));

  Data data(model);
  std::vector<PosePlacements> placed;
  for (const ViewerPose& pose : poses) placed.push_back(placements(model, data, pose, contactFrames, contacts));

  std::ostringstream out;
  JsonWriter w(out);
  w.beginObject();
  w.member("robot", model.name());
  writeExtent(w, placed.front(), extras.groundHeight);
  writeStructure(w, model, rotor, contacts);
  writeExtras(w, model, extras);
  writePoses(w, poses, placed);
  w.endObject();
  return out.str();
}

}  // namespace grbda::cli
