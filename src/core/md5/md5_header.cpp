#include "core/md5/md5_header.h"

#include <cstdio>

namespace md5stage::md5 {

std::string FormatMessageNumber(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", value);
  return buffer;
}

bool ReadVersionAndCommandLine(Tokenizer& tk, int* version, std::string* commandline) {
  std::int64_t value = 0;
  if (!tk.ExpectWord("MD5Version") || !tk.ReadInt("a version number", &value)) return false;
  if (value != 10) return tk.FailLast("MD5Version 10");
  *version = 10;
  if (tk.PeekWord("commandline")) {
    std::string_view text;
    if (!tk.ExpectWord("commandline") || !tk.ReadString(&text)) return false;
    commandline->assign(text);
  }
  return tk.ok();
}

bool ReadCount(Tokenizer& tk, const char* keyword, std::int64_t min, std::int64_t limit,
               std::size_t min_bytes_each, int* out, std::string_view limit_reason) {
  std::int64_t value = 0;
  if (!tk.ReadInt((std::string("an integer after ") + keyword).c_str(), &value)) return false;
  const std::string name(keyword);
  if (value < min) return tk.FailLast(name + " of at least " + std::to_string(min));
  if (value > limit) {
    return tk.FailLast(name + " of at most " + std::to_string(limit) + " (" +
                       std::string(limit_reason) + ")");
  }
  const std::size_t left = tk.BytesLeft();
  const std::size_t fits = min_bytes_each == 0 ? left : left / min_bytes_each;
  if (static_cast<std::uint64_t>(value) > fits) {
    return tk.FailLast(name + " of at most " + std::to_string(fits) + " (what the " +
                       std::to_string(left) + " bytes left in the file can hold)");
  }
  *out = static_cast<int>(value);
  return true;
}

bool ReadFrameRate(Tokenizer& tk, const Md5Limits& limits, float* out) {
  if (!tk.ReadFloat("a number after frameRate", out)) return false;
  if (!(*out > 0.0f) || *out > limits.max_frame_rate) {
    return tk.FailLast("a frameRate above 0 and at most " +
                       FormatMessageNumber(limits.max_frame_rate));
  }
  return true;
}

Diagnostic FileTooLarge(std::string_view file_name, std::size_t size, const Md5Limits& limits) {
  return MakeError(std::string(file_name), 0, 0,
                   "expected a file of at most " + std::to_string(limits.max_file_bytes) +
                       " bytes (the loader's limit), found " + std::to_string(size) + " bytes");
}

}  // namespace md5stage::md5
