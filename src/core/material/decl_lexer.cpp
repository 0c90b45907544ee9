#include "core/material/decl_lexer.h"

namespace md5stage::material {
namespace {

bool IsPunctuation(char c) {
  return c == '{' || c == '}' || c == '(' || c == ')' || c == '[' || c == ']' || c == ',' ||
         c == ';';
}

bool IsBlank(char c) { return static_cast<unsigned char>(c) <= ' ' || c == 0x7F; }

}  // namespace

std::string ToLower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

DeclLexer::DeclLexer(std::string_view file_name, std::string_view text, std::size_t max_token_bytes)
    : file_name_(file_name),
      cursor_(text.data()),
      end_(text.data() + text.size()),
      max_token_bytes_(max_token_bytes) {
  if (text.size() >= 3 && static_cast<unsigned char>(text[0]) == 0xEF &&
      static_cast<unsigned char>(text[1]) == 0xBB && static_cast<unsigned char>(text[2]) == 0xBF) {
    cursor_ += 3;
  }
  line_start_ = cursor_;
}

void DeclLexer::SkipBlanks() {
  const char* p = cursor_;
  while (p < end_) {
    const char c = *p;
    if (c == '\n') {
      ++p;
      ++line_;
      line_start_ = p;
    } else if (IsBlank(c)) {
      ++p;
    } else if (const char* after = md5::SkipComment(p, end_, &line_, &line_start_); after != p) {
      p = after;
    } else {
      break;
    }
  }
  cursor_ = p;
}

bool DeclLexer::Scan(Token* out) {
  SkipBlanks();
  Token token;
  token.begin = cursor_;
  token.where = {line_, static_cast<int>(cursor_ - line_start_) + 1};
  if (cursor_ >= end_) {
    token.type = Token::Type::kEnd;
    token.end = cursor_;
    *out = token;
    return true;
  }
  const char* p = cursor_;
  if (IsPunctuation(*p)) {
    token.type = Token::Type::kPunctuation;
    token.text = std::string_view(p, 1);
    cursor_ = p + 1;
  } else if (*p == '"') {
    const char* q = p + 1;
    while (q < end_ && *q != '"' && *q != '\n') ++q;
    if (q >= end_ || *q != '"') {
      return FailAt(token.where, "expected a closing '\"' on the same line, found " +
                                     std::string(q >= end_ ? "end of file" : "end of line"));
    }
    token.type = Token::Type::kString;
    token.text = std::string_view(p + 1, static_cast<std::size_t>(q - p - 1));
    cursor_ = q + 1;
  } else {
    const char* q = p;
    while (q < end_ && !IsBlank(*q) && !IsPunctuation(*q) && *q != '"' &&
           !(*q == '/' && q + 1 < end_ && (q[1] == '/' || q[1] == '*'))) {
      ++q;
    }
    token.type = Token::Type::kWord;
    token.text = std::string_view(p, static_cast<std::size_t>(q - p));
    cursor_ = q;
  }
  token.end = cursor_;
  if (token.text.size() > max_token_bytes_) {
    return FailAt(token.where, "expected a token of at most " + std::to_string(max_token_bytes_) +
                                   " bytes, found one of " + std::to_string(token.text.size()) +
                                   " bytes starting " + Describe(token));
  }
  *out = token;
  return true;
}

bool DeclLexer::Next(Token* out) {
  if (!ok_) return false;
  if (has_peeked_) {
    has_peeked_ = false;
    *out = peeked_;
    return true;
  }
  return Scan(out);
}

bool DeclLexer::Peek(Token* out) {
  if (!ok_) return false;
  if (!has_peeked_) {
    if (!Scan(&peeked_)) return false;
    has_peeked_ = true;
  }
  *out = peeked_;
  return true;
}

std::string DeclLexer::Describe(const Token& token) {
  switch (token.type) {
    case Token::Type::kEnd:
      return "end of file";
    case Token::Type::kString:
      return md5::QuoteForMessage(std::string_view(token.begin, token.end - token.begin));
    default:
      return md5::QuoteForMessage(token.text);
  }
}

bool DeclLexer::FailAt(md5::SourceLocation where, std::string message) {
  if (!ok_) return false;
  ok_ = false;
  has_peeked_ = false;
  error_ = MakeError(file_name_, where.line, where.column, std::move(message));
  return false;
}

bool DeclLexer::FailExpected(std::string_view expected, const Token& found) {
  std::string message = "expected ";
  message.append(expected);
  message += ", found ";
  message += Describe(found);
  return FailAt(found.where, std::move(message));
}

}  // namespace md5stage::material
