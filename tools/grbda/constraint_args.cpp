#include "constraint_args.hpp"

#include <sstream>

#include "numbers.hpp"

namespace grbda::cli {

std::vector<OptionSpec> constraintOptions() {
  return {
      {"--contact", "LINK[:X,Y,Z]",
       "a point contact: the point (link coordinates; default the link origin) does not accelerate, "
       "p'' = 0 in world axes; repeat for several",
       true},
      {"--weld", "LINK[:X,Y,Z]", "a weld: the link does not rotate or accelerate at the point; repeat for several",
       true},
      {"--compliance", "R",
       "pv-soft: compliance of every constraint row (m s^-2 N^-1 for a point row; lambda = -(J qdd + J' qd)/R)"},
      {"--baumgarte", "T", "Baumgarte stabilisation of the constraints with time constant T > 0 [s] (e.g. 0.1)"},
  };
}

std::vector<CommandLineConstraint> constraintsFromArgs(const ParsedArgs& args, Method method) {
  std::vector<CommandLineConstraint> list;
  for (const auto& [option, value] : args.ordered()) {
    if (option != "--contact" && option != "--weld") continue;
    CommandLineConstraint c;
    c.kind = option == "--weld" ? ConstraintKind::Weld : ConstraintKind::PointContact;
    c.where = parseNamedPoint(value, option);
    list.push_back(c);
  }
  if (args.has("--compliance") && method != Method::PVSoft)
    throw UsageError("--compliance applies to --method pv-soft only");
  if (method == Method::PVSoft && !list.empty() && !args.has("--compliance"))
    throw UsageError("--method pv-soft needs --compliance R (R > 0)");
  if (args.has("--baumgarte") && list.empty()) throw UsageError("--baumgarte needs --contact or --weld");
  if (!list.empty() && !isConstraintMethod(method) && method != Method::Proximal)
    throw UsageError("--contact and --weld are solved by --method pv, pv-soft, kkt or proximal, not " +
                     methodName(method));
  return list;
}

std::unique_ptr<ConstraintModel> makeConstraintModel(const ParsedArgs& args, const Model& model,
                                                     const std::vector<CommandLineConstraint>& constraints) {
  auto cm = std::make_unique<ConstraintModel>(model);
  for (const CommandLineConstraint& c : constraints) {
    if (c.kind == ConstraintKind::Weld) cm->addWeld(c.where.link, c.where.point);
    else cm->addPointContact(c.where.link, c.where.point);
  }
  if (const std::string* R = args.value("--compliance")) {
    const double value = parseNumber(*R, "--compliance");
    if (!(value > 0.0)) throw UsageError("--compliance must be > 0, got " + *R);
    if (cm->numRows() > 0) cm->setCompliance(value);
  }
  if (const std::string* T = args.value("--baumgarte")) {
    const double value = parseNumber(*T, "--baumgarte");
    if (!(value > 0.0)) throw UsageError("--baumgarte must be > 0, got " + *T);
    cm->setBaumgarte(value);
  }
  return cm;
}

void addConstraintForces(Report& report, const ConstraintModel& constraints, const ConstraintData& cd,
                         const std::vector<CommandLineConstraint>& given) {
  report.jsonExtras = [&constraints, &cd, &given](JsonWriter& w) {
    w.key("contact_forces");
    w.beginArray();
    for (int i = 0; i < constraints.size(); ++i) {
      const Constraint& c = constraints.constraint(i);
      const bool weld = c.hasAngularRows();
      w.beginObject();
      w.member("link", c.link);
      w.key("point");
      writeVector(w, VecX(given[static_cast<size_t>(i)].where.point), "point");
      w.member("kind", constraintKindName(c.kind));
      w.key("force");
      writeVector(w, VecX(cd.lambda.segment<3>(c.row + (weld ? 3 : 0))), "force");
      if (weld) {
        w.key("moment");
        writeVector(w, VecX(cd.lambda.segment<3>(c.row)), "moment");
      }
      w.endObject();
    }
    w.endArray();
    w.member("constraint_residual", cd.residual);
  };
  std::ostringstream text;
  text << "constraint forces (world axes; welds: moment about the point, then force):\n";
  for (int i = 0; i < constraints.size(); ++i) {
    const Constraint& c = constraints.constraint(i);
    text << "  " << constraintKindName(c.kind) << " " << c.link << ": force";
    const int forceRow = c.row + (c.hasAngularRows() ? 3 : 0);
    for (int a = 0; a < 3; ++a) text << " " << formatNumber(cd.lambda[forceRow + a], "force");
    if (c.hasAngularRows()) {
      text << "  moment";
      for (int a = 0; a < 3; ++a) text << " " << formatNumber(cd.lambda[c.row + a], "moment");
    }
    text << "\n";
  }
  text << "  constraint residual " << formatNumber(cd.residual, "residual") << "\n";
  report.textExtras = text.str();
}

}  // namespace grbda::cli
