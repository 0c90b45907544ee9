// The base name of a file without its folders and last extension: how anims, models and images
// are named after their files (glTF animation names, image lookups).
#pragma once

#include <string>
#include <string_view>

namespace md5stage::md5 {

// The file name without folders and without its last extension.
std::string FileStemOf(std::string_view name);

}  // namespace md5stage::md5
