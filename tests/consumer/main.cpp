// A downstream program that only sees the installed grbda (headers + libgrbda.so + CMake package).
// With a URDF path it runs the README's "Use from C++" example on that model. Without one it
// builds a pendulum in code and compares its forward dynamics with the closed-form answer.
// Either way inverse dynamics must give back the torques that were put in.
#include <grbda/grbda.hpp>

#include <cmath>
#include <iostream>
#include <type_traits>

namespace {

// The installed headers declare the workspaces of Data and ConstraintData but never define them
// (issue #26): a user's build cannot depend on the library's internals.
template <class T, class = void>
struct IsComplete : std::false_type {};
template <class T>
struct IsComplete<T, std::void_t<decltype(sizeof(T))>> : std::true_type {};
static_assert(!IsComplete<grbda::Data::Workspace>::value, "Data's workspace is defined in an installed header");
static_assert(!IsComplete<grbda::ConstraintData::Workspace>::value,
              "ConstraintData's workspace is defined in an installed header");

// Pendulum constants: a link of mass m whose centre of mass hangs l below a revolute joint
// about y, with rotational inertia Iyy about its centre of mass.
constexpr double m = 2.0, l = 0.5, Iyy = 0.03, g = 9.81, angle = 0.3;

grbda::Model pendulum() {
  grbda::ModelBuilder builder("pendulum");
  grbda::LinkSpec base, bob;
  base.name = "base";  // massless, fixed to the world
  bob.name = "bob";
  bob.mass = m;
  bob.com = grbda::Vec3(0.0, 0.0, -l);
  bob.inertia = grbda::Vec3(0.02, Iyy, 0.02).asDiagonal();
  builder.addLink(base);
  builder.addLink(bob);
  grbda::JointSpec hinge;
  hinge.name = "hinge";
  hinge.parent = "base";
  hinge.child = "bob";
  hinge.axis = grbda::Vec3::UnitY();
  builder.addJoint(hinge);
  return builder.build();
}

bool near(double a, double b) { return std::abs(a - b) <= 1e-9 * (1.0 + std::abs(b)); }

}  // namespace

int main(int argc, char** argv) try {
  const bool fromFile = argc > 1;
  const grbda::Model model = fromFile ? grbda::loadUrdf(argv[1]) : pendulum();
  grbda::Data data(model);  // per-thread workspace, sized once
  grbda::VecX q = model.neutralConfiguration();
  if (!fromFile) q[0] = angle;
  const grbda::VecX v = grbda::VecX::Zero(model.nv()), tau = grbda::VecX::Zero(model.nv());
  const grbda::VecX qdd = grbda::forwardDynamics(model, data, q, v, tau);  // falls under gravity
  const grbda::VecX tauBack = grbda::inverseDynamics(model, data, q, v, qdd);  // gives tau back
  std::cout << model.name() << ": nq = " << model.nq() << ", nv = " << model.nv() << "\n"
            << "qdd = " << qdd.transpose() << "\ntau = " << tauBack.transpose() << "\n";

  bool ok = tauBack.isZero(1e-9 * (1.0 + qdd.norm()));
  if (!fromFile) {
    // Rotating the centre of mass (0, 0, -l) by `angle` about y moves it to x = -l sin(angle);
    // gravity then pulls back with torque -m g l sin(angle) about the hinge.
    const double expected = -m * g * l * std::sin(angle) / (Iyy + m * l * l);
    std::cout << "closed form qdd = " << expected << "\n";
    ok = ok && near(qdd[0], expected);
  }
  std::cout << (ok ? "consumer: OK" : "consumer: MISMATCH") << "\n";
  return ok ? 0 : 1;
} catch (const grbda::Error& e) {
  std::cerr << "consumer: " << e.what() << "\n";
  return 1;
}
