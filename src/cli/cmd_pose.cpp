// `md5stage pose MESH [ANIM] [--frame F | --time SECONDS] [--normalize] --obj OUT.obj`: the
// skinned mesh as OBJ in the file's own coordinates (Z up, no axis change), CPU reference
// skinning with the format's plain weighted sum unless --normalize.
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "cli/cli_files.h"
#include "cli/command_registry.h"
#include "core/anim/animation.h"
#include "core/anim/jobs.h"
#include "core/anim/model.h"
#include "core/anim/pose.h"
#include "core/md5/file_reader.h"
#include "core/md5/md5_binding.h"
#include "core/md5/md5_parser.h"

namespace md5stage::cli {
namespace {

const char kUsage[] =
    "usage: md5stage pose MESH [ANIM] [--frame F | --time SECONDS] [--normalize] --obj OUT.obj\n";

int UsageError(const std::string& message) {
  std::fprintf(stderr, "md5stage pose: %s\n%s", message.c_str(), kUsage);
  return 2;
}

bool ParseNumber(const std::string& text, double* out) {
  char* end = nullptr;
  errno = 0;
  *out = std::strtod(text.c_str(), &end);
  return !text.empty() && end == text.c_str() + text.size() && errno == 0 && std::isfinite(*out);
}

struct Options {
  std::string mesh;
  std::string anim;
  std::string obj;
  int frame = -1;
  bool has_time = false;
  double time = 0.0;
  bool normalize = false;
};

bool WriteObj(const std::string& path, const anim::Model& model,
              const std::vector<std::vector<glm::vec3>>& positions, const std::string& header) {
  std::FILE* out = std::fopen(path.c_str(), "wb");
  if (out == nullptr) {
    std::fprintf(stderr, "%s: error: cannot write file: %s\n", path.c_str(), std::strerror(errno));
    return false;
  }
  std::fprintf(out, "# %s\n", header.c_str());
  std::size_t base = 1;  // OBJ indices are 1-based and global
  for (int m = 0; m < model.mesh_count(); ++m) {
    const md5::MeshPart& mesh = model.mesh(m);
    // An empty shader would give a nameless object; name it by its index instead.
    if (mesh.shader.empty()) {
      std::fprintf(out, "o mesh_%d\n", m);
    } else {
      std::fprintf(out, "o %s\n", mesh.shader.c_str());
    }
    for (const glm::vec3& p : positions[m]) std::fprintf(out, "v %.9g %.9g %.9g\n", p.x, p.y, p.z);
    for (const md5::MeshVertex& v : mesh.vertices)
      std::fprintf(out, "vt %.9g %.9g\n", v.uv.x, v.uv.y);
    for (const md5::MeshTriangle& t : mesh.triangles) {
      const std::size_t a = base + t.vertices[0], b = base + t.vertices[1],
                        c = base + t.vertices[2];
      std::fprintf(out, "f %zu/%zu %zu/%zu %zu/%zu\n", a, a, b, b, c, c);
    }
    base += mesh.vertices.size();
  }
  const bool ok = std::ferror(out) == 0;
  if (std::fclose(out) != 0 || !ok) {
    std::fprintf(stderr, "%s: error: cannot write file\n", path.c_str());
    return false;
  }
  return true;
}

// The options from the arguments: 0, or the usage error's exit code.
int ParsePoseArguments(const std::vector<std::string>& args, Options* options) {
  std::vector<std::string> positional;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    const bool has_value = i + 1 < args.size();
    if (arg == "--obj") {
      if (!has_value) return UsageError("--obj needs a file name");
      options->obj = args[++i];
    } else if (arg == "--frame") {
      double value = 0;
      if (!has_value || !ParseNumber(args[i + 1], &value) || value < 0 ||
          value != std::floor(value) || value > 1e9) {
        return UsageError("--frame needs a frame number (an integer >= 0)");
      }
      options->frame = static_cast<int>(value);
      ++i;
    } else if (arg == "--time") {
      if (!has_value || !ParseNumber(args[i + 1], &options->time)) {
        return UsageError("--time needs a number of seconds");
      }
      options->has_time = true;
      ++i;
    } else if (arg == "--normalize") {
      options->normalize = true;
    } else if (arg.size() > 1 && arg[0] == '-') {
      return UsageError("unknown option '" + arg + "'");
    } else {
      positional.push_back(arg);
    }
  }
  if (positional.empty() || positional.size() > 2) return UsageError("expected MESH [ANIM]");
  if (options->obj.empty()) return UsageError("--obj OUT.obj is required");
  if (options->frame >= 0 && options->has_time) {
    return UsageError("use --frame or --time, not both");
  }
  options->mesh = positional[0];
  if (positional.size() == 2) options->anim = positional[1];
  if (options->anim.empty() && (options->frame >= 0 || options->has_time)) {
    return UsageError("--frame and --time need an ANIM");
  }
  return 0;
}

// The animation's frame (or time) sampled into `pose`'s model matrices, and what was sampled
// added to the OBJ's header: whether it was (else the error printed).
bool SampleAnimation(const Options& options, const anim::Model& model, anim::Pose* pose,
                     std::string* header) {
  Result<std::string> anim_bytes = md5::ReadFileBytes(options.anim);
  if (!anim_bytes.ok()) {
    std::fprintf(stderr, "%s\n", anim_bytes.error().ToString().c_str());
    return false;
  }
  Result<md5::AnimFile> parsed = md5::ParseMd5Anim(options.anim, anim_bytes.value());
  if (!parsed.ok()) {
    std::fprintf(stderr, "%s\n", parsed.error().ToString().c_str());
    return false;
  }
  std::vector<Diagnostic> warnings = parsed.value().warnings;
  const Status fits = md5::CheckAnimFitsMesh(model.source(), parsed.value(), &warnings);
  for (const Diagnostic& w : warnings) std::fprintf(stderr, "%s\n", w.ToString().c_str());
  if (!fits.ok()) {
    std::fprintf(stderr, "%s\n", fits.error().ToString().c_str());
    return false;
  }
  const anim::Animation animation = anim::Animation::FromAnimFile(
      std::make_shared<const md5::AnimFile>(std::move(parsed).value()));
  if (options.frame >= animation.frame_count()) {
    std::fprintf(
        stderr, "md5stage pose: expected --frame from 0 to %d (%s has %d frames), found %d\n",
        animation.frame_count() - 1, options.anim.c_str(), animation.frame_count(), options.frame);
    return false;
  }
  anim::SampleJob sample;
  sample.animation = &animation;
  sample.frame = options.has_time ? -1 : (options.frame >= 0 ? options.frame : 0);
  sample.time = static_cast<float>(options.time);
  sample.mode = anim::PlaybackMode::kLoop;
  sample.output = pose->locals;
  anim::LocalToModelJob to_model;
  to_model.skeleton = &model.skeleton();
  to_model.locals = pose->locals;
  to_model.models = pose->models;
  if (!sample.Run() || !to_model.Run()) {
    std::fprintf(stderr, "md5stage pose: sampling %s failed\n", options.anim.c_str());
    return false;
  }
  *header += " " + options.anim +
             (options.has_time ? " time " + std::to_string(options.time)
                               : " frame " + std::to_string(sample.frame));
  return true;
}

// Every mesh part skinned by the pose's model matrices: whether all were.
bool SkinMeshes(const anim::Model& model, const anim::Pose& pose, bool normalize,
                std::vector<std::vector<glm::vec3>>* positions) {
  positions->resize(static_cast<std::size_t>(model.mesh_count()));
  for (int m = 0; m < model.mesh_count(); ++m) {
    (*positions)[m].resize(model.mesh(m).vertices.size());
    anim::SkinningJob skin;
    skin.model = &model;
    skin.mesh_index = m;
    skin.joint_matrices = pose.models;
    skin.normalize_weights = normalize;
    skin.positions = (*positions)[m];
    if (!skin.Run()) {
      std::fprintf(stderr, "md5stage pose: skinning mesh %d failed\n", m);
      return false;
    }
  }
  return true;
}

int RunPose(const std::vector<std::string>& args) {
  Options options;
  if (const int usage = ParsePoseArguments(args, &options); usage != 0) return usage;
  const std::shared_ptr<const anim::Model> model = LoadMeshModel(options.mesh);
  if (model == nullptr) return 1;
  anim::Pose pose(model->skeleton().joint_count());
  std::string header = "md5stage pose " + options.mesh;
  if (options.anim.empty()) {
    pose.models = model->skeleton().bind_matrices();
    header += " (bind pose)";
  } else if (!SampleAnimation(options, *model, &pose, &header)) {
    return 1;
  }
  if (options.normalize) header += " (weights normalized)";
  std::vector<std::vector<glm::vec3>> positions;
  if (!SkinMeshes(*model, pose, options.normalize, &positions)) return 1;
  return WriteObj(options.obj, *model, positions, header) ? 0 : 1;
}

static CommandRegistrar reg{
    {"pose", "pose MESH [ANIM] [--frame F | --time SECONDS] [--normalize] --obj OUT.obj",
     &RunPose}};

}  // namespace
}  // namespace md5stage::cli
