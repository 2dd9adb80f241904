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
      {"--relative", "A[:X,Y,Z]/B[:X,Y,Z]",
       "two links joined at a point (a ball joint, e.g. a loop left out of the clusters): the points "
       "on A and B do not accelerate apart; the force reported is the one on A",
       true},
      {"--relative-weld", "A[:X,Y,Z]/B[:X,Y,Z]",
       "two links welded together at the points: no relative rotation or acceleration; moment and "
       "force on A",
       true},
      {"--compliance", "R",
       softMethodNames() + ": compliance of every constraint row (m s^-2 N^-1 for a point row; "
       "lambda = -(J qdd + J' qd)/R)"},
      {"--baumgarte", "T", "Baumgarte stabilisation of the constraints with time constant T > 0 [s] (e.g. 0.1)"},
  };
}

namespace {

const char* const kConstraintOptions[] = {"--contact", "--weld", "--relative", "--relative-weld"};

ConstraintKind kindOf(const std::string& option) {
  if (option == "--weld") return ConstraintKind::Weld;
  if (option == "--relative") return ConstraintKind::RelativePoint;
  if (option == "--relative-weld") return ConstraintKind::RelativeWeld;
  return ConstraintKind::PointContact;
}

}  // namespace

bool hasConstraintArgs(const ParsedArgs& args) {
  for (const char* option : kConstraintOptions)
    if (args.has(option)) return true;
  return false;
}

std::vector<CommandLineConstraint> constraintsFromArgs(const ParsedArgs& args, Method method) {
  std::vector<CommandLineConstraint> list;
  for (const auto& [option, value] : args.ordered()) {
    CommandLineConstraint c;
    c.kind = kindOf(option);
    if (c.relative()) {  // A[:x,y,z]/B[:x,y,z]: points hold no '/', so the first one separates the links
      const size_t slash = value.find('/');
      if (slash == std::string::npos)
        throw UsageError(option + " " + value + ": expected two links, A[:X,Y,Z]/B[:X,Y,Z]");
      c.where = parseNamedPoint(value.substr(0, slash), option);
      c.where2 = parseNamedPoint(value.substr(slash + 1), option);
    } else if (option == "--contact" || option == "--weld") {
      c.where = parseNamedPoint(value, option);
    } else {
      continue;
    }
    list.push_back(c);
  }
  const bool soft = methodInfo(method).needsCompliance;
  const std::string* loops = args.value("--loops");
  const bool loopRows = loops && *loops != "embed";  // loops may be kept as constraint rows
  if (args.has("--compliance") && !soft)
    throw UsageError("--compliance applies to --method " + softMethodNames() + " only");
  if (soft && (!list.empty() || loopRows) && !args.has("--compliance"))
    throw UsageError("--method " + methodName(method) + " needs --compliance R (R > 0)");
  if (!list.empty() && !solvesConstraintRows(method))
    // the wording (and order) of this message is checked by scripts and tests/test_cli_constraints.cpp
    throw UsageError("constraints (--contact, --weld, --relative) are solved by --method pv, pv-soft, kkt, "
                     "proximal, proximal-sparse, ltl, ltl-soft or pv-early, not " + methodName(method));
  return list;
}

void checkBaumgarteHasRows(const ParsedArgs& args, const std::vector<CommandLineConstraint>& given,
                           const Model& model) {
  if (args.has("--baumgarte") && given.empty() && model.keptLoopGroups().empty())
    throw UsageError("--baumgarte needs --contact, --weld, --relative, --relative-weld or loops kept as constraint "
                     "rows (--loops constrain|auto; '" + model.name() + "' keeps none)");
}

std::unique_ptr<ConstraintModel> makeConstraintModel(const ParsedArgs& args, const Model& model,
                                                     const std::vector<CommandLineConstraint>& constraints) {
  auto cm = std::make_unique<ConstraintModel>(model);
  for (const CommandLineConstraint& c : constraints) {
    switch (c.kind) {
      case ConstraintKind::Weld: cm->addWeld(c.where.link, c.where.point); break;
      case ConstraintKind::RelativePoint:
        cm->addRelativePoint(c.where.link, c.where.point, c.where2.link, c.where2.point);
        break;
      case ConstraintKind::RelativeWeld:
        cm->addRelativeWeld(c.where.link, c.where.point, c.where2.link, c.where2.point);
        break;
      default: cm->addPointContact(c.where.link, c.where.point); break;
    }
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
                         const std::vector<CommandLineConstraint>& given, const std::string& key) {
  report.jsonExtras = [&constraints, &cd, &given, key](JsonWriter& w) {
    const int loops = constraints.numKeptLoopGroups();  // first in the set; not on the command line
    w.key(key);
    w.beginArray();
    for (int i = loops; i < constraints.size(); ++i) {
      const Constraint& c = constraints.constraint(i);
      const CommandLineConstraint& typed = given[static_cast<size_t>(i - loops)];
      const bool weld = c.hasAngularRows();
      w.beginObject();
      w.member("link", c.link);
      w.key("point");
      writeVector(w, VecX(typed.where.point), "point");
      w.member("kind", c.kindName());
      if (typed.relative()) {
        w.member("link2", c.link2);
        w.key("point2");
        writeVector(w, VecX(typed.where2.point), "point2");
      }
      w.key("force");
      writeVector(w, VecX(cd.lambda.segment<3>(c.row + (weld ? 3 : 0))), "force");
      if (weld) {
        w.key("moment");
        writeVector(w, VecX(cd.lambda.segment<3>(c.row)), "moment");
      }
      w.endObject();
    }
    w.endArray();
    if (loops > 0) {  // --loops: each kept group's multipliers, generalised forces on its rows
      w.key("loop_forces");
      w.beginArray();
      for (int i = 0; i < loops; ++i) {
        const Constraint& c = constraints.constraint(i);
        w.beginObject();
        w.member("name", c.name);
        w.key("lambda");
        writeVector(w, VecX(cd.lambda.segment(c.row, c.numRows)), "lambda");
        w.endObject();
      }
      w.endArray();
    }
    w.member("constraint_residual", cd.residual);
    w.member("row_residual", cd.rowResidual);
    w.member("dynamics_residual", cd.dynamicsResidual);
    w.member("redundant", cd.redundant);
  };
  std::ostringstream text;
  const int loops = constraints.numKeptLoopGroups();
  if (constraints.size() > loops) text << "constraint forces (world axes; welds: moment about the point, then force):\n";
  for (int i = loops; i < constraints.size(); ++i) {
    const Constraint& c = constraints.constraint(i);
    text << "  " << c.kindName() << " " << c.link;
    if (!c.link2.empty()) text << "/" << c.link2;
    text << ": force";
    const int forceRow = c.row + (c.hasAngularRows() ? 3 : 0);
    for (int a = 0; a < 3; ++a) text << " " << formatNumber(cd.lambda[forceRow + a], "force");
    if (c.hasAngularRows()) {
      text << "  moment";
      for (int a = 0; a < 3; ++a) text << " " << formatNumber(cd.lambda[c.row + a], "moment");
    }
    text << "\n";
  }
  if (loops > 0) text << "loop forces (multipliers of each kept group's rows):\n";
  for (int i = 0; i < loops; ++i) {
    const Constraint& c = constraints.constraint(i);
    text << "  " << c.name << ":";
    for (int r = 0; r < c.numRows; ++r) text << " " << formatNumber(cd.lambda[c.row + r], "lambda");
    text << "\n";
  }
  text << "  constraint residual " << formatNumber(cd.residual, "residual") << "\n";
  report.textExtras = text.str();
}

}  // namespace grbda::cli
