#pragma once
// Umbrella header: everything a user needs.
#include "grbda/algorithms/dynamics.hpp"
#include "grbda/algorithms/kinematics.hpp"
#include "grbda/algorithms/tree.hpp"
#include "grbda/baselines/approximate.hpp"
#include "grbda/baselines/projection.hpp"
#include "grbda/baselines/proximal.hpp"
#include "grbda/builder.hpp"
#include "grbda/data.hpp"
#include "grbda/errors.hpp"
#include "grbda/logging.hpp"
#include "grbda/model.hpp"
#include "grbda/urdf/urdf.hpp"
