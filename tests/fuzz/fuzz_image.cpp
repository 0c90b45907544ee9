// libFuzzer harness: bytes -> DecodeImage, which picks the decoder by the file's signature (PNG,
// JPEG, BMP, DDS, else TGA). Invariants: a failure is an error naming the file; a decoded image
// is within the side limit and holds exactly width x height RGBA pixels.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/material/image_decode.h"
#include "fuzz_util.h"

using namespace md5stage;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const Result<material::RgbaImage> image = material::DecodeImage("fuzz.img", bytes);
  (void)material::EmbeddableMimeType(bytes);
  if (!image.ok()) {
    FUZZ_CHECK(image.error().file == "fuzz.img");
    FUZZ_CHECK(!image.error().message.empty());
    return 0;
  }
  const material::RgbaImage& rgba = image.value();
  FUZZ_CHECK(rgba.width > 0 && rgba.width <= material::kMaxImageSide);
  FUZZ_CHECK(rgba.height > 0 && rgba.height <= material::kMaxImageSide);
  FUZZ_CHECK(rgba.rgba.size() == static_cast<std::size_t>(rgba.width) * rgba.height * 4);
  return 0;
}
