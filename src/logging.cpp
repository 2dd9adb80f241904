#include "grbda/logging.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>

#include "grbda/errors.hpp"
#include "log.hpp"

namespace grbda {
namespace detail {
spdlog::logger& log() {
  static std::shared_ptr<spdlog::logger> logger = [] {
    auto l = spdlog::stderr_color_mt("grbda");
    l->set_pattern("[grbda] [%l] %v");
    l->set_level(spdlog::level::warn);
    return l;
  }();
  return *logger;
}
}  // namespace detail

namespace {
spdlog::level::level_enum toSpd(LogLevel l) {
  switch (l) {
    case LogLevel::Trace: return spdlog::level::trace;
    case LogLevel::Debug: return spdlog::level::debug;
    case LogLevel::Info: return spdlog::level::info;
    case LogLevel::Warn: return spdlog::level::warn;
    case LogLevel::Error: return spdlog::level::err;
    case LogLevel::Off: return spdlog::level::off;
  }
  return spdlog::level::warn;
}
}  // namespace

void setLogLevel(LogLevel level) { detail::log().set_level(toSpd(level)); }

LogLevel logLevel() {
  switch (detail::log().level()) {
    case spdlog::level::trace: return LogLevel::Trace;
    case spdlog::level::debug: return LogLevel::Debug;
    case spdlog::level::info: return LogLevel::Info;
    case spdlog::level::warn: return LogLevel::Warn;
    case spdlog::level::err: return LogLevel::Error;
    default: return LogLevel::Off;
  }
}

LogLevel parseLogLevel(const std::string& name) {
  if (name == "trace") return LogLevel::Trace;
  if (name == "debug") return LogLevel::Debug;
  if (name == "info") return LogLevel::Info;
  if (name == "warn" || name == "warning") return LogLevel::Warn;
  if (name == "error") return LogLevel::Error;
  if (name == "off") return LogLevel::Off;
  throw InputError("unknown log level '" + name + "' (expected trace, debug, info, warn, error or off)");
}

}  // namespace grbda
