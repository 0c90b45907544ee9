#include "preview.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

namespace md5stage::assetgen {
namespace {

struct Camera {
  Vec3 target, right, up, forward;  // forward points from the camera into the scene
  double scale;                     // pixels per unit
  double cx, cy;
};

Vec3 ToScreen(const Camera& camera, const Vec3& p) {
  Vec3 d = p - camera.target;
  return Vec3(camera.cx + glm::dot(d, camera.right) * camera.scale,
              camera.cy - glm::dot(d, camera.up) * camera.scale, glm::dot(d, camera.forward));
}

struct Target {
  Image* canvas;
  int x0, y0, width, height;
  std::vector<double> depth;
};

// Fills one triangle; `shade` gives the colour from barycentric weights.
template <typename Shade>
void Fill(Target& target, const Vec3& a, const Vec3& b, const Vec3& c, Shade shade) {
  double area = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
  if (std::abs(area) < 1e-12) return;
  int min_x = std::max(0, static_cast<int>(std::floor(std::min({a.x, b.x, c.x}))));
  int max_x = std::min(target.width - 1, static_cast<int>(std::ceil(std::max({a.x, b.x, c.x}))));
  int min_y = std::max(0, static_cast<int>(std::floor(std::min({a.y, b.y, c.y}))));
  int max_y = std::min(target.height - 1, static_cast<int>(std::ceil(std::max({a.y, b.y, c.y}))));
  for (int y = min_y; y <= max_y; ++y) {
    for (int x = min_x; x <= max_x; ++x) {
      double px = x + 0.5, py = y + 0.5;
      double w0 = ((b.x - px) * (c.y - py) - (b.y - py) * (c.x - px)) / area;
      double w1 = ((c.x - px) * (a.y - py) - (c.y - py) * (a.x - px)) / area;
      double w2 = 1.0 - w0 - w1;
      if (w0 < 0 || w1 < 0 || w2 < 0) continue;
      double z = w0 * a.z + w1 * b.z + w2 * c.z;
      double& stored = target.depth[size_t(y) * target.width + x];
      if (z >= stored) continue;
      stored = z;
      Vec3 colour = glm::clamp(shade(w0, w1, w2), Vec3(0.0), Vec3(1.0));
      std::uint8_t* pixel = target.canvas->At(target.x0 + x, target.y0 + y);
      for (int k = 0; k < 3; ++k) pixel[k] = static_cast<std::uint8_t>(colour[k] * 255.0 + 0.5);
    }
  }
}

Vec3 SampleTexture(const Image* texture, double u, double v) {
  if (!texture) return Vec3(0.8);
  int x = std::clamp(static_cast<int>(u * texture->width), 0, texture->width - 1);
  int y = std::clamp(static_cast<int>(v * texture->height), 0, texture->height - 1);
  const std::uint8_t* p = texture->At(x, y);
  return Vec3(p[0], p[1], p[2]) / 255.0;
}

}  // namespace

void RenderPreview(Image& canvas, int x0, int y0, int width, int height,
                   const std::vector<PreviewItem>& items, const PreviewView& view) {
  Camera camera;
  double yaw = Radians(view.yaw_degrees), pitch = Radians(view.pitch_degrees);
  Vec3 eye_direction(std::cos(pitch) * std::cos(yaw), std::cos(pitch) * std::sin(yaw),
                     std::sin(pitch));
  camera.target = view.target;
  camera.forward = -eye_direction;
  camera.right = glm::normalize(glm::cross(camera.forward, Vec3(0, 0, 1)));
  camera.up = glm::cross(camera.right, camera.forward);
  camera.scale = height * 0.5 / view.half_height;
  camera.cx = width * 0.5;
  camera.cy = height * 0.5;
  Target target{
      &canvas, x0,
      y0,      width,
      height,  std::vector<double>(size_t(width) * height, std::numeric_limits<double>::max())};
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      std::uint8_t* p = canvas.At(x0 + x, y0 + y);
      double t = double(y) / height;
      p[0] = static_cast<std::uint8_t>(200 - 40 * t);
      p[1] = static_cast<std::uint8_t>(210 - 40 * t);
      p[2] = static_cast<std::uint8_t>(225 - 40 * t);
    }
  }
  const Vec3 light = glm::normalize(eye_direction + Vec3(0.3, 0.2, 0.8));
  if (view.ground) {
    double extent = view.half_height * 4.0;
    double step = 10.0;
    Vec3 centre(std::floor(view.target.x / step) * step, std::floor(view.target.y / step) * step,
                0);
    for (double gx = -extent; gx < extent; gx += step) {
      for (double gy = -extent; gy < extent; gy += step) {
        Vec3 corner = centre + Vec3(gx, gy, 0);
        bool dark = (static_cast<long>(std::floor(corner.x / step)) +
                     static_cast<long>(std::floor(corner.y / step))) &
                    1;
        Vec3 colour = dark ? Vec3(0.45, 0.47, 0.45) : Vec3(0.62, 0.64, 0.6);
        Vec3 q[4] = {ToScreen(camera, corner), ToScreen(camera, corner + Vec3(step, 0, 0)),
                     ToScreen(camera, corner + Vec3(step, step, 0)),
                     ToScreen(camera, corner + Vec3(0, step, 0))};
        // Ground a hair behind everything standing on it.
        for (Vec3& s : q) s.z += 0.05;
        auto flat = [&](double, double, double) { return colour; };
        Fill(target, q[0], q[1], q[2], flat);
        Fill(target, q[0], q[2], q[3], flat);
      }
    }
  }
  for (const PreviewItem& item : items) {
    const SkinMesh& mesh = *item.mesh;
    // Smooth normals, welded by position across UV seams.
    std::map<std::tuple<double, double, double>, Vec3> welded;
    for (const auto& t : mesh.triangles) {
      const Vec3& a = item.positions[t[0]];
      const Vec3& b = item.positions[t[1]];
      const Vec3& c = item.positions[t[2]];
      Vec3 n = glm::cross(b - a, c - a);
      for (int k = 0; k < 3; ++k) {
        const Vec3& p = item.positions[t[k]];
        welded[{p.x, p.y, p.z}] += n;
      }
    }
    std::vector<Vec3> normals(item.positions.size());
    std::vector<Vec3> screen(item.positions.size());
    for (size_t v = 0; v < item.positions.size(); ++v) {
      const Vec3& p = item.positions[v];
      Vec3 n = welded[{p.x, p.y, p.z}];
      double length = glm::length(n);
      normals[v] = length > 0 ? n / length : Vec3(0, 0, 1);
      screen[v] = ToScreen(camera, p);
    }
    for (const auto& t : mesh.triangles) {
      auto shade = [&](double w0, double w1, double w2) {
        const SkinVertex& a = mesh.vertices[t[0]];
        const SkinVertex& b = mesh.vertices[t[1]];
        const SkinVertex& c = mesh.vertices[t[2]];
        double u = w0 * a.u + w1 * b.u + w2 * c.u;
        double v = w0 * a.v + w1 * b.v + w2 * c.v;
        Vec3 n = glm::normalize(w0 * normals[t[0]] + w1 * normals[t[1]] + w2 * normals[t[2]]);
        double lambert = std::max(0.0, glm::dot(n, light));
        return SampleTexture(item.texture, u, v) * (0.35 + 0.75 * lambert);
      };
      Fill(target, screen[t[0]], screen[t[1]], screen[t[2]], shade);
    }
  }
}

}  // namespace md5stage::assetgen
