#pragma once
// Coordinates of a model that keeps loops as constraint rows (Model::keptLoopGroups,
// ModelBuilder::setLoopTreatment). Such a model's coordinates include every joint of a kept
// group; its *reduced* coordinates leave out the joints the embedded cluster would make
// dependent, so they are the coordinates the same robot has with its loops embedded (same
// order, same names). The command line takes and reports reduced coordinates, so that `--loops`
// changes how the loops are solved, never what --q, --v, --tau and the result mean.
// With no kept loops every function here is the identity.
#include <string>
#include <vector>

#include "grbda/model.hpp"

namespace grbda {

/// The reduced position / velocity coordinates' count and names.
int reducedNq(const Model& model);
int reducedNv(const Model& model);
std::vector<std::string> reducedPositionNames(const Model& model);
std::vector<std::string> reducedVelocityNames(const Model& model);

/// The model's positions from reduced ones: every kept group's loops closed by Newton in the
/// assembly mode build() fixed (as an embedded cluster would). InputError for a wrong size or
/// non-finite entries; NumericalError when a group cannot be closed there.
VecX expandPositions(const Model& model, const VecRef& qReduced);
/// The model's velocities at positions q (model-sized, closed) from reduced ones: q̇ = G(q) ẏ
/// in each kept group (ẏ: vReduced), so that K(q) q̇ = 0.
VecX expandVelocities(const Model& model, const VecRef& q, const VecRef& vReduced);
/// Generalised forces on the model's coordinates from reduced ones: zero on the dependent
/// joints (Gᵀ of the result is the reduced force again, G's independent rows being the identity).
VecX expandForces(const Model& model, const VecRef& tau);
/// A velocity-sized vector (q̇, q̈) of the model with the dependent joints left out.
VecX reduceVelocities(const Model& model, const VecRef& x);
/// The model's positions with the dependent joints left out.
VecX reducePositions(const Model& model, const VecRef& q);

}  // namespace grbda
