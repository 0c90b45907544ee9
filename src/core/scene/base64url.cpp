#include "core/scene/base64url.h"

#include "core/common/text.h"

namespace md5stage {

namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

int DigitValue(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '-') return 62;
  if (c == '_') return 63;
  return -1;
}

}  // namespace

std::string Base64UrlEncode(const std::uint8_t* data, std::size_t size) {
  std::string out;
  out.reserve((size * 4 + 2) / 3);
  std::size_t i = 0;
  for (; i + 3 <= size; i += 3) {
    const std::uint32_t group = (data[i] << 16) | (data[i + 1] << 8) | data[i + 2];
    out += kAlphabet[(group >> 18) & 63];
    out += kAlphabet[(group >> 12) & 63];
    out += kAlphabet[(group >> 6) & 63];
    out += kAlphabet[group & 63];
  }
  const std::size_t rest = size - i;
  if (rest == 1) {
    const std::uint32_t group = data[i] << 16;
    out += kAlphabet[(group >> 18) & 63];
    out += kAlphabet[(group >> 12) & 63];
  } else if (rest == 2) {
    const std::uint32_t group = (data[i] << 16) | (data[i + 1] << 8);
    out += kAlphabet[(group >> 18) & 63];
    out += kAlphabet[(group >> 12) & 63];
    out += kAlphabet[(group >> 6) & 63];
  }
  return out;
}

Result<std::vector<std::uint8_t>> Base64UrlDecode(std::string_view file, std::string_view text,
                                                  std::size_t max_chars) {
  const auto fail = [&](std::size_t offset, const std::string& message) {
    return MakeError(std::string(file), 1, static_cast<int>(offset) + 1, message);
  };
  if (text.size() > max_chars) {
    return MakeError(std::string(file), 0, 0,
                     "expected at most " + std::to_string(max_chars) +
                         " characters of base64url, found " + std::to_string(text.size()));
  }
  std::size_t length = text.size();
  while (length > 0 && text.size() - length < 2 && text[length - 1] == '=') --length;
  // Characters first (the most telling error), then the length, then the unused bits.
  for (std::size_t i = 0; i < length; ++i) {
    if (DigitValue(text[i]) < 0) {
      return fail(
          i, "expected a base64url character (A-Z a-z 0-9 - _), found " + DescribeByte(text[i]));
    }
  }
  if (length < text.size() && (length + (text.size() - length)) % 4 != 0) {
    return fail(length, "expected padding to a multiple of 4 characters, found " +
                            std::to_string(text.size()) + " characters");
  }
  if (length % 4 == 1) {
    return fail(length - 1,
                "expected a base64url length that is not 1 more than a multiple of 4, "
                "found " +
                    std::to_string(length) + " characters");
  }
  std::vector<std::uint8_t> out;
  out.reserve(length * 3 / 4);
  std::uint32_t buffer = 0;
  int bits = 0;
  for (std::size_t i = 0; i < length; ++i) {
    const int value = DigitValue(text[i]);
    buffer = (buffer << 6) | static_cast<std::uint32_t>(value);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<std::uint8_t>(buffer >> bits));
      buffer &= (1u << bits) - 1u;
    }
  }
  if (buffer != 0) {
    return fail(length - 1, "expected zero unused bits in the last character, found " +
                                DescribeByte(text[length - 1]));
  }
  return out;
}

}  // namespace md5stage
