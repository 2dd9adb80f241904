#pragma once
// Joint reaction wrenches from inverse dynamics. The reaction of a joint is the whole wrench the
// parent body exerts on the child body through the joint — what RNEA's inward pass transmits,
// f_i = Σ_{j in subtree(i)} (I_j a_j + v_j ×* I_j v_j − f_ext,j). It includes the actuation: its
// component along the motion subspace is the joint force (Sᵀ f = τ); the rest is the constraint
// wrench (for the CFA: jointWrench = h̃ τ + constraintWrench, see cfa.hpp).
#include <string>
#include <vector>

#include "grbda/data.hpp"

namespace grbda {

/// The wrench a joint (or a loop cluster's output body) transmits from parent to child.
struct JointReaction {
  std::string joint;   ///< the body's joint, or for a cluster with loops the cluster's name
  int body = -1;       ///< the child body (for a loop cluster: its first body)
  int cluster = -1;  ///< the cluster of the joint
  bool wholeCluster = false;  ///< a cluster of several bodies (loop, geared or belt coupling): its output body's wrench on all of them
  Vec3 origin = Vec3::Zero(); ///< world position of the joint frame (the moment's reference point)
  ///@{
  Vec3 moment = Vec3::Zero(), force = Vec3::Zero();  ///< world axes; moment about `origin`
  ///@}
};

/// After inverseDynamics(model, data, q, v, qdd[, fext]): the reaction of every joint, one per
/// body in regular order. A cluster of several bodies (a loop or coupling) has one entry for the
/// whole cluster (wholeCluster), since splitting it between its spanning-tree joints needs the
/// loop-closure forces; its moment is about the joint origin of the cluster's first body.
/// \note this overwrites nothing; it reads data.f, data.Xa of the last inverseDynamics.
std::vector<JointReaction> jointReactions(const Model& model, const Data& data);

/// The reaction of body i's joint as a world-axes spatial force [moment about the joint origin;
/// force], after inverseDynamics; allocates nothing. InputError for a body of a loop cluster or
/// out of range, or a Data made for another model (as jointReactions).
/// \note this overwrites nothing; it reads data.f, data.Xa of the last inverseDynamics.
Vec6 jointReaction(const Model& model, const Data& data, int body);

}  // namespace grbda
