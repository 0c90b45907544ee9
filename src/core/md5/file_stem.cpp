#include "core/md5/file_stem.h"

namespace md5stage::md5 {

std::string FileStemOf(std::string_view name) {
  const size_t slash = name.find_last_of("/\\");
  std::string_view base = slash == std::string_view::npos ? name : name.substr(slash + 1);
  const size_t dot = base.find_last_of('.');
  return std::string(dot == std::string_view::npos ? base : base.substr(0, dot));
}

}  // namespace md5stage::md5
