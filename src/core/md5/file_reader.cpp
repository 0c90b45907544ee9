#include "core/md5/file_reader.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

namespace md5stage::md5 {

Result<std::string> ReadFileBytes(const std::string& path, std::size_t max_bytes) {
  struct Closer {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };
  std::unique_ptr<std::FILE, Closer> file(std::fopen(path.c_str(), "rb"));
  if (!file) {
    return MakeError(path, 0, 0, std::string("cannot open file: ") + std::strerror(errno));
  }
  std::string bytes;
  if (std::fseek(file.get(), 0, SEEK_END) == 0) {
    const long size = std::ftell(file.get());
    if (size > 0 && static_cast<unsigned long>(size) > max_bytes) {
      return MakeError(path, 0, 0,
                       "expected a file of at most " + std::to_string(max_bytes) +
                           " bytes (the loader's limit), found " + std::to_string(size) + " bytes");
    }
    if (size > 0) bytes.reserve(static_cast<std::size_t>(size));
    std::fseek(file.get(), 0, SEEK_SET);
  }
  char buffer[1 << 16];
  std::size_t got = 0;
  while ((got = std::fread(buffer, 1, sizeof buffer, file.get())) > 0) {
    if (bytes.size() + got > max_bytes) {
      return MakeError(path, 0, 0,
                       "expected a file of at most " + std::to_string(max_bytes) +
                           " bytes (the loader's limit), found more");
    }
    bytes.append(buffer, got);
  }
  if (std::ferror(file.get())) {
    return MakeError(path, 0, 0, std::string("cannot read file: ") + std::strerror(errno));
  }
  return bytes;
}

}  // namespace md5stage::md5
