// grbda.tree: Featherstone's algorithms on the spanning tree, loops ignored (the ground truth for
// models without loops, and H_tree, C_tree of the baselines). The library does not validate
// their inputs (its public entry points do), so the sizes and finiteness are checked here.
#include "bindings.hpp"
#include "convert.hpp"
#include "grbda/algorithms/tree.hpp"

namespace grbda::python {

namespace {

/// A spanning-sized vector: `n` finite entries, else InputError.
VecX spanningVector(py::handle x, Eigen::Index n, const char* what, const char* function) {
  VecX v = toVector(x, what);
  if (v.size() != n)
    throw InputError(std::string(function) + ": " + what + " has " + std::to_string(v.size()) + " entries, expected " +
                     std::to_string(n) + " (spanning coordinates)");
  if (!v.allFinite()) throw InputError(std::string(function) + ": " + what + " is not finite");
  return v;
}

struct TreeCall {
  const Model& model;
  const char* function;
  VecX q(py::handle x) const { return spanningVector(x, model.nqSpanning(), "q", function); }
  VecX v(py::handle x, const char* what = "v") const { return spanningVector(x, model.nvSpanning(), what, function); }
};

constexpr const char* kTreeDoc = " Spanning-tree coordinates: q (nq_spanning), v, qdd, tau (nv_spanning); loops ignored.";

std::string doc(const char* text) { return std::string(text) + kTreeDoc; }

}  // namespace

void bindTree(py::module_& parent) {
  py::module_ m = parent.def_submodule("tree", "Featherstone's recursive algorithms on the spanning tree (loops ignored).");
  m.def(
      "forward_kinematics",
      [](const Model& model, BoundData& bd, ArrayLike q, ArrayLike v, ArrayLike qdd) {
        const TreeCall c{model, "tree.forward_kinematics"};
        Data& d = bd.of(model, c.function);
        if (v.is_none() && !qdd.is_none()) throw InputError("tree.forward_kinematics: qdd given without v");
        if (v.is_none()) tree::forwardKinematics(model, d, c.q(q));
        else if (qdd.is_none()) tree::forwardKinematics(model, d, c.q(q), c.v(v));
        else tree::forwardKinematics(model, d, c.q(q), c.v(v), c.v(qdd, "qdd"));
      },
      py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v") = py::none(), py::arg("qdd") = py::none(),
      doc("forward_kinematics(model, data, q, v=None, qdd=None): poses (+ velocities, + true accelerations).").c_str());
  m.def(
      "rnea",
      [](const Model& model, BoundData& bd, ArrayLike q, ArrayLike v, ArrayLike qdd, ArrayLike fext) {
        const TreeCall c{model, "tree.rnea"};
        const auto f = toExternalForces(fext, model);
        return VecX(tree::rnea(model, bd.of(model, c.function), c.q(q), c.v(v), c.v(qdd, "qdd"), f.empty() ? nullptr : &f));
      },
      py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v"), py::arg("qdd"), py::arg("fext") = py::none(),
      doc("rnea(model, data, q, v, qdd, fext=None) -> tau = H qdd + C - J^T fext.").c_str());
  m.def(
      "aba",
      [](const Model& model, BoundData& bd, ArrayLike q, ArrayLike v, ArrayLike tau, ArrayLike fext,
         ArrayLike armature) {
        const TreeCall c{model, "tree.aba"};
        const auto f = toExternalForces(fext, model);
        VecX arm;
        if (!armature.is_none()) arm = c.v(armature, "armature");
        return VecX(tree::aba(model, bd.of(model, c.function), c.q(q), c.v(v), c.v(tau, "tau"), f.empty() ? nullptr : &f,
                              armature.is_none() ? nullptr : &arm));
      },
      py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v"), py::arg("tau"), py::arg("fext") = py::none(),
      py::arg("armature") = py::none(),
      doc("aba(model, data, q, v, tau, fext=None, armature=None) -> qdd = (H + diag(armature))^-1 (tau - C + J^T fext).")
          .c_str());
  m.def(
      "crba",
      [](const Model& model, BoundData& bd, ArrayLike q) {
        const TreeCall c{model, "tree.crba"};
        return MatX(tree::crba(model, bd.of(model, c.function), c.q(q)));
      },
      py::arg("model"), py::arg("data"), py::arg("q"), doc("crba(model, data, q) -> H_tree (nv_spanning square).").c_str());
  m.def(
      "non_linear_effects",
      [](const Model& model, BoundData& bd, ArrayLike q, ArrayLike v, ArrayLike fext) {
        const TreeCall c{model, "tree.non_linear_effects"};
        const auto f = toExternalForces(fext, model);
        return VecX(tree::nonLinearEffects(model, bd.of(model, c.function), c.q(q), c.v(v), f.empty() ? nullptr : &f));
      },
      py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v"), py::arg("fext") = py::none(),
      doc("non_linear_effects(model, data, q, v, fext=None) -> C_tree (gravity and velocity products).").c_str());
  m.def(
      "frame_jacobian",
      [](const Model& model, BoundData& bd, FrameLike frame, ArrayLike point, ReferenceFrame axes) {
        Mat6X J;
        tree::frameJacobian(model, bd.of(model, "tree.frame_jacobian"), toFrame(frame, model), toVec3(point, "point"),
                            axes, J);
        return J;
      },
      py::arg("model"), py::arg("data"), py::arg("frame"), py::arg("point") = Vec3::Zero().eval(),
      py::arg("reference") = ReferenceFrame::LocalWorldAligned,
      doc("frame_jacobian(model, data, frame, point=0, reference=LOCAL_WORLD_ALIGNED) -> J (6 x nv_spanning) at the "
          "poses of the last tree.forward_kinematics.")
          .c_str());
}

}  // namespace grbda::python
