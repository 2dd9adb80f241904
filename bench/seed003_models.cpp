// Seed 003's benchmark robots built in code (see seed003_models.hpp). Every link is a uniform
// box (its inertia about the COM from the box's size); masses and lengths are round numbers of
// the size of the real robots' published totals and reach, chosen here, not read from any model.
#include "seed003_models.hpp"

#include <cmath>
#include <random>
#include <stdexcept>

namespace grbda::seed003 {

namespace {

/// One link with the joint that carries it: origin = translation in the parent link's frame,
/// box = the uniform box (x, y, z extents) giving the inertia.
struct Part {
  const char* name;
  Vec3 axis, origin;
  double mass;
  Vec3 com, box;
};

Mat3 boxInertia(double m, const Vec3& s) {
  return Vec3(m * (s.y() * s.y() + s.z() * s.z()) / 12.0, m * (s.x() * s.x() + s.z() * s.z()) / 12.0,
              m * (s.x() * s.x() + s.y() * s.y()) / 12.0)
      .asDiagonal();
}

void addLink(ModelBuilder& b, const std::string& name, double mass, const Vec3& com, const Mat3& inertia) {
  b.addLink(LinkSpec{name, mass, com, inertia, {}});
}

void addRevolute(ModelBuilder& b, const std::string& parent, const std::string& child, const Vec3& origin,
                 const Vec3& axis) {
  JointSpec j;
  j.name = child + "_joint";
  j.kind = JointKind::Revolute;
  j.parent = parent;
  j.child = child;
  j.origin = Transform::translation(origin);
  j.axis = axis;
  b.addJoint(j);
}

/// Adds `parts` as a serial chain under `parent`, link names prefix + part name; `side` = ±1
/// mirrors the y coordinates (left/right limbs). Returns the last link's name.
std::string addSerial(ModelBuilder& b, std::string parent, const std::string& prefix, const std::vector<Part>& parts,
                      double side = 1.0) {
  const Vec3 mirror(1.0, side, 1.0);
  for (const Part& p : parts) {
    const std::string name = prefix + p.name;
    addLink(b, name, p.mass, p.com.cwiseProduct(mirror), boxInertia(p.mass, p.box));
    addRevolute(b, parent, name, p.origin.cwiseProduct(mirror), p.axis);
    parent = name;
  }
  return parent;
}

void addRoot(ModelBuilder& b, const std::string& name) { addLink(b, name, 0.0, Vec3::Zero(), Mat3::Zero()); }

void addFloatingBase(ModelBuilder& b, const std::string& base, double mass, const Vec3& box) {
  addRoot(b, "ground");
  addLink(b, base, mass, Vec3::Zero(), boxInertia(mass, box));
  JointSpec j;
  j.name = base + "_floating";
  j.kind = JointKind::Floating;
  j.parent = "ground";
  j.child = base;
  b.addJoint(j);
}

void addFrame(ModelBuilder& b, const std::string& name, const std::string& link, const Vec3& at) {
  FrameSpec f;
  f.name = name;
  f.link = link;
  f.origin = Transform::translation(at);
  b.addFrame(f);
}

const Vec3 X = Vec3::UnitX(), Y = Vec3::UnitY(), Z = Vec3::UnitZ();

/// `n` generic links of `length` along `along`, axes cycling z, x, y (a 7-link branch reaches
/// every tip orientation, so a 6-D weld at its tip has full rank at generic angles), 1 kg each.
std::string addBranch(ModelBuilder& b, const std::string& parent, const std::string& prefix, int n,
                      const Vec3& firstOffset, const Vec3& along) {
  const Vec3 axes[3] = {Z, X, Y};
  const double length = 0.1;
  std::string link = parent;
  for (int k = 1; k <= n; ++k) {
    const std::string name = prefix + std::to_string(k);
    const Vec3 box = Vec3(0.03, 0.03, 0.03) + (length - 0.03) * along.cwiseAbs();
    addLink(b, name, 1.0, 0.5 * length * along, boxInertia(1.0, box));
    addRevolute(b, link, name, k == 1 ? firstOffset : Vec3(length * along), axes[(k - 1) % 3]);
    link = name;
  }
  return link;
}

int positive(const std::string& what, const std::string& text) {
  std::size_t used = 0;
  int n = 0;
  try {
    n = std::stoi(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || n < 1) throw InputError("seed003: " + what + " must be a positive integer, got '" + text + "'");
  return n;
}

/// "kind:a:b" -> {"kind", "a", "b"}
std::vector<std::string> splitColons(const std::string& s) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (;;) {
    const std::size_t c = s.find(':', start);
    parts.push_back(s.substr(start, c == std::string::npos ? std::string::npos : c - start));
    if (c == std::string::npos) return parts;
    start = c + 1;
  }
}

ConstraintSet set(std::string name, std::vector<ConstraintItem> items) { return {std::move(name), std::move(items)}; }

/// The sets 0, 1 ... 4 feet of a quadruped (seed 003: F3 ... 4F3), 3-D point contacts.
std::vector<ConstraintSet> quadrupedSets(const std::vector<std::string>& feet) {
  std::vector<ConstraintSet> sets{set("0", {})};
  std::vector<ConstraintItem> items;
  for (std::size_t n = 1; n <= feet.size(); ++n) {
    items.push_back({ConstraintKind::PointContact, feet[n - 1]});
    sets.push_back(set((n > 1 ? std::to_string(n) : std::string()) + "F3", items));
  }
  return sets;
}

/// 0, F, 2F, 2F+H, 2F+2H: feet welded, hands welded (hand = Weld) or point contacts (suffix "3").
std::vector<ConstraintSet> humanoidSets(const std::string& rightFoot, const std::string& leftFoot,
                                        const std::string& rightHand, const std::string& leftHand,
                                        ConstraintKind handKind) {
  const std::string h = handKind == ConstraintKind::Weld ? "H" : "H3";
  const ConstraintItem rf{ConstraintKind::Weld, rightFoot}, lf{ConstraintKind::Weld, leftFoot};
  const ConstraintItem rh{handKind, rightHand}, lh{handKind, leftHand};
  return {set("0", {}), set("F", {rf}), set("2F", {rf, lf}), set("2F+" + h, {rf, lf, rh}),
          set("2F+2" + h, {rf, lf, rh, lh})};
}

}  // namespace

Vec3 chainAxis(int k) { return k % 2 == 1 ? Z : Y; }

Mat3 chainLinkInertia() {
  const double m = kChainLinkMass, r = kChainLinkRadius, L = kChainLinkLength;
  const double across = m * (3.0 * r * r + L * L) / 12.0;
  return Vec3(across, across, 0.5 * m * r * r).asDiagonal();
}

int ConstraintSet::rows() const {
  int rows = 0;
  for (const ConstraintItem& c : items) rows += c.kind == ConstraintKind::PointContact ? 3 : 6;
  return rows;
}

// KUKA LBR iiwa 7 R800-like: 7 revolute joints z, y, z, y, z, y, z; joint spacings 0.1575 …
// 0.081 m (0.8 m reach), link masses 4.0 … 0.3 kg (about 20 kg in all); end frame "ee" 45 mm
// past the flange.
Model iiwaLike() {
  ModelBuilder b("iiwa_like");
  addRoot(b, "world");
  const std::vector<Part> arm = {
      {"link_1", Z, {0, 0, 0.1575}, 4.0, {0, 0, 0.12}, {0.12, 0.12, 0.25}},
      {"link_2", Y, {0, 0, 0.2025}, 4.0, {0, 0, 0.10}, {0.12, 0.12, 0.20}},
      {"link_3", Z, {0, 0, 0.2045}, 3.0, {0, 0, 0.13}, {0.10, 0.10, 0.25}},
      {"link_4", Y, {0, 0, 0.2155}, 2.7, {0, 0, 0.07}, {0.10, 0.10, 0.18}},
      {"link_5", Z, {0, 0, 0.1845}, 1.7, {0, 0, 0.12}, {0.08, 0.08, 0.22}},
      {"link_6", Y, {0, 0, 0.2155}, 1.8, {0, 0, 0.00}, {0.08, 0.08, 0.12}},
      {"link_7", Z, {0, 0, 0.0810}, 0.3, {0, 0, 0.02}, {0.07, 0.07, 0.05}},
  };
  addFrame(b, "ee", addSerial(b, "world", "", arm), Vec3(0, 0, 0.045));
  return b.build();
}

// Unitree Go1-like, 12 kg: trunk 5.2 kg (0.38 x 0.09 x 0.11 m box), hips at (±0.188, ±0.047, 0);
// per leg hip (x axis) 0.68 kg, thigh (y) 1.0 kg and calf (y) 0.2 kg, both 0.213 m long; foot
// frames "FR_foot", "FL_foot", "RR_foot", "RL_foot" at the calf tips.
Model go1Like() {
  ModelBuilder b("go1_like");
  addFloatingBase(b, "trunk", 5.2, Vec3(0.376, 0.094, 0.114));
  const struct {
    const char* name;
    double x, side;
  } legs[] = {{"FR", 0.1881, -1.0}, {"FL", 0.1881, 1.0}, {"RR", -0.1881, -1.0}, {"RL", -0.1881, 1.0}};
  for (const auto& leg : legs) {
    const std::vector<Part> parts = {
        {"_hip", X, {leg.x, 0.04675, 0}, 0.68, {0, 0.005, 0}, {0.08, 0.08, 0.06}},
        {"_thigh", Y, {0, 0.08, 0}, 1.0, {0, 0, -0.03}, {0.04, 0.03, 0.213}},
        {"_calf", Y, {0, 0, -0.213}, 0.2, {0, 0, -0.1}, {0.02, 0.02, 0.213}},
    };
    const std::string calf = addSerial(b, "trunk", leg.name, parts, leg.side);
    addFrame(b, std::string(leg.name) + "_foot", calf, Vec3(0, 0, -0.213));
  }
  return b.build();
}

namespace {

/// A humanoid's limbs under `pelvis` and `chest`: two arms (7 joints, last link "l_hand" /
/// "r_hand") and two legs (6 joints, last link "l_foot" / "r_foot"); `side` +1 = left.
void addLimbs(ModelBuilder& b, const std::string& pelvis, const std::string& chest, const std::vector<Part>& arm,
              const std::vector<Part>& leg) {
  for (const double side : {1.0, -1.0}) {
    const std::string p = side > 0 ? "l_" : "r_";
    addSerial(b, chest, p, arm, side);
    addSerial(b, pelvis, p, leg, side);
  }
}

}  // namespace

// Boston Dynamics Atlas-like, about 170 kg: pelvis 17.9 kg; torso z, y, x (2.3, 0.7 and 63 kg,
// the upper torso with its backpack); neck pitch and yaw (1 and 4 kg); arms in T-pose along ±y,
// 7 joints z, x, y, x, y, x, y (4.5 … 2.3 kg, 0.83 m); legs z, x, y (8.2 kg thigh, 0.42 m),
// y (4.5 kg shin, 0.42 m), y, x (2.4 kg foot). 6 + 3 + 2 + 14 + 12 = 37 DoF.
Model atlasLike() {
  ModelBuilder b("atlas_like");
  addFloatingBase(b, "pelvis", 17.9, Vec3(0.2, 0.3, 0.15));
  const std::vector<Part> torso = {
      {"ltorso", Z, {-0.0125, 0, 0}, 2.3, {0, 0, 0.05}, {0.1, 0.1, 0.1}},
      {"mtorso", Y, {0, 0, 0.162}, 0.7, {0, 0, 0.02}, {0.08, 0.08, 0.08}},
      {"utorso", X, {0, 0, 0.05}, 63.0, {0, 0, 0.2}, {0.35, 0.45, 0.5}},
  };
  const std::string chest = addSerial(b, "pelvis", "", torso);
  const std::vector<Part> neck = {
      {"neck", Y, {0.2, 0, 0.45}, 1.0, {0, 0, 0.04}, {0.06, 0.06, 0.08}},
      {"head", Z, {0, 0, 0.08}, 4.0, {0, 0, 0.1}, {0.2, 0.2, 0.25}},
  };
  addSerial(b, chest, "", neck);
  const std::vector<Part> arm = {
      {"clav", Z, {0.1, 0.22, 0.4}, 4.5, {0, 0.06, 0}, {0.12, 0.12, 0.12}},
      {"scap", X, {0, 0.11, 0}, 3.9, {0, 0.06, 0}, {0.1, 0.15, 0.1}},
      {"uarm", Y, {0, 0.19, 0}, 2.7, {0, 0.06, 0}, {0.1, 0.15, 0.1}},
      {"larm", X, {0, 0.12, 0}, 4.4, {0, 0.06, 0}, {0.1, 0.15, 0.1}},
      {"ufarm", Y, {0, 0.19, 0}, 2.4, {0, 0.06, 0}, {0.08, 0.15, 0.08}},
      {"lfarm", X, {0, 0.12, 0}, 1.0, {0, 0.04, 0}, {0.06, 0.1, 0.06}},
      {"hand", Y, {0, 0.1, 0}, 2.3, {0, 0.06, 0}, {0.1, 0.12, 0.06}},
  };
  const std::vector<Part> leg = {
      {"uhip", Z, {0, 0.089, 0}, 1.9, {0, 0, -0.02}, {0.08, 0.08, 0.08}},
      {"lhip", X, {0, 0, -0.05}, 0.7, {0, 0, -0.02}, {0.06, 0.06, 0.06}},
      {"uleg", Y, {0.05, 0, -0.05}, 8.2, {0, 0, -0.21}, {0.15, 0.15, 0.42}},
      {"lleg", Y, {-0.05, 0, -0.374}, 4.5, {0, 0, -0.19}, {0.12, 0.12, 0.42}},
      {"talus", Y, {0, 0, -0.422}, 0.1, {0, 0, 0}, {0.05, 0.05, 0.05}},
      {"foot", X, {0, 0, 0}, 2.4, {0.03, 0, -0.05}, {0.26, 0.13, 0.05}},
  };
  addLimbs(b, "pelvis", chest, arm, leg);
  return b.build();
}

// PAL Talos-like, about 100 kg: base 13.5 kg; torso z, y (3 and 17.5 kg); head y, z (0.7 and
// 1.4 kg); arms hanging along −z, 7 joints z, x, z, y, z, x, y (2.7 … 0.6 kg); a gripper of
// 7 independent joints on each hand (two two-link fingers, a third finger, an inner link;
// 0.14 … 0.02 kg); legs z, x, y (6.2 kg thigh, 0.38 m), y (3.8 kg shin, 0.325 m), y, x.
// 6 + 2 + 2 + 14 + 14 + 12 = 50 DoF.
Model talosLike() {
  ModelBuilder b("talos_like");
  addFloatingBase(b, "base_link", 13.5, Vec3(0.25, 0.3, 0.2));
  const std::vector<Part> torso = {
      {"torso_1", Z, {0, 0, 0.0722}, 3.0, {0, 0, 0.02}, {0.15, 0.2, 0.1}},
      {"torso_2", Y, {0, 0, 0}, 17.5, {0, 0, 0.2}, {0.3, 0.4, 0.4}},
  };
  const std::string chest = addSerial(b, "base_link", "", torso);
  const std::vector<Part> head = {
      {"head_1", Y, {0, 0, 0.43}, 0.7, {0, 0, 0.02}, {0.06, 0.06, 0.06}},
      {"head_2", Z, {0, 0, 0}, 1.4, {0, 0, 0.1}, {0.2, 0.2, 0.2}},
  };
  addSerial(b, chest, "", head);
  const std::vector<Part> arm = {
      {"arm_1", Z, {0, 0.157, 0.232}, 2.7, {0, 0.04, 0}, {0.1, 0.1, 0.1}},
      {"arm_2", X, {0, 0.07, 0}, 2.4, {0, 0, -0.05}, {0.1, 0.1, 0.12}},
      {"arm_3", Z, {0, 0, -0.13}, 2.5, {0, 0, -0.1}, {0.1, 0.1, 0.25}},
      {"arm_4", Y, {0.02, 0, -0.27}, 2.0, {0, 0, -0.08}, {0.08, 0.08, 0.2}},
      {"arm_5", Z, {-0.02, 0, -0.26}, 1.5, {0, 0, -0.05}, {0.08, 0.08, 0.12}},
      {"arm_6", X, {0, 0, 0}, 0.5, {0, 0, 0}, {0.06, 0.06, 0.06}},
      {"hand", Y, {0, 0, 0}, 0.6, {0, 0, -0.06}, {0.06, 0.08, 0.1}},
  };
  const std::vector<Part> fingerDouble = {
      {"gripper_motor_double", X, {0, 0.02, -0.1}, 0.14, {0, 0, -0.03}, {0.02, 0.04, 0.06}},
      {"gripper_fingertip_1", X, {0, 0, -0.06}, 0.03, {0, 0, -0.02}, {0.02, 0.02, 0.04}},
  };
  const std::vector<Part> innerDouble = {
      {"gripper_inner_double", X, {0, 0.02, -0.12}, 0.09, {0, 0, -0.03}, {0.02, 0.04, 0.06}},
      {"gripper_fingertip_2", X, {0, 0, -0.06}, 0.03, {0, 0, -0.02}, {0.02, 0.02, 0.04}},
  };
  const std::vector<Part> fingerSingle = {
      {"gripper_motor_single", X, {0, -0.02, -0.1}, 0.11, {0, 0, -0.03}, {0.02, 0.04, 0.06}},
      {"gripper_fingertip_3", X, {0, 0, -0.06}, 0.03, {0, 0, -0.02}, {0.02, 0.02, 0.04}},
  };
  const std::vector<Part> innerSingle = {
      {"gripper_inner_single", X, {0, -0.02, -0.12}, 0.02, {0, 0, -0.03}, {0.02, 0.03, 0.06}},
  };
  const std::vector<Part> leg = {
      {"leg_1", Z, {-0.02, 0.085, -0.27}, 1.9, {0, 0, 0.02}, {0.1, 0.1, 0.08}},
      {"leg_2", X, {0, 0, 0}, 1.5, {0, 0, 0}, {0.1, 0.1, 0.1}},
      {"leg_3", Y, {0, 0, 0}, 6.2, {0, 0, -0.2}, {0.12, 0.12, 0.38}},
      {"leg_4", Y, {0, 0, -0.38}, 3.8, {0, 0, -0.15}, {0.1, 0.1, 0.325}},
      {"leg_5", Y, {0, 0, -0.325}, 1.3, {0, 0, 0}, {0.06, 0.06, 0.06}},
      {"foot", X, {0, 0, 0}, 1.6, {0.02, 0, -0.07}, {0.21, 0.13, 0.03}},
  };
  addLimbs(b, "base_link", chest, arm, leg);
  for (const char* hand : {"l_", "r_"}) {
    const double side = hand[0] == 'l' ? 1.0 : -1.0;
    for (const auto* finger : {&fingerDouble, &innerDouble, &fingerSingle, &innerSingle})
      addSerial(b, std::string(hand) + "hand", hand, *finger, side);
  }
  return b.build();
}

Model zyChain(int n) {
  ModelBuilder b("chain_" + std::to_string(n));
  addRoot(b, "world");
  std::string parent = "world";
  for (int k = 1; k <= n; ++k) {
    const std::string name = "link_" + std::to_string(k);
    addLink(b, name, kChainLinkMass, Vec3(0, 0, 0.5 * kChainLinkLength), chainLinkInertia());
    addRevolute(b, parent, name, k == 1 ? Vec3::Zero() : Vec3(0, 0, kChainLinkLength), chainAxis(k));
    parent = name;
  }
  return b.build();
}

// The ladder of seed 003 Fig. 4b: a side rail going up (z) in segments of 3 links (axes z, y, x,
// 0.1 m, 1 kg); at the top of segment r a rung of 7 links goes out along y, its tip
// "rung_r_7" welded to the world (6-D). 10 links and 6 constraint rows per rung.
Model ladder(int rungs) {
  ModelBuilder b("ladder_" + std::to_string(rungs));
  addRoot(b, "world");
  std::string rail = "world";
  for (int r = 1; r <= rungs; ++r) {
    const std::string prefix = "rail_" + std::to_string(r) + "_";
    const Vec3 axes[3] = {Z, Y, X};
    for (int k = 1; k <= 3; ++k) {
      const std::string name = prefix + std::to_string(k);
      addLink(b, name, 1.0, Vec3(0, 0, 0.05), boxInertia(1.0, Vec3(0.03, 0.03, 0.1)));
      addRevolute(b, rail, name, Vec3(0, 0, rail == "world" ? 0.0 : 0.1), axes[k - 1]);
      rail = name;
    }
    addBranch(b, rail, "rung_" + std::to_string(r) + "_", 7, Vec3(0, 0.05, 0), Y);
  }
  return b.build();
}

// The stem-and-branches mechanism of seed 003 Fig. 2e: a stem of `stemLinks` links (axes
// alternating z, y, 0.1 m, 1 kg) and `branchesPerEnd` branches of `branchLength` links from
// each stem end ("lo" on the first stem link, "hi" on the last), tips welded to the world.
Model stemAndBranches(int stemLinks, int branchesPerEnd, int branchLength) {
  ModelBuilder b("stem_" + std::to_string(stemLinks) + "_" + std::to_string(branchesPerEnd));
  addRoot(b, "world");
  std::string parent = "world";
  for (int k = 1; k <= stemLinks; ++k) {
    const std::string name = "stem_" + std::to_string(k);
    addLink(b, name, 1.0, Vec3(0, 0, 0.05), boxInertia(1.0, Vec3(0.03, 0.03, 0.1)));
    addRevolute(b, parent, name, Vec3(0, 0, k == 1 ? 0.0 : 0.1), chainAxis(k));
    parent = name;
  }
  for (int end = 0; end < 2; ++end) {
    const std::string stem = end == 0 ? "stem_1" : parent;
    for (int j = 1; j <= branchesPerEnd; ++j) {
      const double angle = 2.0 * std::acos(-1.0) * j / branchesPerEnd;
      const Vec3 dir(std::cos(angle), std::sin(angle), 0.0);
      addBranch(b, stem, std::string(end == 0 ? "lo_" : "hi_") + std::to_string(j) + "_", branchLength, 0.05 * dir,
                dir);
    }
  }
  return b.build();
}

Model buildModel(const std::string& name, const std::string& modelsDir) {
  const std::vector<std::string> p = splitColons(name);
  if (name == "iiwa") return iiwaLike();
  if (name == "go1") return go1Like();
  if (name == "atlas") return atlasLike();
  if (name == "talos") return talosLike();
  if (p[0] == "chain" && p.size() == 2) return zyChain(positive("the chain length", p[1]));
  if (p[0] == "ladder" && p.size() == 2) return ladder(positive("the number of rungs", p[1]));
  if (p[0] == "stem" && p.size() == 3)
    return stemAndBranches(positive("the stem length", p[1]), positive("the number of branches", p[2]));
  if (name == "mini_cheetah" || name == "mit_humanoid" || name == "jvrc1_humanoid") {
    if (modelsDir.empty()) throw InputError("seed003: '" + name + "' needs the models directory");
    return loadUrdf(modelsDir + "/" + name + ".urdf");
  }
  throw InputError("seed003: unknown model '" + name +
                   "' (iiwa, go1, atlas, talos, chain:N, ladder:M, stem:S:B, mini_cheetah, mit_humanoid, jvrc1_humanoid)");
}

std::vector<ConstraintSet> constraintSets(const std::string& name) {
  using K = ConstraintKind;
  const std::vector<std::string> p = splitColons(name);
  if (name == "iiwa") return {set("0", {}), set("H3", {{K::PointContact, "ee"}}), set("H", {{K::Weld, "ee"}})};
  if (name == "go1") return quadrupedSets({"FR_foot", "FL_foot", "RR_foot", "RL_foot"});
  if (name == "mini_cheetah") return quadrupedSets({"FR_foot", "FL_foot", "HR_foot", "HL_foot"});
  if (name == "atlas" || name == "talos") return humanoidSets("r_foot", "l_foot", "r_hand", "l_hand", K::Weld);
  // the MIT Humanoid's 4-DoF arms cannot hold a 6-D hand weld: point contacts on the hands
  if (name == "mit_humanoid")
    return humanoidSets("right_foot", "left_foot", "right_hand", "left_hand", K::PointContact);
  if (name == "jvrc1_humanoid") return humanoidSets("right-foot", "left-foot", "right-hand", "left-hand", K::Weld);
  if (p[0] == "chain" && p.size() == 2) {
    const std::string tip = "link_" + std::to_string(positive("the chain length", p[1]));
    return {set("0", {}), set("W", {{K::Weld, tip}}), set("K6", {{K::Custom, tip}})};
  }
  if (p[0] == "ladder" && p.size() == 2) {
    ConstraintSet all{"W", {}};
    for (int r = 1; r <= positive("the number of rungs", p[1]); ++r)
      all.items.push_back({K::Weld, "rung_" + std::to_string(r) + "_7"});
    return {set("0", {}), all};
  }
  if (p[0] == "stem" && p.size() == 3) {
    ConstraintSet all{"W", {}};
    const int branches = positive("the number of branches", p[2]);
    for (const char* end : {"lo_", "hi_"})
      for (int j = 1; j <= branches; ++j) all.items.push_back({K::Weld, end + std::to_string(j) + "_7"});
    return {set("0", {}), all};
  }
  throw InputError("seed003: no constraint sets for '" + name + "'");
}

ConstraintSet constraintSet(const std::string& name, const std::string& setName) {
  std::string known;
  for (ConstraintSet& s : constraintSets(name)) {
    if (s.name == setName) return s;
    known += (known.empty() ? "" : ", ") + s.name;
  }
  throw InputError("seed003: '" + name + "' has no constraint set '" + setName + "' (" + known + ")");
}

std::vector<TableCase> tableIICases(bool withBundled) {
  std::vector<std::string> robots = {"iiwa", "go1", "atlas", "talos"};
  if (withBundled) robots.insert(robots.end(), {"mini_cheetah", "mit_humanoid", "jvrc1_humanoid"});
  std::vector<TableCase> cases;
  for (const std::string& r : robots)
    for (const ConstraintSet& s : constraintSets(r)) cases.push_back({r, s.name});
  return cases;
}

const std::vector<SolverColumn>& solverColumns() {
  static const std::vector<SolverColumn> columns = {
      {"PV", "pv", false},         {"PV-e", "pv-early", false}, {"LTL", "ltl", false},
      {"PV-s", "pv-soft", true},   {"LTL-s", "ltl-soft", true}, {"KKT", "kkt", false},
  };
  return columns;
}

std::optional<ConstraintSolver> availableSolver(const std::string& name) {
  try {
    return constraintSolverFromName(name);
  } catch (const InputError&) {
    return std::nullopt;
  }
}

Problem makeProblem(Model model, const ConstraintSet& set, int states, unsigned seed) {
  Problem p;
  p.model = std::make_unique<Model>(std::move(model));
  p.constraints = std::make_unique<ConstraintModel>(*p.model);
  for (const ConstraintItem& c : set.items) {
    if (c.kind == ConstraintKind::Weld) p.constraints->addWeld(c.link);
    else if (c.kind == ConstraintKind::Custom) p.constraints->addCustomRows(c.link, Mat6::Identity(), VecX::Zero(6));
    else p.constraints->addPointContact(c.link);
  }
  if (p.constraints->numRows() > 0) p.constraints->setCompliance(kSoftCompliance);
  const Model& m = *p.model;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  const int first = m.isFloatingBase() ? 7 : 0;
  for (int s = 0; s < states; ++s) {
    VecX q = m.neutralConfiguration();
    if (m.isFloatingBase()) q[2] = 1.0;
    for (int i = first; i < m.nq(); ++i) q[i] = u(rng);
    VecX v(m.nv()), tau(m.nv());
    for (int i = 0; i < m.nv(); ++i) v[i] = u(rng), tau[i] = u(rng);
    p.q.push_back(q), p.v.push_back(v), p.tau.push_back(tau);
  }
  return p;
}

}  // namespace grbda::seed003
