#include "render/shader_program.h"

#include <vector>

namespace md5stage::render {
namespace {

GLuint CompileStage(GLenum type, const char* source, std::string* error) {
  GLuint shader = glCreateShader(type);
  glShaderSource(shader, 1, &source, nullptr);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    GLint length = 0;
    glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &length);
    std::vector<char> log(static_cast<size_t>(length > 0 ? length : 1), '\0');
    glGetShaderInfoLog(shader, static_cast<GLsizei>(log.size()), nullptr, log.data());
    *error = std::string(type == GL_VERTEX_SHADER ? "vertex shader: " : "fragment shader: ") +
             log.data();
    glDeleteShader(shader);
    return 0;
  }
  return shader;
}

}  // namespace

ShaderProgram::~ShaderProgram() {
  if (program_ != 0) glDeleteProgram(program_);
}

bool ShaderProgram::Build(const char* vertex_source, const char* fragment_source,
                          std::string* error) {
  return BuildWithFeedback(vertex_source, fragment_source, nullptr, 0, error);
}

bool ShaderProgram::BuildWithFeedback(const char* vertex_source, const char* fragment_source,
                                      const char* const* varyings, int varying_count,
                                      std::string* error) {
  GLuint vs = CompileStage(GL_VERTEX_SHADER, vertex_source, error);
  if (vs == 0) return false;
  GLuint fs = CompileStage(GL_FRAGMENT_SHADER, fragment_source, error);
  if (fs == 0) {
    glDeleteShader(vs);
    return false;
  }
  GLuint program = glCreateProgram();
  glAttachShader(program, vs);
  glAttachShader(program, fs);
  if (varying_count > 0) {
    glTransformFeedbackVaryings(program, varying_count, varyings, GL_INTERLEAVED_ATTRIBS);
  }
  glLinkProgram(program);
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint ok = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (!ok) {
    GLint length = 0;
    glGetProgramiv(program, GL_INFO_LOG_LENGTH, &length);
    std::vector<char> log(static_cast<size_t>(length > 0 ? length : 1), '\0');
    glGetProgramInfoLog(program, static_cast<GLsizei>(log.size()), nullptr, log.data());
    *error = std::string("link: ") + log.data();
    glDeleteProgram(program);
    return false;
  }
  if (program_ != 0) glDeleteProgram(program_);
  program_ = program;
  return true;
}

}  // namespace md5stage::render
