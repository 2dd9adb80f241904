// osim: the inverse operational-space inertia Λ⁻¹ of points on links (--point LINK:x,y,z),
// 6-D blocks per point (angular rows first, link axes, reference point at the point) or the 3-D
// linear blocks with --linear.
#include "commands.hpp"
#include "method_setup.hpp"
#include "numbers.hpp"

namespace grbda::cli {

namespace {

/// Row/column names: "LINK:wx" ... "LINK:vz" per point (only the v's with --linear).
std::vector<std::string> blockLabels(const std::vector<NamedPoint>& points, bool linearOnly) {
  static const char* kAxes[] = {"wx", "wy", "wz", "vx", "vy", "vz"};
  std::vector<std::string> labels;
  for (size_t e = 0; e < points.size(); ++e)
    for (int r = linearOnly ? 3 : 0; r < 6; ++r)
      labels.push_back(points[e].link + ":" + kAxes[r]);
  return labels;
}

}  // namespace

int runOsim(const ParsedArgs& args, std::ostream& out) {
  DynamicsSetup s(args, "osim");
  std::vector<NamedPoint> points;
  for (const std::string& text : args.values("--point")) points.push_back(parseNamedPoint(text, "--point"));
  if (points.empty()) throw UsageError("osim needs at least one --point LINK:x,y,z");
  s.runner.setEndEffectors(points);
  const bool linearOnly = args.has("--linear");
  const MatX* L = repeated<MatX>(args, [&]() -> const MatX& { return s.runner.inverseOsim(s.q, linearOnly); });
  if (!L) return 0;
  L = &s.runner.reportedOsim(*L);
  const std::vector<std::string> labels = blockLabels(points, linearOnly);
  VecX coordinates(3 * static_cast<int>(points.size()));
  for (size_t e = 0; e < points.size(); ++e) coordinates.segment<3>(3 * static_cast<int>(e)) = points[e].point;
  Report report = s.report("osim", "LambdaInv", "inverse operational-space inertia", {{"points", &coordinates}});
  if (const PvOsimFast* op = s.runner.pvOsimFast())  // pv-fast: did eq. 54 apply, or the dense fallback?
    report.scalars = {{"branches", op->numBranches()}, {"fell_back", op->fellBack() ? 1.0 : 0.0}};
  report.nameLists = {{"result_labels", &labels}};
  report.labels = &labels;
  printMatrixReport(out, args.has("--json"), s.model, report, *L);
  return 0;
}

}  // namespace grbda::cli
