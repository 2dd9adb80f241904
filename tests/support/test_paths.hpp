// Where the tests find the source tree and the built `grbda` command. Every test file sees this
// header (force-included by tests/CMakeLists.txt), and GRBDA_SOURCE_DIR / GRBDA_CLI_PATH expand to
// these calls. The absolute paths live in test_paths.cpp alone: a path compiled into every test
// file would make each object differ between checkouts, and ccache could not share them.
#pragma once

namespace grbda_test {
const char* sourceDir();  ///< the source tree's root (the directory holding models/ and tests/)
const char* cliPath();    ///< the built `grbda` command
}  // namespace grbda_test
