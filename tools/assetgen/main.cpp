// md5stage_assetgen: writes the project's own models, animations, textures and demo scenes.
#include <cstdio>
#include <map>
#include <tuple>

#include "png_writer.h"
#include "preview.h"
#include "surface_nets.h"
#include "textures.h"
#include "walker_body.h"
#include "walker_rig.h"

using namespace md5stage::assetgen;

int main(int argc, char** argv) {
  Skeleton skeleton = BuildWalkerSkeleton();
  WalkerMeshStats stats;
  SkinMesh mesh = BuildWalkerMesh(&stats);
  std::printf("verts %zu (surface %d) tris %zu maxinf %d\n", mesh.vertices.size(),
              stats.surface_vertices, mesh.triangles.size(), stats.max_influences);
  {
    std::map<std::tuple<double, double, double>, int> ids;
    std::vector<int> weld;
    for (auto& v : mesh.vertices) {
      auto key = std::make_tuple(v.position.x, v.position.y, v.position.z);
      auto it = ids.emplace(key, (int)ids.size()).first;
      weld.push_back(it->second);
    }
    std::map<std::pair<int, int>, int> directed;
    for (auto& t : mesh.triangles)
      for (int e = 0; e < 3; ++e) directed[{weld[t[e]], weld[t[(e + 1) % 3]]}]++;
    int bad = 0, boundary = 0;
    for (auto& [edge, count] : directed) {
      if (count != 1) {
        ++bad;
        for (auto& v : mesh.vertices)
          if (weld[&v - &mesh.vertices[0]] == edge.first) {
            std::printf("  bad edge at %.2f %.2f %.2f\n", v.position.x, v.position.y, v.position.z);
            break;
          }
      }
      if (!directed.count({edge.second, edge.first})) ++boundary;
    }
    auto parts = WalkerPrimitives();
    int flipped = 0;
    for (auto& t : mesh.triangles) {
      Vec3 a = mesh.vertices[t[0]].position, b = mesh.vertices[t[1]].position,
           c = mesh.vertices[t[2]].position;
      Vec3 n = glm::cross(b - a, c - a);
      Vec3 m = (a + b + c) / 3.0;
      Vec3 g;
      for (int k = 0; k < 3; ++k) {
        Vec3 p = m, q = m;
        p[k] += 1e-4;
        q[k] -= 1e-4;
        g[k] = UnionDistance(parts, p) - UnionDistance(parts, q);
      }
      Vec3 gv(0.0);
      for (int k = 0; k < 3; ++k)
        gv += SurfaceNormal([&](const Vec3& q) { return UnionDistance(parts, q); },
                            mesh.vertices[t[k]].position);
      if (glm::dot(n, gv) <= 0.3 * glm::length(n) * glm::length(gv)) {
        std::printf("  vertex-normal disagreement %.2f %.2f %.2f: %.3f\n", m.x, m.y, m.z,
                    glm::dot(glm::normalize(n), glm::normalize(gv)));
      }
      if (glm::dot(n, g) <= 0) {
        ++flipped;
        std::printf("  flipped at %.2f %.2f %.2f area %.4f\n", m.x, m.y, m.z, glm::length(n));
      }
    }
    std::printf("welded %zu, nonmanifold directed edges %d, boundary %d, flipped %d\n", ids.size(),
                bad, boundary, flipped);
  }
  Image canvas(1200, 600, 3);
  Image texture = PaintWalkerTexture();
  PreviewItem item{&mesh, &texture, {}};
  for (auto& v : mesh.vertices) item.positions.push_back(v.position);
  double yaws[4] = {0, 90, 30, 200};
  for (int i = 0; i < 4; ++i) {
    PreviewView view;
    view.target = Vec3(0, 0, 35);
    view.yaw_degrees = yaws[i];
    view.pitch_degrees = 10;
    RenderPreview(canvas, i * 300, 0, 300, 600, {item}, view);
  }
  std::string png = EncodePng(canvas);
  FILE* f = std::fopen(argc > 1 ? argv[1] : "/tmp/bind.png", "wb");
  std::fwrite(png.data(), 1, png.size(), f);
  std::fclose(f);
  png = EncodePng(texture);
  f = std::fopen("/tmp/walker_tex.png", "wb");
  std::fwrite(png.data(), 1, png.size(), f);
  std::fclose(f);
  return 0;
}
