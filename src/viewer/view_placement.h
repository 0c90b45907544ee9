// Where one view of a shared framebuffer lands: the clip-space scale and offset that move a
// view's picture into its pixel rectangle, so every figure of a page draws in the same calls.
#pragma once

#include <glm/glm.hpp>

namespace md5stage::viewer {

struct ViewPlacement {
  // clip.xy * scale + offset * clip.w: the view's [-1, 1] square onto its rectangle of the
  // framebuffer's; (1, 1) and (0, 0) leave a picture where the viewport puts it.
  glm::vec2 scale{1.0f};
  glm::vec2 offset{0.0f};
  // The view's pixels in the framebuffer (origin bottom left), x0, y0 inclusive, x1, y1
  // exclusive: fragments outside it are dropped, so a view never draws over its neighbours.
  glm::vec4 rect{-1e9f, -1e9f, 1e9f, 1e9f};
};

// A view `width` x `height` pixels whose lower left corner is at (x, y) of a framebuffer
// `framebuffer_width` x `framebuffer_height`. False, and *out left alone, for an empty view or
// framebuffer.
bool PlaceView(int x, int y, int width, int height, int framebuffer_width, int framebuffer_height,
               ViewPlacement* out);

}  // namespace md5stage::viewer
