// libgrbda_backends.so's table (backend_table.hpp): the readers and FCL's queries.
#include "backends/backend_table.hpp"

extern "C" const grbda::detail::BackendTable* grbda_backend_table() {
  using namespace grbda::detail;
  static const BackendTable table{kBackendTableVersion, assembleUrdfTexts, parseMjcfText, newFclObject,
                                  deleteFclObject,      placeFclObject,    fclQuery};
  return &table;
}
