// libFuzzer harness: bytes -> DecodeDds (the project's own DDS reader: DXT1/3/5 blocks and RGB
// channel masks). The input is given the "DDS " magic and the header's two size fields so that
// mutations reach the pixel formats. Invariants: a failure is an error naming the file; a decoded
// image is within the side limit and holds exactly width x height RGBA pixels.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/material/dds_decode.h"
#include "fuzz_util.h"

using namespace md5stage;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string bytes(reinterpret_cast<const char*>(data), size);
  // Half the inputs as they are (the magic and header checks), half with a well-formed frame.
  if (!bytes.empty() && (static_cast<unsigned char>(bytes[0]) & 1) && bytes.size() >= 80) {
    bytes.replace(0, 4, "DDS ");
    bytes[4] = 124, bytes[5] = bytes[6] = bytes[7] = 0;
    bytes[76] = 32, bytes[77] = bytes[78] = bytes[79] = 0;
  }
  const Result<material::RgbaImage> image = material::DecodeDds("fuzz.dds", bytes);
  if (!image.ok()) {
    FUZZ_CHECK(image.error().file == "fuzz.dds");
    FUZZ_CHECK(!image.error().message.empty());
    return 0;
  }
  const material::RgbaImage& rgba = image.value();
  FUZZ_CHECK(rgba.width > 0 && rgba.width <= material::kMaxImageSide);
  FUZZ_CHECK(rgba.height > 0 && rgba.height <= material::kMaxImageSide);
  FUZZ_CHECK(rgba.rgba.size() == static_cast<std::size_t>(rgba.width) * rgba.height * 4);
  return 0;
}
