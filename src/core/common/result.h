// Errors as values for the core API: Result<T> holds a value or a located diagnostic.
// No exceptions cross the core (the wasm build disables them).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace md5stage {

// One message about an input: where it is (file:line:col, 0 = unknown) and what is wrong.
struct Diagnostic {
  enum class Severity { kError, kWarning };
  Severity severity = Severity::kError;
  std::string file;
  int line = 0;
  int column = 0;
  std::string message;

  // "file:line:col: error: message" (parts that are unknown are left out).
  std::string ToString() const;
};

Diagnostic MakeError(std::string file, int line, int column, std::string message);
Diagnostic MakeWarning(std::string file, int line, int column, std::string message);

template <typename T>
class Result {
 public:
  Result(T value) : ok_(true), value_(std::move(value)) {}            // NOLINT: implicit by design
  Result(Diagnostic error) : ok_(false), error_(std::move(error)) {}  // NOLINT

  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const T& value() const& { return value_; }
  T& value() & { return value_; }
  T&& value() && { return std::move(value_); }
  const Diagnostic& error() const { return error_; }

 private:
  bool ok_;
  T value_{};
  Diagnostic error_;
};

// A result with no value: success, or the error.
class Status {
 public:
  Status() = default;
  Status(Diagnostic error) : ok_(false), error_(std::move(error)) {}  // NOLINT
  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const Diagnostic& error() const { return error_; }

 private:
  bool ok_ = true;
  Diagnostic error_;
};

}  // namespace md5stage
