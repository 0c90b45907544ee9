// Where the viewer meets the glTF converter (core/convert): the import of dropped .glb/.gltf
// files here, the export in gltf_download.h. The lean figures build links gltf_absent.cpp instead
// of gltf_import_files.cpp and gltf_download.cpp, so figures carry no converter.
#pragma once

#include <vector>

#include "viewer/model_library.h"

namespace md5stage::viewer {

// A .glb/.gltf of the batch becomes "<name>.md5mesh" and "<anim>.md5anim" files appended to it;
// a broken one is an error in the report and adds nothing.
void ImportGltfFiles(std::vector<InputFile>& files, LoadReport& report);

}  // namespace md5stage::viewer
