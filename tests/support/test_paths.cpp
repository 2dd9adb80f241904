#include "test_paths.hpp"

namespace grbda_test {
const char* sourceDir() { return GRBDA_TEST_SOURCE_DIR_VALUE; }
#ifdef GRBDA_TEST_CLI_PATH_VALUE
const char* cliPath() { return GRBDA_TEST_CLI_PATH_VALUE; }
#else
const char* cliPath() { return ""; }
#endif
}  // namespace grbda_test
