// Tokens of idTech 4 decl files (.mtr, .skin, .def) and Daemon/Quake 3 .shader files: words that
// may hold paths, "strings", punctuation; located for FILE:LINE:COL messages, with a token limit.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "core/common/result.h"
#include "core/md5/tokenizer.h"

namespace md5stage::material {

struct Token {
  enum class Type { kEnd, kWord, kString, kPunctuation };
  Type type = Type::kEnd;
  std::string_view text;  // a string's text without its quotes
  md5::SourceLocation where;
  const char* begin = nullptr;  // in the buffer (the opening quote of a string)
  const char* end = nullptr;    // one past the token (past the closing quote)

  bool Is(char c) const { return type == Type::kPunctuation && text[0] == c; }
  bool IsName() const { return type == Type::kWord || type == Type::kString; }
};

// Unlike the MD5 tokenizer, '/' belongs to words here (decl names and image paths are paths);
// only "//" and "/*" start comments. Punctuation is { } ( ) [ ] , ;. Control bytes, NUL included
// (a trailing NUL is common: DarkRadiant's null_byte_at_the_end.mtr), count as blanks.
// The first failure is kept, and every later Next() returns false.
class DeclLexer {
 public:
  DeclLexer(std::string_view file_name, std::string_view text, std::size_t max_token_bytes);

  bool ok() const { return ok_; }
  const Diagnostic& error() const { return error_; }
  const std::string& file_name() const { return file_name_; }

  // The next token (Type::kEnd at the end of the text); false after a failure.
  bool Next(Token* out);
  // The token Next() would return, without consuming it.
  bool Peek(Token* out);

  // "expected <expected>, found <token>" at the token.
  bool FailExpected(std::string_view expected, const Token& found);
  bool FailAt(md5::SourceLocation where, std::string message);
  // A token as a message shows it: 'word', "string", '{' or "end of file".
  static std::string Describe(const Token& token);

 private:
  bool Scan(Token* out);
  void SkipBlanks();

  std::string file_name_;
  const char* cursor_;
  const char* end_;
  const char* line_start_;
  int line_ = 1;
  std::size_t max_token_bytes_;
  bool has_peeked_ = false;
  Token peeked_;
  bool ok_ = true;
  Diagnostic error_;
};

// ASCII lower case, for the case-insensitive keywords and names of decls.
std::string ToLower(std::string_view text);
bool EqualsIgnoreCase(std::string_view a, std::string_view b);

}  // namespace md5stage::material
