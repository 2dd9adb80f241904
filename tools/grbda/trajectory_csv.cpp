#include "trajectory_csv.hpp"

#include <algorithm>
#include <array>
#include <cctype>
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

/// Where each value of a row is: column indices into the header.
struct Columns {
  std::vector<size_t> positions;                    ///< one per model position
  std::vector<std::string> contactLinks;            ///< links with cp:/cf: columns
  std::vector<std::array<size_t, 6>> contacts;      ///< cp:L:x,y,z then cf:L:x,y,z
  std::optional<size_t> groundHeight;               ///< the ground_height column
};

bool startsWith(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

// The plain layout: t, then exactly the position names in order.
void plainPositions(const std::vector<std::string>& header, const Model& model, const std::string& where, Columns& c) {
  const std::vector<std::string>& names = model.positionNames();
  for (size_t i = 0; i < names.size(); ++i) {
    if (i + 1 >= header.size())
      throw UsageError(where + ": the header ends before position '" + names[i] + "' (column " + std::to_string(i + 2) +
                       "); after 't' it must list the " + std::to_string(names.size()) +
                       " position names of `grbda info`, in order");
    if (trimmed(header[i + 1]) != names[i])
      throw UsageError(where + ": unknown column '" + trimmed(header[i + 1]) + "' (column " + std::to_string(i + 2) +
                       "); expected position '" + names[i] + "' (the position names of `grbda info`, in order)");
    c.positions.push_back(i + 1);
  }
}

size_t columnOf(const std::vector<std::string>& header, const std::string& name, const std::string& where,
                const std::string& why) {
  for (size_t k = 0; k < header.size(); ++k)
    if (trimmed(header[k]) == name) return k;
  throw UsageError(where + ": no column '" + name + "' (" + why + ")");
}

Columns readHeader(const std::vector<std::string>& header, const Model& model, const std::string& where) {
  if (header.empty() || trimmed(header[0]) != "t")
    throw UsageError(where + ": the first column must be 't' (time), got '" + (header.empty() ? "" : trimmed(header[0])) + "'");
  Columns c;
  const bool simulateLayout =
      std::any_of(header.begin(), header.end(), [](const std::string& h) { return startsWith(trimmed(h), "q:"); });
  if (simulateLayout) {
    for (const std::string& name : model.positionNames())
      c.positions.push_back(columnOf(header, "q:" + name, where,
                                     "a file with q:NAME columns needs one for every position name of `grbda info`"));
  } else {
    plainPositions(header, model, where, c);
  }
  for (const std::string& h : header) {
    const std::string name = trimmed(h);
    if (name == "ground_height") c.groundHeight = static_cast<size_t>(&h - header.data());
    if (!startsWith(name, "cp:") || name.size() < 6 || name.compare(name.size() - 2, 2, ":x") != 0) continue;
    const std::string link = name.substr(3, name.size() - 5);
    std::array<size_t, 6> at{};
    for (int k = 0; k < 6; ++k)
      at[static_cast<size_t>(k)] = columnOf(header, (k < 3 ? "cp:" : "cf:") + link + ":" + "xyz"[k % 3], where,
                                            "the contact columns of link '" + link + "' come as cp:" + link +
                                                ":x,y,z and cf:" + link + ":x,y,z");
    c.contactLinks.push_back(link);
    c.contacts.push_back(at);
  }
  return c;
}

// An empty field or "nan": no value (a link touching nothing, a run without ground).
bool noValue(const std::string& field) {
  std::string f = trimmed(field);
  for (char& c : f) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return f.empty() || f == "nan";
}

void readContacts(const std::vector<std::string>& fields, const Columns& c, const std::string& where,
                  std::vector<LinkContactSample>& out) {
  for (size_t l = 0; l < c.contacts.size(); ++l) {
    const auto& at = c.contacts[l];
    if (noValue(fields[at[0]])) continue;  // the link touches nothing at this row
    LinkContactSample s;
    s.link = static_cast<int>(l);
    for (int k = 0; k < 3; ++k) {
      s.point[k] = parseNumber(fields[at[static_cast<size_t>(k)]], where + ": cp:" + c.contactLinks[l]);
      s.force[k] = parseNumber(fields[at[static_cast<size_t>(k) + 3]], where + ": cf:" + c.contactLinks[l]);
    }
    out.push_back(s);
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
  const Columns columns = readHeader(header, model, path + ":" + std::to_string(lineNumber));

  Trajectory traj;
  traj.contactLinks = columns.contactLinks;
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
      q[i] = parseNumber(fields[columns.positions[static_cast<size_t>(i)]],
                         where + ": " + model.positionNames()[static_cast<size_t>(i)]);
    traj.contacts.emplace_back();
    readContacts(fields, columns, where, traj.contacts.back());
    if (columns.groundHeight && traj.times.empty() && !noValue(fields[*columns.groundHeight]))
      traj.groundHeight = parseNumber(fields[*columns.groundHeight], where + ": ground_height");
    traj.times.push_back(t);
    traj.positions.push_back(q);
    traj.lines.push_back(lineNumber);
  }
  if (traj.times.empty()) throw UsageError(path + ": no rows after the header");
  return traj;
}

}  // namespace grbda::cli
