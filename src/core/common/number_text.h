// Shortest round-trip number text for the writers (MD5 text, JSON): std::to_chars where the
// standard library has it for floating point, else (wasm) the shortest digits from {fmt}'s
// Dragonbox (Debian's libfmt-dev, header-only) laid out the same way, with no search loop.
#pragma once

#include <string>

// libstdc++ (GCC 11+) has to_chars for float and double; Emscripten 3.1.6's libc++ 13 has only
// the integer overloads and leaves __cpp_lib_to_chars undefined, so the wasm build uses Dragonbox.
#if defined(__cpp_lib_to_chars) && __cpp_lib_to_chars >= 201611L
#define MD5STAGE_HAVE_FLOATING_TO_CHARS 1
#else
#define MD5STAGE_HAVE_FLOATING_TO_CHARS 0
#endif

namespace md5stage {

// Appends `value` in fixed notation (never an exponent) with the fewest decimals that read back
// to the same float; among equally short texts, the nearest. -0 and non-finite values (which no
// caller may write) append "0".
void AppendShortestFixed(float value, std::string& out);

// The same text from Dragonbox's shortest (and, among the shortest, nearest) digits: what the wasm
// build uses. Public so native tests hold it to the to_chars text.
void AppendShortestFixedByDigits(float value, std::string& out);

}  // namespace md5stage
