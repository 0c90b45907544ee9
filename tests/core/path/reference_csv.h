// Reads the ../shared/reference CSV tables (header row + numeric/text cells) for the path tests.
#pragma once

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace md5stage::testing {

class CsvRow {
 public:
  CsvRow(const std::map<std::string, std::string>* cells) : cells_(cells) {}  // NOLINT
  const std::string& text(const std::string& column) const {
    static const std::string kMissing = "<missing column>";
    auto it = cells_->find(column);
    return it == cells_->end() ? kMissing : it->second;
  }
  // "nan" and empty cells read as NaN.
  double number(const std::string& column) const {
    const std::string& cell = text(column);
    if (cell.empty() || cell == "nan") return std::nan("");
    return std::strtod(cell.c_str(), nullptr);
  }
  bool has_flag(const std::string& flag) const {
    std::stringstream flags(text("flags"));
    std::string item;
    while (std::getline(flags, item, ';')) {
      if (item == flag) return true;
    }
    return false;
  }
  bool flagged() const { return !text("flags").empty(); }

 private:
  const std::map<std::string, std::string>* cells_;
};

struct CsvTable {
  std::vector<std::map<std::string, std::string>> rows;
  std::size_t size() const { return rows.size(); }
  CsvRow operator[](std::size_t i) const { return CsvRow(&rows[i]); }
};

inline std::vector<std::string> SplitCsvLine(const std::string& line) {
  std::vector<std::string> cells;
  std::string cell;
  std::stringstream in(line);
  while (std::getline(in, cell, ',')) cells.push_back(cell);
  if (!line.empty() && line.back() == ',') cells.emplace_back();
  return cells;
}

// Empty table when the file cannot be opened.
inline CsvTable ReadCsv(const std::string& path) {
  CsvTable table;
  std::ifstream in(path);
  std::string line;
  if (!std::getline(in, line)) return table;
  if (!line.empty() && line.back() == '\r') line.pop_back();
  const std::vector<std::string> header = SplitCsvLine(line);
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    const std::vector<std::string> cells = SplitCsvLine(line);
    std::map<std::string, std::string> row;
    for (std::size_t i = 0; i < header.size(); ++i) {
      row[header[i]] = i < cells.size() ? cells[i] : std::string();
    }
    table.rows.push_back(std::move(row));
  }
  return table;
}

inline std::string ReferencePath(const std::string& name) {
  return std::string(MD5STAGE_SHARED_DIR) + "/reference/" + name;
}

}  // namespace md5stage::testing
