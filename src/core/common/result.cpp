#include "core/common/result.h"

namespace md5stage {

std::string Diagnostic::ToString() const {
  std::string out;
  if (!file.empty()) {
    out += file;
    if (line > 0) {
      out += ":" + std::to_string(line);
      if (column > 0) out += ":" + std::to_string(column);
    }
    out += ": ";
  }
  out += severity == Severity::kError ? "error: " : "warning: ";
  out += message;
  return out;
}

Diagnostic MakeError(std::string file, int line, int column, std::string message) {
  return Diagnostic{Diagnostic::Severity::kError, std::move(file), line, column,
                    std::move(message)};
}

Diagnostic MakeWarning(std::string file, int line, int column, std::string message) {
  return Diagnostic{Diagnostic::Severity::kWarning, std::move(file), line, column,
                    std::move(message)};
}

}  // namespace md5stage
