#include "core/material/image_program.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace md5stage::material {
namespace {

Diagnostic ProgramError(const ImageProgram& program, const std::string& message) {
  return MakeError("", program.where.line, program.where.column,
                   "image program '" + program.ToString() + "': " + message);
}

bool SizedFor(const RgbaImage* image, int width, int height) {
  return image != nullptr && image->width == width && image->height == height &&
         image->rgba.size() == static_cast<std::size_t>(width) * height * 4;
}

// R_HeightmapToNormalMap truncates 128 + 127 v; R_AddNormalMaps rounds 127 v (FtoiFast) first.
uint8_t PackTruncated(float value) {
  const int packed = static_cast<int>(value * 127.0f + 128.0f);
  return static_cast<uint8_t>(std::clamp(packed, 0, 255));
}

uint8_t PackRounded(float value) {
  const int packed = static_cast<int>(std::lround(value * 127.0f)) + 128;
  return static_cast<uint8_t>(std::clamp(packed, 0, 255));
}

void Normalize(float v[3]) {
  const float length = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  if (length <= 0.0f) return;
  v[0] /= length;
  v[1] /= length;
  v[2] /= length;
}

class Evaluator {
 public:
  explicit Evaluator(const ImageProgramInput& input) : input_(input) {}

  Result<RgbaImage> Eval(const ImageProgram& program, int depth) {
    if (depth > input_.max_depth) {
      return ProgramError(program, "nested deeper than " + std::to_string(input_.max_depth));
    }
    switch (program.op) {
      case ImageProgram::Op::kImage: {
        const std::size_t leaf = next_leaf_++;
        if (leaf >= input_.images.size() || input_.images[leaf] == nullptr) {
          return ProgramError(program, "image '" + program.text + "' not found");
        }
        if (!input_.images[leaf]->Valid()) {
          return ProgramError(program, "image '" + program.text + "' is not a valid RGBA image");
        }
        return *input_.images[leaf];
      }
      case ImageProgram::Op::kNumber:
        return ProgramError(program, "a number where an image was expected");
      case ImageProgram::Op::kHeightMap: {
        if (program.args.size() != 2 || program.args[1].op != ImageProgram::Op::kNumber) {
          return ProgramError(program, "expected heightmap( IMAGE, SCALE )");
        }
        Result<RgbaImage> height = Eval(program.args[0], depth + 1);
        if (!height.ok()) return height;
        RgbaImage normal;
        normal.width = height.value().width;
        normal.height = height.value().height;
        normal.rgba.resize(height.value().rgba.size());
        const HeightmapToNormalJob job{&height.value(), program.args[1].number, &normal};
        const Status valid = job.Validate();
        if (!valid.ok()) return ProgramError(program, valid.error().message);
        job.Run();
        return normal;
      }
      case ImageProgram::Op::kAddNormals: {
        if (program.args.size() != 2) return ProgramError(program, "expected addnormals( A, B )");
        Result<RgbaImage> a = Eval(program.args[0], depth + 1);
        if (!a.ok()) return a;
        Result<RgbaImage> b = Eval(program.args[1], depth + 1);
        if (!b.ok()) return b;
        RgbaImage sum;
        sum.width = std::max(a.value().width, b.value().width);
        sum.height = std::max(a.value().height, b.value().height);
        if (sum.width > input_.max_side || sum.height > input_.max_side) {
          return ProgramError(
              program, "result larger than " + std::to_string(input_.max_side) + " pixels a side");
        }
        sum.rgba.resize(static_cast<std::size_t>(sum.width) * sum.height * 4);
        const AddNormalsJob job{&a.value(), &b.value(), &sum};
        const Status valid = job.Validate();
        if (!valid.ok()) return ProgramError(program, valid.error().message);
        job.Run();
        return sum;
      }
      case ImageProgram::Op::kFunction:
        break;
    }
    return ProgramError(program, "'" + program.text + "' is not supported");
  }

 private:
  const ImageProgramInput& input_;
  std::size_t next_leaf_ = 0;
};

}  // namespace

Status HeightmapToNormalJob::Validate() const {
  if (height == nullptr || !height->Valid()) return MakeError("", 0, 0, "height: no valid image");
  if (!std::isfinite(scale)) return MakeError("", 0, 0, "scale: not a finite number");
  if (!SizedFor(output, height->width, height->height)) {
    return MakeError("", 0, 0, "output: not sized as the height image");
  }
  if (output == height) return MakeError("", 0, 0, "output: must not be the height image");
  return {};
}

void HeightmapToNormalJob::Run() const {
  const int w = height->width, h = height->height;
  const float s = scale / 256.0f;
  const uint8_t* src = height->rgba.data();
  auto depth = [&](int x, int y) {
    const uint8_t* p = src + (static_cast<std::size_t>(y) * w + x) * 4;
    return (p[0] + p[1] + p[2]) / 3;
  };
  for (int y = 0; y < h; ++y) {
    const int y1 = (y + 1) % h;
    for (int x = 0; x < w; ++x) {
      const int x1 = (x + 1) % w;
      const int d1 = depth(x, y), d2 = depth(x1, y), d3 = depth(x, y1), d4 = depth(x1, y1);
      float dir[3] = {-(d2 - d1) * s, -(d3 - d1) * s, 1.0f};
      Normalize(dir);
      float dir2[3] = {-(d4 - d3) * s, (d1 - d3) * s, 1.0f};
      Normalize(dir2);
      float sum[3] = {dir[0] + dir2[0], dir[1] + dir2[1], dir[2] + dir2[2]};
      Normalize(sum);
      uint8_t* out = output->rgba.data() + (static_cast<std::size_t>(y) * w + x) * 4;
      out[0] = PackTruncated(sum[0]);
      out[1] = PackTruncated(sum[1]);
      out[2] = PackTruncated(sum[2]);
      out[3] = 255;
    }
  }
}

Status AddNormalsJob::Validate() const {
  if (a == nullptr || !a->Valid()) return MakeError("", 0, 0, "a: no valid image");
  if (b == nullptr || !b->Valid()) return MakeError("", 0, 0, "b: no valid image");
  if (!SizedFor(output, std::max(a->width, b->width), std::max(a->height, b->height))) {
    return MakeError("", 0, 0, "output: not sized as the larger of a and b");
  }
  if (output == a || output == b) return MakeError("", 0, 0, "output: must be a third image");
  return {};
}

void AddNormalsJob::Run() const {
  const int w = output->width, h = output->height;
  auto sample = [&](const RgbaImage& image, int x, int y) {
    const int sx = static_cast<int>(static_cast<long long>(x) * image.width / w);
    const int sy = static_cast<int>(static_cast<long long>(y) * image.height / h);
    return image.rgba.data() + (static_cast<std::size_t>(sy) * image.width + sx) * 4;
  };
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      const uint8_t* d1 = sample(*a, x, y);
      const uint8_t* d2 = sample(*b, x, y);
      float n[3] = {(d1[0] - 128) / 127.0f, (d1[1] - 128) / 127.0f, (d1[2] - 128) / 127.0f};
      // Some normal maps blend to (0,0,0) at their edges; Doom 3 fades those towards +Z.
      if (n[0] * n[0] + n[1] * n[1] + n[2] * n[2] < 1.0f) {
        n[2] = std::sqrt(std::max(0.0f, 1.0f - n[0] * n[0] - n[1] * n[1]));
      }
      n[0] += (d2[0] - 128) / 127.0f;
      n[1] += (d2[1] - 128) / 127.0f;
      Normalize(n);
      uint8_t* out = output->rgba.data() + (static_cast<std::size_t>(y) * w + x) * 4;
      out[0] = PackRounded(n[0]);
      out[1] = PackRounded(n[1]);
      out[2] = PackRounded(n[2]);
      out[3] = 255;
    }
  }
}

Status ImageProgramInput::Validate() const {
  if (program == nullptr) return MakeError("", 0, 0, "program: none given");
  if (max_depth < 0) return MakeError("", 0, 0, "max_depth: must not be negative");
  if (max_side <= 0) return MakeError("", 0, 0, "max_side: must be positive");
  return {};
}

Result<RgbaImage> EvaluateImageProgram(const ImageProgramInput& input) {
  const Status valid = input.Validate();
  if (!valid.ok()) return valid.error();
  Evaluator evaluator(input);
  return evaluator.Eval(*input.program, 0);
}

}  // namespace md5stage::material
