#pragma once
// Model: the immutable, validated description of a robot (Pinocchio's Model). Built once by
// ModelBuilder (or loadUrdf), then shared read-only by any number of threads, each owning a Data.
#include <string>
#include <vector>

#include "grbda/joint.hpp"
#include "grbda/spatial/inertia.hpp"

namespace grbda {

/// One rigid body of the spanning tree (regular numbering: parent < child; ground = -1).
struct Body {
  std::string name;       ///< URDF link name
  std::string jointName;  ///< URDF joint connecting it to its parent
  int parent = -1;        ///< λ(i); -1 is the ground
  Transform Xtree;        ///< X_T(i): parent frame -> joint frame at q = 0
  Joint joint;
  Mat6 inertia = Mat6::Zero();  ///< spatial inertia in body coordinates (fixed children merged)
  int qIndex = 0;         ///< first position coordinate in q (spanning)
  int vIndex = 0;         ///< first velocity coordinate in v (spanning)
};

/// A named frame rigidly attached to a body (every URDF link is one; merged links included).
struct Frame {
  std::string name;
  int body = -1;          ///< -1: attached to the ground (world)
  Transform placement;    ///< ^frame X_body: body coordinates -> frame coordinates
};

class Model {
 public:
  const std::string& name() const { return name_; }
  const std::string& sourceFile() const { return sourceFile_; }

  int numBodies() const { return static_cast<int>(bodies_.size()); }
  const std::vector<Body>& bodies() const { return bodies_; }
  const Body& body(int i) const { return bodies_[static_cast<size_t>(i)]; }
  /// Index of the body whose link is `linkName`; throws InputError if unknown.
  int bodyIndex(const std::string& linkName) const;

  const std::vector<Frame>& frames() const { return frames_; }
  /// Index of the frame named `name` (every URDF link); throws InputError if unknown.
  int frameIndex(const std::string& name) const;
  const Frame& frame(int i) const { return frames_[static_cast<size_t>(i)]; }

  int nq() const { return nq_; }  ///< number of position coordinates
  int nv() const { return nv_; }  ///< number of velocity coordinates (degrees of freedom)
  bool isFloatingBase() const { return floatingBase_; }
  const std::vector<std::string>& positionNames() const { return positionNames_; }
  const std::vector<std::string>& velocityNames() const { return velocityNames_; }

  /// Gravity a_g, world coordinates (default (0, 0, -9.81)). Change it only before sharing the
  /// model between threads.
  const Vec3& gravity() const { return gravity_; }
  void setGravity(const Vec3& g) { gravity_ = g; }

  /// A valid configuration of zeros (unit quaternion for free joints).
  VecX neutralConfiguration() const;

 private:
  friend class ModelBuilder;
  std::string name_, sourceFile_;
  std::vector<Body> bodies_;
  std::vector<Frame> frames_;
  std::vector<std::string> positionNames_, velocityNames_;
  int nq_ = 0, nv_ = 0;
  bool floatingBase_ = false;
  Vec3 gravity_ = Vec3(0.0, 0.0, -9.81);
};

}  // namespace grbda
