// {fmt}'s Dragonbox shortest digits (Debian's libfmt-dev, header-only), configured once for the
// number writers that use it (number_text.cpp, json.cpp): no formatting, no library to link.
#pragma once

#ifndef FMT_HEADER_ONLY
#define FMT_HEADER_ONLY
#endif
// WebAssembly has no 64 x 64 -> 128-bit multiply: {fmt}'s __int128 path becomes a call to
// compiler-rt's __multi3 per product, its own 32-bit-pieces path is inline and took Dragonbox from
// 17.5 to 12.5 ns a float under node. Set for every file that includes {fmt}, so its inline
// functions are the same everywhere.
#if defined(__wasm__) && !defined(FMT_USE_INT128)
#define FMT_USE_INT128 0
#endif
#include <fmt/format.h>
