#pragma once
// Typed errors. Every message names where the problem is (file, line, element) or which
// quantity is wrong, so a user can fix the input without reading our source.
#include <stdexcept>
#include <string>

namespace grbda {

/// Base of every error grbda throws.
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(what) {}  ///< what() returns `what`
};

/// The model description is invalid (URDF syntax or semantics, builder misuse).
/// what() reads "FILE:LINE: <element 'name'>: message" with the parts that are known.
class ModelError : public Error {
 public:
  /// An error about `element` at file:line (the parts not known left empty / 0).
  ModelError(std::string message, std::string file = {}, int line = 0, std::string element = {});
  const std::string& file() const { return file_; }  ///< model file (empty: unknown or built in code)
  int line() const { return line_; }  ///< line in that file (0: unknown)
  const std::string& element() const { return element_; }  ///< the element, e.g. "joint 'knee'" (may be empty)
  const std::string& message() const { return message_; }  ///< the message without file, line and element

 private:
  std::string message_, file_, element_;
  int line_ = 0;
};

/// An argument passed to an algorithm is invalid (wrong size, NaN, unknown name).
class InputError : public Error {
 public:
  explicit InputError(const std::string& what) : Error(what) {}  ///< what() names the offending value
};

/// The computation cannot proceed (singular matrix, no convergence, non-finite result).
class NumericalError : public Error {
 public:
  explicit NumericalError(const std::string& what) : Error(what) {}  ///< what() says what failed
};

}  // namespace grbda
