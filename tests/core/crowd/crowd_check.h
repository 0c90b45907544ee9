// Independent checks of crowd motion for the tests: positions on a step's arc computed here (not
// with the job's AdvancePose), and the least distance between two characters over a step found
// by subdividing until each piece is proven clear or a sample is too close.
#pragma once

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/vec2.hpp>

namespace md5stage::testing {

struct StepArc {
  glm::dvec2 start{0.0, 0.0};
  double heading = 0.0;
  double speed = 0.0;
  double curvature = 0.0;
};

// Position after t seconds: the chord of the arc turned so far (2 sin(turn / 2) / curvature
// long, at half the turn), or the distance along the heading on a line.
inline glm::dvec2 ArcPosition(const StepArc& arc, double t) {
  const double s = arc.speed * t;
  const double turn = arc.curvature * s;
  const double chord = arc.curvature == 0.0 ? s : 2.0 * std::sin(0.5 * turn) / arc.curvature;
  const double angle = arc.heading + 0.5 * turn;
  return arc.start + chord * glm::dvec2(std::cos(angle), std::sin(angle));
}

// True when the two characters keep at least `threshold` (less `tolerance`) between them over
// [0, duration]; `closest` receives the least sampled distance.
inline bool StaysApart(const StepArc& a, const StepArc& b, double duration, double threshold,
                       double tolerance, double* closest) {
  const double speed = a.speed + b.speed;
  struct Piece {
    double t0, t1, d0, d1;
  };
  Piece stack[64];
  int top = 0;
  const double d0 = glm::distance(a.start, b.start);
  const double d1 = glm::distance(ArcPosition(a, duration), ArcPosition(b, duration));
  *closest = std::min(d0, d1);
  stack[top++] = {0.0, duration, d0, d1};
  while (top > 0) {
    const Piece p = stack[--top];
    if (p.d0 < threshold - tolerance || p.d1 < threshold - tolerance) return false;
    // Each point moves at most at its speed: a lower bound on the piece.
    if (0.5 * (p.d0 + p.d1 - speed * (p.t1 - p.t0)) >= threshold - tolerance) continue;
    if (p.t1 - p.t0 < duration * 1e-9 || top + 2 > 64) continue;  // as fine as it gets
    const double tm = 0.5 * (p.t0 + p.t1);
    const double dm = glm::distance(ArcPosition(a, tm), ArcPosition(b, tm));
    *closest = std::min(*closest, dm);
    stack[top++] = {p.t0, tm, p.d0, dm};
    stack[top++] = {tm, p.t1, dm, p.d1};
  }
  return true;
}

}  // namespace md5stage::testing
