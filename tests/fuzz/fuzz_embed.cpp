// libFuzzer harness: bytes as an embed URL's query and fragment (split at the first '#', as
// location.search and location.hash are) -> ParseEmbedOptions, then the reply the page gets.
// Invariants: parsing fails only past the length limit; every number kept is finite and within
// kMaxEmbedNumber, a loop range has B > A; the reply is JSON that reads back; decoded names and
// values are valid UTF-8 (they go into that JSON and onto the page).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/common/json.h"
#include "fuzz_util.h"
#include "viewer/embed_options.h"

using namespace md5stage;
using namespace md5stage::viewer;

namespace {

bool Bounded(double value) { return std::isfinite(value) && std::abs(value) <= kMaxEmbedNumber; }

// Lead bytes and continuation bytes in their places (overlong forms and surrogates are left to
// the JSON reader, which reads the reply back).
bool ValidUtf8(const std::string& text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    std::size_t extra = 0;
    if (c >= 0xC2 && c <= 0xDF) {
      extra = 1;
    } else if ((c >> 4) == 0xE) {
      extra = 2;
    } else if (c >= 0xF0 && c <= 0xF4) {
      extra = 3;
    } else if (c >= 0x80) {
      return false;
    }
    if (i + extra >= text.size() && extra > 0) return false;
    for (std::size_t k = 1; k <= extra; ++k) {
      if ((static_cast<unsigned char>(text[i + k]) >> 6) != 2) return false;
    }
    i += extra + 1;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view url(reinterpret_cast<const char*>(data), size);
  const std::size_t hash = url.find('#');
  const std::string_view query = url.substr(0, hash);
  const std::string_view fragment = hash == std::string_view::npos ? "" : url.substr(hash);
  const Result<EmbedOptions> parsed = ParseEmbedOptions(query, fragment);
  FUZZ_CHECK(parsed.ok() == (query.size() + fragment.size() <= kMaxEmbedUrlChars));
  if (!parsed.ok()) return 0;
  const EmbedOptions& options = parsed.value();
  if (options.time) FUZZ_CHECK(Bounded(*options.time) && *options.time >= 0.0);
  if (options.loop && !options.loop->whole) {
    FUZZ_CHECK(Bounded(options.loop->start) && Bounded(options.loop->end));
    FUZZ_CHECK(options.loop->end > options.loop->start);
  }
  if (options.camera) {
    FUZZ_CHECK(Bounded(options.camera->yaw_degrees) && Bounded(options.camera->pitch_degrees) &&
               Bounded(options.camera->distance));
    if (options.camera->target) {
      FUZZ_CHECK(Bounded(options.camera->target->x) && Bounded(options.camera->target->y) &&
                 Bounded(options.camera->target->z));
    }
  }
  if (options.origins) {
    for (const std::string& origin : *options.origins) FUZZ_CHECK(ValidUtf8(origin));
  }
  for (const std::string& problem : options.problems) {
    FUZZ_CHECK(!problem.empty());
    FUZZ_CHECK(ValidUtf8(problem));
  }
  const std::string reply = WriteJson(EmbedReplyJson(options));
  const Result<JsonValue> back = ParseJson("reply", reply, JsonLimits{std::size_t{64} << 20, 64});
  if (!back.ok()) std::fprintf(stderr, "%s\n", back.error().ToString().c_str());
  FUZZ_CHECK(back.ok());
  (void)EmbedStartsPlaying(options, true);
  const std::optional<double> start = EmbedStartTime(options);
  if (start) FUZZ_CHECK(Bounded(*start));
  FUZZ_CHECK(ValidUtf8(DecodeFormComponent(url.substr(0, 256))));
  return 0;
}
