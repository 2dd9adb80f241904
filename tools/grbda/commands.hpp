#pragma once
// The command table. A command is a name, its help text, its option table and one function;
// adding a command is one entry in commandTable() (commands.cpp) plus its function.
#include <ostream>
#include <string>
#include <vector>

#include "args.hpp"

namespace grbda::cli {

/// Runs a command on parsed arguments, writing its result to `out`. Returns the exit code;
/// errors are thrown (main maps them to exit codes).
using CommandFunction = int (*)(const ParsedArgs& args, std::ostream& out);

struct Command {
  std::string name;
  std::string arguments;    ///< after the name in the usage line, e.g. "MODEL [options]"
  std::string summary;      ///< one line for the command list
  std::string description;  ///< paragraph(s) for `grbda help NAME`
  std::vector<OptionSpec> options;  ///< --help is added by the dispatcher
  CommandFunction run;
};

const std::vector<Command>& commandTable();
/// nullptr if there is no such command.
const Command* findCommand(const std::string& name);

// One function per command.
int runInfo(const ParsedArgs& args, std::ostream& out);
/// Options of `grbda info` (cmd_info.cpp): the output options and --dot.
std::vector<OptionSpec> infoOptions();
int runForwardDynamics(const ParsedArgs& args, std::ostream& out);
int runInverseDynamics(const ParsedArgs& args, std::ostream& out);
int runMassMatrix(const ParsedArgs& args, std::ostream& out);
int runOsim(const ParsedArgs& args, std::ostream& out);
int runComplete(const ParsedArgs& args, std::ostream& out);
/// Options of fd, id, mass-matrix and osim (cmd_dynamics.cpp) and of complete (cmd_complete.cpp).
std::vector<OptionSpec> dynamicsCommandOptions(const std::string& command);
std::vector<OptionSpec> completeOptions();
/// grbda simulate (cmd_simulate.cpp) and its options.
int runSimulate(const ParsedArgs& args, std::ostream& out);
std::vector<OptionSpec> simulateOptions();
int runView(const ParsedArgs& args, std::ostream& out);
/// Options of `grbda view` (cmd_view.cpp).
std::vector<OptionSpec> viewOptions();
/// grbda derivatives (cmd_derivatives.cpp) and its options.
int runDerivatives(const ParsedArgs& args, std::ostream& out);
std::vector<OptionSpec> derivativesOptions();
int runBench(const ParsedArgs& args, std::ostream& out);
/// grbda com and grbda centroidal (cmd_wbc.cpp) and their options.
int runCom(const ParsedArgs& args, std::ostream& out);
int runCentroidal(const ParsedArgs& args, std::ostream& out);
std::vector<OptionSpec> wbcOptions();
/// grbda impulse and grbda regressor (cmd_contact_dynamics.cpp) and their options.
int runImpulse(const ParsedArgs& args, std::ostream& out);
std::vector<OptionSpec> impulseOptions();
int runRegressor(const ParsedArgs& args, std::ostream& out);
std::vector<OptionSpec> regressorOptions();
/// id's --contact, --weld, --relative, --relative-weld (cmd_contact_dynamics.cpp).
std::vector<OptionSpec> contactRowOptions();
/// Options of `grbda bench` (cmd_bench.cpp).
std::vector<OptionSpec> benchOptions();

}  // namespace grbda::cli
