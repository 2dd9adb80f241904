#pragma once
// `grbda --help`, `grbda help [COMMAND]`, `grbda COMMAND --help`, `grbda --version`.
#include <ostream>

#include "commands.hpp"

namespace grbda::cli {

void printMainHelp(std::ostream& out);
void printCommandHelp(std::ostream& out, const Command& command);
void printVersion(std::ostream& out);
/// The flag every command accepts.
const OptionSpec& helpOption();

}  // namespace grbda::cli
