#include "commands.hpp"

#include "inputs.hpp"

namespace grbda::cli {

namespace {
const char* kVectorNote =
    "Vectors are comma-separated numbers in the order of the model's coordinate names (see "
    "`grbda info MODEL`), e.g. --q 0.1,0.2,-1e-3. The neutral configuration is all zeros with unit "
    "quaternions (qw = 1) for floating joints, except in a loop cluster whose zero pose does not close "
    "or is singular, which takes a closed pose found when the model was loaded. --q-spanning gives "
    "every joint of the spanning tree instead (the output of `grbda complete`). --method picks the "
    "algorithm; the approximate ones take the independent positions of the tree without the "
    "dependent bodies (rotors, belts, driven loop links).";
}  // namespace

const std::vector<Command>& commandTable() {
  static const std::vector<Command> table = {
      {"info", "MODEL... [options]", "bodies, joints, frames and coordinate names of a model",
       "Prints the robot name, source file, nq, nv, whether the base floats, every body with its "
       "joint, joint type, axis and parent, the frames, and the position and velocity names. Several "
       "files are loaded as one robot. --dot prints the cluster tree as a Graphviz graph instead "
       "(grbda info MODEL --dot | dot -Tsvg -o tree.svg).",
       infoOptions(), runInfo},
      {"fd",
       "MODEL... [--q Q] [--v V] [--tau TAU] [--contact LINK[:X,Y,Z]]... [--weld LINK[:X,Y,Z]]... "
       "[--relative A[:X,Y,Z]/B[:X,Y,Z]]... [--relative-weld A/B]... [--method M] [options]",
       "forward dynamics: accelerations qdd",
       std::string("Solves H(q) qdd = tau - C(q, v) for qdd. With --method proximal the JSON also "
                   "gives the solver's \"iterations\" and \"residual\" (max constraint violation). "
                   "With --contact, --weld, --relative and --relative-weld the constrained dynamics "
                   "H qdd + C = tau + J^T lambda, J qdd + J' qd = 0, solved by --method pv (default), "
                   "pv-soft, kkt, proximal, ltl, ltl-soft or pv-early; the JSON adds \"contact_forces\" (per constraint in "
                   "command-line order: link, point, kind, force and for welds moment, world axes, what "
                   "the environment exerts on the robot; relative constraints add link2 and point2 and "
                   "give the force on the first link) and \"constraint_residual\". "
                   "--method cfa and cfa-parallel take a model without loops that is a chain with short "
                   "side branches; cfa also a model with loops whose clusters hang one per body (the "
                   "cluster CFA); cfa-parallel also gives \"threads\" and \"levels\" (cyclic-reduction "
                   "depth). ") + kVectorNote,
       dynamicsCommandOptions("fd"), runForwardDynamics},
      {"id", "MODEL... [--q Q] [--v V] [--a QDD] [--method M] [options]", "inverse dynamics: generalized forces tau",
       std::string("Computes tau = H(q) qdd + C(q, v). --reactions adds the joint reaction wrenches "
                   "(JSON \"joint_reactions\": per joint {\"joint\", \"moment\", \"force\", \"origin\", "
                   "\"whole_cluster\"}): the whole wrench the parent exerts on the child body through the "
                   "joint, actuation included, world axes, moment about the joint origin; a cluster with "
                   "loops gets one entry for the whole cluster. With --contact, --weld, --relative or --relative-weld the "
                   "contact-consistent inverse dynamics: H qdd + C = tau + J^T lambda with tau = 0 on a floating "
                   "base, lambda the minimum-norm forces that hold the base (JSON adds \"contact_forces\" as fd's, "
                   "\"tau\", \"base_residual\", \"base_rank\"); a qdd the rows do not allow, or contacts that "
                   "cannot hold the base, is exit code 4 naming the residual. ") + kVectorNote,
       dynamicsCommandOptions("id"), runInverseDynamics},
      {"mass-matrix", "MODEL... [--q Q] [--inverse] [--logdet] [--method M] [options]",
       "joint-space mass matrix H(q), its inverse or log det",
       std::string("Computes the symmetric nv x nv mass matrix H(q); JSON gives it as an array of "
                   "rows. ") + kVectorNote,
       dynamicsCommandOptions("mass-matrix"), runMassMatrix},
      {"osim", "MODEL... [--q Q] --point LINK:X,Y,Z [--point ...] [--linear] [--method M] [options]",
       "inverse operational-space inertia of points on links",
       std::string("Computes Lambda^-1 = J H(q)^-1 J^T for the stacked Jacobians J of the points: per "
                   "point a 6-D block (angular rows first, axes of the link, reference point at the "
                   "point), or with --linear the 3-D block of the point's linear velocity. JSON gives "
                   "the matrix as an array of rows and names them in \"result_labels\" (LINK:wx ... "
                   "LINK:vz). ") + kVectorNote,
       dynamicsCommandOptions("osim"), runOsim},
      {"com", "MODEL... [--q Q] [--v V] [options]", "centre of mass, its velocity, bias and Jacobian",
       std::string("Computes the centre of mass p_G (world frame; every body counts, rotors included), its "
                   "velocity, its acceleration at qdd = 0 without gravity (J_c' v), and the 3 x nv Jacobian "
                   "J_c with p_G' = J_c v. JSON keys \"mass\", \"com\", \"com_velocity\", "
                   "\"com_acceleration_bias\", \"com_jacobian\" (rows). ") + kVectorNote,
       wbcOptions(), runCom},
      {"centroidal", "MODEL... [--q Q] [--v V] [options]", "centroidal momentum, its matrix and its rate",
       std::string("Computes the centroidal momentum h_G = [linear; angular about the CoM] (world axes, the "
                   "rotors' spin included), the centroidal momentum matrix A_G (6 x nv, h_G = A_G v) and "
                   "dA_G/dt v (the rate of h_G at qdd = 0, gravity not included), in one pass over the "
                   "clusters. JSON keys \"centroidal_momentum\", \"centroidal_momentum_matrix\" (rows), "
                   "\"centroidal_bias\", and \"mass\", \"com\", \"centroidal_inertia\" (6 x 6, angular "
                   "first, about the CoM). ") + kVectorNote,
       wbcOptions(), runCentroidal},
      {"derivatives", "MODEL... [--q Q] [--v V] [--tau TAU | --qdd QDD] [--contact LINK[:X,Y,Z]]... [options]",
       "analytic derivatives of forward and inverse dynamics",
       std::string("Computes qdd = forward dynamics (q, v, tau) and, at that state, the partial derivatives "
                   "of qdd with respect to q, v and tau and of the inverse dynamics tau(q, v, qdd) with "
                   "respect to q and v, by recursive passes over the cluster tree (no finite differences "
                   "of the dynamics). Every matrix is nv x nv: position derivatives are taken in the "
                   "tangent space (a floating base moves by a body-frame twist [w; v], as `simulate` "
                   "integrates it). dqdd_dtau is H(q)^-1. With --qdd instead of --tau, the state's tau is "
                   "the inverse dynamics of qdd. JSON: \"qdd\", then \"dqdd_dq\", \"dqdd_dv\", "
                   "\"dqdd_dtau\", \"dtau_dq\", \"dtau_dv\" as arrays of rows. Vectors are comma-separated "
                   "numbers in the order of the model's coordinate names (`grbda info MODEL`); defaults: "
                   "the neutral configuration, zero v and tau. With fd's constraint flags (--contact, --weld, "
                   "--relative, --relative-weld, --baumgarte; hard constraints) the dqdd_* keys are the "
                   "derivatives of the constrained forward dynamics (KKT formula), dtau_dq and dtau_dv those "
                   "of the inverse dynamics with the constraint forces applied at fixed lambda, and JSON "
                   "adds \"constraint_row_names\", \"lambda\" and \"dlambda_dq\", \"dlambda_dv\", "
                   "\"dlambda_dtau\" (one row per constraint row)."),
       derivativesOptions(), runDerivatives},
      {"complete", "MODEL... [--q Q] [options]", "spanning-tree positions that close the loops",
       "Completes the independent positions --q to the positions of every joint of the spanning tree "
       "(Newton on the loop constraints, couplings applied) and prints them with their names (JSON: "
       "\"spanning_position_names\", \"result\"), ready for --q-spanning. Given --q-spanning, checks "
       "it and prints it back. Exit code 4 when the loops cannot be closed at this configuration.",
       completeOptions(), runComplete},
      {"simulate",
       "MODEL... [--q0 Q] [--v0 V] [--tau TAU] [--contact LINK[:X,Y,Z]]... [--weld LINK[:X,Y,Z]]... [--method M] "
       "[--duration S] [--dt H] [--integrator semi-implicit-euler|rk4] [--out traj.csv] [options]",
       "integrate the forward dynamics over time",
       "Integrates the forward dynamics from --q0, --v0 under the constant forces --tau for --duration "
       "seconds in steps of --dt: plain C-ABA (--method cluster) without constraints, the constrained "
       "solvers (pv, pv-soft, kkt, proximal, ltl, ltl-soft, pv-early) with --contact, --weld and --relative(-weld), which hold the points where they "
       "are at the start (--baumgarte T holds them against drift). The state is the independent "
       "coordinates: loops are closed at every step by the completion, a floating base moves on the "
       "quaternion manifold. Integrators: semi-implicit-euler (default) and rk4. Reports the final state, "
       "the energy at the start and end, the largest loop residual and, with constraints, the largest "
       "drift of a constrained point (JSON: \"steps\", \"duration\", \"dt\", \"integrator\", "
       "\"final_q\", \"final_v\", \"max_constraint_residual\", \"energy_start\", \"energy_end\", "
       "\"max_contact_drift\"). --out writes one CSV row per step (the start included). A progress bar "
       "appears on stderr when it is a terminal and the run lasts over a second.",
       simulateOptions(), runSimulate},
      {"view", "MODEL... [--q Q | --trajectory CSV] [--contact LINK[:X,Y,Z]]... --html FILE [options]",
       "an HTML page that draws the robot in 3-D (three.js), or plays a trajectory",
       "Writes one self-contained HTML page (three.js inlined from Debian's libjs-three; nothing is "
       "downloaded) that draws the robot at --q (default: neutral) or along --trajectory: links as "
       "cylinders between joint origins, rotors as discs, one colour per cluster, frames as small axes "
       "(x red, y green, z blue), --contact points in red. Drag to orbit, wheel to zoom; a trajectory "
       "gets a play button and a time slider. The trajectory CSV has the header t, then the position "
       "names of `grbda info` in order, then any other columns (ignored); an unknown column, a row of "
       "the wrong length or a non-finite number is exit code 2 naming the file and line. grbda computes "
       "every placement (forward kinematics per row); the page only draws.",
       viewOptions(), runView},
      {"bench", "[--robots R1,R2,...] [--quick] [options]", "time C-ABA, C-RNEA, C-EFPA against the baselines",
       "Times the cluster algorithms and the baselines of the papers (projection, Lagrange multipliers, "
       "proximal with 1 and 5 iterations, approximate rotor-free models, projected OSIM) on random valid "
       "states and prints median microseconds per call and the percentage relative to the cluster "
       "algorithm. Default robots: revolute_rotor_chain_12, revolute_belt_pair_chain_12, mini_cheetah, "
       "mit_humanoid, tello, jvrc1_humanoid. The OSIM end-effector is the deepest leaf link (one 6-D end-effector, as in the papers).",
       benchOptions(), runBench},
      {"impulse", "MODEL... [--q Q] [--v V] --contact LINK[:X,Y,Z]... [--weld LINK[:X,Y,Z]]... [--restitution E] [options]",
       "impact dynamics: post-impact velocities and contact impulses",
       std::string("Solves M (v+ - v-) = J^T impulses with J v+ = -e J v- on the rows of the contacts and welds "
                   "(Pinocchio's impulseDynamics), rotors and loops exact; e = --restitution in [0, 1] (default 0). "
                   "JSON: \"v_plus\" (also \"result\"), \"impulses\" (per constraint as fd's \"contact_forces\": "
                   "link, point, kind, force [N s], moment for welds), \"constraint_residual\" (max |J v+ + e J v-|) "
                   "and \"energy_change\" (T+ - T-, never positive). ") + kVectorNote,
       impulseOptions(), runImpulse},
      {"regressor", "MODEL... [--q Q] [--v V] [--a QDD] [options]",
       "inertial-parameter regressor Y with tau = Y parameters",
       std::string("Computes the inverse-dynamics regressor of the cluster dynamics, linear in 10 inertial "
                   "parameters per body (m, m*cx, m*cy, m*cz, Ixx, Ixy, Iyy, Ixz, Iyz, Izz about the body origin; "
                   "rotor bodies included, loops exact). JSON: \"regressor\" (nv rows, also \"result\"), "
                   "\"parameters\" (the model's), \"parameter_names\" (BODY.m, ...). ") + kVectorNote,
       regressorOptions(), runRegressor},
  };
  return table;
}

const Command* findCommand(const std::string& name) {
  for (const auto& c : commandTable())
    if (c.name == name) return &c;
  return nullptr;
}

}  // namespace grbda::cli
