#include "preview_sheets.h"

#include "preview.h"
#include "walker_rig.h"

namespace md5stage::assetgen {
namespace {

std::vector<Vec3> LampInHand(const AssetSet& set, const SkeletonPose& walker_model) {
  const JointPose& tag = walker_model[kTagHandR];
  SkeletonPose lamp_model = ToModelSpace(set.lamp_skeleton, BindLocalPose(set.lamp_skeleton));
  for (JointPose& joint : lamp_model) {
    joint.position = tag.position + tag.orientation * joint.position;
    joint.orientation = tag.orientation * joint.orientation;
  }
  return SkinPositions(set.lamp_skeleton, set.lamp_mesh, lamp_model);
}

}  // namespace

std::vector<GeneratedFile> RenderPreviewSheets(const AssetSet& set) {
  std::vector<GeneratedFile> sheets;
  const Skeleton& skeleton = set.walker_skeleton;
  {
    Image sheet(1200, 600, 3);
    SkeletonPose model = ToModelSpace(skeleton, BindLocalPose(skeleton));
    PreviewItem item{&set.walker_mesh, &set.walker_texture,
                     SkinPositions(skeleton, set.walker_mesh, model)};
    const double yaws[4] = {0, -90, 35, 200};
    for (int i = 0; i < 4; ++i) {
      PreviewView view;
      view.target = Vec3(0, 0, 35);
      view.yaw_degrees = yaws[i];
      view.pitch_degrees = 10;
      RenderPreview(sheet, i * 300, 0, 300, 600, {item}, view);
    }
    sheets.push_back({"bind.png", EncodePng(sheet)});
  }
  for (const WalkerClip& clip : set.walker_clips) {
    const int columns = 8;
    Image sheet(columns * 200, 2 * 330, 3);
    for (int c = 0; c < columns; ++c) {
      int frame = c * (clip.info.frame_count - 1) / columns;
      SkeletonPose model = ToModelSpace(skeleton, clip.clip.frames[frame]);
      PreviewItem posed{&set.walker_mesh, &set.walker_texture,
                        SkinPositions(skeleton, set.walker_mesh, model)};
      for (int row = 0; row < 2; ++row) {
        PreviewView view;
        view.target = Vec3(model[kOrigin].position.x, 0, 40);
        view.yaw_degrees = row == 0 ? -90 : 35;
        view.pitch_degrees = row == 0 ? 3 : 12;
        view.half_height = 44;
        RenderPreview(sheet, c * 200, row * 330, 200, 330, {posed}, view);
      }
    }
    sheets.push_back({"anim_" + clip.clip.name + ".png", EncodePng(sheet)});
  }
  {
    const WalkerClip& walk = set.walker_clips[1];
    const WalkerClip& idle = set.walker_clips[0];
    Image sheet(1000, 400, 3);
    for (int c = 0; c < 5; ++c) {
      const AnimClip& clip = c == 0 ? idle.clip : walk.clip;
      int frame = c == 0 ? 0 : (c - 1) * (walk.info.frame_count - 1) / 4;
      SkeletonPose model = ToModelSpace(skeleton, clip.frames[frame]);
      PreviewItem body{&set.walker_mesh, &set.walker_texture,
                       SkinPositions(skeleton, set.walker_mesh, model)};
      PreviewItem lamp{&set.lamp_mesh, &set.lamp_texture, LampInHand(set, model)};
      PreviewView view;
      view.target = Vec3(model[kOrigin].position.x, 0, 36);
      view.yaw_degrees = -60;
      view.pitch_degrees = 10;
      RenderPreview(sheet, c * 200, 0, 200, 400, {body, lamp}, view);
    }
    sheets.push_back({"attach.png", EncodePng(sheet)});
  }
  return sheets;
}

}  // namespace md5stage::assetgen
