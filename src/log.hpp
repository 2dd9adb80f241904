#pragma once
// Internal: the library's spdlog logger (named "grbda", writes to stderr).
#include <spdlog/spdlog.h>

namespace grbda::detail {
spdlog::logger& log();
}
