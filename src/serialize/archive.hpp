#pragma once
// Internal: a flat little-endian byte archive for serializeModel / serializeSimulator. Doubles are
// written as their 8 bytes (never through text), so a value read back is the same bits.
#include <cstdint>
#include <cstring>
#include <utility>
#include <string>
#include <vector>

#include "grbda/errors.hpp"
#include "grbda/spatial/transform.hpp"

namespace grbda::detail {

/// Appends values to a byte string.
class ArchiveWriter {
 public:
  void u64(std::uint64_t x) { raw(&x, sizeof x); }
  void i32(int x) { raw(&x, sizeof x); }
  void f64(double x) { raw(&x, sizeof x); }
  void flag(bool x) { bytes_.push_back(x ? '\1' : '\0'); }
  void str(const std::string& s) { u64(s.size()); bytes_.append(s); }
  void vec(const VecRef& x) { u64(static_cast<std::uint64_t>(x.size())); raw(x.data(), sizeof(double) * static_cast<size_t>(x.size())); }
  void vec3(const Vec3& x) { raw(x.data(), sizeof(double) * 3); }
  void mat3(const Mat3& x) { raw(x.data(), sizeof(double) * 9); }
  void transform(const Transform& X) { mat3(X.E); vec3(X.r); }
  const std::string& bytes() const { return bytes_; }

 private:
  void raw(const void* p, size_t n) {
    if (n > 0) bytes_.append(static_cast<const char*>(p), n);  // an empty vector's data() may be null
  }
  std::string bytes_;
};

/// Reads what ArchiveWriter wrote; InputError (naming `what`) when the bytes run out or disagree.
class ArchiveReader {
 public:
  ArchiveReader(const std::string& bytes, std::string what) : bytes_(bytes), what_(std::move(what)) {}
  std::uint64_t u64() { std::uint64_t x; raw(&x, sizeof x); return x; }
  int i32() { int x; raw(&x, sizeof x); return x; }
  /// An enum value written as an int, checked against its range [0, count).
  template <class E>
  E enumValue(int count, const char* what) {
    const int v = i32();
    if (v < 0 || v >= count) fail(std::string("bad ") + what + " " + std::to_string(v));
    return static_cast<E>(v);
  }
  double f64() { double x; raw(&x, sizeof x); return x; }
  bool flag() { char c; raw(&c, 1); return c != '\0'; }
  std::string str() { const size_t n = size(1); std::string s = bytes_.substr(pos_, n); pos_ += n; return s; }
  VecX vec() { VecX x(static_cast<Eigen::Index>(size(sizeof(double)))); raw(x.data(), sizeof(double) * static_cast<size_t>(x.size())); return x; }
  Vec3 vec3() { Vec3 x; raw(x.data(), sizeof(double) * 3); return x; }
  Mat3 mat3() { Mat3 x; raw(x.data(), sizeof(double) * 9); return x; }
  Transform transform() { Transform X; X.E = mat3(); X.r = vec3(); return X; }
  /// A count of items of `itemBytes` each that must fit in what is left.
  size_t size(size_t itemBytes) {
    const std::uint64_t n = u64();
    if (n > (bytes_.size() - pos_) / itemBytes) fail("a length runs past its end");
    return static_cast<size_t>(n);
  }
  bool atEnd() const { return pos_ == bytes_.size(); }
  [[noreturn]] void fail(const std::string& why) const { throw InputError(what_ + ": not a valid archive: " + why); }

 private:
  void raw(void* p, size_t n) {
    if (n > bytes_.size() - pos_) fail("it ends early");
    if (n == 0) return;  // an empty vector's data() may be null, which memcpy must not get
    std::memcpy(p, bytes_.data() + pos_, n);
    pos_ += n;
  }
  const std::string& bytes_;
  std::string what_;
  size_t pos_ = 0;
};

/// Refuses to write on a big-endian machine (the archive is little-endian, like every platform grbda builds on).
inline void requireLittleEndian() {
  const std::uint16_t one = 1;
  unsigned char first;
  std::memcpy(&first, &one, 1);
  if (first != 1) throw ModelError("serialisation needs a little-endian machine");
}

}  // namespace grbda::detail
