#include "table.hpp"

#include <algorithm>

#include "numbers.hpp"

namespace grbda::cli {

void printTable(std::ostream& out, const Row& header, const std::vector<Row>& rows, int indent,
                const std::vector<bool>& rightAligned) {
  std::vector<size_t> width;
  auto measure = [&](const Row& r) {
    if (width.size() < r.size()) width.resize(r.size(), 0);
    for (size_t c = 0; c < r.size(); ++c) width[c] = std::max(width[c], r[c].size());
  };
  if (!header.empty()) measure(header);
  for (const auto& r : rows) measure(r);
  auto print = [&](const Row& r) {
    std::string line(static_cast<size_t>(indent), ' ');
    for (size_t c = 0; c < r.size(); ++c) {
      const std::string pad(width[c] - r[c].size(), ' ');
      const bool right = c < rightAligned.size() && rightAligned[c];
      line += right ? pad + r[c] : r[c] + (c + 1 < r.size() ? pad : "");
      if (c + 1 < r.size()) line += "  ";
    }
    out << line << '\n';
  };
  if (!header.empty()) print(header);
  for (const auto& r : rows) print(r);
}

void printNamedVector(std::ostream& out, const std::vector<std::string>& names, const VecX& values,
                      const std::string& what) {
  std::vector<Row> rows;
  for (Eigen::Index i = 0; i < values.size(); ++i)
    rows.push_back({names[static_cast<size_t>(i)], formatNumber(values[i], what + "[" + names[static_cast<size_t>(i)] + "]")});
  printTable(out, {}, rows, 2, {false, true});
}

void printNamedMatrix(std::ostream& out, const std::vector<std::string>& rowNames,
                      const std::vector<std::string>& colNames, const MatX& m, const std::string& what) {
  Row header{""};
  header.insert(header.end(), colNames.begin(), colNames.end());
  std::vector<Row> rows;
  for (Eigen::Index r = 0; r < m.rows(); ++r) {
    Row row{rowNames[static_cast<size_t>(r)]};
    for (Eigen::Index c = 0; c < m.cols(); ++c)
      row.push_back(formatNumber(m(r, c), what + "(" + rowNames[static_cast<size_t>(r)] + ", " +
                                              colNames[static_cast<size_t>(c)] + ")"));
    rows.push_back(std::move(row));
  }
  std::vector<bool> right(header.size(), true);
  right[0] = false;
  printTable(out, header, rows, 2, right);
}

std::string joinNumbers(const VecX& x, const std::string& what) {
  std::string s;
  for (Eigen::Index i = 0; i < x.size(); ++i) s += (i ? " " : "") + formatNumber(x[i], what);
  return s;
}

}  // namespace grbda::cli
