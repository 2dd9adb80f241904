#include "numbers.hpp"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <vector>

#include "args.hpp"
#include "grbda/errors.hpp"

namespace grbda::cli {

namespace {
std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return {};
  const size_t e = s.find_last_not_of(" \t");
  return s.substr(b, e - b + 1);
}
}  // namespace

double parseNumber(const std::string& rawText, const std::string& what) {
  const std::string text = trim(rawText);
  if (text.empty()) throw UsageError(what + " is empty (expected a number)");
  errno = 0;
  char* end = nullptr;
  const double x = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) throw UsageError(what + " is not a number: '" + text + "'");
  if (std::isnan(x)) throw UsageError(what + " is NaN; only finite numbers are accepted");
  if (std::isinf(x)) {
    if (errno == ERANGE) throw UsageError(what + " is out of the range of a double: '" + text + "'");
    throw UsageError(what + " is infinite; only finite numbers are accepted");
  }
  return x;  // ERANGE on underflow is fine: the nearest double (denormal or zero) is meant
}

VecX parseVector(const std::string& text, const std::string& what) {
  if (trim(text).empty()) return VecX();
  std::vector<double> values;
  size_t start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    values.push_back(parseNumber(item, what + " entry " + std::to_string(values.size() + 1)));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return Eigen::Map<const VecX>(values.data(), static_cast<Eigen::Index>(values.size()));
}

long parseCount(const std::string& rawText, const std::string& what) {
  const std::string text = trim(rawText);
  long n = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size() || n < 0)
    throw UsageError(what + " must be a non-negative integer, got '" + rawText + "'");
  return n;
}

std::string formatNumber(double x, const std::string& what) {
  if (!std::isfinite(x)) throw NumericalError(what + " is not finite (" + std::to_string(x) + ")");
  char buf[64];
  const auto [ptr, ec] = std::to_chars(buf, buf + sizeof(buf), x);  // shortest round-trip form
  if (ec != std::errc()) throw NumericalError("cannot format " + what);
  return std::string(buf, ptr);
}

}  // namespace grbda::cli
