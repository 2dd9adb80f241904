#pragma once
// A small JSON writer (the command's only JSON dependency). Objects are laid out one member per
// line; arrays of numbers or names stay on one line, so a matrix prints as one row per line.
// Numbers go through formatNumber: shortest round-trip text, and a NaN is an error, never output.
#include <ostream>
#include <string>
#include <vector>

#include "grbda/spatial/types.hpp"

namespace grbda::cli {

class JsonWriter {
 public:
  explicit JsonWriter(std::ostream& out) : out_(out) {}

  void beginObject();
  void endObject();
  /// `inlineLayout`: all elements on one line (for short arrays of scalars).
  void beginArray(bool inlineLayout = false);
  void endArray();
  /// The name of the next member of the current object.
  void key(const std::string& name);

  void value(const std::string& s);
  void value(const char* s) { value(std::string(s)); }
  void value(double x) { number(x, "value"); }
  /// A number; `what` names it in the NumericalError if it is not finite.
  void number(double x, const std::string& what);
  void value(int n);
  void value(bool b);
  void null();

  /// Convenience: key + value.
  template <class T>
  void member(const std::string& name, const T& v) {
    key(name);
    value(v);
  }

 private:
  struct Level {
    bool isObject;
    bool isInline;
    int count;
  };
  void beforeValue();
  void newline();
  std::ostream& out_;
  std::vector<Level> stack_;
  bool afterKey_ = false;
};

/// ["a", "b", ...] on one line.
void writeNames(JsonWriter& w, const std::vector<std::string>& names);
/// [1.5, 2, ...] on one line; `what` names the quantity if an entry is not finite.
void writeVector(JsonWriter& w, const VecX& x, const std::string& what);
/// Array of rows, one row per line.
void writeMatrix(JsonWriter& w, const MatX& m, const std::string& what);

/// JSON string literal with the required escapes.
std::string jsonQuote(const std::string& s);

}  // namespace grbda::cli
