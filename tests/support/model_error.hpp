#pragma once
// Test support: the message of the ModelError a piece of code throws.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "grbda/errors.hpp"

namespace grbda::testsupport {

/// The what() of the ModelError thrown by f; a test failure if f throws nothing or another type.
inline std::string modelErrorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const ModelError& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "expected ModelError, got another exception: " << e.what();
    return {};
  }
  ADD_FAILURE() << "expected ModelError, nothing was thrown";
  return {};
}

}  // namespace grbda::testsupport
