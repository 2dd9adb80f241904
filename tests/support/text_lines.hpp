#pragma once
// The 1-based line of a needle's (occurrence+1)-th appearance in a text: where a file-reading test
// expects an error to point. A needle that is not there fails the test (and gives line 0).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace grbda::testsupport {

inline int lineOf(const std::string& text, const std::string& needle, size_t occurrence = 0) {
  size_t pos = text.find(needle);
  for (size_t k = 0; k < occurrence && pos != std::string::npos; ++k) pos = text.find(needle, pos + 1);
  EXPECT_NE(pos, std::string::npos) << needle;
  if (pos == std::string::npos) return 0;
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(pos), '\n'));
}

}  // namespace grbda::testsupport
