#pragma once
// One class per constraint kind (Pinocchio's RigidConstraintModel / RigidConstraintData with
// createData() and calc; RBDL's one class per constraint). A ConstraintType states what a kind
// does — validation against the model, its number of rows, the bodies each row acts on, its rows
// K and right-hand sides k at the current state (Baumgarte terms included), its reference pose
// and, optionally, the terms of the constrained-dynamics derivatives. The solvers only see the
// rows it writes (K and k through ConstraintRowsOut): they iterate over rows and never over kinds, and
// call the type once per constraint, not per row.
//
// Adding a kind is writing one class (docs/constraints.md, "Adding a constraint kind"):
//
//   class PointOnPlane final : public grbda::ConstraintType {
//     const char* name() const override { return "point-on-plane"; }
//     int resolve(const Model& m, Constraint& c) const override { resolveConstraintLink(m, c); return 1; }
//     void calc(const Model&, const Data& data, const Constraint& c, ConstraintTypeData*,
//               const ConstraintRowSettings& s, ConstraintRowsOut out) const override { ... out.K(0) = ...; }
//   };
//   constraints.add(std::make_shared<PointOnPlane>(), stated);   // stated: link, point, name
//
// Row conventions (constraint_rows.cpp): a row is Σ_parts K · a_body = k, K a 6-vector on the
// spatial acceleration a_body = [ω̇; a_O] of one body in body coordinates (Featherstone's, not
// the gravity-biased one: the library adds gravity itself), k for true accelerations. λ of the
// row acts on each part's body as the spatial force K λ (body coordinates).
#include <memory>
#include <vector>

#include "grbda/constraints/constraint_data.hpp"
#include "grbda/constraints/constraint_model.hpp"
#include "grbda/data.hpp"

namespace grbda {

/// What one gather asks of a kind's calc.
struct ConstraintRowSettings {
  bool rightHandSides = true;  ///< write k too (false: only K, the pose-only OSIM calls)
  /// Baumgarte gains (0 when off): add −kv ė − kp e to each row's k
  ///@{
  double kv = 0.0, kp = 0.0;
  ///@}
};

/// Where calc writes one constraint's rows: r counts its rows from 0, part its bodies in the
/// order rowBodies gave them. Inline views into ConstraintData, nothing allocated.
class ConstraintRowsOut {
 public:
  /// The rows of the constraint whose first row is `row` (constraint_rows.cpp).
  ConstraintRowsOut(ConstraintData& cd, int row);
  /// K of row r's part `part` (body coordinates of that part's body).
  Vec6& K(int r, int part = 0) const { return parts_[rowFirstPart_[r] + part].K; }
  double& k(int r) const { return k_[r]; }  ///< the right-hand side of row r (true accelerations)
  /// The number of parts of row r.
  int numParts(int r) const { return rowFirstPart_[r + 1] - rowFirstPart_[r]; }

 private:
  ConstraintRowPart* parts_;  ///< every row's parts
  const int* rowFirstPart_;   ///< from this constraint's first row on
  double* k_;                 ///< from this constraint's first row on
};

/// A kind's per-call data (Baumgarte reference, workspace), made once by createData and kept in
/// the ConstraintData; derive from it.
class ConstraintTypeData {
 public:
  virtual ~ConstraintTypeData() = default;
};

/// One constraint kind. An object may carry the parameters of one constraint (a plane's normal);
/// the generic ones (links, points, bodies, rows) are in its Constraint.
class ConstraintType {
 public:
  virtual ~ConstraintType() = default;
  /// The kind as the command line, JSON and messages spell it ("contact", "weld", ...).
  virtual const char* name() const = 0;
  /// The enum value (ConstraintKind::Other for kinds defined outside the library).
  virtual ConstraintKind kind() const { return ConstraintKind::Other; }
  /// Validates the stated constraint against `model` (InputError naming it) and derives its
  /// frames and bodies (resolveConstraintLink); returns its number of rows (>= 1).
  virtual int resolve(const Model& model, Constraint& c) const = 0;
  /// Appends the bodies row r acts on (its parts; the first on c.body). Default: c.body alone.
  virtual void rowBodies(const Model& model, const Constraint& c, int r, std::vector<int>& bodies) const;
  /// The kind's per-call data, made once with the ConstraintData (default: none).
  virtual std::unique_ptr<ConstraintTypeData> createData(const Model& model, const Constraint& c) const;
  /// K of every part and (with s.rightHandSides) k of every row at the kinematics in `data`
  /// (forward kinematics with velocities ran: Data::Xa, Data::v).
  virtual void calc(const Model& model, const Data& data, const Constraint& c, ConstraintTypeData* d,
                    const ConstraintRowSettings& s, ConstraintRowsOut out) const = 0;
  /// Captures the Baumgarte reference pose at the kinematics in `data` (default: nothing).
  virtual void setReference(const Model& model, const Data& data, const Constraint& c, ConstraintTypeData* d) const;
  /// PV-soft: true if the rows, all with one compliance, sum to a point mass at `point` (body
  /// coordinates of c.body) plus, with `angular`, a unit rotational inertia (rows in world axes).
  virtual bool softPointMass(const Constraint& c, Vec3& point, bool& angular) const;
  /// Derivatives (computeConstrainedDynamicsDerivatives): adds λ of the rows as world forces
  /// D.Fext (about the world origin) with their pose terms D.Eext. Default: InputError (not implemented).
  virtual void addForcesAsExternal(const Model& model, const Data& data, const Constraint& c,
                                   const ConstraintTypeData* d, const ConstraintData& cd,
                                   ConstraintDerivativesData& D) const;
  /// Derivatives: adds the rows' ∂a/∂y, ∂a/∂ẏ and J (spanning coordinates, D.das_dq, D.das_dv,
  /// D.Js) from the world-frame pass in data.derivatives. Default: InputError (not implemented).
  virtual void addAccelerationDerivatives(const Model& model, const Data& data, const Constraint& c,
                                          const ConstraintTypeData* d, const ConstraintData& cd,
                                          double baumgarte, ConstraintDerivativesData& D) const;
};

/// For a kind's resolve: finds c.link (any URDF link, fixed ones included) and sets c.frame, c.body
/// and c.bodyPoint (c.point in body coordinates); InputError naming the constraint for an unknown
/// link, a non-finite point or (unless `worldAllowed`) a link fixed to the world.
void resolveConstraintLink(const Model& model, Constraint& c, bool worldAllowed = false);
/// The same for the second link of a relative constraint (c.link2, c.point2 -> c.frame2, c.body2, c.bodyPoint2).
void resolveConstraintLink2(const Model& model, Constraint& c);
/// "<kind> constraint '<name>'", for messages.
std::string describeConstraint(const Constraint& c);

}  // namespace grbda
