#include "help.hpp"

#include <algorithm>

#include "table.hpp"

#ifndef GRBDA_VERSION
#define GRBDA_VERSION "unknown"
#endif

namespace grbda::cli {

namespace {
/// Wraps text to `width` columns, each line indented by `indent` spaces.
void printWrapped(std::ostream& out, const std::string& text, size_t indent, size_t width = 80) {
  std::string line;
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t space = text.find(' ', pos);
    const std::string word = text.substr(pos, space == std::string::npos ? std::string::npos : space - pos);
    pos = space == std::string::npos ? text.size() : space + 1;
    if (!line.empty() && indent + line.size() + 1 + word.size() > width) {
      out << std::string(indent, ' ') << line << '\n';
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty()) out << std::string(indent, ' ') << line << '\n';
}

const char* kExitCodes =
    "Exit codes: 0 success; 2 bad command line (unknown command or option, missing value, "
    "unparsable number, NaN, wrong vector length); 3 bad model (file missing or invalid; the "
    "message names the file, line and element); 4 numerical failure (singular matrix, non-finite "
    "result); 1 any other error. Errors are printed on stderr prefixed 'grbda: error: '.";
}  // namespace

const OptionSpec& helpOption() {
  static const OptionSpec help{"--help", "", "show this help"};
  return help;
}

void printMainHelp(std::ostream& out) {
  out << "grbda " GRBDA_VERSION " - rigid-body dynamics of robots with kinematic loops\n\n"
      << "usage: grbda COMMAND MODEL... [options]\n"
      << "       grbda help [COMMAND]\n"
      << "       grbda --version\n\n"
      << "commands:\n";
  std::vector<Row> rows;
  for (const auto& c : commandTable()) rows.push_back({c.name, c.summary});
  rows.push_back({"help", "this text, or the options of one command"});
  printTable(out, {}, rows);
  out << "\nMODEL is a URDF (or URDF+) file; several files are loaded as one robot; a MuJoCo MJCF file\n"
         "(.xml or .mjcf, given alone; docs/mjcf.md); builtin:tello is the Tello humanoid with arms\n"
         "built in code (its differentials are not URDF+).\n"
      << "Every command takes --log-level, all but view --json; fd, id, mass-matrix and osim also take\n"
      << "--gravity, --repeat, --method and --q-spanning; simulate takes --gravity, --method and the\n"
      << "constraints of fd; derivatives takes --gravity, --repeat, --q-spanning and fd's hard\n"
      << "constraints. Run 'grbda help\n"
      << "COMMAND' for its options.\n\n";
  printWrapped(out, kExitCodes, 0);
}

void printCommandHelp(std::ostream& out, const Command& command) {
  out << "usage: grbda " << command.name << " " << command.arguments << "\n\n";
  printWrapped(out, command.summary + ".", 2);
  if (!command.description.empty()) {
    out << '\n';
    printWrapped(out, command.description, 2);
  }
  out << "\noptions:\n";
  std::vector<OptionSpec> options = command.options;
  options.push_back(helpOption());
  size_t width = 0;
  for (const auto& o : options) width = std::max(width, o.name.size() + 1 + o.valueName.size());
  for (const auto& o : options) {
    const std::string head = o.name + (o.takesValue() ? " " + o.valueName : "");
    out << "  " << head << std::string(width - head.size() + 2, ' ');
    // first line of the help text beside the flag, the rest wrapped below it
    std::string rest = o.help;
    const size_t room = 80 > width + 4 ? 80 - width - 4 : 20;
    if (rest.size() <= room) {
      out << rest << '\n';
      continue;
    }
    size_t cut = rest.rfind(' ', room);
    if (cut == std::string::npos) cut = rest.size();
    out << rest.substr(0, cut) << '\n';
    printWrapped(out, cut < rest.size() ? rest.substr(cut + 1) : "", width + 4);
  }
  out << '\n';
  printWrapped(out, kExitCodes, 0);
}

void printVersion(std::ostream& out) { out << "grbda " GRBDA_VERSION "\n"; }

}  // namespace grbda::cli
