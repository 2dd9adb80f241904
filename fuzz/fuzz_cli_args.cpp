// libFuzzer target: the grbda command line. The input is split at NUL and newline bytes into a
// command name and its arguments; the command's own option table parses them (parseArgs), and
// the command runs on a small fixed model (four_bar.urdf: the positional arguments the input
// gives are replaced, so no fuzzed text is ever opened as a file). Usage errors and typed grbda
// errors are the expected answers; any other exception, crash or sanitizer report is a finding.
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <streambuf>
#include <string>
#include <vector>

#include "args.hpp"
#include "commands.hpp"
#include "grbda/errors.hpp"
#include "grbda/logging.hpp"
#include "numbers.hpp"

namespace {

class NullBuffer : public std::streambuf {
 protected:
  int overflow(int c) override { return c; }
};

std::vector<std::string> split(const uint8_t* bytes, size_t size) {
  std::vector<std::string> out(1);
  for (size_t i = 0; i < size; ++i) {
    const char c = static_cast<char>(bytes[i]);
    if (c == '\0' || c == '\n') out.emplace_back();
    else out.back() += c;
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size) {
  if (size > 4096) return -1;
  using namespace grbda::cli;
  std::vector<std::string> argv = split(bytes, size);
  const Command* command = findCommand(argv[0]);
  if (!command || argv[0] == "bench") return 0;  // bench times robots: far too slow per input
  static NullBuffer nullBuffer;
  std::ostream out(&nullBuffer);
  try {
    ParsedArgs args = parseArgs(std::vector<std::string>(argv.begin() + 1, argv.end()), command->options);
    args.positional = {GRBDA_FUZZ_MODEL};
    // Large repeat or iteration counts are honest requests for long runs, not findings.
    for (const char* count : {"--repeat", "--prox-iters"})
      if (const std::string* text = args.value(count))
        if (parseCount(*text, count) > 20) return 0;
    // So are long simulations (up to 1e8 steps are allowed) ...
    const std::string* duration = args.value("--duration");
    const std::string* dt = args.value("--dt");
    if ((duration && parseNumber(*duration, "--duration") > 2.0) || (dt && parseNumber(*dt, "--dt") < 1e-4)) return 0;
    // ... and files: the fuzzer must neither write (--out, --html) nor read (--trajectory,
    // --three-js) a path it made up.
    for (const char* file : {"--out", "--html", "--three-js", "--trajectory"})
      if (args.value(file)) return 0;
    command->run(args, out);
  } catch (const UsageError&) {
  } catch (const grbda::Error&) {
  }
  grbda::setLogLevel(grbda::LogLevel::Off);  // --log-level may have changed it
  return 0;
}
