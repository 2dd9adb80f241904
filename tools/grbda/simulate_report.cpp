#include "simulate_report.hpp"

#include "numbers.hpp"

namespace grbda::cli {

void writeRunMembers(JsonWriter& w, const Model& model, const std::string& method, const std::string& integrator,
                     long steps, double dt, const VecX& q, const VecX& v) {
  w.member("command", "simulate");
  w.member("model", model.name());
  w.member("method", method);
  w.member("integrator", integrator);
  w.member("steps", static_cast<int>(steps));
  w.member("dt", dt);
  w.member("duration", dt * static_cast<double>(steps));
  w.key("position_names");
  writeNames(w, model.positionNames());
  w.key("velocity_names");
  writeNames(w, model.velocityNames());
  w.key("final_q");
  writeVector(w, q, "final_q");
  w.key("final_v");
  writeVector(w, v, "final_v");
}

void printFinalState(std::ostream& out, const Model& model, const VecX& q, const VecX& v) {
  out << "final positions:\n";
  for (int i = 0; i < model.nq(); ++i)
    out << "  " << model.positionNames()[static_cast<size_t>(i)] << " " << formatNumber(q[i], "q") << "\n";
  out << "final velocities:\n";
  for (int i = 0; i < model.nv(); ++i)
    out << "  " << model.velocityNames()[static_cast<size_t>(i)] << " " << formatNumber(v[i], "v") << "\n";
}

}  // namespace grbda::cli
