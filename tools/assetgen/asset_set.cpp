#include "asset_set.h"

#include <algorithm>

#include "lamp.h"
#include "md5_writer.h"
#include "scenes.h"
#include "text_format.h"
#include "textures.h"
#include "walker_body.h"
#include "walker_rig.h"

namespace md5stage::assetgen {
namespace {

std::string LicenseText(const AssetSet& set) {
  std::string joints;
  for (int j = 0; j < set.walker_skeleton.size(); ++j) {
    joints += (j ? ", " : "") + set.walker_skeleton.names[j];
  }
  std::string clips;
  for (const WalkerClip& clip : set.walker_clips) {
    const WalkerClipInfo& info = clip.info;
    clips += "- `" + info.name + ".md5anim`: " + std::to_string(info.frame_count) + " frames at " +
             std::to_string(info.frame_rate) + " fps (" + FormatFixed(info.duration, 2) +
             " s loop)";
    if (info.ground_speed > 0.0) {
      clips += ", ground speed " + FormatFixed(info.ground_speed, 1) + " units/s, stride " +
               FormatFixed(info.stride, 1) + " units";
    }
    clips += "\n";
  }
  return std::string() +
         "# assets/: made by the md5stage project\n"
         "\n"
         "Every file in this folder was made by the md5stage project: it is the output of the\n"
         "project's own generator, `tools/assetgen` (no third-party models, textures or data).\n"
         "These files are under the same license as the md5stage code, the MIT license:\n"
         "\n"
         "    MIT License\n"
         "\n"
         "    Copyright (c) the md5stage contributors\n"
         "\n"
         "    Permission is hereby granted, free of charge, to any person obtaining a copy of "
         "this\n"
         "    software and associated documentation files (the \"Software\"), to deal in the\n"
         "    Software without restriction, including without limitation the rights to use, copy,\n"
         "    modify, merge, publish, distribute, sublicense, and/or sell copies of the Software,\n"
         "    and to permit persons to whom the Software is furnished to do so, subject to the\n"
         "    following conditions:\n"
         "\n"
         "    The above copyright notice and this permission notice shall be included in all\n"
         "    copies or substantial portions of the Software.\n"
         "\n"
         "    THE SOFTWARE IS PROVIDED \"AS IS\", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR\n"
         "    IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS "
         "FOR\n"
         "    A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR "
         "COPYRIGHT\n"
         "    HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION "
         "OF\n"
         "    CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE "
         "SOFTWARE\n"
         "    OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.\n"
         "\n"
         "## Regenerating\n"
         "\n"
         "Do not edit these files by hand. Change `tools/assetgen` and rebuild the "
         "`md5stage_assets`\n"
         "target (it reruns the generator when a file is missing or older than the generator):\n"
         "\n"
         "    cmake -S . -B build/native && cmake --build build/native --target md5stage_assets\n"
         "\n"
         "or run `md5stage_assetgen <repo>/assets` directly. The output is deterministic (the "
         "same\n"
         "bytes on every run), and the `assetgen_tests` test checks that the committed files equal "
         "a\n"
         "fresh generation.\n"
         "\n"
         "## Contents\n"
         "\n"
         "Conventions: MD5 version 10, Z up, +X forward, ground at z = 0, about 70 units tall.\n"
         "\n"
         "`models/walker/walker.md5mesh` (shader `models/walker/walker`, texture `walker.png`):\n" +
         std::to_string(set.walker_skeleton.size()) + " joints (" + joints + "); " +
         std::to_string(set.walker_mesh.vertices.size()) + " vertices, " +
         std::to_string(set.walker_mesh.triangles.size()) +
         " triangles, at most 4 weights per vertex. `tag_hand_r` is the grip point in the right\n"
         "fist; its frame is the model frame when the arm hangs straight down.\n"
         "\n" +
         clips +
         "\n"
         "Root motion: in `walk` and `run` the `origin` joint moves along +X at the ground speed\n"
         "above. The last frame equals the first except that `origin` is one stride further along\n"
         "+X, so a player that keeps root motion loops seamlessly by adding one stride per loop, "
         "and\n"
         "a player that moves the model itself subtracts the origin's translation. Planted feet "
         "do\n"
         "not slide: the legs are solved with two-bone IK against fixed footholds. `wave` "
         "animates\n"
         "the upper body only (the legs' joints have hierarchy flags 0).\n"
         "\n"
         "`models/lamp/lamp.md5mesh` (shader `models/lamp/lamp`, texture `lamp.png`): " +
         std::to_string(set.lamp_skeleton.size()) + " joints, " +
         std::to_string(set.lamp_mesh.triangles.size()) +
         " triangles; the handle is at the origin and the\n"
         "lantern hangs along -Z, so attaching it to `tag_hand_r` with no offset puts it in the "
         "hand.\n"
         "\n"
         "`scenes/*.json`: demo scenes in the scene format of docs/scene-format.md (`default`,\n"
         "`turns`, `attach`, `crowd`).\n";
}

}  // namespace

AssetSet GenerateAssets() {
  AssetSet set;
  set.walker_skeleton = BuildWalkerSkeleton();
  set.walker_mesh = BuildWalkerMesh();
  set.walker_clips = BuildWalkerClips(set.walker_skeleton);
  set.walker_texture = PaintWalkerTexture();
  set.lamp_skeleton = BuildLampSkeleton();
  set.lamp_mesh = BuildLampMesh(set.lamp_skeleton);
  set.lamp_texture = PaintLampTexture();

  const std::vector<SkinMesh> walker_meshes = {set.walker_mesh};
  auto add = [&set](std::string path, std::string bytes) {
    set.files.push_back({std::move(path), std::move(bytes)});
  };
  add("models/walker/walker.md5mesh",
      WriteMd5Mesh(set.walker_skeleton, walker_meshes,
                   "md5stage_assetgen walker: generated by the md5stage project, MIT license"));
  for (const WalkerClip& clip : set.walker_clips) {
    add("models/walker/" + clip.clip.name + ".md5anim",
        WriteMd5Anim(set.walker_skeleton, walker_meshes, clip.clip));
  }
  add("models/walker/walker.png", EncodePng(set.walker_texture));
  add("models/lamp/lamp.md5mesh",
      WriteMd5Mesh(set.lamp_skeleton, {set.lamp_mesh},
                   "md5stage_assetgen lamp: generated by the md5stage project, MIT license"));
  add("models/lamp/lamp.png", EncodePng(set.lamp_texture));
  add("scenes/default.json", DefaultSceneJson());
  add("scenes/turns.json", TurnsSceneJson());
  add("scenes/attach.json", AttachSceneJson());
  add("scenes/crowd.json", CrowdSceneJson());
  add("LICENSE.md", LicenseText(set));
  std::sort(set.files.begin(), set.files.end(),
            [](const GeneratedFile& a, const GeneratedFile& b) { return a.path < b.path; });
  return set;
}

}  // namespace md5stage::assetgen
