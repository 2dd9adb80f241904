#include "mjcf/loop_dependents.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <map>

namespace grbda::mjcf_detail {
namespace {

/// Links from `link` up to `top` (exclusive), nearest first.
std::vector<std::string> linksUp(const Reader& r, std::string link, const std::string& top) {
  std::vector<std::string> out;
  while (link != top && link != "world") {
    out.push_back(link);
    link = r.parentOfLink.at(link).first;
  }
  return out;
}

std::string commonAncestor(const Reader& r, const std::string& a, const std::string& b) {
  std::vector<std::string> up{a};
  for (std::string l = a; l != "world";) up.push_back(l = r.parentOfLink.at(l).first);
  for (std::string l = b;; l = r.parentOfLink.at(l).first)
    if (std::find(up.begin(), up.end(), l) != up.end()) return l;
}

/// The poses (in the common ancestor's frame) of the links of one chain, nearest the end first.
std::vector<Pose> chainPoses(const Reader& r, const std::vector<std::string>& links, const std::map<std::string, double>& q) {
  std::vector<Pose> poses(links.size());
  Pose X;
  for (size_t k = links.size(); k-- > 0;) {
    const std::string& link = links[k];
    X = X * r.linkOrigin.at(link);
    const std::string& joint = r.parentOfLink.at(link).second;
    const auto it = r.jointInfo.find(joint);
    if (it != r.jointInfo.end()) {
      const double v = q.count(joint) ? q.at(joint) : 0.0;
      const JointInfo& j = it->second;
      X = j.kind == JointKind::Prismatic ? X * Pose::translation(v * j.axis)
                                         : X * Pose{Eigen::AngleAxisd(v, j.axis).toRotationMatrix(), Vec3::Zero()};
    }
    poses[k] = X;
  }
  return poses;
}

}  // namespace

void loopChains(const Reader& r, const std::string& link1, const std::string& link2, std::vector<std::string>& pred,
                std::vector<std::string>& succ) {
  const std::string top = commonAncestor(r, link1, link2);
  for (auto [link, out] : {std::pair{link1, &pred}, std::pair{link2, &succ}})
    for (const std::string& l : linksUp(r, link, top))
      if (r.jointInfo.count(r.parentOfLink.at(l).second)) out->push_back(r.parentOfLink.at(l).second);
}

MatX loopJacobian(const Reader& r, const LoopEnds& ends, const std::vector<std::string>& pred,
                  const std::vector<std::string>& succ, const std::vector<double>& qPred, const std::vector<double>& qSucc) {
  std::map<std::string, double> q;
  for (size_t k = 0; k < pred.size(); ++k) q[pred[k]] = qPred[k];
  for (size_t k = 0; k < succ.size(); ++k) q[succ[k]] = qSucc[k];
  const std::string top = commonAncestor(r, ends.link1, ends.link2);
  const int rows = ends.fixed ? 6 : 3;
  MatX J = MatX::Zero(rows, static_cast<Eigen::Index>(pred.size() + succ.size()));
  Eigen::Index col = 0;
  for (int side = 0; side < 2; ++side) {
    const std::string& end = side == 0 ? ends.link1 : ends.link2;
    const std::vector<std::string> links = linksUp(r, end, top);
    const std::vector<Pose> poses = chainPoses(r, links, q);
    const Pose endPose = links.empty() ? Pose() : poses.front();
    const Vec3 P = endPose.R * (side == 0 ? ends.p1 : ends.p2) + endPose.p;
    const double sign = side == 0 ? 1.0 : -1.0;
    for (size_t k = 0; k < links.size(); ++k) {
      const auto it = r.jointInfo.find(r.parentOfLink.at(links[k]).second);
      if (it == r.jointInfo.end()) continue;
      const Vec3 a = poses[k].R * it->second.axis;  // hinge or slide axis, in the ancestor's frame
      Vec6 s = Vec6::Zero();  // [ω; velocity of the end point]
      if (it->second.kind == JointKind::Prismatic) s.tail<3>() = a;
      else s << a, a.cross(P - poses[k].p);
      J.col(col++) = sign * s.tail(rows);
    }
  }
  return J;
}

int numericalRank(const MatX& J) {
  if (J.size() == 0) return 0;
  Eigen::FullPivLU<MatX> lu(J);
  lu.setThreshold(1e-9);
  return static_cast<int>(lu.rank());
}

}  // namespace grbda::mjcf_detail
