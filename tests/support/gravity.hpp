#pragma once
// Standard gravity as the bundled models and the simulator tests use it (m/s², along −z).

namespace grbda::testsupport {

constexpr double kG = 9.81;

}  // namespace grbda::testsupport
