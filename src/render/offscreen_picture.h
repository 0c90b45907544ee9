// A picture drawn away from the canvas: a framebuffer of its own size (multisampled where the
// context can), drawn into by the caller, then resolved and read back as RGBA, top row first.
// The viewer's Poster draws the view at the figure's size with it (issue 46).
#pragma once

#include <string>

#include "core/material/rgba_image.h"

namespace md5stage::render {

class OffscreenPicture {
 public:
  OffscreenPicture() = default;
  OffscreenPicture(const OffscreenPicture&) = delete;
  OffscreenPicture& operator=(const OffscreenPicture&) = delete;
  ~OffscreenPicture();

  // Makes the framebuffer (colour and depth, up to 4 samples) and binds it with its viewport;
  // false (with *error) when the sides are out of [1, the context's largest renderbuffer] or the
  // framebuffer is incomplete. The caller clears and draws, then calls Read.
  bool Begin(int width, int height, std::string* error);
  // Resolves the samples, reads the pixels into *image (top row first, opaque) and binds the
  // canvas again. The caller restores its own viewport.
  void Read(material::RgbaImage* image);

 private:
  void Release();

  int width_ = 0;
  int height_ = 0;
  unsigned draw_framebuffer_ = 0;
  unsigned resolve_framebuffer_ = 0;
  unsigned color_ = 0;
  unsigned depth_ = 0;
  unsigned resolved_color_ = 0;
};

}  // namespace md5stage::render
