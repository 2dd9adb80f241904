#pragma once
// libgrbda_backends.so, loaded once and privately (backends.cpp): the table of the readers and
// FCL's queries (backends/backend_table.hpp).
#include <memory>

#include "backends/backend_table.hpp"

namespace grbda::detail {

/// The backend's table; the first call loads libgrbda_backends.so from libgrbda's own directory
/// (thread-safe). Throws grbda::Error naming the file and the loader's message when it cannot.
const BackendTable& backends();

struct FclObjectDeleter {
  void operator()(FclObject* object) const;  ///< gives the object back to the backend
};
using FclObjectPtr = std::unique_ptr<FclObject, FclObjectDeleter>;

/// A shape's FCL object, owned here, made and freed by the backend.
FclObjectPtr makeFclObject(const CollisionShape& shape);

}  // namespace grbda::detail
