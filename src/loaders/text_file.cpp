#include "loaders/text_file.hpp"

#include <fstream>
#include <sstream>

#include "grbda/errors.hpp"

namespace grbda::detail {

std::string readTextFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ModelError("cannot open file", path);
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw ModelError("cannot read file", path);
  return text.str();
}

}  // namespace grbda::detail
