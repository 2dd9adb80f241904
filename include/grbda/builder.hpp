#pragma once
// ModelBuilder: the model compiler. Collects links and joints (URDF-shaped, from the URDF parser
// or from code), then build() validates everything once and produces an immutable Model:
// finds the root, checks the tree (unknown links, two roots, cycles), merges fixed joints into
// their parent bodies, numbers bodies regularly and names the coordinates.
#include <string>
#include <vector>

#include "grbda/model.hpp"

namespace grbda {

/// Where a spec came from, for error messages (empty file = built in code).
struct SourceLocation {
  std::string file;
  int line = 0;
};

struct LinkSpec {
  std::string name;
  double mass = 0.0;
  Vec3 com = Vec3::Zero();                 ///< centre of mass in the link frame
  Mat3 inertia = Mat3::Zero();             ///< rotational inertia about the COM, link axes
  SourceLocation where;
};

enum class JointKind { Revolute, Continuous, Prismatic, Fixed, Floating };

struct JointSpec {
  std::string name;
  JointKind kind = JointKind::Revolute;
  std::string parent, child;               ///< link names
  Transform origin;                        ///< X_T: parent link frame -> joint frame
  Vec3 axis = Vec3::UnitX();               ///< in the joint frame; normalised by build()
  bool independent = true;                 ///< URDF+ `independent` flag
  SourceLocation where;
};

class ModelBuilder {
 public:
  explicit ModelBuilder(std::string robotName = "robot", std::string sourceFile = {});

  void addLink(LinkSpec link);
  void addJoint(JointSpec joint);
  void setGravity(const Vec3& g) { gravity_ = g; }

  const std::vector<LinkSpec>& links() const { return links_; }
  const std::vector<JointSpec>& joints() const { return joints_; }

  /// Validate and compile. Throws ModelError naming file, line and element on any problem.
  Model build() const;

 private:
  std::string name_, sourceFile_;
  std::vector<LinkSpec> links_;
  std::vector<JointSpec> joints_;
  Vec3 gravity_ = Vec3(0.0, 0.0, -9.81);
};

}  // namespace grbda
