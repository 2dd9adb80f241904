// serializeSimulator / deserializeSimulator (sim/serialize.hpp): every field a step reads, in order.
#include "grbda/sim/serialize.hpp"

#include "grbda/model_source.hpp"
#include "serialize/archive.hpp"
#include "simulator_access.hpp"

namespace grbda {
namespace {

const char* const kSimulatorMagic = "grbda-simulator";
constexpr int kSimulatorVersion = 3;  // 2: the passive-energy watch's baseline; 3: self-collision (World, ContactPoint)

using Access = detail::SimulatorAccess;
using detail::ArchiveReader;
using detail::ArchiveWriter;

void writeWorld(ArchiveWriter& w, const World& world) {
  w.flag(world.hasGround); w.f64(world.groundHeight); w.vec3(world.groundNormal);
  w.u64(world.boxes.size());
  for (const StaticBox& b : world.boxes) {
    w.vec3(b.center); w.mat3(b.rotation); w.vec3(b.halfExtents); w.f64(b.friction); w.f64(b.restitution);
  }
  w.f64(world.friction); w.f64(world.restitution); w.f64(world.margin); w.flag(world.selfCollision);
}

World readWorld(ArchiveReader& r) {
  World world;
  world.hasGround = r.flag(); world.groundHeight = r.f64(); world.groundNormal = r.vec3();
  world.boxes.resize(r.size(1));
  for (StaticBox& b : world.boxes) {
    b.center = r.vec3(); b.rotation = r.mat3(); b.halfExtents = r.vec3(); b.friction = r.f64(); b.restitution = r.f64();
  }
  world.friction = r.f64(); world.restitution = r.f64(); world.margin = r.f64(); world.selfCollision = r.flag();
  return world;
}

void writeOptions(ArchiveWriter& w, const SimulatorOptions& o) {
  w.f64(o.dt); w.i32(static_cast<int>(o.integrator));
  const ContactSolverSettings& s = o.solver;
  w.i32(static_cast<int>(s.type)); w.i32(s.maxIterations); w.f64(s.tolerance); w.flag(s.pyramidal); w.f64(s.erp);
  w.f64(s.timeConstant); w.f64(s.dampingRatio); w.flag(s.warmStart);
  w.flag(o.jointLimits); w.flag(o.jointFriction); w.flag(o.jointDamping); w.flag(o.saturateEffort);
}

SimulatorOptions readOptions(ArchiveReader& r) {
  SimulatorOptions o;
  o.dt = r.f64(); o.integrator = r.enumValue<Integrator>(2, "integrator");
  ContactSolverSettings& s = o.solver;
  s.type = r.enumValue<ContactSolverType>(3, "contact solver"); s.maxIterations = r.i32(); s.tolerance = r.f64();
  s.pyramidal = r.flag(); s.erp = r.f64(); s.timeConstant = r.f64(); s.dampingRatio = r.f64(); s.warmStart = r.flag();
  o.jointLimits = r.flag(); o.jointFriction = r.flag(); o.jointDamping = r.flag(); o.saturateEffort = r.flag();
  return o;
}

void writeContact(ArchiveWriter& w, const ContactPoint& c) {
  w.i32(c.geometry); w.i32(c.body); w.i32(c.obstacle); w.i32(c.feature); w.vec3(c.point); w.vec3(c.normal);
  w.f64(c.distance); w.f64(c.friction); w.f64(c.restitution); w.i32(c.geometry2); w.i32(c.body2);
}

ContactPoint readContact(ArchiveReader& r) {
  ContactPoint c;
  c.geometry = r.i32(); c.body = r.i32(); c.obstacle = r.i32(); c.feature = r.i32(); c.point = r.vec3();
  c.normal = r.vec3(); c.distance = r.f64(); c.friction = r.f64(); c.restitution = r.f64(); c.geometry2 = r.i32();
  c.body2 = r.i32();
  return c;
}

void writeStep(ArchiveWriter& w, const StepResult& s) {
  w.f64(s.time);
  w.u64(s.contacts.size());
  for (const ContactForce& f : s.contacts) {
    writeContact(w, f.contact); w.f64(f.normalForce); w.vec3(f.frictionForce); w.vec3(f.slipVelocity); w.flag(f.sliding);
  }
  w.u64(s.joints.size());
  for (const JointRowForce& j : s.joints) { w.i32(j.body); w.i32(static_cast<int>(j.kind)); w.f64(j.force); }
  const ContactSolveStats& st = s.solver;
  w.i32(st.rows); w.i32(st.iterations); w.flag(st.converged); w.flag(st.fellBack);
  w.f64(st.coneResidual); w.f64(st.velocityResidual); w.f64(st.complementarityResidual);
}

void readStep(ArchiveReader& r, StepResult& s) {  // into the simulator's (reserved) buffers
  s.time = r.f64();
  s.contacts.resize(r.size(1));
  for (ContactForce& f : s.contacts) {
    f.contact = readContact(r); f.normalForce = r.f64(); f.frictionForce = r.vec3(); f.slipVelocity = r.vec3(); f.sliding = r.flag();
  }
  s.joints.resize(r.size(1));
  for (JointRowForce& j : s.joints) { j.body = r.i32(); j.kind = r.enumValue<JointRowKind>(4, "joint row"); j.force = r.f64(); }
  ContactSolveStats& st = s.solver;
  st.rows = r.i32(); st.iterations = r.i32(); st.converged = r.flag(); st.fellBack = r.flag();
  st.coneResidual = r.f64(); st.velocityResidual = r.f64(); st.complementarityResidual = r.f64();
}

/// A vector of the simulator's, read back only if it has the size the simulator gave it.
void readSized(ArchiveReader& r, VecX& into, const char* what) {
  VecX x = r.vec();
  if (x.size() != into.size())
    r.fail(std::string(what) + " has " + std::to_string(x.size()) + " entries, the model needs " + std::to_string(into.size()));
  into = x;
}

}  // namespace

std::string serializeSimulator(const Simulator& sim) {
  Simulator& s = const_cast<Simulator&>(sim);  // Access hands out references; nothing is written
  ArchiveWriter w;
  w.str(kSimulatorMagic);
  w.i32(kSimulatorVersion);
  w.str(serializeModel(sim.model()));
  writeWorld(w, sim.world());
  writeOptions(w, sim.options());
  w.vec(sim.q()); w.vec(sim.v()); w.f64(sim.time()); w.f64(Access::passiveEnergyStart(s));
  w.vec(Access::heldTorque(s)); w.vec(Access::appliedTorque(s));
  w.flag(Access::pdOn(s)); w.vec(Access::kp(s)); w.vec(Access::kd(s)); w.vec(Access::qTarget(s)); w.vec(Access::vTarget(s));
  w.vec(Access::data(s).qSpan);  // where position completion of loops starts from
  const auto& contacts = Access::previousContacts(s);
  w.u64(contacts.size());
  for (const ContactPoint& c : contacts) writeContact(w, c);
  const auto& lambda = Access::previousLambda(s);
  w.vec(Eigen::Map<const VecX>(lambda.data(), static_cast<Eigen::Index>(lambda.size())));
  writeStep(w, sim.lastStep());
  w.flag(Access::recording(s));
  const Trajectory& t = sim.trajectory();
  w.u64(t.time.size());
  for (size_t i = 0; i < t.time.size(); ++i) { w.f64(t.time[i]); w.vec(t.q[i]); w.vec(t.v[i]); }
  return w.bytes();
}

Simulator deserializeSimulator(const std::string& bytes) {
  ArchiveReader r(bytes, "deserializeSimulator");
  if (r.str() != kSimulatorMagic) r.fail("it does not start with '" + std::string(kSimulatorMagic) + "'");
  if (const int v = r.i32(); v != kSimulatorVersion)
    r.fail("version " + std::to_string(v) + ", this build reads version " + std::to_string(kSimulatorVersion));
  const Model model = deserializeModel(r.str());
  const World world = readWorld(r);
  const SimulatorOptions options = readOptions(r);
  Simulator sim(model, world, options);
  readSized(r, Access::q(sim), "q");
  readSized(r, Access::v(sim), "v");
  Access::time(sim) = r.f64();
  Access::passiveEnergyStart(sim) = r.f64();
  readSized(r, Access::heldTorque(sim), "the held torque");
  readSized(r, Access::appliedTorque(sim), "the applied torque");
  Access::pdOn(sim) = r.flag();
  readSized(r, Access::kp(sim), "kp");
  readSized(r, Access::kd(sim), "kd");
  readSized(r, Access::qTarget(sim), "the PD's q target");
  readSized(r, Access::vTarget(sim), "the PD's v target");
  readSized(r, Access::data(sim).qSpan, "the spanning positions");
  auto& contacts = Access::previousContacts(sim);
  contacts.resize(r.size(1));
  for (ContactPoint& c : contacts) c = readContact(r);
  const VecX lambda = r.vec();
  if (lambda.size() != 3 * static_cast<Eigen::Index>(contacts.size())) r.fail("the warm start has the wrong size");
  Access::previousLambda(sim).assign(lambda.data(), lambda.data() + lambda.size());
  readStep(r, Access::lastStep(sim));
  Access::recording(sim) = r.flag();
  Trajectory& t = Access::trajectory(sim);
  const size_t rows = r.size(1);
  for (size_t i = 0; i < rows; ++i) {
    t.time.push_back(r.f64());
    t.q.push_back(r.vec());
    t.v.push_back(r.vec());
  }
  if (!r.atEnd()) r.fail("bytes follow the simulator");
  if (!sim.q().allFinite() || !sim.v().allFinite()) r.fail("the state is not finite");
  return sim;
}

}  // namespace grbda
