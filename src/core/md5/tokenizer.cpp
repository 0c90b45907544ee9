#include "core/md5/tokenizer.h"

#include <cmath>

#include "core/md5/decimal_parser.h"

namespace md5stage::md5 {
namespace {

inline bool IsPunctuation(char c) { return c == '(' || c == ')' || c == '{' || c == '}'; }

}  // namespace

std::string QuoteForMessage(std::string_view shown) {
  constexpr std::size_t kMaxShown = 40;
  // Messages end up in JSON and on screen: control characters and bytes that are not UTF-8 (a
  // PNG renamed to .md5mesh starts with 0x89) show as '?', and a cut never splits a character.
  std::string clean;
  std::size_t characters = 0;
  for (std::size_t i = 0; i < shown.size() && characters < kMaxShown; ++characters) {
    const unsigned char c = static_cast<unsigned char>(shown[i]);
    const std::size_t length = c >= 0xF0 && c <= 0xF4   ? 4
                               : c >= 0xE0 && c <= 0xEF ? 3
                               : c >= 0xC2 && c <= 0xDF ? 2
                                                        : 1;
    bool valid = length > 1 || (c >= 0x20 && c < 0x7F);
    for (std::size_t k = 1; valid && k < length; ++k) {
      valid = i + k < shown.size() && (static_cast<unsigned char>(shown[i + k]) & 0xC0) == 0x80;
    }
    if (valid) {
      clean.append(shown, i, length);
      i += length;
    } else {
      clean += '?';
      ++i;
    }
    if (i < shown.size() && characters + 1 == kMaxShown) clean += "...";
  }
  if (!clean.empty() && clean[0] == '"') return clean;
  return "'" + clean + "'";
}

Tokenizer::Tokenizer(std::string_view file_name, std::string_view text)
    : file_name_(file_name), cursor_(text.data()), end_(text.data() + text.size()) {
  if (text.size() >= 3 && static_cast<unsigned char>(text[0]) == 0xEF &&
      static_cast<unsigned char>(text[1]) == 0xBB && static_cast<unsigned char>(text[2]) == 0xBF) {
    cursor_ += 3;
  }
  line_start_ = cursor_;
  last_start_ = cursor_;
}

void Tokenizer::SkipBlanksSlow() {
  const char* p = cursor_;
  while (p < end_) {
    const char c = *p;
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++p;
    } else if (c == '\n') {
      ++p;
      ++line_;
      line_start_ = p;
    } else if (const char* after = SkipComment(p, end_, &line_, &line_start_); after != p) {
      p = after;
    } else {
      break;
    }
  }
  cursor_ = p;
}

SourceLocation Tokenizer::NextLocation() {
  SkipBlanks();
  return LocationOf(cursor_);
}

std::size_t Tokenizer::BytesLeft() {
  SkipBlanks();
  return static_cast<std::size_t>(end_ - cursor_);
}

bool Tokenizer::AtEnd() {
  SkipBlanks();
  return cursor_ >= end_;
}

std::string Tokenizer::DescribeAt(const char* p) const {
  if (p >= end_) return "end of file";
  std::string shown;
  if (*p == '"') {
    const char* q = p + 1;
    while (q < end_ && *q != '"' && *q != '\n') ++q;
    const bool closed = q < end_ && *q == '"';
    shown.assign(p, q + (closed ? 1 : 0));
  } else if (IsPunctuation(*p)) {
    shown.assign(p, 1);
  } else {
    const char* q = p;
    while (q < end_ && !IsTokenDelimiter(*q)) ++q;
    if (q == p) q = p + 1;  // a lone '/' that does not start a comment
    shown.assign(p, q);
  }
  return QuoteForMessage(shown);
}

std::string Tokenizer::DescribeNext() {
  SkipBlanks();
  return DescribeAt(cursor_);
}

bool Tokenizer::FailAt(SourceLocation where, std::string message) {
  if (!ok_) return false;
  ok_ = false;
  error_ = MakeError(file_name_, where.line, where.column, std::move(message));
  return false;
}

bool Tokenizer::Fail(std::string_view expected) {
  if (!ok_) return false;
  SkipBlanks();
  std::string message = "expected ";
  message.append(expected);
  message += ", found ";
  message += DescribeAt(cursor_);
  return FailAt(LocationOf(cursor_), std::move(message));
}

bool Tokenizer::FailLast(std::string_view expected) {
  if (!ok_) return false;
  std::string message = "expected ";
  message.append(expected);
  message += ", found ";
  message += DescribeAt(last_start_);
  return FailAt(last_, std::move(message));
}

bool Tokenizer::PeekWord(std::string_view word) {
  if (!ok_) return false;
  SkipBlanks();
  const std::size_t left = static_cast<std::size_t>(end_ - cursor_);
  if (left < word.size() || std::string_view(cursor_, word.size()) != word) return false;
  return left == word.size() || IsTokenDelimiter(cursor_[word.size()]);
}

bool Tokenizer::PeekChar(char c) {
  if (!ok_) return false;
  SkipBlanks();
  return cursor_ < end_ && *cursor_ == c;
}

bool Tokenizer::ExpectWord(std::string_view word) {
  if (!PeekWord(word)) {
    std::string expected = "'";
    expected.append(word);
    expected += "'";
    return Fail(expected);
  }
  last_start_ = cursor_;
  last_ = LocationOf(cursor_);
  cursor_ += word.size();
  return true;
}

bool Tokenizer::ExpectChar(char c) {
  if (!PeekChar(c)) return Fail(std::string("'") + c + "'");
  last_start_ = cursor_;
  last_ = LocationOf(cursor_);
  ++cursor_;
  return true;
}

bool Tokenizer::ReadWord(std::string_view* out) {
  if (!ok_) return false;
  SkipBlanks();
  const char* p = cursor_;
  while (p < end_ && !IsTokenDelimiter(*p)) ++p;
  if (p == cursor_ ||
      !((*cursor_ >= 'a' && *cursor_ <= 'z') || (*cursor_ >= 'A' && *cursor_ <= 'Z'))) {
    return Fail("a keyword");
  }
  last_start_ = cursor_;
  last_ = LocationOf(cursor_);
  *out = std::string_view(cursor_, static_cast<std::size_t>(p - cursor_));
  cursor_ = p;
  return true;
}

bool Tokenizer::ReadString(std::string_view* out) {
  if (!ok_) return false;
  SkipBlanks();
  if (cursor_ >= end_ || *cursor_ != '"') return Fail("a quoted string");
  const char* p = cursor_ + 1;
  while (p < end_ && *p != '"' && *p != '\n') ++p;
  if (p >= end_ || *p != '"') {
    return FailAt(LocationOf(cursor_), "expected a closing '\"' on the same line, found " +
                                           std::string(p >= end_ ? "end of file" : "end of line"));
  }
  last_start_ = cursor_;
  last_ = LocationOf(cursor_);
  *out = std::string_view(cursor_ + 1, static_cast<std::size_t>(p - cursor_ - 1));
  cursor_ = p + 1;
  return true;
}

bool Tokenizer::ReadInt(const char* what, std::int64_t* out) {
  if (!ok_) return false;
  SkipBlanks();
  const char* p = ParseDecimalInt(cursor_, end_, out);
  if (p == nullptr || (p < end_ && !IsTokenDelimiter(*p))) return Fail(what);
  last_start_ = cursor_;
  last_ = LocationOf(cursor_);
  cursor_ = p;
  return true;
}

bool Tokenizer::ReadIntInRange(const char* what, std::int64_t min, std::int64_t max, int* out) {
  std::int64_t value = 0;
  if (!ReadInt(what, &value)) return false;
  if (value < min || value > max) {
    return FailLast(std::string(what) + " from " + std::to_string(min) + " to " +
                    std::to_string(max));
  }
  *out = static_cast<int>(value);
  return true;
}

bool Tokenizer::ReadFloat(const char* what, float* out) {
  if (!ok_) return false;
  SkipBlanks();
  const char* p = ParseDecimalFloat(cursor_, end_, out);
  if (p == nullptr || (p < end_ && !IsTokenDelimiter(*p))) return Fail(what);
  last_start_ = cursor_;
  last_ = LocationOf(cursor_);
  cursor_ = p;
  if (!std::isfinite(*out)) return FailLast(std::string(what) + " within float range");
  return true;
}

bool Tokenizer::ReadFloatTuple(const char* what, int count, float* out) {
  if (!ExpectChar('(')) return false;
  for (int i = 0; i < count; ++i) {
    if (!ReadFloat(what, &out[i])) return false;
  }
  if (!PeekChar(')')) return Fail(std::string("')' after ") + std::to_string(count) + " numbers");
  return ExpectChar(')');
}

}  // namespace md5stage::md5
