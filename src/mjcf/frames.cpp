#include "mjcf/frames.hpp"

#include <Eigen/Geometry>
#include <cctype>

namespace grbda::mjcf_detail {
namespace {

using tinyxml2::XMLElement;
using urdf_detail::ElementContext;
using urdf_detail::fail;
using urdf_detail::numbersAttribute;

Vec3 unit(const ElementContext& at, const XMLElement& e, const char* name, const Vec3& v) {
  const double n = v.norm();
  if (n < 1e-12) fail(at, e, std::string("<") + e.Name() + " " + name + "> is a zero vector");
  return v / n;
}

Mat3 fromQuat(const ElementContext& at, const XMLElement& e) {
  const auto q = numbersAttribute(at, e, "quat", 4, 4);
  const Eigen::Quaterniond quat(q[0], q[1], q[2], q[3]);  // MuJoCo writes w x y z
  if (quat.norm() < 1e-12) fail(at, e, std::string("<") + e.Name() + " quat> is zero");
  return quat.normalized().toRotationMatrix();
}

Mat3 fromAxisAngle(const ElementContext& at, const XMLElement& e, const Compiler& c) {
  const auto a = numbersAttribute(at, e, "axisangle", 4, 4);
  const Vec3 axis = unit(at, e, "axisangle", Vec3(a[0], a[1], a[2]));
  return Eigen::AngleAxisd(a[3] * c.angleScale(), axis).toRotationMatrix();
}

// eulerseq: each letter names the axis of one elementary rotation; a lower-case letter turns about
// the frame's rotated axis (post-multiplied), an upper-case one about the fixed parent axis.
Mat3 fromEuler(const ElementContext& at, const XMLElement& e, const Compiler& c) {
  const auto a = numbersAttribute(at, e, "euler", 3, 3);
  Mat3 R = Mat3::Identity();
  for (int k = 0; k < 3; ++k) {
    const char s = c.eulerseq[static_cast<size_t>(k)];
    const int axis = std::tolower(static_cast<unsigned char>(s)) - 'x';
    const Mat3 Rk = Eigen::AngleAxisd(a[static_cast<size_t>(k)] * c.angleScale(), Vec3::Unit(axis)).toRotationMatrix();
    R = std::islower(static_cast<unsigned char>(s)) ? Mat3(R * Rk) : Mat3(Rk * R);
  }
  return R;
}

Mat3 fromXYAxes(const ElementContext& at, const XMLElement& e) {
  const auto a = numbersAttribute(at, e, "xyaxes", 6, 6);
  const Vec3 x = unit(at, e, "xyaxes", Vec3(a[0], a[1], a[2]));
  const Vec3 y = unit(at, e, "xyaxes", Vec3(a[3], a[4], a[5]) - x.dot(Vec3(a[3], a[4], a[5])) * x);
  Mat3 R;
  R << x, y, x.cross(y);
  return R;
}

}  // namespace

Mat3 rotationFromZ(const Vec3& z) {
  const Vec3 ez = Vec3::UnitZ();
  if (z.dot(ez) < -1.0 + 1e-14) return Vec3(1.0, -1.0, -1.0).asDiagonal();  // half turn about x
  return Eigen::Quaterniond::FromTwoVectors(ez, z).toRotationMatrix();
}

Mat3 readOrientation(const ElementContext& at, const XMLElement& e, const Compiler& c) {
  const char* kinds[] = {"quat", "axisangle", "euler", "xyaxes", "zaxis"};
  const char* given = nullptr;
  for (const char* k : kinds) {
    if (!e.Attribute(k)) continue;
    if (given) fail(at, e, std::string("<") + e.Name() + "> gives both '" + given + "' and '" + k + "' (one orientation only)");
    given = k;
  }
  if (!given) return Mat3::Identity();
  const std::string k = given;
  if (k == "quat") return fromQuat(at, e);
  if (k == "axisangle") return fromAxisAngle(at, e, c);
  if (k == "euler") return fromEuler(at, e, c);
  if (k == "xyaxes") return fromXYAxes(at, e);
  return rotationFromZ(unit(at, e, "zaxis", urdf_detail::vectorAttribute(at, e, "zaxis", Vec3::UnitZ())));
}

Pose readPose(const ElementContext& at, const XMLElement& e, const Compiler& c) {
  return Pose{readOrientation(at, e, c), urdf_detail::vectorAttribute(at, e, "pos", Vec3::Zero())};
}

}  // namespace grbda::mjcf_detail
