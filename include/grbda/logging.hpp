#pragma once
// Logging (spdlog, kept out of the public headers). Models with tolerated oddities log named
// warnings while they are built; nothing is logged from the dynamics algorithms.
#include <string>

namespace grbda {

enum class LogLevel { Trace, Debug, Info, Warn, Error, Off };

void setLogLevel(LogLevel level);
LogLevel logLevel();
/// "trace", "debug", "info", "warn", "error", "off"; throws InputError otherwise.
LogLevel parseLogLevel(const std::string& name);

}  // namespace grbda
