// Base64url (RFC 4648 section 5) without padding: the URL-safe text form of a share link's bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/result.h"

namespace md5stage {

std::string Base64UrlEncode(const std::uint8_t* data, std::size_t size);

// Accepts the unpadded form (and tolerates trailing '=' padding). Rejects other characters, a
// length that no encoding produces, nonzero unused bits and input longer than `max_chars`; the
// message names `file` and the 1-based column of the offending character.
Result<std::vector<std::uint8_t>> Base64UrlDecode(std::string_view file, std::string_view text,
                                                  std::size_t max_chars);

}  // namespace md5stage
