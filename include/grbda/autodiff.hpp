#pragma once
// Forward-mode automatic differentiation for closed-form constraints φ(q) = 0.
//
// Dual<T> carries a value and one directional derivative. Nesting, Dual<Dual<double>>, carries
// two independent infinitesimals ε1, ε2 (ε1² = ε2² = 0), whose ε1ε2 coefficient is a second
// directional derivative. AutoDiffConstraint turns one templated φ into an ImplicitConstraint
// with exact K = ∂φ/∂q and k = −K̇ q̇ = −q̇ᵀ ∇²φ q̇ (no finite differences, no allocation), and
// the exact ∂K/∂q · u, ∂k/∂q · u the dynamics derivatives need (a third nesting level).
#include <array>
#include <cmath>

#include "grbda/cluster/implicit_constraint.hpp"

namespace grbda::ad {

/// A forward-mode dual number v + d ε (ε² = 0): value and one directional derivative.
template <class T>
struct Dual {
  T v{};  ///< value
  T d{};  ///< derivative along the seeded direction
  constexpr Dual() = default;
  /// A constant (derivative 0).
  constexpr Dual(double value) : v(value), d(0.0) {}  // NOLINT: constants enter φ implicitly
  constexpr Dual(const T& value, const T& derivative) : v(value), d(derivative) {}  ///< value and derivative
};

// Dual op Dual
template <class T> Dual<T> operator+(const Dual<T>& a, const Dual<T>& b) { return {a.v + b.v, a.d + b.d}; }
template <class T> Dual<T> operator-(const Dual<T>& a, const Dual<T>& b) { return {a.v - b.v, a.d - b.d}; }
template <class T> Dual<T> operator*(const Dual<T>& a, const Dual<T>& b) { return {a.v * b.v, a.d * b.v + a.v * b.d}; }
template <class T> Dual<T> operator/(const Dual<T>& a, const Dual<T>& b) {
  return {a.v / b.v, (a.d * b.v - a.v * b.d) / (b.v * b.v)};
}
template <class T> Dual<T> operator-(const Dual<T>& a) { return {-a.v, -a.d}; }

// Dual op double (constants of φ)
template <class T> Dual<T> operator+(const Dual<T>& a, double b) { return {a.v + b, a.d}; }
template <class T> Dual<T> operator+(double a, const Dual<T>& b) { return {a + b.v, b.d}; }
template <class T> Dual<T> operator-(const Dual<T>& a, double b) { return {a.v - b, a.d}; }
template <class T> Dual<T> operator-(double a, const Dual<T>& b) { return {a - b.v, -b.d}; }
template <class T> Dual<T> operator*(const Dual<T>& a, double b) { return {a.v * b, a.d * b}; }
template <class T> Dual<T> operator*(double a, const Dual<T>& b) { return {a * b.v, a * b.d}; }
template <class T> Dual<T> operator/(const Dual<T>& a, double b) { return {a.v / b, a.d / b}; }
template <class T> Dual<T> operator/(double a, const Dual<T>& b) { return {a / b.v, -a * b.d / (b.v * b.v)}; }

// Elementary functions (found by argument-dependent lookup; φ writes `using std::sin;` etc.).
template <class T> Dual<T> sin(const Dual<T>& a) {
  using std::cos;
  using std::sin;
  return {sin(a.v), cos(a.v) * a.d};
}
template <class T> Dual<T> cos(const Dual<T>& a) {
  using std::cos;
  using std::sin;
  return {cos(a.v), -(sin(a.v) * a.d)};
}
template <class T> Dual<T> sqrt(const Dual<T>& a) {
  using std::sqrt;
  const T s = sqrt(a.v);
  return {s, a.d / (2.0 * s)};
}
template <class T> Dual<T> atan2(const Dual<T>& y, const Dual<T>& x) {
  using std::atan2;
  return {atan2(y.v, x.v), (x.v * y.d - y.v * x.d) / (x.v * x.v + y.v * y.v)};
}

/// An ImplicitConstraint from one templated residual. `Derived` provides
///   `template <class S> void phi(const S* q, S* out) const;`   (Rows outputs from Cols inputs)
/// written with +, −, *, /, sin, cos, sqrt, atan2 and double constants only.
template <class Derived, int Rows, int Cols>
class AutoDiffConstraint : public ImplicitConstraint {
 public:
  int numRows() const override { return Rows; }
  int numCoordinates() const override { return Cols; }

  /// φ(q) from Derived::phi on doubles.
  void residual(const Eigen::Ref<const VecX>& q, Eigen::Ref<VecX> phi) const override {
    std::array<double, Cols> x;
    std::array<double, Rows> out;
    for (int j = 0; j < Cols; ++j) x[j] = q[j];
    self().phi(x.data(), out.data());
    for (int i = 0; i < Rows; ++i) phi[i] = out[i];
  }

  /// Column j of K is the derivative of φ along e_j.
  void jacobian(const Eigen::Ref<const VecX>& q, Eigen::Ref<MatX> K) const override {
    std::array<Dual<double>, Cols> x;
    std::array<Dual<double>, Rows> out;
    for (int j = 0; j < Cols; ++j) x[j] = Dual<double>(q[j], 0.0);
    for (int j = 0; j < Cols; ++j) {
      x[j].d = 1.0;
      self().phi(x.data(), out.data());
      for (int i = 0; i < Rows; ++i) K(i, j) = out[i].d;
      x[j].d = 0.0;
    }
  }

  /// k = −q̇ᵀ∇²φ q̇: evaluate φ at q + ε1 q̇ + ε2 q̇ and take the ε1ε2 coefficient.
  void bias(const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& qd, Eigen::Ref<VecX> k) const override {
    using D1 = Dual<double>;
    std::array<Dual<D1>, Cols> x;
    std::array<Dual<D1>, Rows> out;
    for (int j = 0; j < Cols; ++j) x[j] = Dual<D1>(D1(q[j], qd[j]), D1(qd[j], 0.0));
    self().phi(x.data(), out.data());
    for (int i = 0; i < Rows; ++i) k[i] = -out[i].d.d;
  }

  /// ∂K/∂q · u: column j is the ε1ε2 coefficient of φ(q + ε1 e_j + ε2 u).
  void jacobianDerivative(const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& u,
                          Eigen::Ref<MatX> dK) const override {
    using D1 = Dual<double>;
    std::array<Dual<D1>, Cols> x;
    std::array<Dual<D1>, Rows> out;
    for (int j = 0; j < Cols; ++j) x[j] = Dual<D1>(D1(q[j], u[j]), D1(0.0, 0.0));
    for (int j = 0; j < Cols; ++j) {
      x[j].d = D1(1.0, 0.0);
      self().phi(x.data(), out.data());
      for (int i = 0; i < Rows; ++i) dK(i, j) = out[i].d.d;
      x[j].d = D1(0.0, 0.0);
    }
  }

  /// ∂k/∂q · u = −∇³φ[q̇, q̇, u]: the ε1ε2ε3 coefficient of φ(q + ε1 q̇ + ε2 q̇ + ε3 u), negated.
  void biasDerivative(const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& qd, const Eigen::Ref<const VecX>& u,
                      Eigen::Ref<VecX> dk) const override {
    using D1 = Dual<double>;
    using D2 = Dual<D1>;
    std::array<Dual<D2>, Cols> x;
    std::array<Dual<D2>, Rows> out;
    for (int j = 0; j < Cols; ++j)
      x[j] = Dual<D2>(D2(D1(q[j], u[j]), D1(qd[j], 0.0)), D2(D1(qd[j], 0.0), D1(0.0, 0.0)));
    self().phi(x.data(), out.data());
    for (int i = 0; i < Rows; ++i) dk[i] = -out[i].d.d.d;
  }

 private:
  const Derived& self() const { return static_cast<const Derived&>(*this); }
};

}  // namespace grbda::ad
