#pragma once
// fd's constraints on the command line: --contact LINK[:x,y,z], --weld LINK[:x,y,z], and between
// two links --relative A[:x,y,z]/B[:x,y,z] (the two points coincide) and --relative-weld A/B (the
// links also keep their relative orientation) — repeatable, kept in command-line order;
// --compliance R (pv-soft, ltl-soft), --baumgarte T. Their report: JSON "contact_forces" (one object per
// constraint: link, point, kind, force, moment for welds; link2 and point2 for relative ones,
// whose force is the one on the first link) and "constraint_residual" (max |J q̈ + J̇ q̇ − k|).
#include <memory>
#include <vector>

#include "args.hpp"
#include "grbda/constraints/constraint_data.hpp"
#include "method.hpp"
#include "report.hpp"

namespace grbda::cli {

std::vector<OptionSpec> constraintOptions();

struct CommandLineConstraint {
  ConstraintKind kind = ConstraintKind::PointContact;
  NamedPoint where;
  NamedPoint where2;  ///< the second link of a relative constraint
  bool relative() const { return kind == ConstraintKind::RelativePoint || kind == ConstraintKind::RelativeWeld; }
};

/// Whether any --contact, --weld, --relative or --relative-weld was given.
bool hasConstraintArgs(const ParsedArgs& args);

/// The constraint arguments in command-line order (links are checked when the set is made). UsageError for a malformed point, for
/// --compliance without pv-soft or ltl-soft, or a method that solves none.
std::vector<CommandLineConstraint> constraintsFromArgs(const ParsedArgs& args, Method method);
/// --baumgarte without a row to stabilise (no constraint given, no loop kept) is a UsageError.
void checkBaumgarteHasRows(const ParsedArgs& args, const std::vector<CommandLineConstraint>& given,
                           const Model& model);
/// The constraint set (unknown links are InputErrors naming the constraint), with --compliance
/// and --baumgarte applied.
std::unique_ptr<ConstraintModel> makeConstraintModel(const ParsedArgs& args, const Model& model,
                                                     const std::vector<CommandLineConstraint>& constraints);
/// Adds contact_forces and constraint_residual to fd's report (JSON members and text lines).
/// `key` names the JSON array (impulse: "impulses", in the same layout).
void addConstraintForces(Report& report, const ConstraintModel& constraints, const ConstraintData& cd,
                         const std::vector<CommandLineConstraint>& given, const std::string& key = "contact_forces");

}  // namespace grbda::cli
