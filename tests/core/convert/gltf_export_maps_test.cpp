// BuildExportMaps (core/convert/gltf_export_maps.h): its validity table; PNG and JPEG maps kept
// byte for byte, TGA maps and image programs made PNG with the same pixels, normal maps with green
// inverted, built-in and undecodable maps left out (the latter with a located warning), shared
// maps embedded once; and on the walker, glTF's normal-mapped normal (TANGENT, cross(N, T) x w,
// the embedded map) equals the viewer's Doom 3 one at every vertex.
#include "core/convert/gltf_export_maps.h"

#include <gtest/gtest.h>
#include <tiny_gltf.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <glm/geometric.hpp>
#include <memory>
#include <string>
#include <vector>

#include "../../shared_data.h"
#include "../../tga_writer.h"
#include "core/anim/model.h"
#include "core/material/image_decode.h"
#include "core/material/image_program.h"
#include "core/material/material_parser.h"
#include "core/material/png_encode.h"
#include "core/md5/file_reader.h"
#include "core/md5/md5_parser.h"
#include "tinygltf_reading.h"

namespace md5stage::convert {
namespace {

using material::RgbaImage;

const std::string kJpegBytes("\xFF\xD8\xFF\xE0\0\x10JFIF", 10);

RgbaImage Picture(int width, int height, int seed) {
  RgbaImage image;
  image.width = width;
  image.height = height;
  for (int i = 0; i < width * height; ++i) {
    image.rgba.insert(image.rgba.end(),
                      {static_cast<uint8_t>(seed + i * 11), static_cast<uint8_t>(seed * 3 + i * 29),
                       static_cast<uint8_t>(200 - i), 255});
  }
  return image;
}

std::string Png(const RgbaImage& image) { return material::EncodePng("test", image).value(); }

RgbaImage Decoded(const std::string& bytes) {
  auto image = material::DecodeImage("embedded", bytes);
  EXPECT_TRUE(image.ok()) << image.error().ToString();
  return image.ok() ? image.value() : RgbaImage{};
}

// Decls and image files as a dropped folder gives them, resolved for the shaders given.
struct Scene {
  Scene(const std::string& decls, std::vector<std::pair<std::string, std::string>> image_files,
        const std::vector<std::string>& shaders)
      : files(std::move(image_files)) {
    auto parsed = material::ParseDeclFile("materials/m.mtr", decls);
    EXPECT_TRUE(parsed.ok()) << parsed.error().ToString();
    decl = std::make_unique<material::DeclFile>(std::move(parsed).value());
    table = std::make_unique<material::MaterialTable>(
        std::vector<const material::DeclFile*>{decl.get()});
    std::vector<std::string> paths;
    for (const auto& file : files) paths.push_back(file.first);
    images = material::ImageIndex(paths);
    material::ResolveInput input;
    input.shaders = shaders;
    input.model_name = "model";
    input.materials = table.get();
    input.images = &images;
    auto resolved = material::ResolveMaterials(input);
    EXPECT_TRUE(resolved.ok());
    resolution = std::move(resolved).value();
    for (const auto& file : files) sources.push_back({file.first, &file.second});
  }
  Result<ExportMaps> Build() const {
    ExportMapsInput input;
    input.resolution = &resolution;
    input.files = sources;
    return BuildExportMaps(input);
  }
  std::vector<std::pair<std::string, std::string>> files;
  std::unique_ptr<material::DeclFile> decl;
  std::unique_ptr<material::MaterialTable> table;
  material::ImageIndex images;
  material::ResolveOutput resolution;
  std::vector<SourceImageFile> sources;
};

TEST(BuildExportMaps, ValidityTable) {
  const Scene scene("m\n{\n\tdiffusemap a.png\n}\n", {{"a.png", Png(Picture(2, 2, 1))}}, {"m"});
  ASSERT_EQ(scene.resolution.parts[0].map(material::MapKind::kDiffuse).images[0].file, 0);
  const std::vector<SourceImageFile> no_bytes{{"a.png", nullptr}};
  const std::vector<SourceImageFile> none;
  struct Row {
    const char* name;
    std::function<void(ExportMapsInput&)> spoil;
    const char* expected;
  };
  const Row rows[] = {
      {"no resolution", [](ExportMapsInput& in) { in.resolution = nullptr; },
       "resolution: expected the parts' maps"},
      {"look-up past the files", [&](ExportMapsInput& in) { in.files = none; },
       "resolution.parts[0]: image 'a.png' is file 0, expected an index below 0"},
      {"named file without bytes", [&](ExportMapsInput& in) { in.files = no_bytes; },
       "files[0] (a.png).bytes: expected the file's bytes, found none"},
  };
  for (const Row& row : rows) {
    ExportMapsInput input;
    input.resolution = &scene.resolution;
    input.files = scene.sources;
    ASSERT_TRUE(input.Validate().ok());
    row.spoil(input);
    const Status valid = input.Validate();
    ASSERT_FALSE(valid.ok()) << row.name;
    EXPECT_NE(valid.error().message.find(row.expected), std::string::npos)
        << row.name << ": " << valid.error().message;
    EXPECT_FALSE(BuildExportMaps(input).ok()) << row.name;
  }
  // A file nobody names may come without bytes.
  const std::vector<SourceImageFile> extra{scene.sources[0], {"unused.tga", nullptr}};
  ExportMapsInput input;
  input.resolution = &scene.resolution;
  input.files = extra;
  EXPECT_TRUE(input.Validate().ok());
}

TEST(BuildExportMaps, PngAndJpegKeptAsTheyAreTgaAndNormalMapsMadePng) {
  const RgbaImage diffuse = Picture(4, 2, 10), normal = Picture(4, 2, 60), spec = Picture(2, 2, 3);
  const Scene scene(
      "m\n{\n\tdiffusemap d.tga\n\tbumpmap n.png\n\tspecularmap s.png\n}\n"
      "j\n{\n\tdiffusemap j.jpg\n}\n",
      {{"d.tga", testing::WriteTga(4, 2, diffuse.rgba, {32, true, false})},
       {"n.png", Png(normal)},
       {"s.png", Png(spec)},
       {"j.jpg", kJpegBytes}},
      {"m", "j"});
  auto maps = scene.Build();
  ASSERT_TRUE(maps.ok()) << maps.error().ToString();
  EXPECT_TRUE(maps.value().warnings.empty());
  ASSERT_EQ(maps.value().parts.size(), 2u);
  const ExportPartMaps m = maps.value().parts[0], j = maps.value().parts[1];
  const std::vector<ExportImage>& images = maps.value().images;
  ASSERT_EQ(images.size(), 4u);
  // The TGA diffuse: a PNG of its pixels, named after it.
  EXPECT_EQ(images[m.diffuse].name, "d.png");
  EXPECT_EQ(images[m.diffuse].mime_type, "image/png");
  EXPECT_EQ(Decoded(*images[m.diffuse].bytes).rgba, diffuse.rgba);
  // The normal map: re-encoded with green inverted, even though it is a PNG.
  RgbaImage inverted = normal;
  material::InvertGreen(&inverted);
  EXPECT_EQ(images[m.normal].name, "n.png");
  EXPECT_EQ(Decoded(*images[m.normal].bytes).rgba, inverted.rgba);
  EXPECT_NE(*images[m.normal].bytes, scene.files[1].second);
  // PNG specular and JPEG diffuse: the files' own bytes.
  EXPECT_EQ(*images[m.specular].bytes, scene.files[2].second);
  EXPECT_EQ(images[j.diffuse].mime_type, "image/jpeg");
  EXPECT_EQ(*images[j.diffuse].bytes, kJpegBytes);
  EXPECT_EQ(images[j.diffuse].name, "j.jpg");
  EXPECT_EQ(j.normal, -1);
  EXPECT_EQ(j.specular, -1);
}

TEST(BuildExportMaps, ImageProgramsAreEvaluatedAsTheViewerDoes) {
  const RgbaImage height = Picture(4, 4, 5);
  const Scene scene("m\n{\n\tbumpmap heightmap(h.tga, 4)\n}\n",
                    {{"h.tga", testing::WriteTga(4, 4, height.rgba, {24, false, false})}}, {"m"});
  auto maps = scene.Build();
  ASSERT_TRUE(maps.ok()) << maps.error().ToString();
  ASSERT_EQ(maps.value().parts.size(), 1u);
  RgbaImage expected = height;
  material::HeightmapToNormalJob job;
  job.height = &height;
  job.scale = 4.0f;
  job.output = &expected;
  ASSERT_TRUE(job.Validate().ok());
  job.Run();
  material::InvertGreen(&expected);
  const ExportImage& image = maps.value().images[maps.value().parts[0].normal];
  EXPECT_EQ(image.name, "h.png");
  EXPECT_EQ(Decoded(*image.bytes).rgba, expected.rgba);
}

TEST(BuildExportMaps, SharedMapsOnceBuiltinAndMissingNoneUndecodableWarned) {
  const Scene scene(
      "a\n{\n\tdiffusemap d.png\n\tbumpmap _flat\n\tspecularmap gone.tga\n}\n"
      "b\n{\n\tdiffusemap d.png\n\tbumpmap bad.tga\n}\n",
      {{"d.png", Png(Picture(2, 2, 9))}, {"bad.tga", std::string(18, '\0') + "not pixels"}},
      {"a", "b", "a"});
  auto maps = scene.Build();
  ASSERT_TRUE(maps.ok()) << maps.error().ToString();
  ASSERT_EQ(maps.value().parts.size(), 3u);
  ASSERT_EQ(maps.value().images.size(), 1u);  // d.png, once for three parts
  for (const ExportPartMaps& part : maps.value().parts) EXPECT_EQ(part.diffuse, 0);
  EXPECT_EQ(maps.value().parts[0].normal, -1);    // _flat: the vertex normal
  EXPECT_EQ(maps.value().parts[0].specular, -1);  // gone.tga is not there
  EXPECT_EQ(maps.value().parts[1].normal, -1);
  ASSERT_EQ(maps.value().warnings.size(), 1u);  // bad.tga; the missing gone.tga is resolve's
  const std::string warning = maps.value().warnings[0].ToString();
  EXPECT_NE(warning.find("materials/m.mtr:10:"), std::string::npos) << warning;
  EXPECT_NE(warning.find("warning: mesh 1 (b): the normal map is not embedded: bad.tga"),
            std::string::npos)
      << warning;
}

TEST(BuildExportMaps, DdsDiffuseFromDarkRadiantBecomesAPngOfItsPixels) {
  const std::string path = std::string(MD5STAGE_SHARED_DIR) +
                           "/md5/darkradiant_decls/textures/dds/test_128x128_dxt1.dds";
  auto bytes = md5::ReadFileBytes(path);
  MD5STAGE_SKIP_WITHOUT_SHARED(bytes.ok());
  const Scene scene("m\n{\n\tdiffusemap textures/dds/test_128x128_dxt1\n}\n",
                    {{"textures/dds/test_128x128_dxt1.dds", bytes.value()}}, {"m"});
  auto maps = scene.Build();
  ASSERT_TRUE(maps.ok());
  ASSERT_EQ(maps.value().parts.size(), 1u);
  const ExportImage& image = maps.value().images[maps.value().parts[0].diffuse];
  EXPECT_EQ(image.name, "test_128x128_dxt1.png");
  EXPECT_EQ(image.mime_type, "image/png");
  EXPECT_EQ(Decoded(*image.bytes).rgba, Decoded(bytes.value()).rgba);
}

TEST(BuildExportMaps, NoMapsGiveNoParts) {
  const Scene scene("", {}, {"a", "b"});
  auto maps = scene.Build();
  ASSERT_TRUE(maps.ok());
  EXPECT_TRUE(maps.value().parts.empty());
  EXPECT_TRUE(maps.value().images.empty());
}

// ---- the walker: glTF's normal-mapped normals are the viewer's ------------------------------

glm::dvec3 Texel(const RgbaImage& image, float u, float v) {
  const auto wrap = [](float t, int n) {
    const int i = static_cast<int>(std::floor((t - std::floor(t)) * static_cast<float>(n)));
    return std::min(std::max(i, 0), n - 1);
  };
  const size_t at =
      (static_cast<size_t>(wrap(v, image.height)) * image.width + wrap(u, image.width)) * 4;
  return glm::dvec3(image.rgba[at], image.rgba[at + 1], image.rgba[at + 2]) * (2.0 / 255.0) -
         glm::dvec3(1.0);
}

double Angle(const glm::dvec3& a, const glm::dvec3& b) {
  return std::acos(std::min(1.0, std::max(-1.0, glm::dot(glm::normalize(a), glm::normalize(b)))));
}

TEST(BuildExportMaps, WalkerNormalMappedNormalsInGltfEqualTheViewersAtEveryVertex) {
  const std::string dir = std::string(MD5STAGE_SOURCE_DIR) + "/assets/models/walker/";
  auto mesh_text = md5::ReadFileBytes(dir + "walker.md5mesh");
  ASSERT_TRUE(mesh_text.ok());
  auto mesh = md5::ParseMd5Mesh("walker.md5mesh", mesh_text.value());
  ASSERT_TRUE(mesh.ok());
  const auto model =
      anim::Model::Create(std::make_shared<const md5::MeshFile>(std::move(mesh).value()));
  std::vector<std::pair<std::string, std::string>> files;
  for (const char* name : {"walker.png", "walker_local.png", "walker_s.png"}) {
    files.emplace_back(std::string("models/walker/") + name,
                       md5::ReadFileBytes(dir + name).value());
  }
  const Scene scene(md5::ReadFileBytes(dir + "walker.mtr").value(), files, {model->mesh(0).shader});
  auto maps = scene.Build();
  ASSERT_TRUE(maps.ok());
  ASSERT_EQ(maps.value().parts.size(), 1u);
  GltfFiles out;
  GltfExportJob job;
  job.model = model.get();
  job.images = maps.value().images;
  job.part_maps = maps.value().parts;
  job.output = &out;
  ASSERT_TRUE(job.Run().ok());

  const tinygltf::Model gltf = test::ReadGlb(out.main);  // not the exporter's code
  const tinygltf::Primitive& primitive = gltf.meshes[0].primitives[0];
  const std::vector<float> normals = test::Read<float>(gltf, primitive.attributes.at("NORMAL"));
  const std::vector<float> tangents = test::Read<float>(gltf, primitive.attributes.at("TANGENT"));
  const std::vector<float> uvs = test::Read<float>(gltf, primitive.attributes.at("TEXCOORD_0"));
  const tinygltf::Image& image = gltf.images[static_cast<size_t>(
      gltf.textures[static_cast<size_t>(gltf.materials[0].normalTexture.index)].source)];
  const tinygltf::BufferView& view = gltf.bufferViews[static_cast<size_t>(image.bufferView)];
  const RgbaImage embedded = Decoded(
      std::string(reinterpret_cast<const char*>(gltf.buffers[0].data.data() + view.byteOffset),
                  view.byteLength));
  const RgbaImage source = Decoded(files[1].second);
  ASSERT_EQ(embedded.width, source.width);

  const anim::GpuSkinData& gpu = model->gpu();
  const auto to_y_up = [](const glm::vec3& p) { return glm::dvec3(p.x, p.z, -p.y); };
  double worst = 0.0, worst_unconverted = 0.0;
  const size_t count = gpu.submeshes[0].vertex_count;
  ASSERT_EQ(normals.size(), count * 3);
  for (size_t v = 0; v < count; ++v) {
    const anim::GpuVertex& vertex = gpu.vertices[gpu.submeshes[0].first_vertex + v];
    // The viewer's fragment shader (render/skinned_mesh_renderer.cpp), in glTF's axes.
    const glm::dvec3 n = glm::normalize(to_y_up(vertex.normal));
    glm::dvec3 t = to_y_up(glm::vec3(vertex.tangent));
    t = glm::normalize(t - n * glm::dot(n, t));
    const glm::dvec3 b = glm::cross(n, t) * (vertex.tangent.w < 0.0f ? -1.0 : 1.0);
    const glm::dvec3 m = Texel(source, vertex.uv.x, vertex.uv.y);
    const glm::dvec3 doom = t * m.x + b * m.y + n * m.z;
    // glTF 2.0: bitangent = cross(normal, tangent.xyz) x tangent.w, the map from TEXCOORD_0.
    const glm::dvec3 gn(normals[v * 3], normals[v * 3 + 1], normals[v * 3 + 2]);
    const glm::dvec3 gt(tangents[v * 4], tangents[v * 4 + 1], tangents[v * 4 + 2]);
    const glm::dvec3 gb = glm::cross(gn, gt) * static_cast<double>(tangents[v * 4 + 3]);
    const glm::dvec3 gm = Texel(embedded, uvs[v * 2], uvs[v * 2 + 1]);
    worst = std::max(worst, Angle(doom, gt * gm.x + gb * gm.y + gn * gm.z));
    // The control: the map as it was, in glTF's frame.
    worst_unconverted = std::max(worst_unconverted, Angle(doom, gt * m.x + gb * m.y + gn * m.z));
  }
  std::printf(
      "[ measured ] walker, %zu vertices: glTF vs viewer normal %.3g rad at worst; "
      "without the green inversion %.3g rad\n",
      count, worst, worst_unconverted);
  EXPECT_LT(worst, 1e-4) << "radians, over " << count << " vertices";
  EXPECT_GT(worst_unconverted, 0.05) << "the walker's map should tell the conventions apart";
}

}  // namespace
}  // namespace md5stage::convert
