// Which image file is a mesh part's diffuse map: the one rule the viewer (dropped files) and the
// exporter (files next to the mesh) share, by shader base name, case-insensitive.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace md5stage::md5 {

// Index into image_names of the part's diffuse image, or -1. `models/x/body` matches `body.*`,
// `body_d.*`, `body_diffuse.*`, `body_color.*`. A part with no shader takes `diffuse`, `skin`,
// `base` or the model's own name, else the only image. Names may carry folders and extensions.
int FindDiffuseImage(std::string_view shader, std::string_view model_name,
                     const std::vector<std::string>& image_names);

// The file name without folders and without its last extension.
std::string FileStemOf(std::string_view name);

}  // namespace md5stage::md5
