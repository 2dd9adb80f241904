#pragma once
// Constraints between links and the world (or between two links) on top of the cluster tree:
// point contacts, welds, relative point and weld constraints (non-local loops) and custom rows
// (seed 003 §II: K_i a_i = k_i). A ConstraintModel is built once against a Model and validated
// as it is built (errors name the constraint); a ConstraintData (constraint_data.hpp) is its
// preallocated workspace and constrainedForwardDynamics (algorithms/constrained_dynamics.hpp)
// solves it.
//
// Conventions (docs/constraints.md):
//  * Rows are in world axes. A point contact makes the classical (world) acceleration of a point
//    fixed in a link zero: p̈ = 0 (3 rows x, y, z). A weld also makes the angular acceleration
//    zero: ω̇ = 0, angular rows first (6 rows). Relative constraints: p̈_A − p̈_B = 0 (and
//    ω̇_A − ω̇_B = 0 for a relative weld).
//  * Loop rows (a Model::keptLoopGroups group: loops and couplings kept as constraints) are
//    K(q) q̈ = k(q, q̇) over the group's joints, as the cluster would have used them; every
//    ConstraintModel starts with them, and their λ are generalised forces on those joints.
//  * Custom rows act on the link's spatial acceleration [ω̇; a_O] (Featherstone's, not the
//    classical one) in link coordinates: K a = k, K is m x 6, k in the same units.
//  * λ, the constraint force, is what the environment exerts on the robot: a force [N] (contact),
//    a moment about the point [N m] then a force (weld), the force on the first link (relative),
//    or the generalised force on the link Kᵀλ (custom). Rows keep the order the constraints were
//    added in.
//  * Soft rows (PV-soft, MuJoCo's soft Gauss principle): compliance R > 0 per row, in
//    acceleration per force (m s⁻² N⁻¹ for a point row), λ = R⁻¹ (k − K a); R → 0 is the hard
//    solution.
//  * Baumgarte stabilisation with time constant T (seed 003 uses 0.1 s), critically damped:
//    k = −(2/T) ė − (1/T²) e, the position error e measured from the reference pose captured by
//    ConstraintData::setReference (default: the pose at the first solve).
#include <memory>
#include <string>
#include <vector>

#include "grbda/model.hpp"

namespace grbda {

/// The library's kinds, each one class in src/constraints/kinds/; Other: a kind defined outside
/// the library (a ConstraintType subclass, constraint_type.hpp).
enum class ConstraintKind { PointContact, Weld, RelativePoint, RelativeWeld, Custom, Loop, Other };

/// The name of a kind as the command line and JSON spell it: "contact", "weld", "relative",
/// "relative-weld", "custom", "loop" ("other" for Other; Constraint::kindName gives its own).
const char* constraintKindName(ConstraintKind kind);

class ConstraintType;

/// One constraint as the user stated it, plus what validation derived from it.
struct Constraint {
  std::string name;          ///< for messages and reports: the link name unless given
  ConstraintKind kind = ConstraintKind::PointContact;  ///< what it constrains
  ///@{
  std::string link, link2;   ///< the frame (link) names; link2 only for relative constraints
  ///@}
  ///@{
  Vec3 point = Vec3::Zero(), point2 = Vec3::Zero();  ///< in the link frames' coordinates
  ///@}
  MatX K;                    ///< custom rows (m x 6, link coordinates)
  VecX k;                    ///< custom right-hand side (m)
  // derived by validation
  ///@{
  int frame = -1, frame2 = -1;  ///< model frame indices (frame2 = -1: the world)
  ///@}
  ///@{
  int body = -1, body2 = -1;    ///< bodies carrying the frames (-1: the world)
  ///@}
  ///@{
  Vec3 bodyPoint = Vec3::Zero(), bodyPoint2 = Vec3::Zero();  ///< the points in body coordinates
  ///@}
  ///@{
  int row = 0, numRows = 0;     ///< its rows in λ
  ///@}
  int loop = -1;                ///< Loop: index into Model::keptLoopGroups()
  /// The class that validates it and writes its rows (constraint_type.hpp); shared by copies.
  std::shared_ptr<const ConstraintType> type;

  /// The kind's name as its class spells it ("contact", ..., or a user kind's own).
  const char* kindName() const;

  /// Between two links (RelativePoint, RelativeWeld) rather than a link and the world.
  bool isRelative() const { return kind == ConstraintKind::RelativePoint || kind == ConstraintKind::RelativeWeld; }
  /// Locks orientation too (Weld, RelativeWeld): three angular rows before the linear ones.
  bool hasAngularRows() const { return kind == ConstraintKind::Weld || kind == ConstraintKind::RelativeWeld; }
};

/// The constraints of one problem, validated against `model` as they are added (InputError
/// naming the constraint). Build it once; ConstraintData sizes itself from it.
class ConstraintModel {
 public:
  /// Starts with one Loop constraint per Model::keptLoopGroups() group (the loops the model
  /// keeps as constraint rows), so that their rows come first.
  explicit ConstraintModel(const Model& model);
  /// The number of Loop constraints at the front (those of Model::keptLoopGroups()).
  int numKeptLoopGroups() const { return numLoops_; }
  int numLoopConstraints() const { return numLoops_; }  ///< Old name of numKeptLoopGroups(), kept for existing code.

  /// p̈ = 0 for `point` (link coordinates) of link `link`. Returns the constraint's index.
  int addPointContact(const std::string& link, const Vec3& point = Vec3::Zero(), const std::string& name = {});
  /// ω̇ = 0 and p̈ = 0 at `point` of `link`.
  int addWeld(const std::string& link, const Vec3& point = Vec3::Zero(), const std::string& name = {});
  /// p̈_A = p̈_B for point A of linkA and point B of linkB (a ball joint closing a loop).
  int addRelativePoint(const std::string& linkA, const Vec3& pointA, const std::string& linkB, const Vec3& pointB,
                       const std::string& name = {});
  /// ω̇_A = ω̇_B and p̈_A = p̈_B (a rigid connection closing a loop).
  int addRelativeWeld(const std::string& linkA, const Vec3& pointA, const std::string& linkB, const Vec3& pointB,
                      const std::string& name = {});
  /// K a = k on the spatial acceleration of `link` (link coordinates); K is m x 6, k has m rows.
  int addCustomRows(const std::string& link, const MatX& K, const VecRef& k, const std::string& name = {});
  /// A constraint of any kind: `type` validates `stated` (its link, point, ... as the kind reads
  /// them) against the model and writes its rows. Returns the constraint's index. This is how a
  /// kind defined outside the library is added (constraint_type.hpp).
  int add(std::shared_ptr<const ConstraintType> type, Constraint stated = {});

  /// The same compliance R > 0 for every row (PV-soft, KKT-soft); InputError if not positive and
  /// finite. Per-row compliances with setRowCompliance. Compliances are read at every solve, so a
  /// sweep needs no new ConstraintData — unless a constraint's rows stop (or start) sharing one
  /// compliance, which changes how PV-soft treats it (version() then changes).
  void setCompliance(double R);
  void setRowCompliance(int row, double R);  ///< compliance R > 0 of one row (InputError if out of range)
  /// Baumgarte time constant T > 0 [s]; 0 turns stabilisation off (the default). Read at every
  /// solve: a ConstraintData stays valid.
  void setBaumgarte(double timeConstant);

  std::uint64_t modelId() const { return modelId_; }  ///< Model::id() of the model it was validated against
  int size() const { return static_cast<int>(constraints_.size()); }  ///< number of constraints
  int numRows() const { return numRows_; }  ///< number of rows (size of λ)
  const std::vector<Constraint>& constraints() const { return constraints_; }  ///< the constraints, in the order added
  const Constraint& constraint(int i) const { return constraints_[static_cast<size_t>(i)]; }  ///< constraint i
  const VecX& compliance() const { return compliance_; }  ///< per row; 0 where none was set
  double baumgarte() const { return baumgarte_; }  ///< Baumgarte time constant [s] (0: off)
  /// Incremented by every change of structure (a constraint added, a constraint's rows no longer
  /// sharing one compliance); a ConstraintData made before such a change is rejected.
  int version() const { return version_; }

 private:
  void append(Constraint c);  ///< rows, compliance slots and version for a validated constraint
  bool uniformCompliance(const Constraint& c) const;  ///< all of c's rows have one compliance
  /// The model additions are validated against: a copy made once, shared by copies of this
  /// ConstraintModel, so moving or destroying the caller's Model leaves nothing dangling.
  std::shared_ptr<const Model> model_;
  std::uint64_t modelId_;
  std::vector<Constraint> constraints_;
  VecX compliance_;
  double baumgarte_ = 0.0;
  int numRows_ = 0, version_ = 0, numLoops_ = 0;
};

}  // namespace grbda
