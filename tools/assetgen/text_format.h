// Fixed, locale-free number formatting so that generated text files are the same bytes on every
// run: six decimals, and never "-0.000000".
#pragma once

#include <string>

namespace md5stage::assetgen {

// `value` with `decimals` digits after the point; a value that rounds to zero prints unsigned.
std::string FormatFixed(double value, int decimals = 6);

// Appends FormatFixed(value, decimals) to `out`.
void AppendFixed(std::string& out, double value, int decimals = 6);

}  // namespace md5stage::assetgen
