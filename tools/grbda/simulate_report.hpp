#pragma once
// What both kinds of `grbda simulate` report alike: the JSON members that describe the run and its
// end state, and the text listing of the final positions and velocities.
#include <ostream>
#include <string>

#include "grbda/model.hpp"
#include "json.hpp"

namespace grbda::cli {

/// command, model, method, integrator, steps, dt, duration, position_names, velocity_names,
/// final_q, final_v (the writer is inside the top-level object).
void writeRunMembers(JsonWriter& w, const Model& model, const std::string& method, const std::string& integrator,
                     long steps, double dt, const VecX& q, const VecX& v);
/// "final positions:" and "final velocities:", one named value per line.
void printFinalState(std::ostream& out, const Model& model, const VecX& q, const VecX& v);

}  // namespace grbda::cli
