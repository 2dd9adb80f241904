#pragma once
// Internal: the rows the four point kinds share (contact, weld, relative point, relative weld):
// p̈_A − p̈_B = 0 in world axes, preceded for welds by ω̇_A − ω̇_B = 0; side B is the world for
// contacts and welds. Each kind is a small class in its own file deriving from this one.
#include "grbda/constraints/constraint_type.hpp"

namespace grbda::detail {

/// The Baumgarte reference of one point constraint: points (world) and orientations of both sides.
struct PointRowsData final : ConstraintTypeData {
  ///@{
  Vec3 refPoint = Vec3::Zero(), refPoint2 = Vec3::Zero();
  Mat3 refRotation = Mat3::Identity(), refRotation2 = Mat3::Identity();
  ///@}
};

class PointRowsType : public ConstraintType {
 public:
  PointRowsType(bool relative, bool angular) : relative_(relative), angular_(angular) {}
  int resolve(const Model& model, Constraint& c) const override;
  void rowBodies(const Model& model, const Constraint& c, int r, std::vector<int>& bodies) const override;
  std::unique_ptr<ConstraintTypeData> createData(const Model& model, const Constraint& c) const override;
  void calc(const Model& model, const Data& data, const Constraint& c, ConstraintTypeData* d,
            const ConstraintRowSettings& s, ConstraintRowsOut out) const override;
  void setReference(const Model& model, const Data& data, const Constraint& c, ConstraintTypeData* d) const override;
  bool softPointMass(const Constraint& c, Vec3& point, bool& angular) const override;
  void addForcesAsExternal(const Model& model, const Data& data, const Constraint& c, const ConstraintTypeData* d,
                           const ConstraintData& cd, ConstraintDerivativesData& D) const override;
  void addAccelerationDerivatives(const Model& model, const Data& data, const Constraint& c,
                                  const ConstraintTypeData* d, const ConstraintData& cd, double baumgarte,
                                  ConstraintDerivativesData& D) const override;

 private:
  bool relative_, angular_;  ///< between two links; three angular rows first (welds)
};

}  // namespace grbda::detail
