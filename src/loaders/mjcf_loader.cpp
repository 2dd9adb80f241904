// The MJCF calls of grbda/mjcf/mjcf.hpp: the file is read here, parsed by the backend's reader
// (mjcf/mjcf.cpp in libgrbda_backends.so, loaders/backends.cpp), and built here.
#include "grbda/mjcf/mjcf.hpp"

#include <cctype>

#include "loaders/backends.hpp"
#include "loaders/build_with.hpp"
#include "loaders/text_file.hpp"

namespace grbda {

MjcfDescription parseMjcfFile(const std::string& path) {
  return detail::backends().parseMjcf(detail::readTextFile(path), path);
}

MjcfDescription parseMjcfString(const std::string& xml, const std::string& sourceName) {
  return detail::backends().parseMjcf(xml, sourceName);
}

Model loadMjcf(const std::string& path, const LoadOptions& options) {
  return detail::buildWith(parseMjcfFile(path).builder, options);
}

Model loadMjcfString(const std::string& xml, const std::string& sourceName, const LoadOptions& options) {
  return detail::buildWith(parseMjcfString(xml, sourceName).builder, options);
}

bool isMjcfPath(const std::string& path) {
  const size_t dot = path.find_last_of('.');
  const size_t slash = path.find_last_of("/\\");
  if (dot == std::string::npos || (slash != std::string::npos && slash > dot)) return false;
  std::string ext = path.substr(dot + 1);
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext == "xml" || ext == "mjcf";
}

}  // namespace grbda
