// The images a glTF export embeds: each mesh part's diffuse, normal and specular maps as the
// viewer resolves them (material decls, skins, the name guess), made into what glTF takes.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/anim/span.h"
#include "core/common/result.h"
#include "core/convert/gltf_export.h"
#include "core/material/material_resolve.h"
#include "core/material/rgba_image.h"

namespace md5stage::convert {

// An image file the resolution's look-ups index (ImageLookup::file): its name and bytes (null
// allowed for a file no look-up names).
struct SourceImageFile {
  std::string name;
  const std::string* bytes = nullptr;
};

struct ExportMapsInput {
  const material::ResolveOutput* resolution = nullptr;  // one part per mesh part
  anim::Span<const SourceImageFile> files;              // what its look-ups' `file` index

  Status Validate() const;
};

// What GltfExportJob takes (`images`, `part_maps`) and the bytes its images point to.
struct ExportMaps {
  std::vector<std::shared_ptr<const std::string>> bytes;  // owned; `images` point into them
  std::vector<ExportImage> images;
  std::vector<ExportPartMaps> parts;  // as the resolution's parts; empty when no part has a map
  // A map that is declared but not embedded, with why: "walker.mtr:3:2: warning: mesh 0
  // (models/walker/walker): the normal map is not embedded: x_local.tga: could not decode ...".
  std::vector<Diagnostic> warnings;
};

// A plain PNG or JPEG diffuse or specular map is embedded byte for byte; any other file (TGA,
// DDS, BMP) and any image program (heightmap, addnormals) is decoded, evaluated as the viewer
// does, and encoded as PNG; normal maps always are, after material::InvertGreen. Parts with the
// same map share one image. Built-in images (_flat, _white, ...) and missing ones embed nothing.
// A one-shot tool job: it allocates what it makes.
Result<ExportMaps> BuildExportMaps(const ExportMapsInput& input);

}  // namespace md5stage::convert
