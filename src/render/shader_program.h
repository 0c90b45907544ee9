// Compiles and links a GLSL ES 3.00 program; errors come back as text, never as an abort.
#pragma once

#include <string>

#include "render/gl.h"

namespace md5stage::render {

class ShaderProgram {
 public:
  ShaderProgram() = default;
  ~ShaderProgram();
  ShaderProgram(const ShaderProgram&) = delete;
  ShaderProgram& operator=(const ShaderProgram&) = delete;

  // Returns false and fills *error with the compiler's log when a stage fails.
  bool Build(const char* vertex_source, const char* fragment_source, std::string* error);
  // As Build, capturing the named vertex outputs with transform feedback (interleaved).
  bool BuildWithFeedback(const char* vertex_source, const char* fragment_source,
                         const char* const* varyings, int varying_count, std::string* error);
  void Use() const { glUseProgram(program_); }
  GLint Uniform(const char* name) const { return glGetUniformLocation(program_, name); }
  GLuint id() const { return program_; }

 private:
  GLuint program_ = 0;
};

}  // namespace md5stage::render
