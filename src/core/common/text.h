// Small text helpers the readers share (JSON, share links, embed options): hex digits, UTF-8
// encoding, and how one byte reads in a message.
#pragma once

#include <string>

namespace md5stage {

// 0-15 for 0-9, a-f, A-F; -1 for anything else.
int HexDigitValue(char c);

// Appends the UTF-8 encoding of `code_point` (at most U+10FFFF; callers check surrogates).
void AppendUtf8(char32_t code_point, std::string& out);

// A byte after "found" in a message: 'c' when printable ASCII, else "byte 0x1f".
std::string DescribeByte(char c);

}  // namespace md5stage
