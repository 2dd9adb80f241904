// The Tello humanoid tree (robot-data/tello.md, same names and numbers as
// models/tello_humanoid.urdf; tests/test_tello.cpp checks the two agree) plus its constraints:
// geared rotors as couplings, the leg differentials as automatically differentiated implicit
// constraints.
#include "grbda/robots/tello.hpp"

#include <string>

#include "math_constants.hpp"

namespace grbda::robots {

using detail::kPi;

namespace {

struct Inertial {
  double mass;
  Vec3 com;
  double ixx, iyy, izz, ixy, ixz, iyz;  // about the COM, link axes (URDF convention)
  Inertial mirroredY() const { return {mass, Vec3(com.x(), -com.y(), com.z()), ixx, iyy, izz, -ixy, ixz, -iyz}; }
};

Inertial diagonal(double mass, const Vec3& com, double ixx, double iyy, double izz) {
  return {mass, com, ixx, iyy, izz, 0.0, 0.0, 0.0};
}

const Inertial kTorso{2.3008, Vec3(0.0073, -0.0013, -0.0023), 0.0366, 0.0142, 0.0291, 0.0, -0.0006, -0.0002};
const Inertial kHipClamp{1.3289, Vec3(-0.001, 0.0, -0.0069), 0.0032, 0.0033, 0.0027, 0.0, 0.0001, 0.0};
const Inertial kGimbal = diagonal(0.4433, Vec3(-0.0027, 0.0, 0.0258), 0.0018, 0.0017, 0.0015);
const Inertial kThigh{1.5424, Vec3(0.003, -0.0001, -0.0323), 0.0103, 0.0097, 0.0027, 0.0, -0.0005, 0.0};
const Inertial kShin{0.3072, Vec3(0.0047, -0.0003, -0.1043), 0.0054, 0.0054, 0.0001, 0.0, -0.0002, 0.0};
const Inertial kFoot{0.1025, Vec3(0.0042, 0.0, -0.0251), 9.4e-05, 0.0001773, 9.01e-05, 0.0, -3.8e-06, 0.0};
const Inertial kLegRotor = diagonal(0.07, Vec3::Zero(), 2.5984e-05, 2.5984e-05, 5.1512e-05);  // spins about z

// Rotor frames as URDF rpy (C++ R_down, R_left, R_right of the facts).
const Vec3 kDown(kPi, 0.0, 0.0), kLeft(-kPi / 2, kPi, 0.0), kRight(kPi / 2, 0.0, 0.0);

/// One arm joint of the left arm (the right arm mirrors y): MIT Humanoid arm, massless rotors.
struct ArmJoint {
  const char* link;
  const char* parent;  // nullptr: the torso
  Vec3 xyz;
  int axis;            // 0 x, 1 y, 2 z
  Inertial inertial;
  Vec3 rotorXyz;
  double gear;
};
const ArmJoint kArm[] = {
    {"shoulder-ry", nullptr, Vec3(0.01346, 0.17608, 0.24657), 1,
     {0.788506, Vec3(0.009265, 0.052623, -0.0001249), 0.0013678, 0.0007392, 0.000884, 2.66e-05, 2.1e-06, -1.2e-06},
     Vec3(0.01346, 0.16, 0.24657), 6.0},
    {"shoulder-rx", "shoulder-ry", Vec3(0.0, 0.0575, 0.0), 0,
     {0.80125, Vec3(0.0006041, 0.0001221, -0.082361), 0.0011524, 0.0011921, 0.0012386, 7e-07, 3.96e-05, 1.4e-06},
     Vec3(0.0, 0.0575, 0.0), 6.0},
    {"shoulder-rz", "shoulder-rx", Vec3(0.0, 0.0, -0.1025), 2,
     {0.905588, Vec3(0.0001703, -0.016797, -0.06), 0.0012713, 0.0017477, 0.0008191, 1e-06, -8e-06, -2.25e-05},
     Vec3(0.0, 0.0, -0.1025), 6.0},
    {"elbow", "shoulder-rz", Vec3(0.0, 0.0, -0.1455), 1,
     {0.34839, Vec3(-0.0059578, 0.000111, -0.0426735), 0.00157, 0.0016167, 6.19e-05, 2e-07, 3.35e-05, 3e-06},
     Vec3(0.0, -0.0325, -0.06), 9.0},
};
constexpr double kArmRotorTransverse = 0.0001084, kArmRotorAxial = 0.0001684;

void addLink(ModelBuilder& b, const std::string& name, const Inertial& in) {
  LinkSpec l;
  l.name = name;
  l.mass = in.mass;
  l.com = in.com;
  l.inertia << in.ixx, in.ixy, in.ixz, in.ixy, in.iyy, in.iyz, in.ixz, in.iyz, in.izz;
  b.addLink(l);
}

void addRevolute(ModelBuilder& b, const std::string& name, const std::string& parent, const std::string& child,
                 const Vec3& xyz, const Vec3& rpy, const Vec3& axis, bool independent) {
  JointSpec j;
  j.name = name;
  j.kind = JointKind::Revolute;
  j.parent = parent;
  j.child = child;
  j.origin = urdfOriginToTransform(xyz, rpy);
  j.axis = axis;
  j.independent = independent;
  b.addJoint(j);
}

void addLeg(ModelBuilder& b, const std::string& s, double sign) {
  const std::string clamp = s + "-hip-clamp", gimbal = s + "-gimbal", thigh = s + "-thigh", shin = s + "-shin",
                    foot = s + "-foot";
  const Vec3 zero = Vec3::Zero();
  addLink(b, clamp + "-rotor", kLegRotor);
  addRevolute(b, "torso-to-" + clamp + "-rotor", "torso", clamp + "-rotor", Vec3(0, sign * 0.126, -0.026), kDown,
              Vec3::UnitZ(), false);
  addLink(b, clamp, kHipClamp);
  addRevolute(b, "torso-to-" + clamp, "torso", clamp, Vec3(0, sign * 0.126, -0.087), zero, Vec3::UnitZ(), true);
  addLink(b, s + "-hip-rotor-1", kLegRotor);
  addRevolute(b, clamp + "-to-hip-rotor-1", clamp, s + "-hip-rotor-1", Vec3(0, 0.04, 0), kLeft, Vec3::UnitZ(), true);
  addLink(b, s + "-hip-rotor-2", kLegRotor);
  addRevolute(b, clamp + "-to-hip-rotor-2", clamp, s + "-hip-rotor-2", Vec3(0, -0.04, 0), kRight, Vec3::UnitZ(), true);
  addLink(b, gimbal, kGimbal);
  addRevolute(b, clamp + "-to-gimbal", clamp, gimbal, Vec3(0, 0, -0.1425), zero, Vec3::UnitX(), false);
  addLink(b, thigh, kThigh);
  addRevolute(b, gimbal + "-to-thigh", gimbal, thigh, zero, zero, Vec3::UnitY(), false);
  addLink(b, s + "-knee-ankle-rotor-1", kLegRotor);
  addRevolute(b, thigh + "-to-knee-ankle-rotor-1", thigh, s + "-knee-ankle-rotor-1", Vec3(0, 0.02655, 0), kRight,
              Vec3::UnitZ(), true);
  addLink(b, s + "-knee-ankle-rotor-2", kLegRotor);
  addRevolute(b, thigh + "-to-knee-ankle-rotor-2", thigh, s + "-knee-ankle-rotor-2", Vec3(0, -0.02655, 0), kLeft,
              Vec3::UnitZ(), true);
  addLink(b, shin, kShin);
  addRevolute(b, thigh + "-to-shin", thigh, shin, Vec3(0, 0, -0.2268), zero, Vec3::UnitY(), false);
  addLink(b, foot, kFoot);
  addRevolute(b, shin + "-to-foot", shin, foot, Vec3(0, 0, -0.26), zero, Vec3::UnitY(), false);
}

std::string armJointName(const std::string& s, const ArmJoint& a) {
  return a.parent ? s + "-" + a.parent + "-to-" + a.link : "torso-to-" + s + "-" + a.link;
}

void addArm(ModelBuilder& b, const std::string& s, bool right) {
  const Vec3 mirror(1.0, right ? -1.0 : 1.0, 1.0);
  for (const ArmJoint& a : kArm) {
    const std::string link = s + "-" + a.link, parent = a.parent ? s + "-" + a.parent : "torso";
    const std::string joint = armJointName(s, a);
    const Vec3 axis = Vec3::Unit(a.axis);
    addLink(b, link, right ? a.inertial.mirroredY() : a.inertial);
    addRevolute(b, joint, parent, link, a.xyz.cwiseProduct(mirror), Vec3::Zero(), axis, true);
    Vec3 moments = Vec3::Constant(kArmRotorTransverse);
    moments[a.axis] = kArmRotorAxial;
    addLink(b, link + "-rotor", diagonal(0.0, Vec3::Zero(), moments.x(), moments.y(), moments.z()));
    addRevolute(b, joint + "-rotor", parent, link + "-rotor", a.rotorXyz.cwiseProduct(mirror), Vec3::Zero(), axis,
                false);
  }
}

/// rotor angle = ratio · link angle.
void addGear(ModelBuilder& b, const std::string& name, const std::string& link, const std::string& rotor,
             double ratio) {
  CouplingSpec c;
  c.name = name;
  c.predecessor = link;
  c.successor = rotor;
  c.ratio = ratio;
  b.addCoupling(c);
}

void addDifferential(ModelBuilder& b, const std::string& name, std::vector<std::string> joints,
                     std::shared_ptr<const ImplicitConstraint> phi, const char* typeName) {
  ConstraintSpec c;
  c.name = name;
  c.joints = std::move(joints);
  c.constraint = std::move(phi);
  c.typeHint = typeName;
  b.addConstraint(c);
}

}  // namespace

void addTelloConstraints(ModelBuilder& b, bool withArms) {
  const auto hip = telloHipDifferential();
  const auto kneeAnkle = telloKneeAnkleDifferential();
  for (const std::string s : {"left", "right"}) {
    const std::string clamp = s + "-hip-clamp", thigh = s + "-thigh";
    addGear(b, clamp + "-gear", clamp, clamp + "-rotor", kTelloLegGear);
    // coordinate order [rotor 1, rotor 2, link 1, link 2], as the constraint functions expect
    addDifferential(b, s + "-hip-differential",
                    {clamp + "-to-hip-rotor-1", clamp + "-to-hip-rotor-2", clamp + "-to-gimbal",
                     s + "-gimbal-to-thigh"},
                    hip, kTelloHipDifferential);
    addDifferential(b, s + "-knee-ankle-differential",
                    {thigh + "-to-knee-ankle-rotor-1", thigh + "-to-knee-ankle-rotor-2", thigh + "-to-shin",
                     s + "-shin-to-foot"},
                    kneeAnkle, kTelloKneeAnkleDifferential);
  }
  if (!withArms) return;
  for (const std::string s : {"left", "right"})
    for (const ArmJoint& a : kArm) {
      const std::string link = s + "-" + a.link;
      addGear(b, link + "-gear", link, link + "-rotor", a.gear);
    }
}

ModelBuilder telloBuilder(bool withArms) {
  ModelBuilder b(withArms ? "tello_humanoid" : "tello_legs");
  b.addLink(LinkSpec{"ground", 0.0, Vec3::Zero(), Mat3::Zero(), {}});
  addLink(b, "torso", kTorso);
  JointSpec floating;
  floating.name = "torso-to-ground";
  floating.kind = JointKind::Floating;
  floating.parent = "ground";
  floating.child = "torso";
  b.addJoint(floating);
  addLeg(b, "left", 1.0);
  addLeg(b, "right", -1.0);
  if (withArms) {
    addArm(b, "left", false);
    addArm(b, "right", true);
  }
  addTelloConstraints(b, withArms);
  b.setGravity(Vec3(0.0, 0.0, -9.81));
  return b;
}

Model tello(bool withArms) { return telloBuilder(withArms).build(); }

}  // namespace grbda::robots
