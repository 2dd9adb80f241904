#pragma once
// A strict, minimal JSON reader for the CLI tests: enough to check that the command's output is
// well-formed JSON and to read numbers and names back. Independent of the writer under test.
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

namespace grbda::testing {

struct Json {
  enum class Type { Null, Bool, Number, String, Array, Object } type = Type::Null;
  bool boolean = false;
  double number = 0.0;
  std::string text;  ///< string value, or the literal token of a number
  std::vector<Json> items;
  std::vector<std::pair<std::string, Json>> members;  ///< in document order

  bool has(const std::string& key) const {
    for (const auto& m : members)
      if (m.first == key) return true;
    return false;
  }
  const Json& operator[](const std::string& key) const {
    for (const auto& m : members)
      if (m.first == key) return m.second;
    throw std::runtime_error("missing key '" + key + "'");
  }
  const Json& operator[](size_t i) const { return items.at(i); }
  size_t size() const { return type == Type::Object ? members.size() : items.size(); }

  std::vector<double> numbers() const {
    std::vector<double> v;
    for (const auto& x : items) {
      if (x.type != Type::Number) throw std::runtime_error("array entry is not a number");
      v.push_back(x.number);
    }
    return v;
  }
  std::vector<std::string> strings() const {
    std::vector<std::string> v;
    for (const auto& x : items) {
      if (x.type != Type::String) throw std::runtime_error("array entry is not a string");
      v.push_back(x.text);
    }
    return v;
  }
};

class JsonReader {
 public:
  static Json parse(const std::string& s) {
    JsonReader r(s);
    r.skipSpace();
    Json v = r.value();
    r.skipSpace();
    if (r.pos_ != s.size()) r.fail("trailing characters");
    return v;
  }

 private:
  explicit JsonReader(const std::string& s) : s_(s) {}
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error("JSON: " + what + " at offset " + std::to_string(pos_));
  }
  char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
  void expect(char c) {
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++pos_;
  }
  void skipSpace() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\t' || s_[pos_] == '\r')) ++pos_;
  }
  bool literal(const char* word) {
    const std::string w(word);
    if (s_.compare(pos_, w.size(), w) != 0) return false;
    pos_ += w.size();
    return true;
  }

  Json value() {
    Json v;
    const char c = peek();
    if (c == '{') return object();
    if (c == '[') return array();
    if (c == '"') {
      v.type = Json::Type::String;
      v.text = string();
    } else if (literal("true")) {
      v.type = Json::Type::Bool;
      v.boolean = true;
    } else if (literal("false")) {
      v.type = Json::Type::Bool;
    } else if (literal("null")) {
      v.type = Json::Type::Null;
    } else {
      v = number();
    }
    return v;
  }

  Json object() {
    Json v;
    v.type = Json::Type::Object;
    expect('{');
    skipSpace();
    if (peek() == '}') {
      ++pos_;
      return v;
    }
    while (true) {
      skipSpace();
      std::string key = string();
      skipSpace();
      expect(':');
      skipSpace();
      if (v.has(key)) fail("duplicate key '" + key + "'");
      v.members.emplace_back(key, value());
      skipSpace();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      expect('}');
      return v;
    }
  }

  Json array() {
    Json v;
    v.type = Json::Type::Array;
    expect('[');
    skipSpace();
    if (peek() == ']') {
      ++pos_;
      return v;
    }
    while (true) {
      skipSpace();
      v.items.push_back(value());
      skipSpace();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      expect(']');
      return v;
    }
  }

  std::string string() {
    expect('"');
    std::string out;
    while (true) {
      if (pos_ >= s_.size()) fail("unterminated string");
      const char c = s_[pos_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) fail("control character in string");
      if (c != '\\') {
        out += c;
        continue;
      }
      const char e = s_[pos_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'r': out += '\r'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'u': out += static_cast<char>(std::strtol(s_.substr(pos_, 4).c_str(), nullptr, 16)); pos_ += 4; break;
        default: fail("bad escape");
      }
    }
  }

  // JSON grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?  (no NaN, no Infinity)
  Json number() {
    const size_t start = pos_;
    auto digits = [&] {
      const size_t b = pos_;
      while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') ++pos_;
      if (pos_ == b) fail("expected a digit");
    };
    if (peek() == '-') ++pos_;
    if (peek() == '0') ++pos_;
    else digits();
    if (peek() == '.') {
      ++pos_;
      digits();
    }
    if (peek() == 'e' || peek() == 'E') {
      ++pos_;
      if (peek() == '+' || peek() == '-') ++pos_;
      digits();
    }
    Json v;
    v.type = Json::Type::Number;
    v.text = s_.substr(start, pos_ - start);
    v.number = std::strtod(v.text.c_str(), nullptr);
    return v;
  }

  const std::string& s_;
  size_t pos_ = 0;
};

}  // namespace grbda::testing
