#pragma once
// The shared command-line parser. Every command declares its options in a table (OptionSpec);
// parseArgs checks the arguments against that table, so a new flag is one line in a command's
// table and one lookup in its function.
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace grbda::cli {

/// A malformed command line (unknown command or flag, missing value, unparsable number).
/// Exit code 2, like grbda::InputError.
class UsageError : public std::runtime_error {
 public:
  explicit UsageError(const std::string& what) : std::runtime_error(what) {}
};

struct OptionSpec {
  std::string name;       ///< with the dashes: "--q"
  std::string valueName;  ///< shown in help, e.g. "VALUES"; empty for a flag without value
  std::string help;
  bool repeatable = false;  ///< may be given several times (ParsedArgs::values)
  bool takesValue() const { return !valueName.empty(); }
};

class ParsedArgs {
 public:
  std::vector<std::string> positional;

  bool has(const std::string& option) const { return flags_.count(option) || values_.count(option); }
  /// The value of an option, or nullptr when it was not given (the first, if repeatable).
  const std::string* value(const std::string& option) const;
  /// Every value of a repeatable option, in command-line order (empty when not given).
  std::vector<std::string> values(const std::string& option) const;
  /// Every (option, value) pair in command-line order, options with values only.
  const std::vector<std::pair<std::string, std::string>>& ordered() const { return ordered_; }

 private:
  friend ParsedArgs parseArgs(const std::vector<std::string>&, const std::vector<OptionSpec>&);
  std::set<std::string> flags_;
  std::map<std::string, std::vector<std::string>> values_;
  std::vector<std::pair<std::string, std::string>> ordered_;
};

/// Accepts "--name value", "--name=value" and flags anywhere among the positional arguments;
/// "--" ends the options. A value may start with '-' (negative numbers). An unknown option, a
/// missing value, a value given to a flag or a non-repeatable option given twice is a UsageError.
ParsedArgs parseArgs(const std::vector<std::string>& args, const std::vector<OptionSpec>& options);

}  // namespace grbda::cli
