#include "scenes.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "math_util.h"
#include "text_format.h"

namespace md5stage::assetgen {
namespace {

// A number with at most three decimals and no trailing zeros.
std::string Num(double value) {
  std::string text = FormatFixed(value, 3);
  while (!text.empty() && text.back() == '0') text.pop_back();
  if (!text.empty() && text.back() == '.') text.pop_back();
  return text == "-0" ? "0" : text;
}

std::string Point(double x, double y) { return "[" + Num(x) + ", " + Num(y) + "]"; }

struct Bezier {
  double p[4][2];
};

std::string SegmentsJson(const std::vector<Bezier>& segments) {
  std::string out = "[";
  for (size_t i = 0; i < segments.size(); ++i) {
    const Bezier& b = segments[i];
    out += i ? ",\n                   " : "";
    out += "{\"bezier\": [" + Point(b.p[0][0], b.p[0][1]) + ", " + Point(b.p[1][0], b.p[1][1]) +
           ", " + Point(b.p[2][0], b.p[2][1]) + ", " + Point(b.p[3][0], b.p[3][1]) + "]}";
  }
  return out + "]";
}

std::string RouteJson(const std::string& name, const std::vector<Bezier>& segments) {
  return "    {\"name\": \"" + name +
         "\", \"closed\": true,\n     \"segments\": " + SegmentsJson(segments) + "}";
}

// An ellipse (radii rx, ry, turned by `angle` radians about its centre) as four cubic Beziers,
// counter-clockwise from the end of its x axis.
std::vector<Bezier> Ellipse(double cx, double cy, double rx, double ry, double angle) {
  const double k = 0.5522847498;  // control distance of a quarter circle
  const double c = std::cos(angle), s = std::sin(angle);
  auto at = [&](double x, double y, double out[2]) {
    out[0] = cx + x * c - y * s;
    out[1] = cy + x * s + y * c;
  };
  const double quarter[4][4][2] = {{{rx, 0}, {rx, k * ry}, {k * rx, ry}, {0, ry}},
                                   {{0, ry}, {-k * rx, ry}, {-rx, k * ry}, {-rx, 0}},
                                   {{-rx, 0}, {-rx, -k * ry}, {-k * rx, -ry}, {0, -ry}},
                                   {{0, -ry}, {k * rx, -ry}, {rx, -k * ry}, {rx, 0}}};
  std::vector<Bezier> segments(4);
  for (int q = 0; q < 4; ++q) {
    for (int i = 0; i < 4; ++i) at(quarter[q][i][0], quarter[q][i][1], segments[q].p[i]);
  }
  return segments;
}

const char* kWalkerModel =
    "    {\"name\": \"walker\",\n"
    "     \"mesh\": \"models/walker/walker.md5mesh\",\n"
    "     \"anims\": [\"models/walker/idle.md5anim\", \"models/walker/walk.md5anim\",\n"
    "               \"models/walker/run.md5anim\", \"models/walker/wave.md5anim\"],\n"
    "     \"materials\": [\"models/walker/walker.mtr\"]}";
const char* kLampModel =
    "    {\"name\": \"lamp\", \"mesh\": \"models/lamp/lamp.md5mesh\", \"anims\": []}";

struct Instance {
  double x = 0, y = 0, heading = 0;
  std::string animation = "idle";
  double time = 0, rate = 1;
  std::string locomotion = "walk";
  double speed = 55, turn_radius = 40;
  int route = -1;
  double start_delay = 0;
  bool has_target = false;
  double target_x = 0, target_y = 0, target_heading = 0;
  bool target_has_heading = true;
  bool lamp = false;
  double clearance = -1;  // written when >= 0
};

std::string InstanceJson(const Instance& in) {
  std::string out = "    {\"model\": \"walker\", \"position\": " + Point(in.x, in.y) +
                    ", \"heading\": " + Num(in.heading) + ",\n     \"animation\": \"" +
                    in.animation + "\", \"time\": " + Num(in.time) + ", \"rate\": " + Num(in.rate) +
                    ", \"mode\": \"loop\",\n     \"locomotion\": \"" + in.locomotion +
                    "\", \"idle\": \"idle\", \"speed\": " + Num(in.speed) +
                    ", \"turn_radius\": " + Num(in.turn_radius);
  if (in.route >= 0) {
    out += ",\n     \"route\": " + std::to_string(in.route) +
           ", \"route_mode\": \"loop\", \"start_delay\": " + Num(in.start_delay);
  } else {
    out += ", \"route\": -1";
    if (in.start_delay > 0) out += ", \"start_delay\": " + Num(in.start_delay);
  }
  if (in.clearance >= 0) out += ", \"clearance\": " + Num(in.clearance);
  if (in.has_target) {
    out += ",\n     \"target\": {\"x\": " + Num(in.target_x) + ", \"y\": " + Num(in.target_y) +
           (in.target_has_heading ? ", \"heading\": " + Num(in.target_heading) : "") + "}";
  }
  if (in.lamp) {
    out +=
        ",\n     \"attachments\": [{\"model\": \"lamp\", \"joint\": \"tag_hand_r\", "
        "\"offset\": [0, 0, 0], \"rotation\": [0, 0, 0]}]";
  }
  return out + "}";
}

struct Camera {
  double x, y, z, yaw, pitch, distance;
};

std::string SceneJson(const std::vector<std::string>& models,
                      const std::vector<std::string>& routes,
                      const std::vector<Instance>& instances, const Camera& camera,
                      bool show_routes, const std::vector<std::string>& obstacles = {},
                      bool avoidance = false) {
  std::string out = "{\n  \"version\": 1,\n  \"models\": [\n";
  for (size_t i = 0; i < models.size(); ++i)
    out += models[i] + (i + 1 < models.size() ? ",\n" : "\n");
  out += "  ],\n  \"routes\": [";
  if (!routes.empty()) out += "\n";
  for (size_t i = 0; i < routes.size(); ++i)
    out += routes[i] + (i + 1 < routes.size() ? ",\n" : "\n");
  out += routes.empty() ? "],\n" : "  ],\n";
  out += "  \"instances\": [\n";
  for (size_t i = 0; i < instances.size(); ++i) {
    out += InstanceJson(instances[i]) + (i + 1 < instances.size() ? ",\n" : "\n");
  }
  out += "  ],\n";
  if (!obstacles.empty()) {
    out += "  \"obstacles\": [\n";
    for (size_t i = 0; i < obstacles.size(); ++i)
      out += "    " + obstacles[i] + (i + 1 < obstacles.size() ? ",\n" : "\n");
    out += "  ],\n";
  }
  out += "  \"camera\": {\"target\": [" + Num(camera.x) + ", " + Num(camera.y) + ", " +
         Num(camera.z) + "], \"yaw\": " + Num(camera.yaw) + ", \"pitch\": " + Num(camera.pitch) +
         ", \"distance\": " + Num(camera.distance) + "},\n";
  std::string routes_flag = show_routes ? "true" : "false";
  out +=
      "  \"display\": {\"grid\": true, \"skeleton\": false, \"joint_names\": false, "
      "\"bounds\": false,\n              \"wireframe\": false, \"normals\": false, "
      "\"routes\": " +
      routes_flag + ", \"turn_circles\": " + routes_flag + "},\n";
  out += "  \"time\": 0,\n  \"playing\": true";
  out += avoidance ? ",\n  \"avoidance\": true\n}\n" : "\n}\n";
  return out;
}

// An obstacle polygon given by its corners, and an axis-aligned wall (a rectangle).
std::string PolygonJson(const std::vector<std::array<double, 2>>& corners) {
  std::string out = "{\"polygon\": [";
  for (size_t i = 0; i < corners.size(); ++i)
    out += (i ? ", " : "") + Point(corners[i][0], corners[i][1]);
  return out + "]}";
}
std::string WallJson(double x0, double y0, double x1, double y1) {
  return PolygonJson({{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}});
}
std::string CircleJson(double x, double y, double radius) {
  return "{\"circle\": {\"centre\": " + Point(x, y) + ", \"radius\": " + Num(radius) + "}}";
}

// Heading (degrees) of a route's start: the first segment's initial tangent.
double StartHeading(const std::vector<Bezier>& route) {
  const Bezier& b = route.front();
  return std::atan2(b.p[1][1] - b.p[0][1], b.p[1][0] - b.p[0][0]) * 180.0 / kPi;
}

// A small deterministic generator (LCG), so the crowd is the same on every run.
class Random {
 public:
  explicit Random(std::uint32_t seed) : state_(seed) {}
  double Uniform(double lo, double hi) {
    state_ = state_ * 1664525u + 1013904223u;
    return lo + (hi - lo) * (static_cast<double>(state_ >> 8) / 16777216.0);
  }

 private:
  std::uint32_t state_;
};

}  // namespace

std::string DefaultSceneJson() {
  // Two lobes meeting at the origin: out to the north-east, round the right lobe clockwise, back
  // through the origin heading north-west, round the left lobe counter-clockwise.
  std::vector<Bezier> figure8 = {{{{0, 0}, {60, 60}, {220, 110}, {220, 0}}},
                                 {{{220, 0}, {220, -110}, {60, -60}, {0, 0}}},
                                 {{{0, 0}, {-60, 60}, {-220, 110}, {-220, 0}}},
                                 {{{-220, 0}, {-220, -110}, {-60, -60}, {0, 0}}}};
  Instance walker;
  walker.heading = StartHeading(figure8);
  walker.route = 0;
  walker.start_delay = 3;
  return SceneJson({kWalkerModel}, {RouteJson("figure8", figure8)}, {walker},
                   {0, 0, 35, 30, 25, 520}, true);
}

std::string TurnsSceneJson() {
  // Side by side, facing +x; the goal is behind them to the left, facing back.
  const double radius[3] = {20, 60, 120};
  std::vector<Instance> walkers;
  for (int i = 0; i < 3; ++i) {
    Instance w;
    w.x = 0;
    w.y = -80.0 + 80.0 * i;
    w.heading = 0;
    w.turn_radius = radius[i];
    w.has_target = true;
    w.target_x = -60;
    w.target_y = 260;
    w.target_heading = 180;
    w.start_delay = 1;
    walkers.push_back(w);
  }
  return SceneJson({kWalkerModel}, {}, walkers, {0, 90, 35, -60, 55, 700}, true);
}

// Poses found with `md5stage turn --from 0,0,0 --to X,Y,HEADING --radius 60` (radians there).
const DubinsFigure kDubinsFigures[6] = {
    {"dubins_lsl", 300, 200, 90}, {"dubins_rsr", 300, -200, -90}, {"dubins_lsr", 300, 250, 0},
    {"dubins_rsl", 300, -250, 0}, {"dubins_lrl", 50, -40, 180},   {"dubins_rlr", 50, 40, 180},
};

namespace {
Instance TurnFigureWalker(double x, double y, double heading, bool has_heading) {
  Instance w;
  w.turn_radius = 60;
  w.has_target = true;
  w.target_x = x;
  w.target_y = y;
  w.target_heading = heading;
  w.target_has_heading = has_heading;
  w.start_delay = 1;
  return w;
}
}  // namespace

std::string DubinsSceneJson(const DubinsFigure& figure) {
  const Instance walker = TurnFigureWalker(figure.x, figure.y, figure.heading_degrees, true);
  // Seen from above and behind the start, framing start, goal and the circles between.
  const double cx = figure.x * 0.5;
  const double cy = figure.y * 0.5;
  const double distance = figure.x > 100 ? 580 : 340;
  return SceneJson({kWalkerModel}, {}, {walker}, {cx, cy, 35, -90, 62, distance}, true);
}

std::string ArcLineSceneJson() {
  // (40, 50) lies 41 units from the left circle's centre (0, 60): inside it.
  const Instance walker = TurnFigureWalker(40, 50, 0, false);
  return SceneJson({kWalkerModel}, {}, {walker}, {20, -20, 35, -90, 58, 400}, true);
}

std::string AttachSceneJson() {
  std::vector<Bezier> loop = Ellipse(0, 0, 160, 110, 0);
  Instance walking;
  walking.x = loop.front().p[0][0];
  walking.y = loop.front().p[0][1];
  walking.heading = StartHeading(loop);
  walking.route = 0;
  walking.lamp = true;
  Instance standing;
  standing.heading = -30;
  standing.lamp = true;
  return SceneJson({kWalkerModel, kLampModel}, {RouteJson("loop", loop)}, {standing, walking},
                   {0, 0, 35, 20, 22, 380}, true);
}

std::string CrowdSceneJson() {
  Random random(20240601u);
  std::vector<std::string> routes;
  std::vector<Instance> walkers;
  const int count = 50;
  for (int i = 0; i < count; ++i) {
    // A jittered 10 x 5 layout of loops, each with its own size, shape and direction.
    double cx = (i % 10 - 4.5) * 260.0 + random.Uniform(-50, 50);
    double cy = (i / 10 - 2.0) * 300.0 + random.Uniform(-50, 50);
    bool runner = i % 7 == 3;
    double rx = random.Uniform(70, 130) * (runner ? 1.3 : 1.0);
    double ry = random.Uniform(50, 110) * (runner ? 1.3 : 1.0);
    double angle = random.Uniform(0, kPi);
    std::vector<Bezier> loop = Ellipse(cx, cy, rx, ry, angle);
    if (i % 2) {  // every other loop runs clockwise
      std::vector<Bezier> reversed;
      for (auto it = loop.rbegin(); it != loop.rend(); ++it) {
        Bezier b;
        for (int k = 0; k < 4; ++k) {
          b.p[k][0] = it->p[3 - k][0];
          b.p[k][1] = it->p[3 - k][1];
        }
        reversed.push_back(b);
      }
      loop = reversed;
    }
    routes.push_back(RouteJson("loop" + std::to_string(i), loop));
    Instance w;
    w.x = loop.front().p[0][0];
    w.y = loop.front().p[0][1];
    w.heading = StartHeading(loop);
    w.route = i;
    w.locomotion = runner ? "run" : "walk";
    w.speed = runner ? 150 : std::round(random.Uniform(42, 68));
    // Tight enough to follow its own loop: an ellipse bends hardest at the ends of its long axis,
    // with radius b^2 / a (the Bezier approximation a little less).
    const double tightest = std::min(rx, ry) * std::min(rx, ry) / std::max(rx, ry);
    w.turn_radius = std::floor(0.9 * tightest);
    w.start_delay = std::round(random.Uniform(0, 4) * 10) / 10;
    w.time = std::round(random.Uniform(0, 6) * 10) / 10;
    walkers.push_back(w);
  }
  return SceneJson({kWalkerModel}, routes, walkers, {0, 0, 35, 25, 40, 1900}, false);
}

std::string MazeSceneJson() {
  // A walled field split by a wall with a narrow gap (right behind it another wall, so going
  // through needs a tight turn into the corridor between them) and openings at the top and the
  // bottom; in front of the goal a cul-de-sac opens towards the walkers. The tight turner
  // squeezes through the gap, the others take the long ways round.
  std::vector<std::string> obstacles = {
      WallJson(-540, -380, 540, -360),
      WallJson(-540, 360, 540, 380),  // outer walls
      WallJson(-540, -360, -520, 360),
      WallJson(520, -360, 540, 360),
      WallJson(-230, -250, -210, -32),
      WallJson(-230, 32, -210, 200),    // the gap: y in -32..32
      WallJson(-130, -150, -110, 150),  // behind the gap
      PolygonJson({{120, -110},
                   {260, -110},
                   {260, 110},
                   {120, 110},
                   {120, 90},
                   {240, 90},
                   {240, -90},
                   {120, -90}}),  // the cul-de-sac
      CircleJson(-20, 250, 40),   // a pillar in the top passage
  };
  // In the middle, facing the gap, the tightest turner; above it the middle one; below, the
  // widest, which has room only on the long way round below the wall.
  const double radius[3] = {25, 50, 110};
  const double start_y[3] = {0, 80, -80};
  std::vector<Instance> walkers;
  for (int i = 0; i < 3; ++i) {
    Instance w;
    w.x = -420;
    w.y = start_y[i];
    w.heading = 0;
    w.turn_radius = radius[i];
    w.has_target = true;
    w.target_x = 420;
    w.target_y = 0;
    w.target_has_heading = false;
    w.start_delay = 1;
    walkers.push_back(w);
  }
  // Avoidance on: the three give way to each other and take slots round the one goal.
  return SceneJson({kWalkerModel}, {}, walkers, {0, -40, 35, -90, 70, 1250}, true, obstacles, true);
}

// Walkers of the giving-way demos: the same speed, turning radius and clearance each, sent to a
// point (no final heading).
Instance GivingWayWalker(double x, double y, double heading, double target_x, double target_y) {
  Instance w;
  w.x = x;
  w.y = y;
  w.heading = heading;
  w.speed = 70;
  w.turn_radius = 25;
  w.clearance = 15;
  w.has_target = true;
  w.target_x = target_x;
  w.target_y = target_y;
  w.target_has_heading = false;
  return w;
}

std::string SwapSceneJson() {
  // Sixteen walkers on a circle, each sent to the point opposite: they all meet round a pillar
  // in the middle (without it sixteen alike box each other in: docs/design.md).
  constexpr int kCount = 16;
  constexpr double kRadius = 260;
  std::vector<Instance> walkers;
  for (int i = 0; i < kCount; ++i) {
    const double angle = 2.0 * kPi * i / kCount;
    const double x = std::round(kRadius * std::cos(angle) * 1000) / 1000;
    const double y = std::round(kRadius * std::sin(angle) * 1000) / 1000;
    // Facing the middle, in (-180, 180]: the heading a link writes back (wrapped) is the same.
    const double heading = i * 360.0 / kCount + 180.0;
    walkers.push_back(GivingWayWalker(x, y, heading > 180.0 ? heading - 360.0 : heading, -x, -y));
  }
  return SceneJson({kWalkerModel}, {}, walkers, {0, 0, 35, -90, 70, 3 * kRadius + 200}, true,
                   {CircleJson(0, 0, 40)}, true);
}

std::string CorridorSceneJson() {
  // Two walkers meet head-on between two walls wide enough for both to pass.
  constexpr double kHalfWidth = 60, kEnd = 360, kLength = 480;
  const std::vector<std::string> walls = {
      WallJson(-kLength, kHalfWidth, kLength, kHalfWidth + 30),
      WallJson(-kLength, -kHalfWidth - 30, kLength, -kHalfWidth)};
  const std::vector<Instance> walkers = {GivingWayWalker(-kEnd, 0, 0, kEnd, 0),
                                         GivingWayWalker(kEnd, 0, 180, -kEnd, 0)};
  return SceneJson({kWalkerModel}, {}, walkers, {0, 0, 35, -90, 60, 1100}, true, walls, true);
}

std::string CrossingSceneJson() {
  // Two groups of twenty (five rows of four, 90 apart) cross at right angles: one walks east,
  // the other north, each walker 900 on from its start, 300 (its first row) before the crossing.
  // Near enough that a 1280x720 view holds both groups with walkers about 20 px tall; the camera
  // leans toward the group coming from the bottom so it starts above the Scene panel.
  constexpr double kSpacing = 90, kStart = 300, kWalk = 900;
  std::vector<Instance> walkers;
  for (int group = 0; group < 2; ++group) {
    for (int k = 0; k < 20; ++k) {
      const double across = (k % 4 - 1.5) * kSpacing, from = -kStart - (k / 4) * kSpacing;
      Instance w = group == 0 ? GivingWayWalker(from, across, 0, from + kWalk, across)
                              : GivingWayWalker(across, from, 90, across, from + kWalk);
      w.speed = 60;
      walkers.push_back(w);
    }
  }
  return SceneJson({kWalkerModel}, {}, walkers, {-30, -270, 35, -90, 50, 1550}, true, {}, true);
}

std::string DoorwaySceneJson() {
  // Ten walkers in five rows of two pass one gap (160 wide) in a wall to the other side, each to
  // the place mirroring its start.
  constexpr double kGap = 160, kWall = 500;
  const std::vector<std::string> wall = {WallJson(-15, kGap / 2, 15, kWall),
                                         WallJson(-15, -kWall, 15, -kGap / 2)};
  std::vector<Instance> walkers;
  for (int k = 0; k < 10; ++k) {
    const double depth = 250 + (k / 2) * 70, side = (k % 2 - 0.5) * 90;
    walkers.push_back(GivingWayWalker(-depth, side, 0, depth, side));
  }
  return SceneJson({kWalkerModel}, {}, walkers, {0, 0, 35, -90, 50, 950}, true, wall, true);
}

std::string CameraSceneJson() {
  Instance walker;
  walker.heading = 0;
  std::string json = SceneJson({kWalkerModel}, {}, {walker}, {0, 0, 35, 30, 25, 420}, true);
  // The orbit camera above is where "leave camera" returns to.
  const std::string key = "\"distance\": 420}";
  json.replace(
      json.find(key), key.size(),
      "\"distance\": 420,\n             \"cinematic\": \"cameras/walker_orbit.md5camera\"}");
  return json;
}

}  // namespace md5stage::assetgen
