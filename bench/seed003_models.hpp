#pragma once
// The robots and mechanisms of seed 003's experiments (Sathya et al., Table II and Fig. 2, 4),
// built in code with ModelBuilder — no model file is read or copied. Shared by bench_seed003,
// seed003_counts (the callgrind driver of tools/count_seed003.sh) and tests/test_seed003_models.
//
//   iiwa    7-DoF arm, fixed base, revolute z/y/z/y/z/y/z, end frame "ee"
//   go1     18 DoF: floating trunk + 4 legs (hip x, thigh y, calf y), foot frames "FR_foot", ...
//   atlas   37 DoF: floating pelvis, torso 3, neck 2, arms 2x7, legs 2x6
//   talos   50 DoF: floating base, torso 2, head 2, arms 2x7, legs 2x6, grippers 2x7
//           (Talos' gripper joints, independent here as in the 50-DoF model the paper counts)
//   chain:N     N revolute joints, axes alternating z, y; end link "link_N"
//   ladder:M    M rungs (7 links each) on a side rail of 3-link segments, rung tips welded
//   stem:S:B    a stem of S links, B branches of 7 links from each stem end, tips welded
//
// Physical parameters (masses, lengths, inertias of uniform boxes and rods) are round numbers of
// the size of the real robots' published totals, documented next to each table in the .cpp file;
// nothing is taken from a model file. Humanoid limbs: the hand constraint acts on the last arm
// link ("l_hand", "r_hand"), the foot constraint on the last leg link ("l_foot", "r_foot").
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "grbda/grbda.hpp"

namespace grbda::seed003 {

/// The serial chain shared with the KDL comparison: each link a rod of kChainLinkLength along
/// its z axis (joint k+1 sits at (0, 0, L) of link k; joint 1 at the world origin), mass
/// kChainLinkMass, COM at (0, 0, L/2), radius kChainLinkRadius.
constexpr double kChainLinkLength = 0.2;
constexpr double kChainLinkMass = 1.0;
constexpr double kChainLinkRadius = 0.03;
/// Axis of joint k (1-based) of the chain: z for odd k, y for even k.
Vec3 chainAxis(int k);
/// Rotational inertia of a chain link about its COM (link axes): a solid rod.
Mat3 chainLinkInertia();

Model iiwaLike();
Model go1Like();
Model atlasLike();
Model talosLike();
Model zyChain(int n);
Model ladder(int rungs);
Model stemAndBranches(int stemLinks, int branchesPerEnd, int branchLength = 7);

/// One constraint of a set at the origin of a link or frame: a 3-D point contact, a 6-D weld
/// (classical p̈ = 0, ω̇ = 0), or Custom = six rows K = I₆, k = 0 on the spatial acceleration
/// (what KDL's Vereshchagin solver constrains; equal to the weld at q̇ = 0).
struct ConstraintItem {
  ConstraintKind kind = ConstraintKind::Weld;
  std::string link;
};

/// A named constraint set (seed 003's notation: "0", "H3", "H", "F3", "2F3", "2F+H", ...).
struct ConstraintSet {
  std::string name;
  std::vector<ConstraintItem> items;
  int rows() const;
};

/// A robot or mechanism by name: "iiwa", "go1", "atlas", "talos", "chain:N", "ladder:M",
/// "stem:S:B", or a bundled model "mini_cheetah", "mit_humanoid", "jvrc1_humanoid" (loaded from
/// `modelsDir`, the repository's models/). InputError for an unknown name.
Model buildModel(const std::string& name, const std::string& modelsDir = {});

/// The constraint sets benchmarked on a model: Table II's for the four robots, the analogous
/// ones for the bundled robots, the end-effector weld for chains ("0", "W", and "K6" = the
/// Custom rows, KDL's constraint), all welds ("W")
/// for the ladder and the stem. InputError for an unknown name.
std::vector<ConstraintSet> constraintSets(const std::string& name);
/// The set named `set` of constraintSets(name); InputError listing the valid ones otherwise.
ConstraintSet constraintSet(const std::string& name, const std::string& set);

/// One row of seed 003's Table II (robot, constraint set).
struct TableCase {
  std::string robot, set;
};
/// Table II's rows (iiwa, go1, atlas, talos), then, with `withBundled`, the bundled robots.
std::vector<TableCase> tableIICases(bool withBundled);

/// The constrained solvers as columns of the paper's table, in its order, plus our KKT.
/// `name` is the ConstraintSolver name (constraintSolverFromName); solvers this build does not
/// have yet (ltl, ltl-soft on other branches when this was written) are skipped by availableSolver.
struct SolverColumn {
  const char* label;  ///< the paper's column: PV, PV-e, LTL, PV-s, LTL-s (KKT: ours)
  const char* name;   ///< constraintSolverFromName
  bool soft;          ///< needs a compliance on every row
};
const std::vector<SolverColumn>& solverColumns();
/// The solver called `name`, or nothing when this build does not have it.
std::optional<ConstraintSolver> availableSolver(const std::string& name);

/// The compliance R given to every row for the soft solvers (PV-soft, LTL-soft).
constexpr double kSoftCompliance = 1e-6;

/// A model, its constraints and `states` pseudo-random states (joint angles, velocities and
/// torques uniform in [-0.5, 0.5]; floating bases at height 1 m, identity orientation). The
/// model lives on the heap so that the ConstraintModel's reference to it stays valid.
struct Problem {
  std::unique_ptr<Model> model;
  std::unique_ptr<ConstraintModel> constraints;
  std::vector<VecX> q, v, tau;
};
Problem makeProblem(Model model, const ConstraintSet& set, int states = 16, unsigned seed = 7);

}  // namespace grbda::seed003
