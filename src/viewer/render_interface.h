// What the viewer asks of a renderer: GPU resources behind typed handles (RenderBackend), and
// per frame a DrawList of skinned instances, coloured lines, filled ground shapes and screen text
// that a backend draws.
#pragma once

#include <cstddef>
#include <cstdint>
#include <glm/glm.hpp>
#include <memory>
#include <string>
#include <vector>

#include "core/anim/model.h"
#include "viewer/shading.h"

namespace md5stage::viewer {

// Handles are ids handed out by the backend; id 0 means none.
struct MeshHandle {
  uint32_t id = 0;
  bool valid() const { return id != 0; }
  friend bool operator==(MeshHandle a, MeshHandle b) { return a.id == b.id; }
  friend bool operator!=(MeshHandle a, MeshHandle b) { return a.id != b.id; }
};
struct TextureHandle {
  uint32_t id = 0;  // 0: none (a neutral material colour is used)
  bool valid() const { return id != 0; }
  friend bool operator==(TextureHandle a, TextureHandle b) { return a.id == b.id; }
  friend bool operator!=(TextureHandle a, TextureHandle b) { return a.id != b.id; }
};

// The textures one mesh part is drawn with, any of them none: no diffuse image (a neutral
// material colour), a flat normal, no specular. They belong to the view that draws the part, not
// to the shared mesh: two stages may show one model under two skins.
struct PartTextures {
  TextureHandle diffuse;
  TextureHandle normal;
  TextureHandle specular;
};

// One model's vertex data, as the core lays it out for GPU skinning (anim::GpuVertex is the
// vertex type of the core and of the renderer alike).
struct MeshUpload {
  struct Part {
    uint32_t first_index = 0;
    uint32_t index_count = 0;
  };
  const std::vector<anim::GpuVertex>* vertices = nullptr;
  const std::vector<uint32_t>* indices = nullptr;  // counter-clockwise front faces
  std::vector<Part> parts;
  int joint_count = 0;
  // The immutable model the arrays belong to: a backend that shares meshes between stages keeps
  // it alive while the mesh exists, so the arrays' address names that data and no other.
  std::shared_ptr<const void> owner;
};

class RenderBackend {
 public:
  virtual ~RenderBackend() = default;
  virtual MeshHandle CreateMesh(const MeshUpload& upload) = 0;
  virtual void DestroyMesh(MeshHandle mesh) = 0;
  virtual TextureHandle CreateTexture(int width, int height, const uint8_t* rgba) = 0;
  virtual void DestroyTexture(TextureHandle texture) = 0;
  // The skinned positions and tangents (xyz as the shader skins them, not renormalized; w the
  // bitangent sign; tangents may be null) of one instance as the GPU computes them (upload
  // order); false when the backend cannot read them back.
  virtual bool CaptureSkinnedPositions(MeshHandle mesh, const glm::mat4* palette,
                                       std::vector<glm::vec3>* positions,
                                       std::vector<glm::vec4>* tangents) = 0;
  // GPU bytes of shared (per-model) data, and of per-instance data in the last frame drawn.
  virtual size_t shared_bytes() const = 0;
  virtual size_t instance_bytes() const = 0;
};

struct Rgba8 {
  uint8_t r, g, b, a;
};

struct LineVertex {
  glm::vec3 position;
  Rgba8 color;
};

// Lines are depth-tested against the models, or drawn on top of everything (overlays).
enum class LineDepth { kTested, kOnTop };

// Line drawings the renderer keeps on the GPU and draws placed and tinted, every view's in one
// call: the ground grid (GroundGridLines, in units of its spacing), circles (UnitCircleLines),
// arcs of a circle (UnitArcLines) and straight segments (UnitSegmentLines), the last two for the
// paths characters walk. A figure's grid, turning circles and paths were most of its line
// vertices a frame; as shapes, each is one instance.
enum class LineShape : uint8_t { kGroundGrid, kCircle, kArc, kSegment };
constexpr int kLineShapes = 4;
struct ShapeInstance {
  LineShape shape = LineShape::kCircle;
  glm::vec3 centre{0.0f};           // of the grid, circle and arc; where a segment starts
  float scale = 1.0f;               // the grid's spacing, the circle's and the arc's radius
  Rgba8 color{255, 255, 255, 255};  // times the shape's own colours
  LineDepth depth = LineDepth::kOnTop;
  // An arc: x where it starts, y its sweep (radians, counter-clockwise from +x; negative turns
  // clockwise). A segment: where it ends minus where it starts. Others: unused.
  glm::vec3 span{0.0f};
};
constexpr int kGroundGridLines = 50;  // lines each side of an axis, one spacing apart
constexpr int kCircleSegments = 72;   // pieces of a circle, and of an arc of any sweep

// The shapes' own lines, as pairs of vertices: the grid of spacing 1 on z = 0 (minor lines every
// 1, major every 10, the X (red) and Y (green) axes and a short Z (blue) axis at the origin),
// the white unit circle round the origin on z = 0, and for arcs and segments white pieces along
// x from 0 to 1 (kCircleSegments of them, and one): x is how far along the shape a vertex is.
void GroundGridLines(std::vector<LineVertex>* lines);
void UnitCircleLines(std::vector<LineVertex>* lines);
void UnitArcLines(std::vector<LineVertex>* lines);
void UnitSegmentLines(std::vector<LineVertex>* lines);

// model-viewer's shadow-intensity: a soft contact shadow under a character, as triangles for
// DrawList::triangles: a black disc of `radius` round `centre` (on the ground, z = 0), its alpha
// `intensity` x kContactShadowAlpha at the centre falling smoothly to 0 at the rim. It lies just
// under the ground so the grid's lines stay over it. Nothing for intensity <= 0 or radius <= 0.
constexpr int kContactShadowSegments = 24;
constexpr float kContactShadowAlpha = 0.75f;  // darkest, at intensity 1
// z, below the grid (z = 0): far enough that a figure's camera far away (its depth buffer's step
// there about 0.06 at distance 1,000) does not round the two together, which cut the grid's
// lines over the shadow into bands.
constexpr float kContactShadowDepth = -0.5f;
void AppendContactShadow(glm::vec2 centre, float radius, float intensity,
                         std::vector<LineVertex>* triangles);

// Where the renderer draws the vertex `local` of the shape's own lines: the line renderer's vertex
// shader does the same, this is its twin for tests and for code that needs the points.
glm::vec3 PlaceShapeVertex(const ShapeInstance& shape, const glm::vec3& local);

// A path's arc (centre, radius, start angle, sweep) or straight segment, as a shape.
ShapeInstance ArcShape(const glm::vec3& centre, float radius, float start_angle, float sweep,
                       Rgba8 color, LineDepth depth);
ShapeInstance SegmentShape(const glm::vec3& from, const glm::vec3& to, Rgba8 color,
                           LineDepth depth);

// Where a world point shows, in framebuffer pixels (y down) of a width x height view: the one
// projection of picking, overlays and the page's screenAt/screenBounds. False behind the camera.
bool WorldToPixel(const glm::mat4& view_projection, int width, int height, const glm::vec3& world,
                  glm::dvec2* pixel);

struct DrawList {
  struct Instance {
    MeshHandle mesh;
    const glm::mat4* palette = nullptr;      // joint_count matrices; valid until the next update
    const PartTextures* textures = nullptr;  // one per mesh part (null: none); as the palette
  };
  struct Text {
    glm::vec2 position;  // framebuffer pixels
    Rgba8 color;
    std::string text;
  };

  glm::mat4 view_projection{1.0f};
  int width = 0;  // framebuffer pixels
  int height = 0;
  bool wireframe = false;
  ShadingOptions shading;  // the key light and the shading switches for the models
  std::vector<Instance> instances;
  std::vector<LineVertex> lines_tested;  // pairs of vertices
  std::vector<LineVertex> lines_on_top;
  // Filled shapes on the ground (obstacles): triples of vertices, depth-tested and writing depth,
  // drawn blended before the lines.
  std::vector<LineVertex> triangles;
  std::vector<ShapeInstance> shapes;  // drawn before the lines of the same depth
  std::vector<Text> texts;

  // Empties the lists and keeps their memory, so a steady scene allocates nothing per frame.
  void Clear() {
    instances.clear();
    lines_tested.clear();
    lines_on_top.clear();
    triangles.clear();
    shapes.clear();
    texts.clear();
  }
  void AddLine(const glm::vec3& a, const glm::vec3& b, Rgba8 color,
               LineDepth depth = LineDepth::kTested) {
    std::vector<LineVertex>& lines = depth == LineDepth::kOnTop ? lines_on_top : lines_tested;
    lines.push_back({a, color});
    lines.push_back({b, color});
  }
  void AddTriangle(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c, Rgba8 color) {
    triangles.push_back({a, color});
    triangles.push_back({b, color});
    triangles.push_back({c, color});
  }
  void AddCircle(const glm::vec3& centre, float radius, Rgba8 color,
                 LineDepth depth = LineDepth::kOnTop) {
    shapes.push_back({LineShape::kCircle, centre, radius, color, depth});
  }
  // The plain lines; shapes not counted.
  size_t line_count() const { return (lines_tested.size() + lines_on_top.size()) / 2; }
};

// The ground grid (GroundGridLines) with lines `spacing` apart.
void AddGroundGrid(DrawList& list, float spacing);

// A backend that draws nothing: hands out handles and counts what it was given (tests, the
// headless smoke run, the command-line tools).
class NullRenderBackend : public RenderBackend {
 public:
  MeshHandle CreateMesh(const MeshUpload& upload) override;
  void DestroyMesh(MeshHandle mesh) override;
  TextureHandle CreateTexture(int width, int height, const uint8_t* rgba) override;
  void DestroyTexture(TextureHandle texture) override;
  bool CaptureSkinnedPositions(MeshHandle, const glm::mat4*, std::vector<glm::vec3>*,
                               std::vector<glm::vec4>*) override {
    return false;
  }
  size_t shared_bytes() const override { return shared_bytes_; }
  size_t instance_bytes() const override { return 0; }

  int live_meshes() const { return live_meshes_; }
  int live_textures() const { return live_textures_; }
  // Destroying a handle that is not alive (twice, or never made) is a caller bug; counted here.
  int bad_destroys() const { return bad_destroys_; }

 private:
  std::vector<bool> meshes_;  // by id - 1: alive
  std::vector<bool> textures_;
  std::vector<size_t> mesh_bytes_;
  int live_meshes_ = 0;
  int live_textures_ = 0;
  int bad_destroys_ = 0;
  size_t shared_bytes_ = 0;
};

}  // namespace md5stage::viewer
