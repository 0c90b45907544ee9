#include "asset_set.h"

#include <algorithm>

#include "camera.h"
#include "lamp.h"
#include "md5_writer.h"
#include "scenes.h"
#include "text_format.h"
#include "textures.h"
#include "walker_body.h"
#include "walker_rig.h"

namespace md5stage::assetgen {
namespace {

// Joins `items` with ", " into lines no longer than `width`.
std::string Wrapped(const std::vector<std::string>& items, size_t width) {
  std::string out, line;
  for (size_t i = 0; i < items.size(); ++i) {
    std::string item = items[i] + (i + 1 < items.size() ? "," : "");
    if (!line.empty() && line.size() + 1 + item.size() > width) {
      out += line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + item;
  }
  return out + line + "\n";
}

std::string LicenseText(const AssetSet& set) {
  std::string text = R"(# assets/: made by the md5stage project

Every file in this folder was made by the md5stage project: it is the output of the project's
own generator, `tools/assetgen` (no third-party models, textures or data). These files are under
the same license as the md5stage code, the MIT license:

    MIT License

    Copyright (c) the md5stage contributors

    Permission is hereby granted, free of charge, to any person obtaining a copy of this
    software and associated documentation files (the "Software"), to deal in the Software
    without restriction, including without limitation the rights to use, copy, modify, merge,
    publish, distribute, sublicense, and/or sell copies of the Software, and to permit persons
    to whom the Software is furnished to do so, subject to the following conditions:

    The above copyright notice and this permission notice shall be included in all copies or
    substantial portions of the Software.

    THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED,
    INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR
    PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE
    FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR
    OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER
    DEALINGS IN THE SOFTWARE.

## Regenerating

Do not edit these files by hand. Change `tools/assetgen`, then, from the repository root:

    cmake --build build/native --target md5stage_assetgen && ./build/native/md5stage_assetgen assets

and commit the result (`--check <dir>` compares instead of writing; `--preview <dir>` renders
contact sheets of every clip). The build itself never writes here. The output is deterministic,
the same bytes on every run; the generator's tests (`ctest -R assetgen`) write a fresh generation
into a temporary folder and check that the committed files equal it byte for byte.

## Contents

Conventions: MD5 version 10, Z up, +X forward, left = +Y, the ground at z = 0, units of about an
inch (the walker is 70 units tall). Texture coordinates have v = 0 at the top row of the PNG.

`models/walker/walker.md5mesh` (shader `models/walker/walker`, texture `walker.png`): one closed
skin of )";
  text += std::to_string(set.walker_mesh.vertices.size()) + " vertices and " +
          std::to_string(set.walker_mesh.triangles.size()) +
          " triangles, at most 4 weights per vertex, on " +
          std::to_string(set.walker_skeleton.size()) + " joints:\n\n";
  text += Wrapped(set.walker_skeleton.names, 96);
  text += R"(
`tag_hand_r` is the grip point in the right fist; its frame is the model frame (X forward, Z up)
when the right arm hangs straight down.

)";
  for (const WalkerClip& clip : set.walker_clips) {
    const WalkerClipInfo& info = clip.info;
    text += "- `" + info.name + ".md5anim`: " + std::to_string(info.frame_count) + " frames at " +
            std::to_string(info.frame_rate) + " fps, a " + FormatFixed(info.duration, 2) +
            " s loop";
    if (info.ground_speed > 0.0) {
      text += "; ground speed " + FormatFixed(info.ground_speed, 1) + " units/s, stride " +
              FormatFixed(info.stride, 1) + " units";
    }
    text += "\n";
  }
  text += R"(
Loops: the last frame of each clip equals its first. Root motion: in `walk` and `run` the
`origin` joint moves along +X at the ground speed above, and the last frame equals the first
except that `origin` is one stride further along +X. A player that keeps root motion loops
seamlessly by adding one stride per loop; a player that moves the model along a route itself
subtracts the origin's translation. Planted feet do not slide: the legs are solved with two-bone
IK against fixed footholds (the heel rolls on its rounded edge, the foot rolls over the ball).
`wave` animates the upper body only: the lower body's joints have hierarchy flags 0.

`models/lamp/lamp.md5mesh` (shader `models/lamp/lamp`, texture `lamp.png`):
)";
  text += std::to_string(set.lamp_skeleton.size()) + " joints, " +
          std::to_string(set.lamp_mesh.triangles.size()) + " triangles.";
  text += R"( The handle is at the origin and the lantern hangs
along -Z, so attaching it to `tag_hand_r` with no offset puts the handle in the walker's fist.

`scenes/*.json`: demo scenes in the format of docs/scene-format.md: `default` (the walker idles,
then walks a figure-eight of Bezier curves), `turns` (three walkers with different turning radii
sent to the same point), `attach` (walkers carrying the lamp), `crowd` (fifty walkers, each on its
own route), `maze` (three walkers with different turning radii planning their own ways through
walls with a narrow gap and a cul-de-sac), `camera` (the walker idling while the view follows
`cameras/walker_orbit.md5camera`: a slow orbit, a cut, a closer shot from the other side).
)";
  return text;
}

}  // namespace

AssetSet GenerateAssets() {
  AssetSet set;
  set.walker_skeleton = BuildWalkerSkeleton();
  set.walker_mesh = BuildWalkerMesh();
  set.walker_clips = BuildWalkerClips(set.walker_skeleton);
  set.walker_texture = PaintWalkerTexture();
  set.lamp_skeleton = BuildLampSkeleton();
  set.lamp_mesh = BuildLampMesh();
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
  add("scenes/maze.json", MazeSceneJson());
  add("cameras/walker_orbit.md5camera", WalkerOrbitCamera());
  add("scenes/camera.json", CameraSceneJson());
  add("LICENSE.md", LicenseText(set));
  std::sort(set.files.begin(), set.files.end(),
            [](const GeneratedFile& a, const GeneratedFile& b) { return a.path < b.path; });
  return set;
}

}  // namespace md5stage::assetgen
