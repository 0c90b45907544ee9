// Hand-written tokenizer for the MD5 text formats: walks one contiguous buffer, tracks line and
// column for messages, and never allocates per token (strings are views into the buffer).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "core/common/result.h"
#include "core/md5/decimal_parser.h"

namespace md5stage::md5 {

// Where a number or a word ends: blanks, newlines, ( ) { } " and '/' (a comment may follow).
inline bool IsTokenDelimiter(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '(' || c == ')' || c == '{' ||
         c == '}' || c == '"' || c == '/' || c == '\f' || c == '\v';
}

// A token as messages show it: 'word' or "string" (kept as it is), at most 40 characters, with
// control characters and bytes that are not UTF-8 as '?'.
std::string QuoteForMessage(std::string_view shown);

// If a `//` or `/* */` comment starts at p, the byte after it (an unclosed block runs to the end;
// the lines a block spans advance *line and *line_start); otherwise p. Shared by the MD5 tokenizer
// and the decl lexer, whose comments are the same.
inline const char* SkipComment(const char* p, const char* end, int* line, const char** line_start) {
  if (*p != '/' || p + 1 >= end) return p;
  if (p[1] == '/') {
    p += 2;
    while (p < end && *p != '\n') ++p;
    return p;
  }
  if (p[1] != '*') return p;
  p += 2;
  while (p < end && !(*p == '*' && p + 1 < end && p[1] == '/')) {
    if (*p == '\n') {
      ++*line;
      *line_start = p + 1;
    }
    ++p;
  }
  return p < end ? p + 2 : end;
}

struct SourceLocation {
  int line = 0;
  int column = 0;
};

// Reads tokens of the idTech 4 lexer subset MD5 files use: bare words, "strings" (no escapes),
// numbers, ( ) { }, // and /* */ comments, spaces/tabs/CR/LF and a leading UTF-8 BOM.
// The first failure is kept; every later call returns false, so parsers can chain calls and
// check ok() once per item.
class Tokenizer {
 public:
  Tokenizer(std::string_view file_name, std::string_view text);

  bool ok() const { return ok_; }
  const Diagnostic& error() const { return error_; }
  const std::string& file_name() const { return file_name_; }

  // Where the next token starts (skips blanks and comments first).
  SourceLocation NextLocation();
  // Where the most recently read token started.
  SourceLocation last_location() const { return last_; }
  // Bytes from the next token to the end: the upper bound for any count read from a header.
  std::size_t BytesLeft();
  bool AtEnd();

  bool PeekWord(std::string_view word);
  bool PeekChar(char c);

  bool ExpectWord(std::string_view word);
  bool ExpectChar(char c);
  // Reads a bare word (a keyword) into *out.
  bool ReadWord(std::string_view* out);
  bool ReadString(std::string_view* out);
  // Reads an integer literal; `what` names it in the message when something else is there.
  bool ReadInt(const char* what, std::int64_t* out);
  // Reads an integer in [min, max]: "expected <what> from <min> to <max>, found <value>".
  bool ReadIntInRange(const char* what, std::int64_t min, std::int64_t max, int* out);
  // Reads a finite number (integers accepted); NaN, Inf and overflow are errors.
  bool ReadFloat(const char* what, float* out);
  // Reads "( a b ... )" with `count` numbers.
  bool ReadFloatTuple(const char* what, int count, float* out);

  // For the parsers' optimistic fast paths over long runs of simple lines (vert, tri, weight,
  // frame values): they scan from RawCursor() with a LineScanner and, when the whole line matched,
  // move the tokenizer with AdvanceTo(); on any surprise they re-read the line with the checked
  // calls above, which report it. A scan never crosses a newline, so line counting holds.
  const char* RawCursor() {
    SkipBlanks();
    return cursor_;
  }
  const char* RawEnd() const { return end_; }
  // Location of a point on the current line (one returned by a scan from RawCursor()).
  SourceLocation LocationOnLine(const char* p) const { return LocationOf(p); }
  void AdvanceTo(const char* last_token, const char* next) {
    last_start_ = last_token;
    last_ = LocationOf(last_token);
    cursor_ = next;
  }

  // "expected <expected>, found <the next token>" at the next token.
  bool Fail(std::string_view expected);
  // "expected <expected>, found <the last token>" at the last token.
  bool FailLast(std::string_view expected);
  // A message with a custom body at a given location.
  bool FailAt(SourceLocation where, std::string message);

  // The next token as a message shows it: 'word', "string", '(' or "end of file".
  std::string DescribeNext();

 private:
  // Most tokens follow one space: that case inline; newlines (which count lines), comments and
  // runs of blanks out of line.
  void SkipBlanks() {
    if (cursor_ < end_ && *cursor_ == ' ') ++cursor_;
    if (cursor_<end_&& static_cast<unsigned char>(*cursor_)> ' ' && *cursor_ != '/') return;
    SkipBlanksSlow();
  }
  void SkipBlanksSlow();
  std::string DescribeAt(const char* p) const;
  SourceLocation LocationOf(const char* p) const {
    return {line_, static_cast<int>(p - line_start_) + 1};
  }

  std::string file_name_;
  const char* cursor_;
  const char* end_;
  const char* line_start_;
  const char* last_start_;
  int line_ = 1;
  SourceLocation last_{1, 1};
  bool ok_ = true;
  Diagnostic error_;
};

// Reads one line of tokens without messages: each call returns false at anything unusual (a
// newline or comment between tokens, a number the checked reader would reject), and the caller
// then falls back to the Tokenizer. Tokens are separated by spaces or tabs.
class LineScanner {
 public:
  LineScanner(const char* begin, const char* end) : p_(begin), end_(end) {}

  const char* position() const { return p_; }
  const char* token() const { return token_; }

  // `word` (a literal) and the blanks after it.
  template <std::size_t kSize>
  bool Word(const char (&word)[kSize]) {
    constexpr std::size_t kLength = kSize - 1;
    if (static_cast<std::size_t>(end_ - p_) <= kLength || std::memcmp(p_, word, kLength) != 0) {
      return false;
    }
    token_ = p_;
    p_ += kLength;
    return Blanks();
  }
  // Punctuation; `last` when nothing on the line has to follow it.
  bool Char(char c, bool last = false) {
    if (p_ >= end_ || *p_ != c) return false;
    token_ = p_++;
    return last || Blanks();
  }
  bool Int(std::int64_t* out, bool last = false) {
    const char* q = ParseDecimalInt(p_, end_, out);
    if (q == nullptr) return false;
    token_ = p_;
    p_ = q;
    return last ? EndsToken() : Blanks();
  }
  bool IntInRange(std::int64_t min, std::int64_t max, int* out, bool last = false) {
    std::int64_t value = 0;
    if (!Int(&value, last) || value < min || value > max) return false;
    *out = static_cast<int>(value);
    return true;
  }
  bool Float(float* out, bool last = false) {
    const char* q = ParseDecimalFloat(p_, end_, out);
    if (q == nullptr || !std::isfinite(*out)) return false;
    token_ = p_;
    p_ = q;
    return last ? EndsToken() : Blanks();
  }
  // After a number that may end the line: true when a delimiter (or the end) follows.
  bool EndsToken() const { return p_ >= end_ || IsTokenDelimiter(*p_); }

  // One or more spaces or tabs.
  bool Blanks() {
    if (p_ >= end_ || (*p_ != ' ' && *p_ != '\t')) return false;
    ++p_;
    while (p_ < end_ && (*p_ == ' ' || *p_ == '\t')) ++p_;
    return true;
  }

 private:
  const char* p_;
  const char* end_;
  const char* token_ = nullptr;
};

}  // namespace md5stage::md5
