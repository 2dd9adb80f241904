#include "grbda/errors.hpp"

namespace grbda {
namespace {
std::string composeModelMessage(const std::string& message, const std::string& file, int line,
                                const std::string& element) {
  std::string out;
  if (!file.empty()) {
    out += file;
    if (line > 0) out += ":" + std::to_string(line);
    out += ": ";
  }
  if (!element.empty()) out += element + ": ";
  return out + message;
}
}  // namespace

ModelError::ModelError(std::string message, std::string file, int line, std::string element)
    : Error(composeModelMessage(message, file, line, element)),
      message_(std::move(message)),
      file_(std::move(file)),
      element_(std::move(element)),
      line_(line) {}

}  // namespace grbda
