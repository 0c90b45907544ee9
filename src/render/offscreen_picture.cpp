#include "render/offscreen_picture.h"

#include <algorithm>
#include <cstring>

#include "render/gl.h"

namespace md5stage::render {

OffscreenPicture::~OffscreenPicture() { Release(); }

void OffscreenPicture::Release() {
  if (draw_framebuffer_ != 0) glDeleteFramebuffers(1, &draw_framebuffer_);
  if (resolve_framebuffer_ != 0) glDeleteFramebuffers(1, &resolve_framebuffer_);
  const unsigned buffers[] = {color_, depth_, resolved_color_};
  for (unsigned buffer : buffers) {
    if (buffer != 0) glDeleteRenderbuffers(1, &buffer);
  }
  draw_framebuffer_ = resolve_framebuffer_ = color_ = depth_ = resolved_color_ = 0;
}

bool OffscreenPicture::Begin(int width, int height, std::string* error) {
  Release();
  GLint largest = 0;
  glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &largest);
  if (width < 1 || height < 1 || width > largest || height > largest) {
    *error = "picture size " + std::to_string(width) + " x " + std::to_string(height) +
             ": expected sides in [1, " + std::to_string(largest) + "]";
    return false;
  }
  width_ = width;
  height_ = height;
  // The canvas is drawn with 4 samples (app.cpp's GLFW_SAMPLES): the picture's edges as smooth.
  GLint max_samples = 0;
  glGetIntegerv(GL_MAX_SAMPLES, &max_samples);
  const int samples = std::clamp(max_samples, 0, 4);

  glGenRenderbuffers(1, &color_);
  glBindRenderbuffer(GL_RENDERBUFFER, color_);
  glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, GL_RGBA8, width, height);
  glGenRenderbuffers(1, &depth_);
  glBindRenderbuffer(GL_RENDERBUFFER, depth_);
  glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, GL_DEPTH_COMPONENT24, width, height);
  glGenFramebuffers(1, &draw_framebuffer_);
  glBindFramebuffer(GL_FRAMEBUFFER, draw_framebuffer_);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color_);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depth_);
  bool complete = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;

  // Multisampled pixels cannot be read: they are resolved into a plain buffer first.
  glGenRenderbuffers(1, &resolved_color_);
  glBindRenderbuffer(GL_RENDERBUFFER, resolved_color_);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
  glGenFramebuffers(1, &resolve_framebuffer_);
  glBindFramebuffer(GL_FRAMEBUFFER, resolve_framebuffer_);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, resolved_color_);
  complete = complete && glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
  glBindRenderbuffer(GL_RENDERBUFFER, 0);
  if (!complete) {
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    Release();
    *error = "the picture's framebuffer is incomplete";
    return false;
  }
  glBindFramebuffer(GL_FRAMEBUFFER, draw_framebuffer_);
  glViewport(0, 0, width, height);
  return true;
}

void OffscreenPicture::Read(material::RgbaImage* image) {
  glBindFramebuffer(GL_READ_FRAMEBUFFER, draw_framebuffer_);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, resolve_framebuffer_);
  glBlitFramebuffer(0, 0, width_, height_, 0, 0, width_, height_, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glBindFramebuffer(GL_FRAMEBUFFER, resolve_framebuffer_);
  image->width = width_;
  image->height = height_;
  const size_t row = static_cast<size_t>(width_) * 4;
  image->rgba.resize(row * static_cast<size_t>(height_));
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE, image->rgba.data());
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  Release();
  // GL's rows start at the bottom; a PNG's at the top.
  for (int y = 0; y < height_ / 2; ++y) {
    std::swap_ranges(image->rgba.begin() + static_cast<std::ptrdiff_t>(row * y),
                     image->rgba.begin() + static_cast<std::ptrdiff_t>(row * (y + 1)),
                     image->rgba.begin() + static_cast<std::ptrdiff_t>(row * (height_ - 1 - y)));
  }
  // The canvas has no alpha (it shows opaque): the picture neither.
  for (size_t i = 3; i < image->rgba.size(); i += 4) image->rgba[i] = 255;
}

}  // namespace md5stage::render
