#include "core/md5/md5_parser.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "core/md5/md5_header.h"
#include "core/md5/md5_weights.h"
#include "core/md5/tokenizer.h"

namespace md5stage::md5 {
namespace {

constexpr float kWeightSumTolerance = 1e-3f;

std::string Quote(std::string_view text) { return "\"" + std::string(text) + "\""; }

int PopCount6(int flags) {
  int count = 0;
  for (int bit = 0; bit < 6; ++bit) count += (flags >> bit) & 1;
  return count;
}

// Shared by both formats: the header readers (md5_header.h) and the joint parent rules.
class ParserBase {
 public:
  ParserBase(std::string_view file_name, std::string_view bytes, const Md5Limits& limits)
      : tk_(file_name, bytes), limits_(limits) {}

 protected:
  bool ParseVersionAndCommandLine(int* version, std::string* commandline) {
    return md5::ReadVersionAndCommandLine(tk_, version, commandline);
  }

  bool ReadCount(const char* keyword, std::int64_t min, std::int64_t limit,
                 std::size_t min_bytes_each, int* out) {
    return md5::ReadCount(tk_, keyword, min, limit, min_bytes_each, out);
  }

  // Parent index rules: -1 for the one root, otherwise an earlier joint.
  bool CheckParent(int index, int count, std::int64_t parent, std::string_view name,
                   int* root_index, int* root_line, const std::string& root_name) {
    if (parent < -1 || parent >= count) {
      return tk_.FailLast("a parent joint index from -1 to " + std::to_string(count - 1));
    }
    if (parent >= index) {
      return tk_.FailLast("a parent joint index below " + std::to_string(index) +
                          " (parents come before children)");
    }
    if (parent == -1) {
      if (*root_index >= 0) {
        const SourceLocation at = tk_.last_location();
        if (!limits_.allow_multiple_roots) {
          return tk_.FailAt(at, "expected one root joint (" + Quote(root_name) + " at line " +
                                    std::to_string(*root_line) +
                                    " is the root), found a second root " + Quote(name));
        }
        warnings_.push_back(
            MakeWarning(tk_.file_name(), at.line, at.column,
                        "joint " + Quote(name) + " is a second root (" + Quote(root_name) +
                            " at line " + std::to_string(*root_line) +
                            " is the first); every root takes the character's transform"));
        return true;
      }
      *root_index = index;
      *root_line = tk_.last_location().line;
    }
    return true;
  }

  // Whether the fast line scanner may read the next line (see Tokenizer::RawCursor).
  bool Scanning() const { return limits_.scan_simple_lines && tk_.ok(); }

  std::vector<Diagnostic> warnings_;

  Tokenizer tk_;
  const Md5Limits& limits_;
};

class MeshParser : public ParserBase {
 public:
  using ParserBase::ParserBase;

  Result<MeshFile> Parse(std::string_view file_name) {
    MeshFile file;
    file.file_name.assign(file_name);
    if (!ParseFile(&file)) return tk_.error();
    return file;
  }

 private:
  bool ParseFile(MeshFile* file) {
    if (!ParseVersionAndCommandLine(&file->version, &file->commandline)) return false;
    int joint_count = -1;
    int mesh_count = -1;
    while (tk_.ok() && (joint_count < 0 || mesh_count < 0)) {
      if (joint_count < 0 && tk_.PeekWord("numJoints")) {
        tk_.ExpectWord("numJoints");
        ReadCount("numJoints", 1, limits_.max_joints, kMinBytesPerJoint, &joint_count);
      } else if (mesh_count < 0 && tk_.PeekWord("numMeshes")) {
        tk_.ExpectWord("numMeshes");
        ReadCount("numMeshes", 0, limits_.max_meshes, kMinBytesPerMesh, &mesh_count);
      } else {
        tk_.Fail(joint_count < 0 ? "'numJoints'" : "'numMeshes'");
      }
    }
    if (!tk_.ok() || !ParseJoints(joint_count, file)) return false;
    file->warnings = std::move(warnings_);
    file->meshes.reserve(static_cast<std::size_t>(mesh_count));
    for (int m = 0; m < mesh_count; ++m) {
      if (!tk_.PeekWord("mesh")) {
        return tk_.Fail("mesh " + std::to_string(m) + " of " + std::to_string(mesh_count) +
                        " (numMeshes)");
      }
      file->meshes.emplace_back();
      if (!ParseMesh(*file, m, &file->meshes.back())) return false;
      AddWeightWarnings(*file, m, &file->warnings);
    }
    if (!tk_.AtEnd()) {
      return tk_.Fail("end of file (numMeshes is " + std::to_string(mesh_count) + ")");
    }
    return true;
  }

  bool ParseJoints(int count, MeshFile* file) {
    if (!tk_.ExpectWord("joints") || !tk_.ExpectChar('{')) return false;
    file->joints.resize(static_cast<std::size_t>(count));
    int root_index = -1;
    int root_line = 0;
    for (int i = 0; i < count; ++i) {
      MeshJoint& joint = file->joints[i];
      joint.index = i;
      if (!tk_.PeekChar('"')) {
        return tk_.Fail("joint " + std::to_string(i) + "'s quoted name (numJoints is " +
                        std::to_string(count) + ")");
      }
      std::string_view name;
      std::int64_t parent = 0;
      tk_.ReadString(&name);
      joint.line = tk_.last_location().line;
      joint.name.assign(name);
      if (!tk_.ReadInt("a parent joint index", &parent) ||
          !CheckParent(i, count, parent, name, &root_index, &root_line,
                       root_index >= 0 ? file->joints[root_index].name : std::string())) {
        return false;
      }
      joint.parent = static_cast<int>(parent);
      if (parent >= 0) joint.parent_name = file->joints[joint.parent].name;
      if (!tk_.ReadFloatTuple("a number", 3, &joint.position.x) ||
          !tk_.ReadFloatTuple("a number", 3, &joint.orientation_xyz.x)) {
        return false;
      }
      joint.orientation = QuatFromXyz(joint.orientation_xyz);
    }
    if (!tk_.PeekChar('}')) {
      return tk_.Fail("'}' (numJoints is " + std::to_string(count) + ")");
    }
    return tk_.ExpectChar('}');
  }

  bool ParseMesh(const MeshFile& file, int mesh_index, MeshPart* mesh) {
    tk_.ExpectWord("mesh");
    mesh->line = tk_.last_location().line;
    if (!tk_.ExpectChar('{')) return false;
    // Doom 3 requires a shader, but some exporters leave the line out: the shader is then "".
    if (tk_.PeekWord("shader")) {
      std::string_view shader;
      if (!tk_.ExpectWord("shader") || !tk_.ReadString(&shader)) return false;
      mesh->shader.assign(shader);
    } else if (!tk_.PeekWord("numverts")) {
      return tk_.Fail("'shader' or 'numverts'");
    }

    int vertex_count = 0;
    if (!tk_.ExpectWord("numverts") || !ReadCount("numverts", 0, limits_.max_vertices_per_mesh,
                                                  kMinBytesPerVertex, &vertex_count)) {
      return false;
    }
    if (static_cast<std::int64_t>(total_vertices_) + vertex_count > limits_.max_total_vertices) {
      return tk_.FailLast("numverts of at most " +
                          std::to_string(limits_.max_total_vertices - total_vertices_) +
                          " (the loader's limit of " + std::to_string(limits_.max_total_vertices) +
                          " vertices in all meshes)");
    }
    total_vertices_ += vertex_count;
    mesh->vertices.resize(static_cast<std::size_t>(vertex_count));
    weight_range_locations_.resize(static_cast<std::size_t>(vertex_count));
    for (int v = 0; v < vertex_count; ++v) {
      MeshVertex& vertex = mesh->vertices[v];
      if (ScanVertexLine(v, &vertex)) continue;
      if (!tk_.PeekWord("vert")) {
        return tk_.Fail("vert " + std::to_string(v) + " of " + std::to_string(vertex_count) +
                        " (numverts)");
      }
      tk_.ExpectWord("vert");
      if (!ReadItemIndex("vertex", "a vertex index", v) ||
          !tk_.ReadFloatTuple("a number", 2, &vertex.uv.x)) {
        return false;
      }
      weight_range_locations_[v] = tk_.NextLocation();
      if (!tk_.ReadIntInRange("a first weight index", 0, limits_.max_weights_per_mesh,
                              &vertex.first_weight) ||
          !tk_.ReadIntInRange("a weight count", 0, limits_.max_weights_per_mesh,
                              &vertex.weight_count)) {
        return false;
      }
    }
    if (!tk_.PeekWord("numtris")) {
      return tk_.Fail("'numtris' (numverts is " + std::to_string(vertex_count) + ")");
    }
    int triangle_count = 0;
    tk_.ExpectWord("numtris");
    if (!ReadCount("numtris", 0, limits_.max_triangles_per_mesh, kMinBytesPerTriangle,
                   &triangle_count)) {
      return false;
    }
    mesh->triangles.resize(static_cast<std::size_t>(triangle_count));
    const std::string vertex_index_what =
        vertex_count == 0 ? "no triangles (numverts is 0)" : "a vertex index";
    for (int t = 0; t < triangle_count; ++t) {
      if (ScanTriangleLine(t, vertex_count, &mesh->triangles[t])) continue;
      if (!tk_.PeekWord("tri")) {
        return tk_.Fail("tri " + std::to_string(t) + " of " + std::to_string(triangle_count) +
                        " (numtris)");
      }
      tk_.ExpectWord("tri");
      if (!ReadItemIndex("triangle", "a triangle index", t)) return false;
      for (int corner = 0; corner < 3; ++corner) {
        int index = 0;
        if (!tk_.ReadIntInRange(vertex_index_what.c_str(), 0, vertex_count - 1, &index)) {
          return false;
        }
        mesh->triangles[t].vertices[corner] = static_cast<std::uint32_t>(index);
      }
    }
    if (!tk_.PeekWord("numweights")) {
      return tk_.Fail("'numweights' (numtris is " + std::to_string(triangle_count) + ")");
    }
    int weight_count = 0;
    tk_.ExpectWord("numweights");
    if (!ReadCount("numweights", 0, limits_.max_weights_per_mesh, kMinBytesPerWeight,
                   &weight_count)) {
      return false;
    }
    mesh->weights.resize(static_cast<std::size_t>(weight_count));
    const int joint_count = static_cast<int>(file.joints.size());
    for (int w = 0; w < weight_count; ++w) {
      MeshWeight& weight = mesh->weights[w];
      if (ScanWeightLine(w, joint_count, &weight)) continue;
      if (!tk_.PeekWord("weight")) {
        return tk_.Fail("weight " + std::to_string(w) + " of " + std::to_string(weight_count) +
                        " (numweights)");
      }
      tk_.ExpectWord("weight");
      if (!ReadItemIndex("weight", "a weight index", w) ||
          !tk_.ReadIntInRange("a joint index", 0, joint_count - 1, &weight.joint) ||
          !tk_.ReadFloat("a number (weight bias)", &weight.bias) ||
          !tk_.ReadFloatTuple("a number", 3, &weight.position.x)) {
        return false;
      }
    }
    if (!tk_.PeekChar('}')) {
      return tk_.Fail("'}' closing mesh " + std::to_string(mesh_index) + " (numweights is " +
                      std::to_string(weight_count) + ")");
    }
    tk_.ExpectChar('}');
    // Vertices come before the weights in the file, so their ranges are checked now.
    for (int v = 0; v < vertex_count; ++v) {
      const MeshVertex& vertex = mesh->vertices[v];
      if (static_cast<std::int64_t>(vertex.first_weight) + vertex.weight_count > weight_count) {
        return tk_.FailAt(weight_range_locations_[v],
                          "expected vert " + std::to_string(v) + "'s weights within the mesh's " +
                              std::to_string(weight_count) + " weights (numweights), found " +
                              std::to_string(vertex.weight_count) + " weights from index " +
                              std::to_string(vertex.first_weight));
      }
    }
    return true;
  }

  // The fast paths for the three kinds of line that make up almost all of a mesh file. Each
  // accepts exactly what the checked reads below it accept, or less: on false nothing has moved
  // and the checked reads take the line again and report what is wrong with it.
  bool ScanVertexLine(int v, MeshVertex* vertex) {
    if (!Scanning()) return false;
    LineScanner line(tk_.RawCursor(), tk_.RawEnd());
    std::int64_t index = 0;
    if (!line.Word("vert") || !line.Int(&index) || index != v || !line.Char('(') ||
        !line.Float(&vertex->uv.x) || !line.Float(&vertex->uv.y) || !line.Char(')')) {
      return false;
    }
    const char* first_weight_at = line.position();
    if (!line.IntInRange(0, limits_.max_weights_per_mesh, &vertex->first_weight) ||
        !line.IntInRange(0, limits_.max_weights_per_mesh, &vertex->weight_count, true)) {
      return false;
    }
    weight_range_locations_[v] = tk_.LocationOnLine(first_weight_at);
    tk_.AdvanceTo(line.token(), line.position());
    return true;
  }

  bool ScanTriangleLine(int t, int vertex_count, MeshTriangle* triangle) {
    if (!Scanning()) return false;
    LineScanner line(tk_.RawCursor(), tk_.RawEnd());
    std::int64_t index = 0;
    int corners[3];
    if (!line.Word("tri") || !line.Int(&index) || index != t ||
        !line.IntInRange(0, vertex_count - 1, &corners[0]) ||
        !line.IntInRange(0, vertex_count - 1, &corners[1]) ||
        !line.IntInRange(0, vertex_count - 1, &corners[2], true)) {
      return false;
    }
    for (int corner = 0; corner < 3; ++corner) {
      triangle->vertices[corner] = static_cast<std::uint32_t>(corners[corner]);
    }
    tk_.AdvanceTo(line.token(), line.position());
    return true;
  }

  bool ScanWeightLine(int w, int joint_count, MeshWeight* weight) {
    if (!Scanning()) return false;
    LineScanner line(tk_.RawCursor(), tk_.RawEnd());
    std::int64_t index = 0;
    if (!line.Word("weight") || !line.Int(&index) || index != w ||
        !line.IntInRange(0, joint_count - 1, &weight->joint) || !line.Float(&weight->bias) ||
        !line.Char('(') || !line.Float(&weight->position.x) || !line.Float(&weight->position.y) ||
        !line.Float(&weight->position.z) || !line.Char(')', true)) {
      return false;
    }
    tk_.AdvanceTo(line.token(), line.position());
    return true;
  }

  // "vert 3", "tri 3", "weight 3": the index must be the item's position.
  bool ReadItemIndex(const char* item, const char* what, int expected) {
    std::int64_t index = 0;
    if (!tk_.ReadInt(what, &index)) return false;
    if (index != expected) {
      return tk_.FailLast(std::string(item) + " index " + std::to_string(expected));
    }
    return true;
  }

  void AddWeightWarnings(const MeshFile& file, int mesh_index, std::vector<Diagnostic>* out) {
    const MeshPart& mesh = file.meshes[mesh_index];
    const std::string mesh_name =
        "mesh " + std::to_string(mesh_index) + " (shader " + Quote(mesh.shader) + ")";
    int unnormalized = 0;
    int worst_sum_vertex = -1;
    float worst_sum = 1.0f;
    int over_four = 0;
    int most_weights = 0;
    int worst_drop_vertex = -1;
    float worst_drop = 0.0f;
    int worst_error_vertex = -1;
    float worst_error = 0.0f;
    const int vertex_count = static_cast<int>(mesh.vertices.size());
    for (int v = 0; v < vertex_count; ++v) {
      const MeshVertex& vertex = mesh.vertices[v];
      float sum = 0.0f;
      for (int i = 0; i < vertex.weight_count; ++i)
        sum += mesh.weights[vertex.first_weight + i].bias;
      if (std::fabs(sum - 1.0f) > kWeightSumTolerance) {
        ++unnormalized;
        if (worst_sum_vertex < 0 || std::fabs(sum - 1.0f) > std::fabs(worst_sum - 1.0f)) {
          worst_sum = sum;
          worst_sum_vertex = v;
        }
      }
      if (vertex.weight_count > kMaxGpuInfluences) {
        ++over_four;
        if (vertex.weight_count > most_weights) most_weights = vertex.weight_count;
        const TopInfluences top = SelectTopInfluences(mesh, vertex);
        if (worst_drop_vertex < 0 || top.dropped_fraction > worst_drop) {
          worst_drop = top.dropped_fraction;
          worst_drop_vertex = v;
        }
        // Bind-pose distance between the full (normalized) weighted sum and the kept four.
        glm::vec3 full(0.0f);
        glm::vec3 kept(0.0f);
        for (int i = 0; i < vertex.weight_count; ++i) {
          const MeshWeight& w = mesh.weights[vertex.first_weight + i];
          const MeshJoint& joint = file.joints[w.joint];
          full += w.bias * (joint.position + joint.orientation * w.position);
        }
        if (sum != 0.0f) full /= sum;
        for (int i = 0; i < top.count; ++i) {
          const MeshWeight& w = mesh.weights[top.weights[i]];
          const MeshJoint& joint = file.joints[w.joint];
          kept += top.factors[i] * (joint.position + joint.orientation * w.position);
        }
        const float error = glm::length(full - kept);
        if (worst_error_vertex < 0 || error > worst_error) {
          worst_error = error;
          worst_error_vertex = v;
        }
      }
    }
    if (unnormalized > 0) {
      const SourceLocation at = weight_range_locations_[worst_sum_vertex];
      out->push_back(MakeWarning(
          file.file_name, at.line, at.column,
          mesh_name + ": " + std::to_string(unnormalized) + " of " + std::to_string(vertex_count) +
              " vertices have weights that do not sum to 1 (vert " +
              std::to_string(worst_sum_vertex) + " sums to " + FormatMessageNumber(worst_sum) +
              "); the viewer normalizes them, 'md5stage pose' uses the plain weighted sum "
              "unless --normalize"));
    }
    if (over_four > 0) {
      const SourceLocation at = weight_range_locations_[worst_drop_vertex];
      out->push_back(MakeWarning(
          file.file_name, at.line, at.column,
          mesh_name + ": " + std::to_string(over_four) + " of " + std::to_string(vertex_count) +
              " vertices have more than 4 weights (up to " + std::to_string(most_weights) +
              "); the GPU path keeps the 4 largest and renormalizes: worst dropped weight " +
              FormatMessageNumber(worst_drop) + " (vert " + std::to_string(worst_drop_vertex) +
              "), worst bind-pose vertex error " + FormatMessageNumber(worst_error) +
              " units (vert " + std::to_string(worst_error_vertex) + ")"));
    }
  }

  std::vector<SourceLocation> weight_range_locations_;  // of each vert's "first count" pair
  int total_vertices_ = 0;                              // of the meshes read so far
};

class AnimParser : public ParserBase {
 public:
  using ParserBase::ParserBase;

  Result<AnimFile> Parse(std::string_view file_name) {
    AnimFile file;
    file.file_name.assign(file_name);
    if (!ParseFile(&file)) return tk_.error();
    return file;
  }

 private:
  bool ParseFile(AnimFile* file) {
    if (!ParseVersionAndCommandLine(&file->version, &file->commandline)) return false;
    bool have_frames = false, have_joints = false, have_rate = false, have_components = false;
    SourceLocation frames_at;
    while (tk_.ok() && !(have_frames && have_joints && have_rate && have_components)) {
      if (!have_frames && tk_.PeekWord("numFrames")) {
        tk_.ExpectWord("numFrames");
        frames_at = tk_.NextLocation();
        have_frames = ReadCount("numFrames", 1, limits_.max_frames,
                                kMinBytesPerFrame + kMinBytesPerBounds, &file->frame_count);
      } else if (!have_joints && tk_.PeekWord("numJoints")) {
        tk_.ExpectWord("numJoints");
        file->joint_count_line = tk_.last_location().line;
        have_joints = ReadCount("numJoints", 1, limits_.max_joints,
                                kMinBytesPerHierarchy + kMinBytesPerBaseJoint, &file->joint_count);
      } else if (!have_rate && tk_.PeekWord("frameRate")) {
        tk_.ExpectWord("frameRate");
        have_rate = ReadFrameRate(tk_, limits_, &file->frame_rate);
      } else if (!have_components && tk_.PeekWord("numAnimatedComponents")) {
        tk_.ExpectWord("numAnimatedComponents");
        have_components = ReadCount("numAnimatedComponents", 0, limits_.max_animated_components,
                                    kMinBytesPerComponent, &file->animated_component_count);
      } else {
        tk_.Fail(!have_frames   ? "'numFrames'"
                 : !have_joints ? "'numJoints'"
                 : !have_rate   ? "'frameRate'"
                                : "'numAnimatedComponents'");
      }
    }
    if (!tk_.ok()) return false;
    // Each count was checked alone; together they must still fit in what is left.
    const std::uint64_t needed =
        static_cast<std::uint64_t>(file->frame_count) *
            (kMinBytesPerFrame + kMinBytesPerBounds +
             static_cast<std::uint64_t>(file->animated_component_count) * kMinBytesPerComponent) +
        static_cast<std::uint64_t>(file->joint_count) *
            (kMinBytesPerHierarchy + kMinBytesPerBaseJoint);
    if (needed > tk_.BytesLeft()) {
      return tk_.FailAt(frames_at, "expected numFrames " + std::to_string(file->frame_count) +
                                       " and numAnimatedComponents " +
                                       std::to_string(file->animated_component_count) +
                                       " that the file can hold (at least " +
                                       std::to_string(needed) + " bytes), found " +
                                       std::to_string(tk_.BytesLeft()) + " bytes left");
    }
    // The run-time animation holds a transform per joint per frame (see Md5Limits).
    const std::int64_t joint_frames =
        static_cast<std::int64_t>(file->joint_count) * file->frame_count;
    if (joint_frames > limits_.max_joint_frames) {
      return tk_.FailAt(
          frames_at,
          "expected numJoints x numFrames of at most " + std::to_string(limits_.max_joint_frames) +
              " (the loader's limit), found " + std::to_string(file->joint_count) + " x " +
              std::to_string(file->frame_count) + " = " + std::to_string(joint_frames));
    }
    if (!ParseHierarchy(file)) return false;
    file->warnings = std::move(warnings_);
    return ParseBounds(file) && ParseBaseframe(file) && ParseFrames(file) &&
           (tk_.AtEnd() ||
            tk_.Fail("end of file (numFrames is " + std::to_string(file->frame_count) + ")"));
  }

  bool ParseHierarchy(AnimFile* file) {
    if (!tk_.ExpectWord("hierarchy") || !tk_.ExpectChar('{')) return false;
    const int count = file->joint_count;
    file->hierarchy.resize(static_cast<std::size_t>(count));
    int root_index = -1;
    int root_line = 0;
    for (int i = 0; i < count; ++i) {
      AnimJoint& joint = file->hierarchy[i];
      if (!tk_.PeekChar('"')) {
        return tk_.Fail("joint " + std::to_string(i) + "'s quoted name (numJoints is " +
                        std::to_string(count) + ")");
      }
      std::string_view name;
      std::int64_t value = 0;
      tk_.ReadString(&name);
      joint.line = tk_.last_location().line;
      joint.name.assign(name);
      if (!tk_.ReadInt("a parent joint index", &value) ||
          !CheckParent(i, count, value, name, &root_index, &root_line,
                       root_index >= 0 ? file->hierarchy[root_index].name : std::string())) {
        return false;
      }
      joint.parent = static_cast<int>(value);
      if (joint.parent >= 0) joint.parent_name = file->hierarchy[joint.parent].name;
      if (!tk_.ReadInt("flags (an integer)", &value)) return false;
      if (value < 0 || value > 63) return tk_.FailLast("flags from 0 to 63");
      joint.flags = static_cast<int>(value);
      if (!tk_.ReadInt("a startIndex (an integer)", &value)) return false;
      const int used = PopCount6(joint.flags);
      const std::int64_t last_start =
          static_cast<std::int64_t>(file->animated_component_count) - used;
      if (value < 0 || value > last_start) {
        return tk_.FailLast("a startIndex from 0 to " + std::to_string(last_start) +
                            " (the joint's " + std::to_string(used) +
                            " animated components must fit in numAnimatedComponents " +
                            std::to_string(file->animated_component_count) + ")");
      }
      joint.start_index = static_cast<int>(value);
    }
    if (!tk_.PeekChar('}')) {
      return tk_.Fail("'}' (numJoints is " + std::to_string(count) + ")");
    }
    return tk_.ExpectChar('}');
  }

  bool ParseBounds(AnimFile* file) {
    if (!tk_.ExpectWord("bounds") || !tk_.ExpectChar('{')) return false;
    file->bounds.resize(static_cast<std::size_t>(file->frame_count));
    for (int f = 0; f < file->frame_count; ++f) {
      if (!tk_.PeekChar('(')) {
        return tk_.Fail("frame " + std::to_string(f) + "'s bounds '(' (numFrames is " +
                        std::to_string(file->frame_count) + ")");
      }
      if (!tk_.ReadFloatTuple("a number", 3, &file->bounds[f].min.x) ||
          !tk_.ReadFloatTuple("a number", 3, &file->bounds[f].max.x)) {
        return false;
      }
    }
    if (!tk_.PeekChar('}')) {
      return tk_.Fail("'}' closing bounds (numFrames is " + std::to_string(file->frame_count) +
                      ")");
    }
    return tk_.ExpectChar('}');
  }

  bool ParseBaseframe(AnimFile* file) {
    if (!tk_.ExpectWord("baseframe") || !tk_.ExpectChar('{')) return false;
    file->baseframe.resize(static_cast<std::size_t>(file->joint_count));
    for (int j = 0; j < file->joint_count; ++j) {
      if (!tk_.PeekChar('(')) {
        return tk_.Fail("joint " + std::to_string(j) + "'s baseframe '(' (numJoints is " +
                        std::to_string(file->joint_count) + ")");
      }
      if (!tk_.ReadFloatTuple("a number", 3, &file->baseframe[j].position.x) ||
          !tk_.ReadFloatTuple("a number", 3, &file->baseframe[j].orientation_xyz.x)) {
        return false;
      }
    }
    if (!tk_.PeekChar('}')) {
      return tk_.Fail("'}' closing baseframe (numJoints is " + std::to_string(file->joint_count) +
                      ")");
    }
    return tk_.ExpectChar('}');
  }

  // The fast path for frame values: reads up to `count` numbers separated by spaces or tabs on
  // the current line, as many as the checked ReadFloat would accept, and returns how many.
  int ScanFloatsOnLine(int count, float* out) {
    if (!Scanning()) return 0;
    LineScanner line(tk_.RawCursor(), tk_.RawEnd());
    int scanned = 0;
    const char* last_token = nullptr;
    const char* after_last = nullptr;
    while (scanned < count && line.Float(&out[scanned], true)) {
      ++scanned;
      last_token = line.token();
      after_last = line.position();
      if (!line.Blanks()) break;
    }
    if (scanned > 0) tk_.AdvanceTo(last_token, after_last);
    return scanned;
  }

  bool ParseFrames(AnimFile* file) {
    const int components = file->animated_component_count;
    file->frame_components.resize(static_cast<std::size_t>(file->frame_count) * components);
    const std::string what =
        "a frame component (numAnimatedComponents is " + std::to_string(components) + ")";
    const std::string closing =
        "'}' closing the frame (numAnimatedComponents is " + std::to_string(components) + ")";
    float* out = file->frame_components.data();
    for (int f = 0; f < file->frame_count; ++f) {
      if (!tk_.PeekWord("frame")) {
        return tk_.Fail("frame " + std::to_string(f) + " of " + std::to_string(file->frame_count) +
                        " (numFrames)");
      }
      tk_.ExpectWord("frame");
      std::int64_t index = 0;
      if (!tk_.ReadInt("a frame index", &index)) return false;
      if (index != f) return tk_.FailLast("frame index " + std::to_string(f));
      if (!tk_.ExpectChar('{')) return false;
      for (int c = 0; c < components;) {
        const int scanned = ScanFloatsOnLine(components - c, out);
        out += scanned;
        c += scanned;
        if (c == components) break;
        if (!tk_.ReadFloat(what.c_str(), out++)) return false;  // a new line, or what is wrong
        ++c;
      }
      if (!tk_.PeekChar('}')) return tk_.Fail(closing);
      tk_.ExpectChar('}');
    }
    return true;
  }
};

}  // namespace

glm::quat QuatFromXyz(const glm::vec3& xyz) {
  const float radicand = 1.0f - xyz.x * xyz.x - xyz.y * xyz.y - xyz.z * xyz.z;
  const float w = radicand < 0.0f ? 0.0f : -std::sqrt(radicand);
  glm::quat q(w, xyz.x, xyz.y, xyz.z);
  // A broken file's component of 1e31 would overflow the squares to infinity (and normalize to a
  // zero quaternion): bring the largest component to 1 first. Files within range are unaffected.
  const float largest = std::max({std::abs(q.x), std::abs(q.y), std::abs(q.z)});
  if (largest > 1.0f) {
    q.x /= largest;
    q.y /= largest;
    q.z /= largest;
  }
  const float length = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
  if (length > 0.0f) {
    q.x /= length;
    q.y /= length;
    q.z /= length;
    q.w /= length;
  }
  return q;
}

int MeshFile::vertex_count() const {
  int total = 0;
  for (const MeshPart& mesh : meshes) total += static_cast<int>(mesh.vertices.size());
  return total;
}

int MeshFile::triangle_count() const {
  int total = 0;
  for (const MeshPart& mesh : meshes) total += static_cast<int>(mesh.triangles.size());
  return total;
}

int MeshFile::weight_count() const {
  int total = 0;
  for (const MeshPart& mesh : meshes) total += static_cast<int>(mesh.weights.size());
  return total;
}

int MeshFile::max_weights_per_vertex() const {
  int most = 0;
  for (const MeshPart& mesh : meshes) {
    for (const MeshVertex& vertex : mesh.vertices) {
      if (vertex.weight_count > most) most = vertex.weight_count;
    }
  }
  return most;
}

float AnimFile::duration() const {
  return frame_count > 1 && frame_rate > 0.0f ? static_cast<float>(frame_count - 1) / frame_rate
                                              : 0.0f;
}

Md5Kind DetectMd5Kind(std::string_view file_name, std::string_view bytes) {
  auto ends_with = [&](std::string_view suffix) {
    if (file_name.size() < suffix.size()) return false;
    for (std::size_t i = 0; i < suffix.size(); ++i) {
      char c = file_name[file_name.size() - suffix.size() + i];
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
      if (c != suffix[i]) return false;
    }
    return true;
  };
  if (ends_with(".md5mesh")) return Md5Kind::kMesh;
  if (ends_with(".md5anim")) return Md5Kind::kAnim;
  // The counts come right after the version and command line.
  const std::string_view head = bytes.substr(0, 4096);
  const std::size_t meshes = head.find("numMeshes");
  const std::size_t frames = head.find("numFrames");
  if (meshes == std::string_view::npos && frames == std::string_view::npos) {
    return Md5Kind::kUnknown;
  }
  return meshes < frames ? Md5Kind::kMesh : Md5Kind::kAnim;
}

Result<MeshFile> ParseMd5Mesh(std::string_view file_name, std::string_view bytes,
                              const Md5Limits& limits) {
  if (bytes.size() > limits.max_file_bytes) return FileTooLarge(file_name, bytes.size(), limits);
  return MeshParser(file_name, bytes, limits).Parse(file_name);
}

Result<AnimFile> ParseMd5Anim(std::string_view file_name, std::string_view bytes,
                              const Md5Limits& limits) {
  if (bytes.size() > limits.max_file_bytes) return FileTooLarge(file_name, bytes.size(), limits);
  return AnimParser(file_name, bytes, limits).Parse(file_name);
}

}  // namespace md5stage::md5
