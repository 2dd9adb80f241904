// The constraint force algorithm (algorithms/cfa.hpp) and joint reaction wrenches
// (algorithms/reactions.hpp): results are returned as new arrays (copies of the workspace).
#include <memory>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "convert.hpp"
#include "grbda/algorithms/cfa.hpp"
#include "grbda/algorithms/cluster_cfa.hpp"
#include "grbda/algorithms/reactions.hpp"
#include "grbda/errors.hpp"

namespace grbda::python {

namespace {

/// A CFA workspace with the model it was prepared for (kept alive by the Python object).
template <class Workspace>
struct BoundWorkspace {
  template <class... Options>
  explicit BoundWorkspace(const Model& m, const Options&... options) : model(&m), cfa(m, options...) {}
  Workspace& of(const Model& m, const char* function) {
    if (m.id() != model->id())
      throw InputError(std::string(function) + ": this workspace was prepared for model '" + model->name() +
                       "', not '" + m.name() + "'");
    return cfa;
  }
  const Model* model;
  Workspace cfa;
};
using BoundCfa = BoundWorkspace<CfaData>;
using BoundClusterCfa = BoundWorkspace<ClusterCfaData>;

CfaBasis basisFromName(const std::string& name) {
  if (name == "identity") return CfaBasis::Identity;
  if (name == "inertia") return CfaBasis::Inertia;
  throw InputError("CfaData: basis must be 'identity' or 'inertia', got '" + name + "'");
}

/// Per-body spatial forces as an (n, 6) array.
MatX wrenchRows(const std::vector<Vec6>& wrenches) {
  MatX rows(static_cast<Eigen::Index>(wrenches.size()), 6);
  for (size_t i = 0; i < wrenches.size(); ++i) rows.row(static_cast<Eigen::Index>(i)) = wrenches[i].transpose();
  return rows;
}

}  // namespace

void bindCfa(py::module_& m) {
  py::class_<BoundCfa>(m, "CfaData",
                       "Workspace of the constraint force algorithm (seed 004) for a model whose cluster tree is a "
                       "chain with short side branches and no loops; InputError naming the body or cluster when CFA "
                       "does not apply (cfa_unsupported_reason says why beforehand).")
      .def(py::init([](const Model& model, int threads, const std::string& basis, int maxBranchDepth) {
             CfaOptions options;
             options.threads = threads;
             options.basis = basisFromName(basis);
             options.maxBranchDepth = maxBranchDepth;
             return std::make_unique<BoundCfa>(model, options);
           }),
           py::arg("model"), py::arg("threads") = 1, py::arg("basis") = "identity", py::arg("max_branch_depth") = -1,
           py::keep_alive<1, 2>(),
           "CfaData(model, threads=1, basis='identity', max_branch_depth=-1): threads > 1 starts a pool for "
           "cfa_parallel_forward_dynamics; basis 'inertia' makes the workless wrenches unit- and origin-invariant.")
      .def_property_readonly("chain_bodies", [](const BoundCfa& b) { return b.cfa.chainBodies(); },
                             "bodies of the main chain, root first")
      .def_property_readonly("threads", [](const BoundCfa& b) { return b.cfa.threads(); })
      .def_property_readonly("reduction_levels", [](const BoundCfa& b) { return b.cfa.reductionLevels(); },
                             "cyclic-reduction levels of the last parallel solve (0 before one)")
      .def_property_readonly("qdd", [](const BoundCfa& b) { return VecX(b.cfa.qdd); },
                             "accelerations of the last call (nv)")
      .def_property_readonly(
          "joint_wrench", [](const BoundCfa& b) { return wrenchRows(b.cfa.jointWrench); },
          "(bodies, 6): per body the wrench its parent exerts on it through its joint, [moment about the world "
          "origin; force], world axes (N m, N), actuation included")
      .def_property_readonly(
          "constraint_wrench", [](const BoundCfa& b) { return wrenchRows(b.cfa.constraintWrench); },
          "(bodies, 6): the workless part of joint_wrench (in the joint's constraint-force space)");
  m.def("cfa_unsupported_reason", [](const Model& model) { return cfaUnsupportedReason(model); }, py::arg("model"),
        "Why CFA does not apply to the model ('' when it does).");
  m.def(
      "cfa_forward_dynamics",
      [](const Model& model, BoundCfa& b, ArrayLike q, ArrayLike v, ArrayLike tau) {
        return VecX(cfaForwardDynamics(model, b.of(model, "cfa_forward_dynamics"), toVector(q, "q"), toVector(v, "v"),
                                       toVector(tau, "tau")));
      },
      py::arg("model"), py::arg("cfa"), py::arg("q"), py::arg("v"), py::arg("tau"),
      "cfa_forward_dynamics(model, cfa, q, v, tau) -> qdd\n\nSerial CFA (seed 004 Eq. 16); the joint wrenches are "
      "left in cfa.joint_wrench and cfa.constraint_wrench.");
  m.def(
      "cfa_parallel_forward_dynamics",
      [](const Model& model, BoundCfa& b, ArrayLike q, ArrayLike v, ArrayLike tau) {
        CfaData& cfa = b.of(model, "cfa_parallel_forward_dynamics");
        const VecX qv = toVector(q, "q"), vv = toVector(v, "v"), tv = toVector(tau, "tau");
        py::gil_scoped_release release;
        return VecX(cfaParallelForwardDynamics(model, cfa, qv, vv, tv));
      },
      py::arg("model"), py::arg("cfa"), py::arg("q"), py::arg("v"), py::arg("tau"),
      "cfa_parallel_forward_dynamics(model, cfa, q, v, tau) -> qdd\n\nCFA by block cyclic reduction on "
      "cfa.threads threads (the GIL is released).");

  py::class_<BoundClusterCfa>(m, "ClusterCfaData",
                              "Workspace of the cluster CFA (spec §3.6 C5, research): the CFA with whole clusters in "
                              "place of joints, for a model with loops whose clusters hang one per body and whose "
                              "bodies all have positive-definite inertias (cluster_cfa_unsupported_reason says why "
                              "not). Serial.")
      .def(py::init([](const Model& model) { return std::make_unique<BoundClusterCfa>(model); }), py::arg("model"),
           py::keep_alive<1, 2>())
      .def("block_size", [](const BoundClusterCfa& b, int cluster) { return b.cfa.blockSize(cluster); },
           py::arg("cluster"), "rows 6 n_k − d_k of cluster k's block of the immobilised system")
      .def_property_readonly("system_size", [](const BoundClusterCfa& b) { return b.cfa.systemSize(); })
      .def_property_readonly("qdd", [](const BoundClusterCfa& b) { return VecX(b.cfa.qdd); },
                             "accelerations of the last call (nv)");
  m.def("cluster_cfa_unsupported_reason", [](const Model& model) { return clusterCfaUnsupportedReason(model); },
        py::arg("model"), "Why the cluster CFA does not apply to the model ('' when it does).");
  m.def(
      "cluster_cfa_forward_dynamics",
      [](const Model& model, BoundClusterCfa& b, ArrayLike q, ArrayLike v, ArrayLike tau) {
        return VecX(clusterCfaForwardDynamics(model, b.of(model, "cluster_cfa_forward_dynamics"), toVector(q, "q"),
                                              toVector(v, "v"), toVector(tau, "tau")));
      },
      py::arg("model"), py::arg("cfa"), py::arg("q"), py::arg("v"), py::arg("tau"),
      "cluster_cfa_forward_dynamics(model, cfa, q, v, tau) -> qdd\n\nThe cluster CFA (block elimination over the "
      "cluster tree); equals forward_dynamics.");

  py::class_<JointReaction>(m, "JointReaction", "The wrench a parent body exerts on its child through the joint.")
      .def_readonly("joint", &JointReaction::joint, "the joint's name (a loop cluster: the cluster's name)")
      .def_readonly("body", &JointReaction::body)
      .def_readonly("cluster", &JointReaction::cluster)
      .def_readonly("whole_cluster", &JointReaction::wholeCluster, "True for a cluster with more than one body (a loop, a geared or belt coupling): the reaction is "
                    "the output body's wrench on the whole cluster at its first joint, not one joint's")
      .def_property_readonly("origin", [](const JointReaction& r) { return Vec3(r.origin); },
                             "world position of the joint frame, the moment's reference point (m)")
      .def_property_readonly("moment", [](const JointReaction& r) { return Vec3(r.moment); }, "world axes (N m)")
      .def_property_readonly("force", [](const JointReaction& r) { return Vec3(r.force); }, "world axes (N)");
  m.def(
      "joint_reactions", [](const Model& model, BoundData& d) { return jointReactions(model, d.of(model, "joint_reactions")); },
      py::arg("model"), py::arg("data"),
      "joint_reactions(model, data) -> [JointReaction]\n\nAfter inverse_dynamics: every joint's reaction wrench "
      "(one per body; one per loop cluster), world axes, moment about the joint origin.");
}

}  // namespace grbda::python
