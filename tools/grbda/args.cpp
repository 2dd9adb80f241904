#include "args.hpp"

namespace grbda::cli {

const std::string* ParsedArgs::value(const std::string& option) const {
  const auto it = values_.find(option);
  return it == values_.end() ? nullptr : &it->second.front();
}

std::vector<std::string> ParsedArgs::values(const std::string& option) const {
  const auto it = values_.find(option);
  return it == values_.end() ? std::vector<std::string>{} : it->second;
}

namespace {
const OptionSpec* findOption(const std::vector<OptionSpec>& options, const std::string& name) {
  for (const auto& o : options)
    if (o.name == name) return &o;
  return nullptr;
}

bool looksLikeOption(const std::string& arg) { return arg.size() > 1 && arg[0] == '-'; }
}  // namespace

ParsedArgs parseArgs(const std::vector<std::string>& args, const std::vector<OptionSpec>& options) {
  ParsedArgs parsed;
  bool optionsEnded = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (optionsEnded || !looksLikeOption(arg)) {
      parsed.positional.push_back(arg);
      continue;
    }
    if (arg == "--") {
      optionsEnded = true;
      continue;
    }
    const size_t eq = arg.find('=');
    const std::string name = arg.substr(0, eq);
    const OptionSpec* spec = findOption(options, name);
    if (!spec) throw UsageError("unknown option '" + name + "'");
    if (parsed.has(name) && !spec->repeatable) throw UsageError("option '" + name + "' given twice");
    if (!spec->takesValue()) {
      if (eq != std::string::npos) throw UsageError("option '" + name + "' takes no value");
      parsed.flags_.insert(name);
      continue;
    }
    if (eq != std::string::npos) {
      parsed.values_[name].push_back(arg.substr(eq + 1));
    } else if (i + 1 < args.size()) {
      parsed.values_[name].push_back(args[++i]);
    } else {
      throw UsageError("option '" + name + "' needs a value (" + spec->valueName + ")");
    }
    parsed.ordered_.emplace_back(name, parsed.values_[name].back());
  }
  return parsed;
}

}  // namespace grbda::cli
