#include "text_format.h"

#include <cstdio>
#include <cstring>

namespace md5stage::assetgen {

void AppendFixed(std::string& out, double value, int decimals) {
  char buffer[64];
  int length = std::snprintf(buffer, sizeof(buffer), "%.*f", decimals, value);
  if (length <= 0 || length >= static_cast<int>(sizeof(buffer))) {
    out += "0";
    return;
  }
  const char* text = buffer;
  if (buffer[0] == '-' && std::strspn(buffer + 1, "0.") == static_cast<size_t>(length - 1)) {
    ++text;  // "-0.000000": the sign of a rounded-away value carries no information
  }
  out += text;
}

std::string FormatFixed(double value, int decimals) {
  std::string out;
  AppendFixed(out, value, decimals);
  return out;
}

}  // namespace md5stage::assetgen
