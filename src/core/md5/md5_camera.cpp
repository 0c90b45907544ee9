#include "core/md5/md5_camera.h"

#include <string>

#include "core/md5/md5_header.h"
#include "core/md5/tokenizer.h"

namespace md5stage::md5 {
namespace {

// The fewest bytes an item can take (as md5_limits.h for the other formats).
constexpr std::size_t kMinBytesPerCameraFrame = 15;  // (0 0 0)(0 0 0)0
constexpr std::size_t kMinBytesPerCut = 2;           // "1 "

// The md5anim header's readers and messages (md5_header.h), then the cuts and
// the frames: Doom 3's idCameraAnim::LoadAnim reads the keywords in this fixed order.
class CameraParser {
 public:
  CameraParser(std::string_view file_name, std::string_view bytes, const Md5Limits& limits)
      : tk_(file_name, bytes), limits_(limits) {}

  Result<CameraFile> Parse(std::string_view file_name) {
    CameraFile file;
    file.file_name.assign(file_name);
    if (!ParseFile(&file)) return tk_.error();
    return file;
  }

 private:
  bool ParseFile(CameraFile* file) {
    int version = 0;
    if (!ReadVersionAndCommandLine(tk_, &version, &file->commandline)) return false;
    int frame_count = 0;
    if (!tk_.ExpectWord("numFrames") || !ReadCount(tk_, "numFrames", 1, limits_.max_frames,
                                                   kMinBytesPerCameraFrame, &frame_count)) {
      return false;
    }
    if (!tk_.ExpectWord("frameRate") || !ReadFrameRate(tk_, limits_, &file->frame_rate)) {
      return false;
    }
    int cut_count = 0;
    if (!tk_.ExpectWord("numCuts") || !ReadCount(tk_, "numCuts", 0, frame_count - 1,
                                                 kMinBytesPerCut, &cut_count, "numFrames - 1")) {
      return false;
    }
    const std::uint64_t needed = static_cast<std::uint64_t>(frame_count) * kMinBytesPerCameraFrame +
                                 static_cast<std::uint64_t>(cut_count) * kMinBytesPerCut;
    if (needed > tk_.BytesLeft()) {
      return tk_.FailLast("numFrames " + std::to_string(frame_count) + " and numCuts " +
                          std::to_string(cut_count) + " that the file can hold (at least " +
                          std::to_string(needed) + " bytes), found " +
                          std::to_string(tk_.BytesLeft()) + " bytes left");
    }
    return ParseCuts(frame_count, cut_count, file) && ParseFrames(frame_count, file) &&
           (tk_.AtEnd() ||
            tk_.Fail("end of file (numFrames is " + std::to_string(frame_count) + ")"));
  }

  bool ParseCuts(int frame_count, int cut_count, CameraFile* file) {
    if (!tk_.ExpectWord("cuts") || !tk_.ExpectChar('{')) return false;
    file->cuts.resize(static_cast<std::size_t>(cut_count));
    for (int i = 0; i < cut_count; ++i) {
      if (tk_.PeekChar('}')) {
        return tk_.Fail("cut " + std::to_string(i) + " (numCuts is " + std::to_string(cut_count) +
                        ")");
      }
      const int lowest = i == 0 ? 1 : file->cuts[i - 1] + 1;
      int cut = 0;
      if (!tk_.ReadIntInRange(i == 0 ? "a cut frame" : "a cut frame (cuts increase)", lowest,
                              frame_count - 1, &cut)) {
        return false;
      }
      file->cuts[static_cast<std::size_t>(i)] = cut;
    }
    return tk_.PeekChar('}')
               ? tk_.ExpectChar('}')
               : tk_.Fail("'}' closing cuts (numCuts is " + std::to_string(cut_count) + ")");
  }

  bool ParseFrames(int frame_count, CameraFile* file) {
    if (!tk_.ExpectWord("camera") || !tk_.ExpectChar('{')) return false;
    file->frames.resize(static_cast<std::size_t>(frame_count));
    for (int f = 0; f < frame_count; ++f) {
      CameraFrame& frame = file->frames[static_cast<std::size_t>(f)];
      if (!tk_.PeekChar('(')) {
        return tk_.Fail("frame " + std::to_string(f) + "'s position '(' (numFrames is " +
                        std::to_string(frame_count) + ")");
      }
      if (!tk_.ReadFloatTuple("a position", 3, &frame.position.x) ||
          !tk_.ReadFloatTuple("an orientation", 3, &frame.orientation_xyz.x) ||
          !tk_.ReadFloat("a field of view", &frame.fov_x_degrees)) {
        return false;
      }
      if (!(frame.fov_x_degrees > 0.0f && frame.fov_x_degrees < 180.0f)) {
        return tk_.FailLast("a field of view above 0 and below 180 degrees");
      }
    }
    return tk_.PeekChar('}')
               ? tk_.ExpectChar('}')
               : tk_.Fail("'}' closing camera (numFrames is " + std::to_string(frame_count) + ")");
  }

  Tokenizer tk_;
  const Md5Limits& limits_;
};

}  // namespace

int CameraFile::played_intervals() const {
  const int last_start = static_cast<int>(frames.size()) - 2;
  int skipped = 0;
  for (int cut : cuts) skipped += cut <= last_start ? 1 : 0;
  return last_start < 0 ? 0 : last_start + 1 - skipped;
}

double CameraFile::duration() const {
  return frame_rate > 0.0f ? played_intervals() / static_cast<double>(frame_rate) : 0.0;
}

bool IsMd5CameraName(std::string_view file_name) {
  constexpr std::string_view kSuffix = ".md5camera";
  if (file_name.size() < kSuffix.size()) return false;
  for (std::size_t i = 0; i < kSuffix.size(); ++i) {
    char c = file_name[file_name.size() - kSuffix.size() + i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != kSuffix[i]) return false;
  }
  return true;
}

Result<CameraFile> ParseMd5Camera(std::string_view file_name, std::string_view bytes,
                                  const Md5Limits& limits) {
  if (bytes.size() > limits.max_file_bytes) return FileTooLarge(file_name, bytes.size(), limits);
  return CameraParser(file_name, bytes, limits).Parse(file_name);
}

}  // namespace md5stage::md5
