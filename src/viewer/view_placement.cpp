#include "viewer/view_placement.h"

namespace md5stage::viewer {

bool PlaceView(int x, int y, int width, int height, int framebuffer_width, int framebuffer_height,
               ViewPlacement* out) {
  if (width <= 0 || height <= 0 || framebuffer_width <= 0 || framebuffer_height <= 0) return false;
  const glm::vec2 size(static_cast<float>(width), static_cast<float>(height));
  const glm::vec2 corner(static_cast<float>(x), static_cast<float>(y));
  const glm::vec2 framebuffer(static_cast<float>(framebuffer_width),
                              static_cast<float>(framebuffer_height));
  // NDC -1 goes to the view's first pixel edge, +1 to its last: the centre (corner + size / 2)
  // in the framebuffer's NDC is the offset.
  out->scale = size / framebuffer;
  out->offset = (2.0f * corner + size) / framebuffer - 1.0f;
  out->rect = glm::vec4(corner, corner + size);
  return true;
}

}  // namespace md5stage::viewer
