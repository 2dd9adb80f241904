// grbda: the command-line front end. Dispatches to the command table and turns every error into
// a message on stderr and an exit code (0 ok, 1 other, 2 command line, 3 model, 4 numerical).
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "args.hpp"
#include "commands.hpp"
#include "grbda/errors.hpp"
#include "help.hpp"

namespace {

enum ExitCode { kOk = 0, kOther = 1, kUsage = 2, kModel = 3, kNumerical = 4 };

int fail(int code, const std::string& message, const std::string& hint = {}) {
  std::cerr << "grbda: error: " << message << '\n';
  if (!hint.empty()) std::cerr << hint << '\n';
  return code;
}

bool asksForHelp(const std::vector<std::string>& args) {
  for (const auto& a : args) {
    if (a == "--") return false;
    if (a == "--help" || a == "-h") return true;
  }
  return false;
}

int dispatch(const std::vector<std::string>& argv) {
  using namespace grbda::cli;
  if (argv.empty()) throw UsageError("no command given");
  const std::string& name = argv[0];
  if (name == "--help" || name == "-h") {
    printMainHelp(std::cout);
    return kOk;
  }
  if (name == "--version") {
    printVersion(std::cout);
    return kOk;
  }
  if (name == "help") {
    if (argv.size() == 1) {
      printMainHelp(std::cout);
      return kOk;
    }
    const Command* c = findCommand(argv[1]);
    if (!c) throw UsageError("unknown command '" + argv[1] + "'");
    printCommandHelp(std::cout, *c);
    return kOk;
  }
  const Command* command = findCommand(name);
  if (!command) throw UsageError("unknown command '" + name + "' (run 'grbda help' for the list)");
  const std::vector<std::string> rest(argv.begin() + 1, argv.end());
  if (asksForHelp(rest)) {
    printCommandHelp(std::cout, *command);
    return kOk;
  }
  const ParsedArgs args = parseArgs(rest, command->options);
  return command->run(args, std::cout);
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  try {
    const int code = dispatch(args);
    std::cout.flush();
    if (!std::cout) return fail(kOther, "cannot write the output");
    return code;
  } catch (const grbda::cli::UsageError& e) {
    const std::string cmd = args.empty() ? std::string() : args[0];
    return fail(kUsage, e.what(), "run 'grbda help" + (grbda::cli::findCommand(cmd) ? " " + cmd : std::string()) +
                                      "' for usage");
  } catch (const grbda::InputError& e) {
    return fail(kUsage, e.what());
  } catch (const grbda::ModelError& e) {
    return fail(kModel, e.what());
  } catch (const grbda::NumericalError& e) {
    return fail(kNumerical, e.what());
  } catch (const std::bad_alloc&) {
    return fail(kOther, "out of memory");
  } catch (const std::exception& e) {
    return fail(kOther, e.what());
  } catch (...) {
    return fail(kOther, "unknown internal error");
  }
}
