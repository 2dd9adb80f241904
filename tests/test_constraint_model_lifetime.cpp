// A ConstraintModel keeps validating additions after the Model it was made from has moved or is
// gone (issue #26 §2: it used to keep a raw pointer). Under ASan a dangling read fails this test.
#include <gtest/gtest.h>

#include <memory>
#include <optional>

#include "grbda/algorithms/constrained_dynamics.hpp"
#include "grbda/constraints/constraint_model.hpp"
#include "grbda/data.hpp"
#include "grbda/errors.hpp"
#include "grbda/urdf/urdf.hpp"

using namespace grbda;

TEST(ConstraintModelLifetime, AddsAfterTheModelMovedAndWasDestroyed) {
  std::optional<Model> original(loadUrdf(std::string(GRBDA_SOURCE_DIR) + "/models/mini_cheetah.urdf"));
  ConstraintModel constraints(*original);
  const Model moved = std::move(*original);
  original.reset();  // the object the ConstraintModel was made from is gone
  EXPECT_EQ(constraints.addPointContact("FR_foot"), 0);
  EXPECT_THROW(constraints.addPointContact("no_such_link"), InputError);
  // the moved model is the same model: the constraints solve on it
  EXPECT_EQ(constraints.modelId(), moved.id());
  Data data(moved);
  ConstraintData cdata(moved, constraints);
  const VecX q = moved.neutralConfiguration();
  const VecX v = VecX::Zero(moved.nv()), tau = VecX::Zero(moved.nv());
  EXPECT_NO_THROW(constrainedForwardDynamics(moved, data, constraints, cdata, q, v, tau));
}
