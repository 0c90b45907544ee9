// Reads a whole file into memory for the parsers (which only take bytes): used by the native
// command and tests; the browser hands over fetched or dropped bytes instead.
#pragma once

#include <cstddef>
#include <string>

#include "core/common/result.h"

namespace md5stage::md5 {

// The file's bytes, or an error naming the file ("cannot open ...", "larger than ...").
Result<std::string> ReadFileBytes(const std::string& path,
                                  std::size_t max_bytes = std::size_t{256} << 20);

}  // namespace md5stage::md5
