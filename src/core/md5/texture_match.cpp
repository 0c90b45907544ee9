#include "core/md5/texture_match.h"

#include <algorithm>
#include <cctype>

namespace md5stage::md5 {
namespace {

std::string Lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

}  // namespace

std::string FileStemOf(std::string_view name) {
  const size_t slash = name.find_last_of("/\\");
  std::string_view base = slash == std::string_view::npos ? name : name.substr(slash + 1);
  const size_t dot = base.find_last_of('.');
  return std::string(dot == std::string_view::npos ? base : base.substr(0, dot));
}

int FindDiffuseImage(std::string_view shader_name, std::string_view model_name,
                     const std::vector<std::string>& image_names) {
  // models/x/body -> "body"; Windows paths and extensions in shader names are common.
  const std::string shader = Lower(FileStemOf(shader_name));
  if (!shader.empty()) {
    for (size_t i = 0; i < image_names.size(); ++i) {
      const std::string stem = Lower(FileStemOf(image_names[i]));
      if (stem == shader || stem == shader + "_d" || stem == shader + "_diffuse" ||
          stem == shader + "_color") {
        return static_cast<int>(i);
      }
    }
    return -1;
  }
  // No shader name to go by: a conventionally named diffuse map, or the only image.
  const std::string model = Lower(std::string(model_name));
  for (size_t i = 0; i < image_names.size(); ++i) {
    const std::string stem = Lower(FileStemOf(image_names[i]));
    if (stem == "diffuse" || stem == "skin" || stem == "base" || stem == model) {
      return static_cast<int>(i);
    }
  }
  return image_names.size() == 1 ? 0 : -1;
}

}  // namespace md5stage::md5
