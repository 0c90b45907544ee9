#include "cli/arguments.h"

#include <cmath>
#include <cstdlib>

namespace md5stage::cli {

bool ParseNumber(const std::string& text, double* out, bool allow_non_finite) {
  if (text.empty()) return false;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return false;
  if (!allow_non_finite && !std::isfinite(value)) return false;
  *out = value;
  return true;
}

std::vector<std::string> Split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string::size_type begin = 0;
  while (true) {
    const std::string::size_type end = text.find(separator, begin);
    parts.push_back(text.substr(begin, end == std::string::npos ? std::string::npos : end - begin));
    if (end == std::string::npos) return parts;
    begin = end + 1;
  }
}

int ParseTuple(const std::string& text, double values[3]) {
  const std::vector<std::string> parts = Split(text, ',');
  if (parts.size() < 2 || parts.size() > 3) return 0;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (!ParseNumber(parts[i], &values[i])) return 0;
  }
  return static_cast<int>(parts.size());
}

bool ParseStartPose(const std::string& text, Pose2* pose) {
  double values[3];
  if (ParseTuple(text, values) != 3) return false;
  *pose = {{values[0], values[1]}, values[2]};
  return true;
}

bool ParseGoal(const std::string& text, glm::dvec2* point, bool* has_heading, double* heading) {
  double values[3];
  const int count = ParseTuple(text, values);
  if (count == 0) return false;
  *point = {values[0], values[1]};
  *has_heading = count == 3;
  *heading = count == 3 ? values[2] : 0.0;
  return true;
}

}  // namespace md5stage::cli
