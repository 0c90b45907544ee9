#include "core/scene/scene_json.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <glm/geometric.hpp>
#include <set>
#include <utility>

#include "core/path/route_json.h"

namespace md5stage {

namespace {

constexpr double kMaxPitch = 90.0;
constexpr int kMaxPackedDecimals = 6;
constexpr double kDefaultPackedScale = 1e6;

std::string Field(const std::string& path, const char* key) {
  return path.empty() ? std::string(key) : path + "." + key;
}

std::string Index(const std::string& path, std::size_t index) {
  return path + "[" + std::to_string(index) + "]";
}

int PointCount(const RouteSegment& segment) {
  return segment.kind == RouteSegment::Kind::kLine ? 2 : 4;
}

bool HasControlCharacters(const std::string& text) {
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7F) return true;
  }
  return false;
}

// A source that can travel: an https URL, or a path inside the site's assets/ folder (relative,
// without "..", without a scheme or backslashes).
bool IsTravellingSource(const std::string& source) {
  if (source.empty() || source.size() > kMaxSceneSourceLength || HasControlCharacters(source)) {
    return false;
  }
  if (source.find(' ') != std::string::npos || source.find('\\') != std::string::npos) {
    return false;
  }
  if (source.rfind("https://", 0) == 0) return source.size() > 8 && source[8] != '/';
  if (source[0] == '/' || source.find(':') != std::string::npos) return false;
  if (source.find_first_of("?#") != std::string::npos) return false;
  std::size_t start = 0;
  while (start <= source.size()) {
    std::size_t end = source.find('/', start);
    if (end == std::string::npos) end = source.size();
    const std::string_view part(source.data() + start, end - start);
    if (part.empty() || part == "..") return false;
    start = end + 1;
  }
  return true;
}

std::string RangeText(double min, double max) {
  return "a number in " + DescribeJsonPair(min, max);
}

class SceneReader {
 public:
  explicit SceneReader(std::string_view file) : file_(file) {}

  Result<Scene> Read(const JsonValue& root) {
    Scene scene;
    if (!ReadScene(root, scene)) return error_;
    return scene;
  }

 private:
  // ---- error reporting --------------------------------------------------------------------------

  bool Fail(const JsonValue* at, const JsonValue* fallback_location, const std::string& path,
            const std::string& expected) {
    const JsonValue* located = at != nullptr ? at : fallback_location;
    error_ = MakeError(file_, located != nullptr ? located->line() : 0,
                       located != nullptr ? located->column() : 0,
                       path + ": expected " + expected + ", found " + DescribeJson(at));
    return false;
  }

  // ---- typed fields: absent optional fields keep `out` unchanged
  // ---------------------------------

  bool Number(const JsonValue& object, const std::string& path, const char* key, double min,
              double max, double& out) {
    const JsonValue* value = object.Find(key);
    if (value == nullptr) return true;
    const double number = value->as_number();
    const bool in_range = value->is_number() && number >= min && number <= max;
    if (!in_range) return Fail(value, &object, Field(path, key), RangeText(min, max));
    out = number;
    return true;
  }

  bool Coordinate(const JsonValue& object, const std::string& path, const char* key, double& out) {
    return Number(object, path, key, -kMaxSceneCoordinate, kMaxSceneCoordinate, out);
  }

  bool Bool(const JsonValue& object, const std::string& path, const char* key, bool& out) {
    const JsonValue* value = object.Find(key);
    if (value == nullptr) return true;
    if (!value->is_bool()) return Fail(value, &object, Field(path, key), "true or false");
    out = value->as_bool();
    return true;
  }

  bool CheckName(const JsonValue* value, const JsonValue& parent, const std::string& path,
                 bool allow_empty) {
    const bool ok = value != nullptr && value->is_string() &&
                    (allow_empty || !value->as_string().empty()) &&
                    value->as_string().size() <= kMaxSceneNameLength &&
                    !HasControlCharacters(value->as_string());
    if (ok) return true;
    return Fail(value, &parent, path,
                std::string("a name of ") + (allow_empty ? "0" : "1") + " to " +
                    std::to_string(kMaxSceneNameLength) + " characters");
  }

  bool Name(const JsonValue& object, const std::string& path, const char* key, bool required,
            bool allow_empty, std::string& out) {
    const JsonValue* value = object.Find(key);
    if (value == nullptr && !required) return true;
    if (!CheckName(value, object, Field(path, key), allow_empty)) return false;
    out = value->as_string();
    return true;
  }

  bool PlayModeField(const JsonValue& object, const std::string& path, const char* key,
                     PlayMode& out) {
    const JsonValue* value = object.Find(key);
    if (value == nullptr) return true;
    if (value->is_string() && ParsePlayMode(value->as_string(), &out)) return true;
    return Fail(value, &object, Field(path, key), "\"loop\", \"once\" or \"pingpong\"");
  }

  // An array member with at most `max` items; absent is an empty array unless required.
  bool Array(const JsonValue& object, const std::string& path, const char* key, std::size_t max,
             const char* item_name, bool required, const JsonArray*& out) {
    static const JsonArray kEmpty;
    out = &kEmpty;
    const JsonValue* value = object.Find(key);
    if (value == nullptr && !required) return true;
    if (value == nullptr || !value->is_array()) {
      return Fail(value, &object, Field(path, key), std::string("an array of ") + item_name);
    }
    if (value->as_array().size() > max) {
      error_ = MakeError(file_, value->line(), value->column(),
                         Field(path, key) + ": expected at most " + std::to_string(max) + " " +
                             item_name + ", found " + std::to_string(value->as_array().size()));
      return false;
    }
    out = &value->as_array();
    return true;
  }

  // [x, y] or [x, y, z] of coordinates.
  template <int kSize>
  bool Vector(const JsonValue* value, const JsonValue& parent, const std::string& path,
              double (&out)[kSize]) {
    const char* shape = kSize == 2 ? "an [x, y] array" : "an [x, y, z] array";
    if (value == nullptr || !value->is_array() || value->as_array().size() != kSize) {
      return Fail(value, &parent, path, shape);
    }
    for (int i = 0; i < kSize; ++i) {
      const JsonValue& item = value->as_array()[i];
      if (!item.is_number() || !(std::abs(item.as_number()) <= kMaxSceneCoordinate)) {
        return Fail(&item, value, Index(path, i),
                    RangeText(-kMaxSceneCoordinate, kMaxSceneCoordinate));
      }
      out[i] = item.as_number();
    }
    return true;
  }

  bool Vec2(const JsonValue& object, const std::string& path, const char* key, glm::dvec2& out) {
    const JsonValue* value = object.Find(key);
    if (value == nullptr) return true;
    double xy[2];
    if (!Vector(value, object, Field(path, key), xy)) return false;
    out = glm::dvec2(xy[0], xy[1]);
    return true;
  }

  bool Vec3(const JsonValue& object, const std::string& path, const char* key, glm::dvec3& out) {
    const JsonValue* value = object.Find(key);
    if (value == nullptr) return true;
    double xyz[3];
    if (!Vector(value, object, Field(path, key), xyz)) return false;
    out = glm::dvec3(xyz[0], xyz[1], xyz[2]);
    return true;
  }

  bool Object(const JsonValue* value, const JsonValue* parent, const std::string& path) {
    if (value != nullptr && value->is_object()) return true;
    return Fail(value, parent, path, "an object");
  }

  // ---- scene parts ------------------------------------------------------------------------------

  bool ReadScene(const JsonValue& root, Scene& scene) {
    if (!Object(&root, nullptr, "scene")) return false;
    const JsonValue* version = root.Find("version");
    if (version == nullptr || !version->is_number() || version->as_number() != kSceneVersion) {
      return Fail(version, &root, "version", std::to_string(kSceneVersion));
    }
    const JsonArray* items = nullptr;
    if (!Array(root, "", "models", kMaxSceneModels, "models", false, items)) return false;
    scene.models.resize(items->size());
    for (std::size_t i = 0; i < items->size(); ++i) {
      if (!ReadModel((*items)[i], root, Index("models", i), scene, scene.models[i])) return false;
    }
    if (!Array(root, "", "routes", kMaxSceneRoutes, "routes", false, items)) return false;
    scene.routes.resize(items->size());
    for (std::size_t i = 0; i < items->size(); ++i) {
      if (!ReadRoute((*items)[i], root, Index("routes", i), scene.routes[i])) return false;
    }
    if (!Array(root, "", "instances", kMaxSceneInstances, "instances", false, items)) return false;
    scene.instances.resize(items->size());
    for (std::size_t i = 0; i < items->size(); ++i) {
      if (!ReadInstance((*items)[i], root, Index("instances", i), scene, scene.instances[i])) {
        return false;
      }
    }
    if (root.Find("obstacles") != nullptr) {
      // The obstacles file's reader: one set of rules and messages ("obstacles[2].polygon[1]").
      Result<ObstacleSet> obstacles = ObstaclesFromJson(file_, root);
      if (!obstacles.ok()) {
        error_ = obstacles.error();
        return false;
      }
      scene.obstacles = std::move(obstacles).value();
    }
    if (const JsonValue* camera = root.Find("camera")) {
      if (!ReadCamera(*camera, root, scene.camera)) return false;
    }
    if (const JsonValue* display = root.Find("display")) {
      if (!ReadDisplay(*display, root, scene.display)) return false;
    }
    return Number(root, "", "time", 0, kMaxSceneTime, scene.time) &&
           Bool(root, "", "playing", scene.playing) && Bool(root, "", "avoidance", scene.avoidance);
  }

  bool ReadModel(const JsonValue& value, const JsonValue& parent, const std::string& path,
                 const Scene& scene, SceneModel& model) {
    if (!Object(&value, &parent, path)) return false;
    if (!Name(value, path, "name", true, false, model.name)) return false;
    for (const SceneModel& other : scene.models) {
      if (&other == &model) break;
      if (other.name == model.name) {
        return Fail(value.Find("name"), &value, Field(path, "name"), "a unique model name");
      }
    }
    if (!Bool(value, path, "local", model.local)) return false;
    const auto source = [&](const JsonValue* source_value, const std::string& source_path,
                            std::string& out) {
      const bool ok =
          source_value != nullptr && source_value->is_string() &&
          (model.local ? !source_value->as_string().empty() &&
                             source_value->as_string().size() <= kMaxSceneSourceLength &&
                             !HasControlCharacters(source_value->as_string())
                       : IsTravellingSource(source_value->as_string()));
      if (!ok) {
        return Fail(source_value, &value, source_path,
                    model.local ? "a file name" : "an assets-relative path or an https:// URL");
      }
      out = source_value->as_string();
      return true;
    };
    if (!source(value.Find("mesh"), Field(path, "mesh"), model.mesh)) return false;
    const JsonArray* anims = nullptr;
    if (!Array(value, path, "anims", kMaxModelAnims, "anims", false, anims)) return false;
    model.anims.resize(anims->size());
    std::set<std::string> names;
    for (std::size_t i = 0; i < anims->size(); ++i) {
      const std::string anim_path = Index(Field(path, "anims"), i);
      if (!source(&(*anims)[i], anim_path, model.anims[i])) return false;
      const std::string name = AnimNameFromSource(model.anims[i]);
      if (name.empty() || name.size() > kMaxSceneNameLength) {
        return Fail(&(*anims)[i], &value, anim_path,
                    "a file name of 1 to " + std::to_string(kMaxSceneNameLength) + " characters");
      }
      if (!names.insert(name).second) {
        return Fail(&(*anims)[i], &value, anim_path, "an anim with a name of its own");
      }
    }
    const JsonArray* materials = nullptr;
    if (!Array(value, path, "materials", kMaxModelAnims, "materials", false, materials)) {
      return false;
    }
    model.materials.resize(materials->size());
    for (std::size_t i = 0; i < materials->size(); ++i) {
      if (!source(&(*materials)[i], Index(Field(path, "materials"), i), model.materials[i])) {
        return false;
      }
    }
    return Name(value, path, "skin", false, true, model.skin);
  }

  bool ReadRoute(const JsonValue& value, const JsonValue& parent, const std::string& path,
                 SceneRoute& route) {
    if (!Object(&value, &parent, path)) return false;
    if (!Name(value, path, "name", false, true, route.name)) return false;
    if (!Bool(value, path, "closed", route.closed)) return false;
    const bool has_segments = value.Find("segments") != nullptr;
    const bool has_packed = value.Find("kinds") != nullptr || value.Find("deltas") != nullptr;
    if (has_segments && has_packed) {
      error_ = MakeError(file_, value.line(), value.column(),
                         path +
                             ": expected \"segments\" or the packed \"kinds\" and \"deltas\", "
                             "found both");
      return false;
    }
    if (has_packed) return ReadPackedRoute(value, path, route);
    const JsonArray* segments = nullptr;
    if (!Array(value, path, "segments", kMaxRouteSegments, "segments", true, segments)) {
      return false;
    }
    if (segments->empty()) {
      return Fail(value.Find("segments"), &value, Field(path, "segments"), "at least 1 segment");
    }
    // The segments are route JSON (core/path/route_json.h), read by the path core's reader so that
    // route files and scenes follow one set of rules. Its messages name paths inside the route.
    Result<RouteDescription> description = RouteDescriptionFromJson(file_, value);
    if (!description.ok()) {
      error_ = description.error();
      error_.message = path + "." + error_.message;
      return false;
    }
    route.segments = std::move(description.value().segments);
    // Route files only need finite coordinates; a scene also bounds them.
    for (std::size_t i = 0; i < route.segments.size(); ++i) {
      const RouteSegment& segment = route.segments[i];
      const char* kind = segment.kind == RouteSegment::Kind::kLine ? "line" : "bezier";
      for (int k = 0; k < PointCount(segment); ++k) {
        for (int c = 0; c < 2; ++c) {
          if (std::abs(segment.points[k][c]) <= kMaxSceneCoordinate) continue;
          const JsonValue& points = *(*segments)[i].Find(kind);
          const JsonValue& coordinate = points.as_array()[k].as_array()[c];
          return Fail(&coordinate, &points,
                      Index(Index(Field(Index(Field(path, "segments"), i), kind), k), c),
                      RangeText(-kMaxSceneCoordinate, kMaxSceneCoordinate));
        }
      }
    }
    return true;
  }

  // The packed form: "kinds" ('b' Bezier, 'l' line per segment) and "deltas", integers in units
  // of 1/scale: the start point, then each further point relative to the one before.
  bool ReadPackedRoute(const JsonValue& value, const std::string& path, SceneRoute& route) {
    const JsonValue* kinds = value.Find("kinds");
    const std::string kinds_path = Field(path, "kinds");
    const std::string kinds_rule =
        "a string of 1 to " + std::to_string(kMaxRouteSegments) + " 'b' and 'l'";
    if (kinds == nullptr || !kinds->is_string() || kinds->as_string().empty() ||
        kinds->as_string().size() > kMaxRouteSegments) {
      return Fail(kinds, &value, kinds_path, kinds_rule);
    }
    std::size_t point_count = 1;
    for (const char kind : kinds->as_string()) {
      if (kind != 'b' && kind != 'l') return Fail(kinds, &value, kinds_path, kinds_rule);
      point_count += kind == 'b' ? 3 : 1;
    }
    double scale = kDefaultPackedScale;
    const JsonValue* scale_value = value.Find("scale");
    if (scale_value != nullptr) {
      bool power_of_ten = false;
      for (double p = 1; p <= kDefaultPackedScale; p *= 10) {
        power_of_ten = power_of_ten || scale_value->as_number() == p;
      }
      if (!scale_value->is_number() || !power_of_ten) {
        return Fail(scale_value, &value, Field(path, "scale"), "1, 10, 100, ... or 1000000");
      }
      scale = scale_value->as_number();
    }
    const JsonValue* deltas = value.Find("deltas");
    const std::string deltas_path = Field(path, "deltas");
    if (deltas == nullptr || !deltas->is_array() || deltas->as_array().size() != 2 * point_count) {
      return Fail(deltas, &value, deltas_path,
                  "an array of " + std::to_string(2 * point_count) + " integers");
    }
    const JsonArray& items = deltas->as_array();
    const double limit = kMaxSceneCoordinate * scale;
    std::vector<glm::dvec2> points(point_count);
    std::int64_t xy[2] = {0, 0};
    std::int64_t start[2] = {0, 0};
    for (std::size_t i = 0; i < items.size(); ++i) {
      const double delta = items[i].as_number();
      const double sum = static_cast<double>(xy[i % 2]) + delta;
      if (!items[i].is_number() || delta != std::floor(delta) || !(std::abs(sum) <= limit)) {
        return Fail(&items[i], deltas, Index(deltas_path, i),
                    "an integer keeping the point within [-" + FormatJsonNumber(limit) + ", " +
                        FormatJsonNumber(limit) + "]");
      }
      xy[i % 2] = static_cast<std::int64_t>(sum);
      if (i < 2) start[i] = xy[i];
      if (i % 2 == 1) {
        points[i / 2] =
            glm::dvec2(static_cast<double>(xy[0]) / scale, static_cast<double>(xy[1]) / scale);
      }
    }
    if (route.closed && (xy[0] != start[0] || xy[1] != start[1])) {
      error_ = MakeError(file_, items.back().line(), items.back().column(),
                         deltas_path + ": expected the last point to be the start " +
                             DescribeJsonPair(points.front().x, points.front().y) +
                             " (the route is closed), found " +
                             DescribeJsonPair(points.back().x, points.back().y));
      return false;
    }
    route.segments.clear();
    route.segments.reserve(kinds->as_string().size());
    std::size_t next = 0;
    for (const char kind : kinds->as_string()) {
      if (kind == 'b') {
        route.segments.push_back(RouteSegment::Bezier(points[next], points[next + 1],
                                                      points[next + 2], points[next + 3]));
        next += 3;
      } else {
        route.segments.push_back(RouteSegment::Line(points[next], points[next + 1]));
        next += 1;
      }
    }
    return true;
  }

  // An anim name of the instance's model, or empty.
  bool AnimName(const JsonValue& object, const std::string& path, const char* key,
                const SceneModel& model, std::string& out) {
    if (!Name(object, path, key, false, true, out)) return false;
    if (out.empty()) return true;
    for (const std::string& anim : model.anims) {
      if (AnimNameFromSource(anim) == out) return true;
    }
    return Fail(object.Find(key), &object, Field(path, key),
                "an anim name of model \"" + model.name + "\"");
  }

  bool ReadInstance(const JsonValue& value, const JsonValue& parent, const std::string& path,
                    const Scene& scene, SceneInstance& instance) {
    if (!Object(&value, &parent, path)) return false;
    if (!Name(value, path, "model", true, false, instance.model)) return false;
    const SceneModel* model = FindSceneModel(scene, instance.model);
    if (model == nullptr) {
      return Fail(value.Find("model"), &value, Field(path, "model"), "the name of a model");
    }
    const double max_route = static_cast<double>(scene.routes.size()) - 1;
    double route = -1;
    if (!Vec2(value, path, "position", instance.position) ||
        !Coordinate(value, path, "heading", instance.heading_degrees) ||
        !AnimName(value, path, "animation", *model, instance.animation) ||
        !Number(value, path, "time", 0, kMaxSceneTime, instance.time) ||
        !Number(value, path, "rate", -kMaxRate, kMaxRate, instance.rate) ||
        !PlayModeField(value, path, "mode", instance.mode) ||
        !AnimName(value, path, "locomotion", *model, instance.locomotion) ||
        !AnimName(value, path, "idle", *model, instance.idle) ||
        !Number(value, path, "speed", 0, kMaxSpeed, instance.speed) ||
        !Number(value, path, "turn_radius", 0, kMaxSpeed, instance.turn_radius) ||
        !Number(value, path, "route", -1, max_route, route) ||
        !PlayModeField(value, path, "route_mode", instance.route_mode) ||
        !Number(value, path, "start_delay", 0, kMaxSceneTime, instance.start_delay)) {
      return false;
    }
    if (route != std::floor(route)) {
      return Fail(value.Find("route"), &value, Field(path, "route"),
                  "an integer in [-1, " + FormatJsonNumber(max_route) + "]");
    }
    instance.route = static_cast<int>(route);
    if (value.Find("clearance") != nullptr) {
      double clearance = 0;
      if (!Number(value, path, "clearance", 0, kMaxSceneCoordinate, clearance)) return false;
      instance.clearance = clearance;
    }
    const JsonValue* target = value.Find("target");
    if (target != nullptr && !target->is_null()) {
      const std::string target_path = Field(path, "target");
      if (!Object(target, &value, target_path)) return false;
      if (instance.route >= 0) {
        error_ = MakeError(file_, target->line(), target->column(),
                           target_path + ": expected a route or a target, found both");
        return false;
      }
      SceneTarget& out = instance.target.emplace();
      const auto required = [&](const char* key, double& coordinate) {
        if (target->Find(key) == nullptr) {
          return Fail(nullptr, target, Field(target_path, key),
                      RangeText(-kMaxSceneCoordinate, kMaxSceneCoordinate));
        }
        return Coordinate(*target, target_path, key, coordinate);
      };
      if (!required("x", out.position.x) || !required("y", out.position.y)) return false;
      if (target->Find("heading") != nullptr) {
        double heading = 0;
        if (!Coordinate(*target, target_path, "heading", heading)) return false;
        out.heading_degrees = heading;
      }
    }
    const JsonArray* attachments = nullptr;
    if (!Array(value, path, "attachments", kMaxInstanceAttachments, "attachments", false,
               attachments)) {
      return false;
    }
    instance.attachments.resize(attachments->size());
    for (std::size_t i = 0; i < attachments->size(); ++i) {
      const JsonValue& item = (*attachments)[i];
      const std::string item_path = Index(Field(path, "attachments"), i);
      SceneAttachment& attachment = instance.attachments[i];
      if (!Object(&item, &value, item_path) ||
          !Name(item, item_path, "model", true, false, attachment.model)) {
        return false;
      }
      if (FindSceneModel(scene, attachment.model) == nullptr) {
        return Fail(item.Find("model"), &item, Field(item_path, "model"), "the name of a model");
      }
      if (!Name(item, item_path, "joint", true, false, attachment.joint) ||
          !Vec3(item, item_path, "offset", attachment.offset) ||
          !Vec3(item, item_path, "rotation", attachment.rotation_degrees)) {
        return false;
      }
    }
    return true;
  }

  bool ReadCamera(const JsonValue& camera, const JsonValue& root, SceneCamera& out) {
    return Object(&camera, &root, "camera") && Vec3(camera, "camera", "target", out.target) &&
           Coordinate(camera, "camera", "yaw", out.yaw_degrees) &&
           Number(camera, "camera", "pitch", -kMaxPitch, kMaxPitch, out.pitch_degrees) &&
           Number(camera, "camera", "distance", kMinSceneCameraDistance, kMaxSceneCoordinate,
                  out.distance) &&
           ReadCinematic(camera, out);
  }

  bool ReadCinematic(const JsonValue& camera, SceneCamera& out) {
    const JsonValue* value = camera.Find("cinematic");
    if (value == nullptr || (value->is_string() && value->as_string().empty())) return true;
    const std::string path = "camera.cinematic";
    if (!value->is_string() || !IsTravellingSource(value->as_string()) ||
        value->as_string().size() < 10 ||
        value->as_string().compare(value->as_string().size() - 10, 10, ".md5camera") != 0) {
      return Fail(value, &camera, path,
                  "\"\" or the assets-relative path or https:// URL of a .md5camera file");
    }
    out.cinematic = value->as_string();
    return true;
  }

  bool ReadDisplay(const JsonValue& display, const JsonValue& root, DisplayToggles& out) {
    if (!Object(&display, &root, "display")) return false;
    for (const DisplayToggleName& toggle : kDisplayToggleNames) {
      if (!Bool(display, "display", toggle.name, out.*toggle.member)) return false;
    }
    return true;
  }

  std::string file_;
  Diagnostic error_;
};

// ---- writer ------------------------------------------------------------------------------------

class SceneWriter {
 public:
  explicit SceneWriter(const SceneWriteOptions& options) : options_(options) {}

  JsonValue Write(const Scene& scene) const {
    JsonValue root = JsonValue::MakeObject();
    root.Set("version", kSceneVersion);
    if (!scene.models.empty() || !options_.omit_defaults) {
      JsonValue& models = root.Set("models", JsonValue::MakeArray());
      for (const SceneModel& model : scene.models) models.Append(Model(model));
    }
    if (!scene.routes.empty() || !options_.omit_defaults) {
      JsonValue& routes = root.Set("routes", JsonValue::MakeArray());
      for (const SceneRoute& route : scene.routes) routes.Append(Route(route));
    }
    if (!scene.instances.empty() || !options_.omit_defaults) {
      JsonValue& instances = root.Set("instances", JsonValue::MakeArray());
      for (const SceneInstance& instance : scene.instances) instances.Append(Instance(instance));
    }
    if (!scene.obstacles.empty() || !options_.omit_defaults) {
      JsonValue& obstacles = root.Set("obstacles", JsonValue::MakeArray());
      for (const Obstacle& obstacle : scene.obstacles.obstacles()) {
        obstacles.Append(ObstacleJson(obstacle));
      }
    }
    const SceneCamera default_camera;
    JsonValue camera = JsonValue::MakeObject();
    if (Keep(scene.camera.target != default_camera.target)) {
      camera.Set("target", Vector(scene.camera.target));
    }
    if (Keep(scene.camera.yaw_degrees != default_camera.yaw_degrees)) {
      camera.Set("yaw", Number(scene.camera.yaw_degrees));
    }
    if (Keep(scene.camera.pitch_degrees != default_camera.pitch_degrees)) {
      camera.Set("pitch", Number(scene.camera.pitch_degrees));
    }
    if (Keep(scene.camera.distance != default_camera.distance)) {
      camera.Set("distance", Number(scene.camera.distance));
    }
    // Written only when a camera plays, so scenes without one keep their bytes and links.
    if (!scene.camera.cinematic.empty()) camera.Set("cinematic", scene.camera.cinematic);
    if (!camera.as_object().empty()) root.Set("camera", std::move(camera));
    const DisplayToggles defaults;
    JsonValue display = JsonValue::MakeObject();
    for (const DisplayToggleName& toggle : kDisplayToggleNames) {
      const bool differs = scene.display.*toggle.member != defaults.*toggle.member;
      if (toggle.always_written ? Keep(differs) : differs) {
        display.Set(toggle.name, scene.display.*toggle.member);
      }
    }
    if (!display.as_object().empty()) root.Set("display", std::move(display));
    if (Keep(scene.time != 0)) root.Set("time", Number(scene.time));
    if (Keep(!scene.playing)) root.Set("playing", scene.playing);
    // Written only when on, even in a full scene: scenes and links made before it keep their
    // canonical JSON (tests/core/scene/golden_links.txt).
    if (scene.avoidance) root.Set("avoidance", true);
    return root;
  }

 private:
  bool Keep(bool differs_from_default) const {
    return differs_from_default || !options_.omit_defaults;
  }

  JsonValue Number(double value) const {
    if (options_.decimals < 0 || !std::isfinite(value)) return value;
    const double scale = std::pow(10.0, options_.decimals);
    const double rounded = std::round(value * scale) / scale;
    return std::isfinite(rounded) ? rounded : value;
  }

  JsonValue Vector(const glm::dvec2& v) const { return JsonArray{Number(v.x), Number(v.y)}; }
  JsonValue Vector(const glm::dvec3& v) const {
    return JsonArray{Number(v.x), Number(v.y), Number(v.z)};
  }

  JsonValue ObstacleJson(const Obstacle& obstacle) const {
    JsonValue out = JsonValue::MakeObject();
    if (obstacle.kind == Obstacle::Kind::kCircle) {
      JsonValue& circle = out.Set("circle", JsonValue::MakeObject());
      circle.Set("centre", Vector(obstacle.centre));
      // Rounding must not turn a tiny circle into an invalid one (radius 0).
      const JsonValue radius = Number(obstacle.radius);
      circle.Set("radius", radius.as_number() > 0.0 ? radius : JsonValue(obstacle.radius));
    } else {
      JsonValue& points = out.Set("polygon", JsonValue::MakeArray());
      for (const glm::dvec2& p : obstacle.vertices) points.Append(Vector(p));
    }
    return out;
  }

  JsonValue Model(const SceneModel& model) const {
    JsonValue out = JsonValue::MakeObject();
    out.Set("name", model.name);
    out.Set("mesh", model.mesh);
    if (Keep(!model.anims.empty())) {
      JsonValue& anims = out.Set("anims", JsonValue::MakeArray());
      for (const std::string& anim : model.anims) anims.Append(anim);
    }
    if (Keep(model.local)) out.Set("local", model.local);
    if (!model.materials.empty()) {
      JsonValue& materials = out.Set("materials", JsonValue::MakeArray());
      for (const std::string& source : model.materials) materials.Append(source);
    }
    if (!model.skin.empty()) out.Set("skin", model.skin);
    return out;
  }

  JsonValue Route(const SceneRoute& route) const {
    JsonValue out = JsonValue::MakeObject();
    if (Keep(!route.name.empty())) out.Set("name", route.name);
    if (Keep(route.closed)) out.Set("closed", route.closed);
    if (options_.pack_routes && !route.segments.empty()) {
      PackRoute(route, out);
      return out;
    }
    JsonValue& segments = out.Set("segments", JsonValue::MakeArray());
    const std::size_t count = route.segments.size();
    for (std::size_t s = 0; s < count; ++s) {
      const RouteSegment& segment = route.segments[s];
      const int point_count = PointCount(segment);
      JsonValue points = JsonValue::MakeArray();
      for (int i = 0; i < point_count; ++i) {
        glm::dvec2 point = segment.points[i];
        // Rounding may split a join whose two sides differ within the join tolerance; writing
        // the one value for both sides keeps it joined.
        if (options_.decimals >= 0 && i == 0 && s > 0) point = route.segments[s - 1].end();
        if (options_.decimals >= 0 && i == point_count - 1 && route.closed && s == count - 1 &&
            count > 1) {
          point = route.segments[0].start();
        }
        points.Append(Vector(point));
      }
      JsonValue item = JsonValue::MakeObject();
      item.Set(segment.kind == RouteSegment::Kind::kLine ? "line" : "bezier", std::move(points));
      segments.Append(std::move(item));
    }
    return out;
  }

  void PackRoute(const SceneRoute& route, JsonValue& out) const {
    const int decimals = options_.decimals < 0 ? kMaxPackedDecimals
                                               : std::min(options_.decimals, kMaxPackedDecimals);
    const double full_scale = std::pow(10.0, decimals);
    // The points on the finest grid; a join's second side and a closed route's end are the
    // points they meet, so rounding cannot split them.
    std::vector<std::int64_t> grid;
    std::string kinds;
    const auto add = [&](glm::dvec2 p) {
      grid.push_back(std::llround(p.x * full_scale));
      grid.push_back(std::llround(p.y * full_scale));
    };
    add(route.segments.front().start());
    for (const RouteSegment& segment : route.segments) {
      if (segment.kind == RouteSegment::Kind::kBezier) {
        kinds += 'b';
        add(segment.points[1]);
        add(segment.points[2]);
        add(segment.points[3]);
      } else {
        kinds += 'l';
        add(segment.points[1]);
      }
    }
    if (route.closed) {
      grid[grid.size() - 2] = grid[0];
      grid[grid.size() - 1] = grid[1];
    }
    // The coarsest grid that holds every point exactly keeps the integers short.
    int coarsening = 0;
    std::int64_t divisor = 1;
    while (coarsening < decimals) {
      bool divisible = true;
      for (std::int64_t v : grid) divisible = divisible && v % (divisor * 10) == 0;
      if (!divisible) break;
      divisor *= 10;
      ++coarsening;
    }
    const double scale = std::pow(10.0, decimals - coarsening);
    out.Set("kinds", kinds);
    if (scale != kDefaultPackedScale) out.Set("scale", scale);
    JsonValue& deltas = out.Set("deltas", JsonValue::MakeArray());
    std::int64_t previous[2] = {0, 0};
    for (std::size_t i = 0; i < grid.size(); ++i) {
      const std::int64_t value = grid[i] / divisor;
      deltas.Append(static_cast<double>(value - previous[i % 2]));
      previous[i % 2] = value;
    }
  }

  JsonValue Instance(const SceneInstance& instance) const {
    const SceneInstance defaults;
    JsonValue out = JsonValue::MakeObject();
    out.Set("model", instance.model);
    if (Keep(instance.position != defaults.position)) {
      out.Set("position", Vector(instance.position));
    }
    if (Keep(instance.heading_degrees != 0)) out.Set("heading", Number(instance.heading_degrees));
    if (Keep(!instance.animation.empty())) out.Set("animation", instance.animation);
    if (Keep(instance.time != 0)) out.Set("time", Number(instance.time));
    if (Keep(instance.rate != defaults.rate)) out.Set("rate", Number(instance.rate));
    if (Keep(instance.mode != defaults.mode)) out.Set("mode", PlayModeName(instance.mode));
    if (Keep(!instance.locomotion.empty())) out.Set("locomotion", instance.locomotion);
    if (Keep(!instance.idle.empty())) out.Set("idle", instance.idle);
    if (Keep(instance.speed != defaults.speed)) out.Set("speed", Number(instance.speed));
    if (Keep(instance.turn_radius != 0)) out.Set("turn_radius", Number(instance.turn_radius));
    if (instance.clearance.has_value()) out.Set("clearance", Number(*instance.clearance));
    if (Keep(instance.route != -1)) out.Set("route", instance.route);
    if (Keep(instance.route_mode != defaults.route_mode)) {
      out.Set("route_mode", PlayModeName(instance.route_mode));
    }
    if (Keep(instance.start_delay != 0)) out.Set("start_delay", Number(instance.start_delay));
    if (instance.target.has_value()) {
      JsonValue& target = out.Set("target", JsonValue::MakeObject());
      target.Set("x", Number(instance.target->position.x));
      target.Set("y", Number(instance.target->position.y));
      if (instance.target->heading_degrees.has_value()) {
        target.Set("heading", Number(*instance.target->heading_degrees));
      }
    } else if (!options_.omit_defaults) {
      out.Set("target", nullptr);
    }
    if (Keep(!instance.attachments.empty())) {
      JsonValue& attachments = out.Set("attachments", JsonValue::MakeArray());
      for (const SceneAttachment& attachment : instance.attachments) {
        JsonValue item = JsonValue::MakeObject();
        item.Set("model", attachment.model);
        item.Set("joint", attachment.joint);
        if (Keep(attachment.offset != glm::dvec3(0.0))) {
          item.Set("offset", Vector(attachment.offset));
        }
        if (Keep(attachment.rotation_degrees != glm::dvec3(0.0))) {
          item.Set("rotation", Vector(attachment.rotation_degrees));
        }
        attachments.Append(std::move(item));
      }
    }
    return out;
  }

  SceneWriteOptions options_;
};

}  // namespace

Result<Scene> SceneFromJson(std::string_view file, const JsonValue& root) {
  SceneReader reader(file);
  return reader.Read(root);
}

Result<Scene> ParseScene(std::string_view file, std::string_view text) {
  JsonLimits limits;
  limits.max_bytes = kMaxSceneJsonBytes;
  Result<JsonValue> json = ParseJson(file, text, limits);
  if (!json.ok()) return json.error();
  return SceneFromJson(file, json.value());
}

JsonValue SceneToJson(const Scene& scene, const SceneWriteOptions& options) {
  return SceneWriter(options).Write(scene);
}

std::string WriteScene(const Scene& scene, const SceneWriteOptions& options) {
  JsonWriteOptions json_options;
  json_options.indent = options.indent;
  return WriteJson(SceneToJson(scene, options), json_options);
}

Status ValidateScene(const Scene& scene) {
  // One set of rules: the scene goes through its JSON form. Non-finite numbers become null there
  // and are rejected as wrong types, which is what they are.
  Result<Scene> read = SceneFromJson("", SceneToJson(scene));
  if (!read.ok()) return read.error();
  return Status();
}

}  // namespace md5stage
