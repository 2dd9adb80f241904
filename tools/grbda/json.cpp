#include "json.hpp"

#include <cstdio>

#include "numbers.hpp"

namespace grbda::cli {

std::string jsonQuote(const std::string& s) {
  std::string out = "\"";
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04x", c);
          out += buf;
        } else {
          out += ch;  // UTF-8 passes through unchanged
        }
    }
  }
  return out + "\"";
}

void JsonWriter::newline() {
  out_ << '\n' << std::string(2 * stack_.size(), ' ');
}

void JsonWriter::beforeValue() {
  if (afterKey_) {
    afterKey_ = false;
    return;
  }
  if (stack_.empty()) return;
  Level& top = stack_.back();
  if (top.count++ > 0) out_ << (top.isInline ? ", " : ",");
  if (!top.isInline) newline();
}

void JsonWriter::beginObject() {
  beforeValue();
  out_ << '{';
  stack_.push_back({true, false, 0});
}

void JsonWriter::endObject() {
  const bool empty = stack_.back().count == 0;
  stack_.pop_back();
  if (!empty) newline();
  out_ << '}';
  if (stack_.empty()) out_ << '\n';
}

void JsonWriter::beginArray(bool inlineLayout) {
  beforeValue();
  out_ << '[';
  // An array inside an inline array is inline too.
  const bool parentInline = !stack_.empty() && stack_.back().isInline;
  stack_.push_back({false, inlineLayout || parentInline, 0});
}

void JsonWriter::endArray() {
  const Level top = stack_.back();
  stack_.pop_back();
  if (!top.isInline && top.count > 0) newline();
  out_ << ']';
  if (stack_.empty()) out_ << '\n';
}

void JsonWriter::key(const std::string& name) {
  beforeValue();
  out_ << jsonQuote(name) << ": ";
  afterKey_ = true;
}

void JsonWriter::value(const std::string& s) {
  beforeValue();
  out_ << jsonQuote(s);
}

void JsonWriter::number(double x, const std::string& what) {
  const std::string text = formatNumber(x, what);  // may throw: check before writing anything
  beforeValue();
  out_ << text;
}

void JsonWriter::value(int n) {
  beforeValue();
  out_ << n;
}

void JsonWriter::value(bool b) {
  beforeValue();
  out_ << (b ? "true" : "false");
}

void JsonWriter::null() {
  beforeValue();
  out_ << "null";
}

void writeNames(JsonWriter& w, const std::vector<std::string>& names) {
  w.beginArray(true);
  for (const auto& n : names) w.value(n);
  w.endArray();
}

void writeVector(JsonWriter& w, const VecX& x, const std::string& what) {
  w.beginArray(true);
  for (Eigen::Index i = 0; i < x.size(); ++i) w.number(x[i], what + "[" + std::to_string(i) + "]");
  w.endArray();
}

void writeMatrix(JsonWriter& w, const MatX& m, const std::string& what) {
  w.beginArray(false);
  for (Eigen::Index r = 0; r < m.rows(); ++r) writeVector(w, m.row(r).transpose(), what + " row " + std::to_string(r));
  w.endArray();
}

}  // namespace grbda::cli
