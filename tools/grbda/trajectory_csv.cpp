#include "trajectory_csv.hpp"

#include <fstream>
#include <sstream>

#include "args.hpp"
#include "numbers.hpp"

namespace grbda::cli {

namespace {
std::vector<std::string> splitFields(std::string line) {
  if (!line.empty() && line.back() == '\r') line.pop_back();  // files written on Windows
  std::vector<std::string> fields;
  std::stringstream in(line);
  std::string field;
  while (std::getline(in, field, ',')) fields.push_back(field);
  if (!line.empty() && line.back() == ',') fields.emplace_back();  // a trailing empty field counts
  return fields;
}

std::string trimmed(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r"), e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

void checkHeader(const std::vector<std::string>& header, const Model& model, const std::string& where) {
  const std::vector<std::string>& names = model.positionNames();
  if (header.empty() || trimmed(header[0]) != "t")
    throw UsageError(where + ": the first column must be 't' (time), got '" + (header.empty() ? "" : trimmed(header[0])) + "'");
  for (size_t i = 0; i < names.size(); ++i) {
    if (i + 1 >= header.size())
      throw UsageError(where + ": the header ends before position '" + names[i] + "' (column " + std::to_string(i + 2) +
                       "); after 't' it must list the " + std::to_string(names.size()) +
                       " position names of `grbda info`, in order");
    if (trimmed(header[i + 1]) != names[i])
      throw UsageError(where + ": unknown column '" + trimmed(header[i + 1]) + "' (column " + std::to_string(i + 2) +
                       "); expected position '" + names[i] + "' (the position names of `grbda info`, in order)");
  }
}
}  // namespace

Trajectory readTrajectoryCsv(const std::string& path, const Model& model) {
  std::ifstream in(path);
  if (!in) throw UsageError("--trajectory: cannot open '" + path + "'");
  std::string line;
  int lineNumber = 0;
  std::vector<std::string> header;
  while (header.empty() && std::getline(in, line)) {  // blank lines before the header are skipped
    ++lineNumber;
    if (!trimmed(line).empty()) header = splitFields(line);
  }
  if (header.empty()) throw UsageError(path + ": empty file (expected a header line 't,POSITION_NAMES...')");
  checkHeader(header, model, path + ":" + std::to_string(lineNumber));

  Trajectory traj;
  while (std::getline(in, line)) {
    ++lineNumber;
    if (trimmed(line).empty()) continue;
    const std::string where = path + ":" + std::to_string(lineNumber);
    const std::vector<std::string> fields = splitFields(line);
    if (fields.size() != header.size())
      throw UsageError(where + ": " + std::to_string(fields.size()) + " fields, but the header has " +
                       std::to_string(header.size()));
    const double t = parseNumber(fields[0], where + ": t");
    if (!traj.times.empty() && t < traj.times.back())
      throw UsageError(where + ": time " + fields[0] + " is before the previous row's");
    VecX q(model.nq());
    for (int i = 0; i < model.nq(); ++i)
      q[i] = parseNumber(fields[static_cast<size_t>(i) + 1], where + ": " + model.positionNames()[static_cast<size_t>(i)]);
    traj.times.push_back(t);
    traj.positions.push_back(q);
    traj.lines.push_back(lineNumber);
  }
  if (traj.times.empty()) throw UsageError(path + ": no rows after the header");
  return traj;
}

}  // namespace grbda::cli
