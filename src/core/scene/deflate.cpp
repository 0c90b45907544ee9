#include "core/scene/deflate.h"

#include <algorithm>
#include <array>
#include <functional>
#include <queue>
#include <utility>

namespace md5stage {

namespace {

// ---- RFC 1951 tables ---------------------------------------------------------------------------

constexpr int kMaxBits = 15;
constexpr int kMaxCodeLengthBits = 7;
constexpr int kNumLitLen = 288;  // 286 and 287 never occur in valid data
constexpr int kNumDist = 32;     // 30 and 31 never occur in valid data
constexpr int kNumCodeLength = 19;
constexpr int kEndOfBlock = 256;
constexpr int kMinMatch = 3;
constexpr int kMaxMatch = 258;
constexpr int kWindow = 32768;

constexpr std::array<std::uint16_t, 29> kLengthBase = {3,  4,  5,  6,   7,   8,   9,   10,  11, 13,
                                                       15, 17, 19, 23,  27,  31,  35,  43,  51, 59,
                                                       67, 83, 99, 115, 131, 163, 195, 227, 258};
constexpr std::array<std::uint8_t, 29> kLengthExtra = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                                       2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
constexpr std::array<std::uint16_t, 30> kDistBase = {
    1,   2,   3,   4,   5,   7,    9,    13,   17,   25,   33,   49,   65,    97,    129,
    193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
constexpr std::array<std::uint8_t, 30> kDistExtra = {0, 0, 0,  0,  1,  1,  2,  2,  3,  3,
                                                     4, 4, 5,  5,  6,  6,  7,  7,  8,  8,
                                                     9, 9, 10, 10, 11, 11, 12, 12, 13, 13};
// The order in which a dynamic block header lists the code-length code's lengths.
constexpr std::array<std::uint8_t, kNumCodeLength> kCodeLengthOrder = {
    16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

std::array<std::uint8_t, kNumLitLen> FixedLitLenLengths() {
  std::array<std::uint8_t, kNumLitLen> lengths{};
  for (int i = 0; i < kNumLitLen; ++i) lengths[i] = i < 144 ? 8 : i < 256 ? 9 : i < 280 ? 7 : 8;
  return lengths;
}

std::array<std::uint8_t, kNumDist> FixedDistLengths() {
  std::array<std::uint8_t, kNumDist> lengths{};
  lengths.fill(5);
  return lengths;
}

int LengthCode(int length) {  // index into kLengthBase
  int code = 28;
  while (kLengthBase[code] > length) --code;
  return code;
}

int DistCode(int distance) {  // index into kDistBase
  int code = 29;
  while (kDistBase[code] > distance) --code;
  return code;
}

// ---- compressor --------------------------------------------------------------------------------

class BitWriter {
 public:
  void Put(std::uint32_t bits, int count) {  // LSB first
    buffer_ |= static_cast<std::uint64_t>(bits) << count_;
    count_ += count;
    while (count_ >= 8) {
      out_.push_back(static_cast<std::uint8_t>(buffer_));
      buffer_ >>= 8;
      count_ -= 8;
    }
  }
  // Huffman codes go most significant bit first.
  void PutCode(std::uint32_t code, int length) {
    std::uint32_t reversed = 0;
    for (int i = 0; i < length; ++i) reversed |= ((code >> i) & 1u) << (length - 1 - i);
    Put(reversed, length);
  }
  void AlignToByte() {
    if (count_ > 0) Put(0, 8 - count_);
  }
  std::vector<std::uint8_t> Finish() {
    AlignToByte();
    return std::move(out_);
  }

 private:
  std::vector<std::uint8_t> out_;
  std::uint64_t buffer_ = 0;
  int count_ = 0;
};

struct Token {
  std::uint16_t literal_or_length;  // a byte when distance == 0
  std::uint16_t distance;
};

// Tokens for data[begin, end); matches may reach back into data[0, begin) (a preset dictionary).
std::vector<Token> FindMatches(std::string_view data, int begin) {
  constexpr int kHashBits = 15;
  constexpr int kMaxChain = 256;
  const int size = static_cast<int>(data.size());
  const auto byte = [&](int i) { return static_cast<std::uint8_t>(data[i]); };
  const auto hash = [&](int i) {
    return ((byte(i) << 10) ^ (byte(i + 1) << 5) ^ byte(i + 2)) & ((1 << kHashBits) - 1);
  };
  std::vector<int> head(1 << kHashBits, -1);
  std::vector<int> previous(data.size(), -1);
  int inserted = 0;  // positions below this are in the hash chains
  const auto insert_up_to = [&](int end) {
    for (; inserted < end && inserted + kMinMatch <= size; ++inserted) {
      const int h = hash(inserted);
      previous[inserted] = head[h];
      head[h] = inserted;
    }
  };
  const auto longest_match = [&](int position, int& best_distance) {
    int best_length = 0;
    if (position + kMinMatch > size) return 0;
    const int limit = std::min(kMaxMatch, size - position);
    int candidate = head[hash(position)];
    for (int chain = 0; candidate >= 0 && chain < kMaxChain; ++chain) {
      if (position - candidate > kWindow) break;
      if (data[candidate + best_length] == data[position + best_length]) {
        int length = 0;
        while (length < limit && data[candidate + length] == data[position + length]) ++length;
        if (length > best_length) {
          best_length = length;
          best_distance = position - candidate;
          if (length == limit) break;
        }
      }
      candidate = previous[candidate];
    }
    return best_length >= kMinMatch ? best_length : 0;
  };

  std::vector<Token> tokens;
  tokens.reserve((data.size() - begin) / 2 + 16);
  int position = begin;
  while (position < size) {
    insert_up_to(position);
    int distance = 0;
    const int length = longest_match(position, distance);
    if (length > 0 && length < kMaxMatch && position + 1 < size) {
      // Lazy matching: a literal now may allow a longer match one byte later.
      insert_up_to(position + 1);
      int next_distance = 0;
      const int next_length = longest_match(position + 1, next_distance);
      if (next_length > length) {
        tokens.push_back({byte(position), 0});
        ++position;
        continue;
      }
    }
    if (length == 0) {
      tokens.push_back({byte(position), 0});
      ++position;
    } else {
      tokens.push_back({static_cast<std::uint16_t>(length), static_cast<std::uint16_t>(distance)});
      position += length;
    }
  }
  return tokens;
}

// Huffman code lengths for `freq`, none longer than `max_bits`. At least two symbols get a code
// so that every code is complete (what decoders, including zlib's, expect).
std::vector<std::uint8_t> BuildLengths(std::vector<std::uint32_t> freq, int max_bits) {
  const int count = static_cast<int>(freq.size());
  int used = 0;
  for (std::uint32_t f : freq) used += f > 0;
  for (int i = 0; i < count && used < 2; ++i) {
    if (freq[i] == 0) {
      freq[i] = 1;
      ++used;
    }
  }
  std::vector<std::uint8_t> lengths(count, 0);
  for (;;) {
    // Nodes 0..count-1 are leaves; internal nodes follow. Ties break on the node index so the
    // result does not depend on the priority queue's implementation.
    std::vector<int> parent(2 * count, -1);
    using Entry = std::pair<std::uint64_t, int>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> queue;
    for (int i = 0; i < count; ++i) {
      if (freq[i] > 0) queue.push({freq[i], i});
    }
    int next = count;
    while (queue.size() > 1) {
      const Entry a = queue.top();
      queue.pop();
      const Entry b = queue.top();
      queue.pop();
      parent[a.second] = next;
      parent[b.second] = next;
      queue.push({a.first + b.first, next});
      ++next;
    }
    int longest = 0;
    for (int i = 0; i < count; ++i) {
      if (freq[i] == 0) {
        lengths[i] = 0;
        continue;
      }
      int depth = 0;
      for (int node = i; parent[node] >= 0; node = parent[node]) ++depth;
      lengths[i] = static_cast<std::uint8_t>(depth);
      longest = std::max(longest, depth);
    }
    if (longest <= max_bits) return lengths;
    // Too deep: flatten the distribution and build again; all-equal frequencies give a balanced
    // tree, which fits for every alphabet DEFLATE has.
    for (std::uint32_t& f : freq) {
      if (f > 0) f = std::max<std::uint32_t>(1, f >> 1);
    }
  }
}

std::vector<std::uint16_t> CanonicalCodes(const std::uint8_t* lengths, int count) {
  int length_count[kMaxBits + 1] = {};
  for (int i = 0; i < count; ++i) ++length_count[lengths[i]];
  length_count[0] = 0;
  int next_code[kMaxBits + 2] = {};
  int code = 0;
  for (int bits = 1; bits <= kMaxBits; ++bits) {
    code = (code + length_count[bits - 1]) << 1;
    next_code[bits] = code;
  }
  std::vector<std::uint16_t> codes(count, 0);
  for (int i = 0; i < count; ++i) {
    if (lengths[i] > 0) codes[i] = static_cast<std::uint16_t>(next_code[lengths[i]]++);
  }
  return codes;
}

// The code-length alphabet's run-length form of a dynamic header's lengths.
struct CodeLengthSymbol {
  std::uint8_t symbol;
  std::uint8_t extra;  // value of the extra bits for 16, 17, 18
};

std::vector<CodeLengthSymbol> RunLengthEncode(const std::vector<std::uint8_t>& lengths) {
  std::vector<CodeLengthSymbol> out;
  const std::size_t n = lengths.size();
  for (std::size_t i = 0; i < n;) {
    const std::uint8_t value = lengths[i];
    std::size_t run = 1;
    while (i + run < n && lengths[i + run] == value) ++run;
    if (value == 0 && run >= 3) {
      const std::size_t take = std::min<std::size_t>(run, 138);
      if (take >= 11) {
        out.push_back({18, static_cast<std::uint8_t>(take - 11)});
      } else {
        out.push_back({17, static_cast<std::uint8_t>(take - 3)});
      }
      i += take;
    } else if (value != 0 && run >= 4) {
      out.push_back({value, 0});
      const std::size_t take = std::min<std::size_t>(run - 1, 6);
      out.push_back({16, static_cast<std::uint8_t>(take - 3)});
      i += 1 + take;
    } else {
      out.push_back({value, 0});
      ++i;
    }
  }
  return out;
}

int CodeLengthExtraBits(int symbol) {
  return symbol == 16 ? 2 : symbol == 17 ? 3 : symbol == 18 ? 7 : 0;
}

struct BlockCodes {
  std::vector<std::uint8_t> lit_lengths;
  std::vector<std::uint8_t> dist_lengths;
};

class BlockWriter {
 public:
  BlockWriter(std::string_view data, BitWriter& out) : data_(data), out_(out) {}

  void Write(const Token* tokens, std::size_t count, std::size_t raw_begin, std::size_t raw_end,
             bool final) {
    std::vector<std::uint32_t> lit_freq(286, 0), dist_freq(30, 0);
    std::uint64_t extra_bits = 0;
    for (std::size_t i = 0; i < count; ++i) {
      const Token& t = tokens[i];
      if (t.distance == 0) {
        ++lit_freq[t.literal_or_length];
      } else {
        const int lc = LengthCode(t.literal_or_length), dc = DistCode(t.distance);
        ++lit_freq[257 + lc];
        ++dist_freq[dc];
        extra_bits += kLengthExtra[lc] + kDistExtra[dc];
      }
    }
    lit_freq[kEndOfBlock] = 1;

    // Dynamic codes and their header.
    BlockCodes dynamic{BuildLengths(lit_freq, kMaxBits), BuildLengths(dist_freq, kMaxBits)};
    int lit_count = 286, dist_count = 30;
    while (lit_count > 257 && dynamic.lit_lengths[lit_count - 1] == 0) --lit_count;
    while (dist_count > 1 && dynamic.dist_lengths[dist_count - 1] == 0) --dist_count;
    std::vector<std::uint8_t> all_lengths(dynamic.lit_lengths.begin(),
                                          dynamic.lit_lengths.begin() + lit_count);
    all_lengths.insert(all_lengths.end(), dynamic.dist_lengths.begin(),
                       dynamic.dist_lengths.begin() + dist_count);
    const std::vector<CodeLengthSymbol> rle = RunLengthEncode(all_lengths);
    std::vector<std::uint32_t> cl_freq(kNumCodeLength, 0);
    for (const CodeLengthSymbol& s : rle) ++cl_freq[s.symbol];
    const std::vector<std::uint8_t> cl_lengths = BuildLengths(cl_freq, kMaxCodeLengthBits);
    int cl_count = kNumCodeLength;
    while (cl_count > 4 && cl_lengths[kCodeLengthOrder[cl_count - 1]] == 0) --cl_count;

    std::uint64_t dynamic_bits = 3 + 5 + 5 + 4 + 3 * cl_count + extra_bits;
    for (const CodeLengthSymbol& s : rle) {
      dynamic_bits += cl_lengths[s.symbol] + CodeLengthExtraBits(s.symbol);
    }
    std::uint64_t fixed_bits = 3 + extra_bits;
    const auto fixed_lit = FixedLitLenLengths();
    for (int i = 0; i < 286; ++i) {
      dynamic_bits += static_cast<std::uint64_t>(lit_freq[i]) * dynamic.lit_lengths[i];
      fixed_bits += static_cast<std::uint64_t>(lit_freq[i]) * fixed_lit[i];
    }
    for (int i = 0; i < 30; ++i) {
      dynamic_bits += static_cast<std::uint64_t>(dist_freq[i]) * dynamic.dist_lengths[i];
      fixed_bits += static_cast<std::uint64_t>(dist_freq[i]) * 5;
    }
    const std::uint64_t stored_bits =
        3 + 7 + 32 + 8 * static_cast<std::uint64_t>(raw_end - raw_begin);

    if (stored_bits < dynamic_bits && stored_bits < fixed_bits && raw_end - raw_begin <= 65535) {
      out_.Put(final ? 1 : 0, 1);
      out_.Put(0, 2);
      out_.AlignToByte();
      const auto length = static_cast<std::uint32_t>(raw_end - raw_begin);
      out_.Put(length, 16);
      out_.Put(~length & 0xFFFF, 16);
      for (std::size_t i = raw_begin; i < raw_end; ++i)
        out_.Put(static_cast<std::uint8_t>(data_[i]), 8);
      return;
    }
    if (fixed_bits <= dynamic_bits) {
      out_.Put(final ? 1 : 0, 1);
      out_.Put(1, 2);
      const auto lit = FixedLitLenLengths();
      const auto dist = FixedDistLengths();
      WriteTokens(tokens, count, lit.data(), kNumLitLen, dist.data(), kNumDist);
      return;
    }
    out_.Put(final ? 1 : 0, 1);
    out_.Put(2, 2);
    out_.Put(static_cast<std::uint32_t>(lit_count - 257), 5);
    out_.Put(static_cast<std::uint32_t>(dist_count - 1), 5);
    out_.Put(static_cast<std::uint32_t>(cl_count - 4), 4);
    for (int i = 0; i < cl_count; ++i) out_.Put(cl_lengths[kCodeLengthOrder[i]], 3);
    const std::vector<std::uint16_t> cl_codes = CanonicalCodes(cl_lengths.data(), kNumCodeLength);
    for (const CodeLengthSymbol& s : rle) {
      out_.PutCode(cl_codes[s.symbol], cl_lengths[s.symbol]);
      if (s.symbol >= 16) out_.Put(s.extra, CodeLengthExtraBits(s.symbol));
    }
    WriteTokens(tokens, count, dynamic.lit_lengths.data(), 286, dynamic.dist_lengths.data(), 30);
  }

 private:
  void WriteTokens(const Token* tokens, std::size_t count, const std::uint8_t* lit_lengths,
                   int lit_count, const std::uint8_t* dist_lengths, int dist_count) {
    const std::vector<std::uint16_t> lit_codes = CanonicalCodes(lit_lengths, lit_count);
    const std::vector<std::uint16_t> dist_codes = CanonicalCodes(dist_lengths, dist_count);
    for (std::size_t i = 0; i < count; ++i) {
      const Token& t = tokens[i];
      if (t.distance == 0) {
        out_.PutCode(lit_codes[t.literal_or_length], lit_lengths[t.literal_or_length]);
        continue;
      }
      const int lc = LengthCode(t.literal_or_length);
      out_.PutCode(lit_codes[257 + lc], lit_lengths[257 + lc]);
      out_.Put(t.literal_or_length - kLengthBase[lc], kLengthExtra[lc]);
      const int dc = DistCode(t.distance);
      out_.PutCode(dist_codes[dc], dist_lengths[dc]);
      out_.Put(t.distance - kDistBase[dc], kDistExtra[dc]);
    }
    out_.PutCode(lit_codes[kEndOfBlock], lit_lengths[kEndOfBlock]);
  }

  std::string_view data_;
  BitWriter& out_;
};

// ---- decompressor ------------------------------------------------------------------------------

struct Huffman {
  std::uint16_t length_count[kMaxBits + 1];
  std::uint16_t symbols[kNumLitLen];  // ordered by code
};

enum class CodeShape { kComplete, kIncomplete, kOversubscribed };

CodeShape BuildHuffman(const std::uint8_t* lengths, int count, Huffman& h) {
  std::fill(std::begin(h.length_count), std::end(h.length_count), 0);
  for (int i = 0; i < count; ++i) ++h.length_count[lengths[i]];
  int left = 1;  // codes still available at the current length
  for (int bits = 1; bits <= kMaxBits; ++bits) {
    left = (left << 1) - h.length_count[bits];
    if (left < 0) return CodeShape::kOversubscribed;
  }
  std::uint16_t offsets[kMaxBits + 2] = {};
  for (int bits = 1; bits <= kMaxBits; ++bits) {
    offsets[bits + 1] = offsets[bits] + h.length_count[bits];
  }
  for (int i = 0; i < count; ++i) {
    if (lengths[i] != 0) h.symbols[offsets[lengths[i]]++] = static_cast<std::uint16_t>(i);
  }
  return left == 0 ? CodeShape::kComplete : CodeShape::kIncomplete;
}

class Inflater {
 public:
  Inflater(std::string_view file, const std::uint8_t* data, std::size_t size,
           std::size_t max_output, std::string_view dictionary)
      : file_(file),
        data_(data),
        size_(size),
        max_output_(max_output + dictionary.size()),
        out_(dictionary),
        prefix_(dictionary.size()) {}

  Result<std::string> Run() {
    bool final = false;
    while (!final) {
      std::uint32_t header = 0;
      if (!Bits(3, header)) return error_;
      final = (header & 1) != 0;
      const std::uint32_t type = header >> 1;
      bool ok = false;
      if (type == 0) {
        ok = Stored();
      } else if (type == 1) {
        ok = Fixed();
      } else if (type == 2) {
        ok = Dynamic();
      } else {
        ok = Fail("a block type 0, 1 or 2", "3");
      }
      if (!ok) return error_;
    }
    if (position_ != size_) {
      Fail("end of data after the final block", std::to_string(size_ - position_) + " more bytes");
      return error_;
    }
    out_.erase(0, prefix_);
    return std::move(out_);
  }

 private:
  bool Fail(const std::string& expected, const std::string& found) {
    error_ = MakeError(std::string(file_), 0, 0,
                       "compressed data at byte " + std::to_string(position_) + ": expected " +
                           expected + ", found " + found);
    return false;
  }
  bool Truncated() { return Fail("more compressed data", "the end of the data"); }

  bool Bits(int count, std::uint32_t& value) {
    while (bit_count_ < count) {
      if (position_ >= size_) return Truncated();
      bit_buffer_ |= static_cast<std::uint32_t>(data_[position_++]) << bit_count_;
      bit_count_ += 8;
    }
    value = bit_buffer_ & ((1u << count) - 1u);
    bit_buffer_ = count == 32 ? 0 : bit_buffer_ >> count;
    bit_count_ -= count;
    return true;
  }

  bool Decode(const Huffman& h, int& symbol) {
    int code = 0, first = 0, index = 0;
    for (int bits = 1; bits <= kMaxBits; ++bits) {
      std::uint32_t bit = 0;
      if (!Bits(1, bit)) return false;
      code |= static_cast<int>(bit);
      const int count = h.length_count[bits];
      if (code - first < count) {
        symbol = h.symbols[index + (code - first)];
        return true;
      }
      index += count;
      first = (first + count) << 1;
      code <<= 1;
    }
    return Fail("a Huffman code", "a bit pattern the block's code does not use");
  }

  bool Emit(char c) {
    if (out_.size() >= max_output_) return TooLarge();
    out_ += c;
    return true;
  }
  bool TooLarge() {
    return Fail("at most " + std::to_string(max_output_ - prefix_) + " bytes of output", "more");
  }

  bool Stored() {
    bit_buffer_ = 0;  // the rest of the current byte is padding
    bit_count_ = 0;
    if (size_ - position_ < 4) {
      position_ = size_;
      return Truncated();
    }
    const unsigned length = data_[position_] | (data_[position_ + 1] << 8);
    const unsigned complement = data_[position_ + 2] | (data_[position_ + 3] << 8);
    if (length != (~complement & 0xFFFFu)) {
      return Fail("a stored block length and its complement",
                  std::to_string(length) + " and " + std::to_string(complement));
    }
    position_ += 4;
    if (size_ - position_ < length) {
      position_ = size_;
      return Truncated();
    }
    if (max_output_ - out_.size() < length) return TooLarge();
    out_.append(reinterpret_cast<const char*>(data_ + position_), length);
    position_ += length;
    return true;
  }

  bool Fixed() {
    const auto lit = FixedLitLenLengths();
    const auto dist = FixedDistLengths();
    BuildHuffman(lit.data(), kNumLitLen, lit_);
    BuildHuffman(dist.data(), kNumDist, dist_);
    return Codes();
  }

  bool Dynamic() {
    std::uint32_t lit_count = 0, dist_count = 0, cl_count = 0;
    if (!Bits(5, lit_count) || !Bits(5, dist_count) || !Bits(4, cl_count)) return false;
    lit_count += 257;
    dist_count += 1;
    cl_count += 4;
    if (lit_count > 286) return Fail("at most 286 literal/length codes", std::to_string(lit_count));
    if (dist_count > 30) return Fail("at most 30 distance codes", std::to_string(dist_count));
    std::uint8_t cl_lengths[kNumCodeLength] = {};
    for (std::uint32_t i = 0; i < cl_count; ++i) {
      std::uint32_t length = 0;
      if (!Bits(3, length)) return false;
      cl_lengths[kCodeLengthOrder[i]] = static_cast<std::uint8_t>(length);
    }
    Huffman cl;
    if (BuildHuffman(cl_lengths, kNumCodeLength, cl) != CodeShape::kComplete) {
      return Fail("a complete code-length code", "an incomplete or oversubscribed one");
    }
    std::uint8_t lengths[286 + 30] = {};
    const std::uint32_t total = lit_count + dist_count;
    for (std::uint32_t i = 0; i < total;) {
      int symbol = 0;
      if (!Decode(cl, symbol)) return false;
      if (symbol < 16) {
        lengths[i++] = static_cast<std::uint8_t>(symbol);
        continue;
      }
      std::uint8_t value = 0;
      std::uint32_t repeat = 0;
      if (symbol == 16) {
        if (i == 0) return Fail("a previous length to repeat", "the first length");
        value = lengths[i - 1];
        if (!Bits(2, repeat)) return false;
        repeat += 3;
      } else if (symbol == 17) {
        if (!Bits(3, repeat)) return false;
        repeat += 3;
      } else {
        if (!Bits(7, repeat)) return false;
        repeat += 11;
      }
      if (i + repeat > total) {
        return Fail(std::to_string(total) + " code lengths", "a repeat running past them");
      }
      while (repeat-- > 0) lengths[i++] = value;
    }
    if (lengths[kEndOfBlock] == 0) return Fail("a code for the end of block", "none");
    // Incomplete codes are allowed only in the one form encoders use for a single symbol: one
    // code of one bit.
    const auto acceptable = [](CodeShape shape, const Huffman& h) {
      if (shape == CodeShape::kComplete) return true;
      if (shape == CodeShape::kOversubscribed) return false;
      int codes = 0;
      for (int bits = 1; bits <= kMaxBits; ++bits) codes += h.length_count[bits];
      return codes == 1 && h.length_count[1] == 1;
    };
    if (!acceptable(BuildHuffman(lengths, static_cast<int>(lit_count), lit_), lit_)) {
      return Fail("a complete literal/length code", "an incomplete or oversubscribed one");
    }
    if (!acceptable(BuildHuffman(lengths + lit_count, static_cast<int>(dist_count), dist_),
                    dist_)) {
      return Fail("a complete distance code", "an incomplete or oversubscribed one");
    }
    return Codes();
  }

  bool Codes() {
    for (;;) {
      int symbol = 0;
      if (!Decode(lit_, symbol)) return false;
      if (symbol < 256) {
        if (!Emit(static_cast<char>(symbol))) return false;
        continue;
      }
      if (symbol == kEndOfBlock) return true;
      symbol -= 257;
      if (symbol >= 29) return Fail("a length code 257-285", std::to_string(symbol + 257));
      std::uint32_t extra = 0;
      if (!Bits(kLengthExtra[symbol], extra)) return false;
      const std::size_t length = kLengthBase[symbol] + extra;
      int dist_symbol = 0;
      if (!Decode(dist_, dist_symbol)) return false;
      if (dist_symbol >= 30) return Fail("a distance code 0-29", std::to_string(dist_symbol));
      if (!Bits(kDistExtra[dist_symbol], extra)) return false;
      const std::size_t distance = kDistBase[dist_symbol] + extra;
      if (distance > out_.size()) {
        return Fail("a distance within the " + std::to_string(out_.size()) + " bytes written",
                    std::to_string(distance));
      }
      if (max_output_ - out_.size() < length) return TooLarge();
      // Byte by byte: a match may overlap the bytes it produces.
      const std::size_t from = out_.size() - distance;
      for (std::size_t i = 0; i < length; ++i) out_ += out_[from + i];
    }
  }

  std::string_view file_;
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t max_output_;
  std::size_t position_ = 0;
  std::uint32_t bit_buffer_ = 0;
  int bit_count_ = 0;
  Huffman lit_{};
  Huffman dist_{};
  std::string out_;  // the dictionary, then the output
  std::size_t prefix_;
  Diagnostic error_;
};

}  // namespace

std::vector<std::uint8_t> DeflateCompress(std::string_view data, std::string_view dictionary) {
  BitWriter out;
  // Only the last 32 KB of a dictionary are within reach.
  if (dictionary.size() > static_cast<std::size_t>(kWindow)) {
    dictionary = dictionary.substr(dictionary.size() - kWindow);
  }
  std::string window;
  window.reserve(dictionary.size() + data.size());
  window.append(dictionary.data(), dictionary.size());
  window.append(data.data(), data.size());
  const std::vector<Token> tokens = FindMatches(window, static_cast<int>(dictionary.size()));
  BlockWriter writer(data, out);
  // Blocks of a bounded token count let the codes adapt and keep stored blocks under 64 KB.
  constexpr std::size_t kTokensPerBlock = 16384;
  std::size_t raw = 0;
  if (tokens.empty()) {
    writer.Write(nullptr, 0, 0, 0, true);
    return out.Finish();
  }
  for (std::size_t begin = 0; begin < tokens.size(); begin += kTokensPerBlock) {
    const std::size_t end = std::min(tokens.size(), begin + kTokensPerBlock);
    std::size_t raw_end = raw;
    for (std::size_t i = begin; i < end; ++i) {
      raw_end += tokens[i].distance == 0 ? 1 : tokens[i].literal_or_length;
    }
    writer.Write(tokens.data() + begin, end - begin, raw, raw_end, end == tokens.size());
    raw = raw_end;
  }
  return out.Finish();
}

Result<std::string> DeflateDecompress(std::string_view file, const std::uint8_t* data,
                                      std::size_t size, std::size_t max_output,
                                      std::string_view dictionary) {
  if (dictionary.size() > static_cast<std::size_t>(kWindow)) {
    dictionary = dictionary.substr(dictionary.size() - kWindow);
  }
  Inflater inflater(file, data, size, max_output, dictionary);
  return inflater.Run();
}

}  // namespace md5stage
