#pragma once
// Test support: random ModelBuilder programs — a random tree of random mechanisms (plain joints,
// geared rotors, belt pairs and triples, four-bars, geared four-bars, generic planar loops,
// joint-to-joint constraints), masses over 1e-6 … 1e6, random axes, now and then a deliberate
// mistake that build() must refuse. Shared by the seeded test (tests/test_random_cluster_models.cpp)
// and the libFuzzer target (fuzz/fuzz_random_model.cpp), which draw the structure from different
// sources (ChoiceSource) so that the fuzzer's mutations act on the structure itself.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "../cluster_support/constrained_models.hpp"

namespace grbda::testsupport {

/// Where a program's structural choices come from.
class ChoiceSource {
 public:
  virtual ~ChoiceSource() = default;
  virtual int pick(int n) = 0;  ///< a choice in [0, n)
};

/// Choices from a seeded generator (the test suite).
class RngChoices final : public ChoiceSource {
 public:
  explicit RngChoices(Rng& rng) : rng_(rng) {}
  int pick(int n) override { return uniformInt(rng_, 0, n - 1); }

 private:
  Rng& rng_;
};

/// Choices from the fuzzer's bytes, one byte each; 0 once they run out (so every input is a
/// complete, finite program).
class ByteChoices final : public ChoiceSource {
 public:
  ByteChoices(const std::uint8_t* bytes, std::size_t size) : bytes_(bytes), size_(size) {}
  int pick(int n) override { return pos_ < size_ ? bytes_[pos_++] % n : 0; }

 private:
  const std::uint8_t* bytes_;
  std::size_t size_, pos_ = 0;
};

/// A program and what it was made of (for failure messages).
struct RandomProgram {
  ModelBuilder builder;
  std::string description;
  bool hasMistake = false;  ///< a deliberate error was written: build() must throw ModelError
};

namespace program {

/// q_follower = ratio · q_leader over (q_leader, q_follower), as a user constraint (what a URDF
/// <mimic> becomes): a coupling between joints in series, which a <coupling> cannot state.
class FollowerConstraint final : public ImplicitConstraint {
 public:
  explicit FollowerConstraint(double ratio) : ratio_(ratio) {}
  int numRows() const override { return 1; }
  int numCoordinates() const override { return 2; }
  void residual(const Eigen::Ref<const VecX>& q, Eigen::Ref<VecX> phi) const override { phi[0] = q[1] - ratio_ * q[0]; }
  void jacobian(const Eigen::Ref<const VecX>&, Eigen::Ref<MatX> K) const override { K << -ratio_, 1.0; }
  void bias(const Eigen::Ref<const VecX>&, const Eigen::Ref<const VecX>&, Eigen::Ref<VecX> k) const override {
    k[0] = 0.0;
  }

 private:
  double ratio_;
};

enum Mechanism { Joint, GearedRotor, BeltPair, BeltTriple, FourBar, GearedFourBar, PlanarLoop, JointCoupling, kCount };
inline const char* mechanismName(int m) {
  static const char* names[] = {"joint", "geared rotor", "belt pair", "belt triple", "four-bar", "geared four-bar",
                                "planar loop", "finger (joint-to-joint constraint)"};
  return names[m];
}

/// A gear ratio: mostly a usual reduction (±2 … 10), sometimes anything over 1e-3 … 1e3.
inline double gearRatio(ChoiceSource& choose, Rng& rng) {
  const double sign = choose.pick(2) ? 1.0 : -1.0;
  return sign * (choose.pick(4) == 0 ? std::pow(10.0, uniform(rng, -3.0, 3.0)) : uniform(rng, 2.0, 10.0));
}

/// Three revolute links d1 -> d2 -> d3 below `parent`, in a plane, looped back onto `parent`
/// (a four-bar whose ground is the parent), with the independent joint chosen by `choose`.
inline void addPlanarLoop(ModelBuilder& b, ChoiceSource& choose, Rng& rng, const std::string& parent,
                          const std::string& tag) {
  const int independent = choose.pick(3);
  const Transform plane = randomOrigin(rng);
  const std::string d1 = "d1" + tag, d2 = "d2" + tag, d3 = "d3" + tag;
  addLinkAndJoint(b, rng, d1, parent, Vec3::UnitZ(), independent == 0,
                  planarPlacement(0, 0, uniform(rng, 0.8, 1.2)) * plane);
  addLinkAndJoint(b, rng, d2, d1, Vec3::UnitZ(), independent == 1, planarPlacement(0.3, 0, uniform(rng, -1.9, -1.5)));
  addLinkAndJoint(b, rng, d3, d2, Vec3::UnitZ(), independent == 2, planarPlacement(0.9, 0, uniform(rng, -1.9, -1.5)));
  addClosingLoop(b, "loop" + tag, LoopKind::Revolute, d3, Transform::translation(Vec3(0.7, 0, 0)), parent,
                 Vec3::UnitZ());
}

/// One mechanism hung from `parent`; returns the links later mechanisms may hang from.
inline std::vector<std::string> addMechanism(ModelBuilder& b, ChoiceSource& choose, Rng& rng, int kind,
                                             const std::string& parent, const std::string& tag) {
  switch (kind) {
    case Joint: {
      b.addLink(randomLink(rng, "link" + tag));
      JointSpec j;
      j.name = "joint" + tag;
      j.parent = parent;
      j.child = "link" + tag;
      j.origin = randomOrigin(rng);
      j.axis = randomAxis(rng);
      const JointKind kinds[] = {JointKind::Revolute, JointKind::Continuous, JointKind::Prismatic, JointKind::Fixed};
      j.kind = kinds[choose.pick(4)];
      b.addJoint(j);
      return {"link" + tag};
    }
    case GearedRotor: {
      const std::string link = "link" + tag, rotor = "rotor" + tag;
      addLinkAndJoint(b, rng, link, parent, randomAxis(rng), true, randomOrigin(rng));
      addLinkAndJoint(b, rng, rotor, parent, randomAxis(rng), false, randomOrigin(rng));
      addCoupling(b, "gear" + tag, link, rotor, gearRatio(choose, rng));
      return {link, rotor};
    }
    case JointCoupling: {  // a two-phalanx finger whose distal joint follows the proximal one
      const std::string proximal = "proximal" + tag, distal = "distal" + tag;
      addLinkAndJoint(b, rng, proximal, parent, randomAxis(rng), true, randomOrigin(rng));
      addLinkAndJoint(b, rng, distal, proximal, randomAxis(rng), false, randomOrigin(rng));
      ConstraintSpec c;
      c.name = "finger" + tag;
      c.joints = {proximal + "_joint", distal + "_joint"};
      c.constraint = std::make_shared<FollowerConstraint>(gearRatio(choose, rng));
      b.addConstraint(c);
      return {proximal, distal};
    }
    case BeltPair: {
      const std::string upper = "upper" + tag, lower = "lower" + tag;
      addLinkAndJoint(b, rng, upper, parent, randomAxis(rng), true, randomOrigin(rng));
      addLinkAndJoint(b, rng, lower, upper, randomAxis(rng), true, randomOrigin(rng));
      addLinkAndJoint(b, rng, "rotorA" + tag, parent, randomAxis(rng), false, randomOrigin(rng));
      addLinkAndJoint(b, rng, "rotorB" + tag, parent, randomAxis(rng), false, randomOrigin(rng));
      addCoupling(b, "beltA" + tag, upper, "rotorA" + tag, gearRatio(choose, rng));
      addCoupling(b, "beltB" + tag, lower, "rotorB" + tag, gearRatio(choose, rng));
      return {upper, lower};
    }
    case BeltTriple: {
      std::vector<std::string> links;
      std::string up = parent;
      for (int j = 1; j <= 3; ++j) {
        const std::string link = "link" + tag + "_" + std::to_string(j), rotor = "rotor" + tag + "_" + std::to_string(j);
        addLinkAndJoint(b, rng, link, up, randomAxis(rng), true, randomOrigin(rng));
        addLinkAndJoint(b, rng, rotor, parent, randomAxis(rng), false, randomOrigin(rng));
        addCoupling(b, "belt" + tag + "_" + std::to_string(j), link, rotor, gearRatio(choose, rng));
        links.push_back(link);
        up = link;
      }
      return links;
    }
    case FourBar:
    case GearedFourBar:
      addCrankRocker(b, rng, parent, tag, randomOrigin(rng));
      if (kind == GearedFourBar) {
        addLinkAndJoint(b, rng, "rotor" + tag, parent, randomAxis(rng), false, randomOrigin(rng));
        addCoupling(b, "gear" + tag, "crank" + tag, "rotor" + tag, gearRatio(choose, rng));
      }
      return {"crank" + tag, "coupler" + tag, "rocker" + tag};
    case PlanarLoop:
      addPlanarLoop(b, choose, rng, parent, tag);
      return {"d1" + tag, "d2" + tag, "d3" + tag};
    default:
      return {};
  }
}

/// A deliberate error of a kind build() must refuse with a ModelError; its name.
inline std::string addMistake(ModelBuilder& b, ChoiceSource& choose, Rng& rng, const std::string& parent,
                              const std::string& tag) {
  const std::string link = "bad" + tag, rotor = "badrotor" + tag;
  addLinkAndJoint(b, rng, link, parent, randomAxis(rng), true, randomOrigin(rng));
  switch (choose.pick(3)) {
    case 0:  // a gear ratio outside (1e-9, 1e9)
      addLinkAndJoint(b, rng, rotor, parent, randomAxis(rng), false, randomOrigin(rng));
      addCoupling(b, "badgear" + tag, link, rotor, 1e12);
      return "gear ratio 1e12";
    case 1: {  // an explicit independent="true" on the joint a coupling drives
      b.addLink(randomLink(rng, rotor));
      JointSpec j;
      j.name = rotor + "_joint";
      j.parent = parent;
      j.child = rotor;
      j.axis = randomAxis(rng);
      j.independent = true;
      j.independentGiven = true;
      b.addJoint(j);
      addCoupling(b, "badgear" + tag, link, rotor, 3.0);
      return "independent coupled joint";
    }
    default:  // a coupling naming a link that does not exist
      addCoupling(b, "badgear" + tag, link, "no_such_link" + tag, 3.0);
      return "coupling to an unknown link";
  }
}

/// The same program with every link's mass and rotational inertia scaled: one decade per
/// model over 1e-6 … 1e6 with ±1 decade per link, or (one model in four) each link anywhere
/// over 1e-6 … 1e6. Inertias scale with the mass, so the triangle inequality still holds.
inline ModelBuilder withScaledMasses(const ModelBuilder& in, ChoiceSource& choose, Rng& rng) {
  const bool spread = choose.pick(4) == 0;
  const double decade = uniform(rng, -6.0, 6.0);
  ModelBuilder out(in.name());
  out.setGravity(Vec3(0.0, 0.0, -9.81));
  for (LinkSpec l : in.links()) {
    const double exponent = spread ? uniform(rng, -6.0, 6.0) : std::clamp(decade + uniform(rng, -1.0, 1.0), -6.0, 6.0);
    const double scale = std::pow(10.0, exponent);
    l.mass *= scale;
    l.inertia *= scale;
    out.addLink(l);
  }
  for (const JointSpec& j : in.joints()) out.addJoint(j);
  for (const LoopSpec& l : in.loops()) out.addLoop(l);
  for (const CouplingSpec& c : in.couplings()) out.addCoupling(c);
  for (const ConstraintSpec& c : in.constraints()) out.addConstraint(c);
  return out;
}

}  // namespace program

/// A random program: an optional floating base, then 1-6 mechanisms, each hung from a random
/// link already placed; one program in sixteen also carries a deliberate mistake.
inline RandomProgram randomClusterProgram(ChoiceSource& choose, Rng& rng) {
  using namespace program;
  ModelBuilder b("random_program");
  const bool floating = choose.pick(3) == 0;
  std::vector<std::string> hosts{startModel(b, rng, floating)};
  std::string description = floating ? "floating base" : "fixed base";
  const int count = 1 + choose.pick(6);
  for (int m = 0; m < count; ++m) {
    const int kind = choose.pick(kCount);
    const std::string parent = hosts[static_cast<std::size_t>(choose.pick(static_cast<int>(hosts.size())))];
    const std::string tag = "_m" + std::to_string(m);
    for (const std::string& link : addMechanism(b, choose, rng, kind, parent, tag)) hosts.push_back(link);
    description += std::string(", ") + mechanismName(kind) + " on " + parent;
  }
  RandomProgram p;
  if (choose.pick(16) == 0) {
    const std::string parent = hosts[static_cast<std::size_t>(choose.pick(static_cast<int>(hosts.size())))];
    description += ", mistake: " + addMistake(b, choose, rng, parent, "_x");
    p.hasMistake = true;
  }
  p.builder = withScaledMasses(b, choose, rng);
  p.description = description;
  return p;
}

}  // namespace grbda::testsupport
