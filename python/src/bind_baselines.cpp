// The baselines the cluster algorithms are measured against: projection and Lagrange multipliers
// on the spanning tree, the proximal & sparse solver, and the approximate (reflected-inertia) models.
#include "bindings.hpp"
#include "constraints.hpp"
#include "grbda/baselines/approximate.hpp"
#include "grbda/baselines/osim_baselines.hpp"
#include "grbda/baselines/projection.hpp"
#include "osim.hpp"

namespace grbda::python {

namespace {

constexpr const char* kSameConventions = " Arguments as in forward_dynamics (q independent or spanning).";

void bindProjection(py::module_& m) {
  py::class_<ProjectionMatrices>(m, "ProjectionMatrices",
                                 "Global constraint matrices: qdot_span = G v, qddot_span = G qdd + g, K qddot_span = k.")
      .def_readonly("G", &ProjectionMatrices::G, "explicit constraint matrix, nv_spanning x nv")
      .def_readonly("g", &ProjectionMatrices::g, "explicit constraint bias (nv_spanning)")
      .def_readonly("K", &ProjectionMatrices::K, "implicit constraint matrix, rows x nv_spanning")
      .def_readonly("k", &ProjectionMatrices::k, "implicit constraint bias");
  m.attr("ConstraintMatrices") = m.attr("ProjectionMatrices");  // old name, kept for scripts
  m.def(
      "projection_matrices",
      [](const Model& model, BoundData& d, ArrayLike q, ArrayLike v) {
        ProjectionMatrices out;
        projectionMatrices(model, d.of(model, "projection_matrices"), toVector(q, "q"), toVector(v, "v"), out);
        return out;
      },
      py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v"),
      "projection_matrices(model, data, q, v) -> ProjectionMatrices (G, g, K, k) of all clusters, block-diagonal.");
  m.attr("constraint_matrices") = m.attr("projection_matrices");  // old name, kept for scripts
  m.def(
      "projection_inverse_dynamics",
      [](const Model& model, BoundData& d, ArrayLike q, ArrayLike v, ArrayLike qdd) {
        return projectionInverseDynamics(model, d.of(model, "projection_inverse_dynamics"), toVector(q, "q"),
                                         toVector(v, "v"), toVector(qdd, "qdd"));
      },
      py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v"), py::arg("qdd"),
      (std::string("The projection method's inverse dynamics (projected RNEA): tau = G^T RNEA_tree(q, qdot, "
                   "G qdd + g).") +
       kSameConventions)
          .c_str());
  m.def(
      "projection_forward_dynamics",
      [](const Model& model, BoundData& d, ArrayLike q, ArrayLike v, ArrayLike tau) {
        return projectionForwardDynamics(model, d.of(model, "projection_forward_dynamics"), toVector(q, "q"),
                                         toVector(v, "v"), toVector(tau, "tau"));
      },
      py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v"), py::arg("tau"),
      (std::string("Projection method: qdd = (G^T H_tree G)^-1 (tau - G^T (C_tree + H_tree g)).") + kSameConventions).c_str());
  m.def(
      "lagrange_forward_dynamics",
      [](const Model& model, BoundData& d, ArrayLike q, ArrayLike v, ArrayLike tau) {
        return lagrangeForwardDynamics(model, d.of(model, "lagrange_forward_dynamics"), toVector(q, "q"),
                                       toVector(v, "v"), toVector(tau, "tau"));
      },
      py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v"), py::arg("tau"),
      (std::string("Lagrange multipliers: dense KKT on the spanning tree with tau_tree = pinv(G^T) tau; returns qdd.") +
       kSameConventions).c_str());
  m.def(
      "projection_mass_matrix",
      [](const Model& model, BoundData& d, ArrayLike q) {
        return projectionMassMatrix(model, d.of(model, "projection_mass_matrix"), toVector(q, "q"));
      },
      py::arg("model"), py::arg("data"), py::arg("q"), "The projection method's mass matrix G^T H_tree G (nv x nv).");
  m.def(
      "projection_bias_forces",
      [](const Model& model, BoundData& d, ArrayLike q, ArrayLike v) {
        return projectionBiasForces(model, d.of(model, "projection_bias_forces"), toVector(q, "q"), toVector(v, "v"));
      },
      py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v"),
      "The projection method's bias G^T (C_tree + H_tree g) (nv).");
  m.def(
      "projection_inverse_operational_space_inertia",
      [](const Model& model, BoundData& d, EndEffectorsLike endEffectors, ArrayLike q, bool linearOnly) {
        return projectionInverseOperationalSpaceInertia(
            model, d.of(model, "projection_inverse_operational_space_inertia"), toEndEffectors(endEffectors, model),
            toVector(q, "q"), linearOnly);
      },
      py::arg("model"), py::arg("data"), py::arg("end_effectors"), py::arg("q"), py::arg("linear_only") = false,
      "Λ⁻¹ = J_y (G^T H_tree G)^-1 J_y^T formed densely on the spanning tree; end_effectors and layout as in "
      "OsimSet / inverse_operational_space_inertia.");
  // the old names (projected_...), kept for existing scripts
  for (const char* name : {"inverse_dynamics", "mass_matrix", "bias_forces", "inverse_operational_space_inertia"})
    m.attr(("projected_" + std::string(name)).c_str()) = m.attr(("projection_" + std::string(name)).c_str());
}

void bindProximal(py::module_& m) {
  py::enum_<ProximalConstraintRows>(m, "ProximalConstraintRows", "Which constraint rows the proximal solver uses.")
      .value("CLUSTER", ProximalConstraintRows::Cluster, "the model's own rows (redundant loop rows removed)")
      .value("LOOP_POINT_3D", ProximalConstraintRows::LoopPoint3D, "each <loop> as an unreduced 3-D point constraint")
      .value("LOOP_FULL", ProximalConstraintRows::LoopFull, "each <loop> as point + orientation rows, unreduced");
  py::class_<ProximalSettings>(m, "ProximalSettings", "Settings of the proximal solver.")
      .def(py::init([](double mu, int maxIterations, double tolerance, ProximalConstraintRows rows) {
             return ProximalSettings{mu, maxIterations, tolerance, rows};
           }),
           py::arg("mu") = 1e-8, py::arg("max_iterations") = 20, py::arg("tolerance") = 1e-10,
           py::arg("rows") = ProximalConstraintRows::Cluster)
      .def_readwrite("mu", &ProximalSettings::mu, "proximal regularisation >= 0 (0: plain KKT)")
      .def_readwrite("max_iterations", &ProximalSettings::maxIterations, "cap on proximal iterations (>= 1)")
      .def_readwrite("tolerance", &ProximalSettings::tolerance, "stop when |K qdd - k|_inf <= tolerance")
      .def_readwrite("rows", &ProximalSettings::rows, "ProximalConstraintRows");
  py::class_<ProximalResult>(m, "ProximalResult", "Result of proximal_sparse_forward_dynamics.")
      .def_readonly("qdd", &ProximalResult::qdd, "independent accelerations (nv)")
      .def_readonly("qdd_spanning", &ProximalResult::qddSpanning, "accelerations of every spanning coordinate")
      .def_readonly("lambda_", &ProximalResult::lambda, "multipliers, one per constraint row")
      .def_readonly("iterations", &ProximalResult::iterations, "proximal iterations run")
      .def_readonly("primal_residual", &ProximalResult::primalResidual, "|K qdd - k|_inf at the result")
      .def_readonly("dual_residual", &ProximalResult::dualResidual, "|H qdd + C - tau_tree - K^T lambda|_inf (roundoff only)")
      .def_readonly("lambda_change", &ProximalResult::lambdaChange, "|lambda_j - lambda_{j-1}|_inf of the last iteration")
      .def_readonly("converged", &ProximalResult::converged, "primal_residual <= tolerance");
  m.def(
      "proximal_sparse_forward_dynamics",
      [](const Model& model, BoundData& d, ArrayLike q, ArrayLike v, ArrayLike tau, const ProximalSettings& settings,
         const ConstraintModel* constraints, BoundConstraintData* cdata) {
        constexpr const char* name = "proximal_sparse_forward_dynamics";
        Data& data = d.of(model, name);
        if (constraints && !cdata)
          throw InputError(std::string(name) + ": constraints need cdata (grbda.ConstraintData(model, constraints)), "
                                               "where the constraint forces are returned");
        ConstraintData* forces = constraints ? &cdata->of(*constraints, name, &model) : nullptr;
        ProximalData& pd = d.proximal(model, constraints);
        const ProximalResult result = proximalSparseForwardDynamics(model, data, pd, toVector(q, "q"),
                                                                    toVector(v, "v"), toVector(tau, "tau"), settings);
        if (forces) {  // where constrained_forward_dynamics leaves them
          forces->lambda = pd.constraintData->lambda;
          forces->residual = pd.constraintData->residual;
          forces->iterations = result.iterations;
        }
        return result;
      },
      py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v"), py::arg("tau"),
      py::arg("settings") = ProximalSettings{}, py::arg("constraints") = nullptr, py::arg("cdata") = nullptr,
      py::keep_alive<2, 7>(),  // data's workspace refers to the ConstraintModel
      (std::string("proximal_sparse_forward_dynamics(model, data, q, v, tau, settings=ProximalSettings(), "
                   "constraints=None, cdata=None) -> ProximalResult\n\n"
                   "Constrained forward dynamics by the proximal method of multipliers on the spanning tree (sparse "
                   "KKT; its workspace is kept in data). Not converging is reported in result.converged, not raised. "
                   "With constraints (a ConstraintModel: contacts, welds, relative constraints, kept loops) their rows "
                   "join the sparse KKT system, each eliminated after its support path (the contact Cholesky of the "
                   "command's --method proximal-sparse); their forces are left in cdata.lambda_ and cdata.residual, "
                   "as constrained_forward_dynamics leaves them, and result.lambda_ ends with them. Not the proximal "
                   "method on the Delassus matrix (ConstraintSolver.PROXIMAL_DELASSUS).") +
       kSameConventions).c_str());
  m.attr("forward_dynamics_proximal") = m.attr("proximal_sparse_forward_dynamics");  // old name, kept for scripts
}

void bindApproximate(py::module_& m) {
  py::enum_<RotorApproximation>(m, "RotorApproximation", "How the approximate model keeps the rotors.")
      .value("NONE", RotorApproximation::None, "dropped ('unconstrained')")
      .value("DIAGONAL", RotorApproximation::Diagonal, "reflected inertia as joint armature ('approximate')")
      .value("BLOCK_DIAGONAL", RotorApproximation::BlockDiagonal, "full per-cluster reflected-inertia blocks");
  py::class_<ApproximateModel>(m, "ApproximateModel",
                               "The independent tree of a constrained model plus a constant joint-space offset H_off "
                               "(the rotors' reflected inertia). Use grbda.Data(approx.tree) with it.")
      .def_readonly("tree", &ApproximateModel::tree, "the tree of independent bodies (same independent q, v)")
      .def_readonly("approximation", &ApproximateModel::approximation, "RotorApproximation")
      .def_readonly("reflected_inertia", &ApproximateModel::reflectedInertia, "R (nv x nv)")
      .def_readonly("armature", &ApproximateModel::armature, "diag(H_off)")
      .def_readonly("mass_offset", &ApproximateModel::massOffset, "H_off")
      .def_readonly("unsupported_clusters", &ApproximateModel::unsupportedClusters,
                    "clusters left unconstrained (implicit loops, no reflected-inertia formula)");
  m.def("make_approximate_model", &makeApproximateModel, py::arg("model"), py::arg("approximation"),
        "The approximate model of a constrained model (RotorApproximation.NONE, DIAGONAL or BLOCK_DIAGONAL).");
  m.def("independent_tree_model", &independentTreeModel, py::arg("model"),
        "The tree of the bodies with independent joints (ModelError if its coordinate order would differ).");
  m.def(
      "reflected_inertia",
      [](const Model& model) {
        std::vector<std::string> unsupported;
        MatX R = reflectedInertia(model, &unsupported);
        return py::make_tuple(R, unsupported);
      },
      py::arg("model"), "reflected_inertia(model) -> (R, unsupported_cluster_names): R is nv x nv, block-diagonal.");

  const auto treeData = [](const ApproximateModel& a, BoundData& d, const char* fn) -> Data& { return d.of(a.tree, fn); };
  m.def(
      "approximate_forward_dynamics",
      [treeData](const ApproximateModel& a, BoundData& d, ArrayLike q, ArrayLike v, ArrayLike tau, ArrayLike fext) {
        const auto f = toExternalForces(fext, a.tree);
        return VecX(approximateForwardDynamics(a, treeData(a, d, "approximate_forward_dynamics"), toVector(q, "q"),
                                               toVector(v, "v"), toVector(tau, "tau"), f.empty() ? nullptr : &f));
      },
      py::arg("approx"), py::arg("data"), py::arg("q"), py::arg("v"), py::arg("tau"), py::arg("fext") = py::none(),
      "qdd = (H_tree + H_off)^-1 (tau - C_tree + J^T fext) on the approximate model; data = Data(approx.tree); q, v, "
      "tau: the original model's independent coordinates; fext per tree body.");
  m.def(
      "approximate_inverse_dynamics",
      [treeData](const ApproximateModel& a, BoundData& d, ArrayLike q, ArrayLike v, ArrayLike qdd, ArrayLike fext) {
        const auto f = toExternalForces(fext, a.tree);
        return VecX(approximateInverseDynamics(a, treeData(a, d, "approximate_inverse_dynamics"), toVector(q, "q"),
                                               toVector(v, "v"), toVector(qdd, "qdd"), f.empty() ? nullptr : &f));
      },
      py::arg("approx"), py::arg("data"), py::arg("q"), py::arg("v"), py::arg("qdd"), py::arg("fext") = py::none(),
      "tau = RNEA_tree(q, v, qdd) + H_off qdd - J^T fext on the approximate model; data = Data(approx.tree).");
  m.def(
      "approximate_mass_matrix",
      [treeData](const ApproximateModel& a, BoundData& d, ArrayLike q) {
        return MatX(approximateMassMatrix(a, treeData(a, d, "approximate_mass_matrix"), toVector(q, "q")));
      },
      py::arg("approx"), py::arg("data"), py::arg("q"), "H_tree(q) + H_off.");
  m.def(
      "approximate_bias_forces",
      [treeData](const ApproximateModel& a, BoundData& d, ArrayLike q, ArrayLike v) {
        return VecX(approximateBiasForces(a, treeData(a, d, "approximate_bias_forces"), toVector(q, "q"), toVector(v, "v")));
      },
      py::arg("approx"), py::arg("data"), py::arg("q"), py::arg("v"), "C_tree(q, v).");
  m.def(
      "approximate_inverse_operational_space_inertia",
      [treeData](const ApproximateModel& a, BoundData& d, const BoundOsimSet& set, ArrayLike q, bool linearOnly) {
        const char* fn = "approximate_inverse_operational_space_inertia";
        return MatX(approximateInverseOperationalSpaceInertia(a, treeData(a, d, fn), set.of(a.tree, fn),
                                                              toVector(q, "q"), linearOnly));
      },
      py::arg("approx"), py::arg("data"), py::arg("osim_set"), py::arg("q"), py::arg("linear_only") = false,
      "Λ⁻¹ = J (H_tree + H_off)^-1 J^T of the approximate model; osim_set = OsimSet(approx.tree, ...).");
}

}  // namespace

void bindBaselines(py::module_& m) {
  bindProjection(m);
  bindProximal(m);
  bindApproximate(m);
}

}  // namespace grbda::python
