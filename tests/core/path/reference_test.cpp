// The path core against ../shared/reference: tables computed by independent implementations
// (Dubins: Walker's library + a second solver; arc + line: brute force; Bezier: adaptive
// Gauss-Legendre at 1e-12). Row flags mark the cases where an exact assertion is unsafe.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string>

#include "../../shared_data.h"
#include "core/path/cubic_bezier.h"
#include "core/path/obstacle_planner.h"
#include "core/path/turn_path.h"
#include "reference_csv.h"

namespace md5stage {
namespace {

using testing::CsvRow;
using testing::CsvTable;
using testing::ReadCsv;
using testing::ReferencePath;

std::string Scientific(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", value);
  return text;
}

double AngleGap(double a, double b) { return std::abs(WrapPi(a - b)); }

CsvTable LoadOrSkip(const std::string& name) { return ReadCsv(ReferencePath(name)); }

#define SKIP_IF_EMPTY(table) MD5STAGE_SKIP_WITHOUT_SHARED((table).size() != 0)

// ---- Bezier: arc length and constant-speed sampling --------------------------------------------

TEST(BezierReference, LengthsAndPointsAtEachTenth) {
  const CsvTable table = LoadOrSkip("bezier_ref.csv");
  SKIP_IF_EMPTY(table);
  ASSERT_EQ(table.size(), 200u);
  double worst_length = 0.0, worst_point = 0.0, worst_tangent = 0.0;
  for (std::size_t i = 0; i < table.size(); ++i) {
    const CsvRow row = table[i];
    SCOPED_TRACE("curve " + row.text("curve_id") + " (" + row.text("category") + ")");
    const CubicBezier curve({glm::dvec2(row.number("p0x"), row.number("p0y")),
                             glm::dvec2(row.number("p1x"), row.number("p1y")),
                             glm::dvec2(row.number("p2x"), row.number("p2y")),
                             glm::dvec2(row.number("p3x"), row.number("p3y"))});
    const double length = row.number("length");
    const double length_error = std::abs(curve.length() - length) / length;
    worst_length = std::max(worst_length, length_error);
    EXPECT_LE(length_error, 1e-9);
    for (int k = 0; k <= 10; ++k) {
      const std::string suffix = (k < 10 ? "_0" : "_") + std::to_string(k);
      const Pose2 pose = curve.Sample(length * k / 10.0);
      const glm::dvec2 expected(row.number("x" + suffix), row.number("y" + suffix));
      const double point_error =
          std::hypot(pose.position.x - expected.x, pose.position.y - expected.y) / length;
      worst_point = std::max(worst_point, point_error);
      EXPECT_LE(point_error, 1e-6) << "at tenth " << k;
      const double tangent_error = AngleGap(pose.heading, row.number("tan" + suffix));
      worst_tangent = std::max(worst_tangent, tangent_error);
      EXPECT_LE(tangent_error, 1e-6) << "at tenth " << k;
      // The inverse agrees with the forward map at the reference parameter.
      EXPECT_NEAR(curve.DistanceAtParameter(row.number("t" + suffix)), length * k / 10.0,
                  1e-8 * length)
          << "at tenth " << k;
    }
  }
  RecordProperty("worst_length_relative_error", Scientific(worst_length));
  RecordProperty("worst_point_error_over_length", Scientific(worst_point));
  RecordProperty("worst_tangent_error_rad", Scientific(worst_tangent));
}

// The table would catch the approximations the issue rules out: the naive length and t = s/L are
// far off on this data set, so passing the test above is not an accident of easy curves.
TEST(BezierReference, NaiveApproximationsWouldFail) {
  const CsvTable table = LoadOrSkip("bezier_ref.csv");
  SKIP_IF_EMPTY(table);
  int naive_length_wrong = 0, naive_parameter_wrong = 0;
  for (std::size_t i = 0; i < table.size(); ++i) {
    const CsvRow row = table[i];
    const glm::dvec2 p[4] = {{row.number("p0x"), row.number("p0y")},
                             {row.number("p1x"), row.number("p1y")},
                             {row.number("p2x"), row.number("p2y")},
                             {row.number("p3x"), row.number("p3y")}};
    auto distance = [](glm::dvec2 a, glm::dvec2 b) { return std::hypot(a.x - b.x, a.y - b.y); };
    const double naive =
        0.5 * (distance(p[0], p[1]) + distance(p[1], p[2]) + distance(p[2], p[3])) +
        0.5 * distance(p[0], p[3]);
    const double length = row.number("length");
    if (std::abs(naive - length) > 1e-6 * length) ++naive_length_wrong;
    const CubicBezier curve({p[0], p[1], p[2], p[3]});
    for (int k = 1; k < 10; ++k) {
      const std::string suffix = "_0" + std::to_string(k);
      const glm::dvec2 at_naive_t = curve.Position(k / 10.0);
      if (distance(at_naive_t, {row.number("x" + suffix), row.number("y" + suffix)}) >
          1e-6 * length) {
        ++naive_parameter_wrong;
        break;
      }
    }
  }
  EXPECT_GT(naive_length_wrong, 150);
  EXPECT_GT(naive_parameter_wrong, 150);
}

// ---- Dubins: shortest path with a final heading ------------------------------------------------

constexpr const char* kWordColumns[6] = {"len_LSL", "len_LSR", "len_RSL",
                                         "len_RSR", "len_RLR", "len_LRL"};
constexpr const char* kWordNames[6] = {"LSL", "LSR", "RSL", "RSR", "RLR", "LRL"};

TEST(DubinsReference, BestLengthTypeAndSegmentsOnUnflaggedRows) {
  const CsvTable table = LoadOrSkip("dubins_ref.csv");
  SKIP_IF_EMPTY(table);
  ASSERT_EQ(table.size(), 2000u);
  int checked = 0;
  double worst = 0.0;
  for (std::size_t i = 0; i < table.size(); ++i) {
    const CsvRow row = table[i];
    if (row.flagged()) continue;
    SCOPED_TRACE("case " + row.text("case_id") + " (" + row.text("category") + ")");
    const Pose2 from{{row.number("x0"), row.number("y0")}, row.number("theta0")};
    const Pose2 to{{row.number("x1"), row.number("y1")}, row.number("theta1")};
    const double rho = row.number("rho");
    const TurnPath path = DubinsPath(from, to, rho);
    ASSERT_TRUE(path.ok());
    const double expected = row.number("best_length");
    const double error = std::abs(path.length - expected) / std::max(1.0, expected);
    worst = std::max(worst, error);
    EXPECT_LE(error, 1e-9);
    EXPECT_STREQ(TurnPathTypeName(path.type), row.text("best_type").c_str());
    ASSERT_EQ(path.segment_count, 3);
    for (int s = 0; s < 3; ++s) {
      EXPECT_NEAR(path.segments[s].length, row.number("seg" + std::to_string(s + 1)),
                  1e-9 * std::max(1.0, expected))
          << "segment " << s;
    }
    ++checked;
  }
  EXPECT_GE(checked, 1500);
  RecordProperty("worst_best_length_relative_error", Scientific(worst));
}

TEST(DubinsReference, PerWordLengthsWhereBothSolversAgree) {
  const CsvTable table = LoadOrSkip("dubins_ref.csv");
  SKIP_IF_EMPTY(table);
  for (std::size_t i = 0; i < table.size(); ++i) {
    const CsvRow row = table[i];
    if (row.has_flag("fp_sensitive")) continue;
    SCOPED_TRACE("case " + row.text("case_id") + " (" + row.text("category") + ")");
    const Pose2 from{{row.number("x0"), row.number("y0")}, row.number("theta0")};
    const Pose2 to{{row.number("x1"), row.number("y1")}, row.number("theta1")};
    const double rho = row.number("rho");
    const std::array<double, 6> lengths = DubinsWordLengths(from, to, rho);
    for (int w = 0; w < 6; ++w) {
      const std::string word = kWordNames[w];
      if (row.has_flag("wordlen_diff_" + word) || row.has_flag("feas_mismatch_" + word)) continue;
      const double expected = row.number(kWordColumns[w]);
      const double scale = std::max(1.0, rho);
      if (std::isnan(expected) && std::isnan(lengths[w])) continue;
      if (!std::isnan(expected) &&
          std::abs(lengths[w] - expected) <= 1e-9 * std::max(1.0, expected)) {
        continue;
      }
      // Exactly tangent circles (p² = 0, or a three-arc middle circle at 4r) and outer arcs one
      // rounding short of a full turn are where the reference's rounding went the other way: ours
      // must then be a valid path (it reaches the target) and no longer.
      const TurnPath path = DubinsPathOfType(
          from, to, rho, static_cast<TurnPathType>(static_cast<int>(TurnPathType::kLSL) + w));
      ASSERT_TRUE(path.ok()) << word << ": expected " << expected;
      EXPECT_NEAR(path.end.position.x, to.position.x, 1e-6 * scale) << word;
      EXPECT_NEAR(path.end.position.y, to.position.y, 1e-6 * scale) << word;
      EXPECT_LE(AngleGap(path.end.heading, to.heading), 1e-6) << word;
      if (!std::isnan(expected)) {
        const double full_turns = (expected - lengths[w]) / (kTwoPi * rho);
        EXPECT_NEAR(full_turns, std::round(full_turns), 1e-9) << word;
        EXPECT_GE(full_turns, 0.5) << word;
      }
    }
  }
}

// Every row, flagged or not: the path is valid (it reaches the target pose) and no longer than the
// reference's shortest (rounding may make a reference add a full circle; it may not make ours).
TEST(DubinsReference, EveryRowReachesTheTargetAndIsNoLongerThanTheReference) {
  const CsvTable table = LoadOrSkip("dubins_ref.csv");
  SKIP_IF_EMPTY(table);
  for (std::size_t i = 0; i < table.size(); ++i) {
    const CsvRow row = table[i];
    SCOPED_TRACE("case " + row.text("case_id") + " (" + row.text("category") + ") " +
                 row.text("flags"));
    const Pose2 from{{row.number("x0"), row.number("y0")}, row.number("theta0")};
    const Pose2 to{{row.number("x1"), row.number("y1")}, row.number("theta1")};
    const double rho = row.number("rho");
    const TurnPath path = DubinsPath(from, to, rho);
    ASSERT_TRUE(path.ok());
    const double scale = std::max({1.0, rho, path.length});
    EXPECT_NEAR(path.end.position.x, to.position.x, 1e-7 * scale);
    EXPECT_NEAR(path.end.position.y, to.position.y, 1e-7 * scale);
    EXPECT_LE(AngleGap(path.end.heading, to.heading), 1e-7);
    const double shortest = std::min(row.number("best_length"), row.number("ref_length"));
    EXPECT_LE(path.length, shortest + 1e-9 * scale);
    if (row.text("flags") == "tie" && path.length > 0.0) {
      // A plain tie (per-word values agree): the type is one of the tied words.
      EXPECT_NEAR(path.length, row.number("ref_length"), 1e-7 * scale);
      EXPECT_NE(row.text("ref_types").find(TurnPathTypeName(path.type)), std::string::npos)
          << TurnPathTypeName(path.type) << " not among " << row.text("ref_types");
    }
  }
}

// ---- Arc + line: turn on the circle, then straight ---------------------------------------------

// With no obstacles the planner returns the obstacle-free path, so its lengths are the
// reference's to 1e-9, every row (flagged ones too: the planner must not fail on them).
TEST(DubinsReference, ObstaclePlannerWithoutObstaclesMatchesEveryRow) {
  const CsvTable table = LoadOrSkip("dubins_ref.csv");
  SKIP_IF_EMPTY(table);
  const ObstacleSet none;
  ObstaclePlannerScratch scratch;
  PlannedPath path;
  ObstaclePlanResult result;
  int checked = 0;
  for (std::size_t i = 0; i < table.size(); ++i) {
    const CsvRow row = table[i];
    SCOPED_TRACE("case " + row.text("case_id") + " (" + row.text("category") + ")");
    ObstaclePlanJob job;
    job.start = {{row.number("x0"), row.number("y0")}, row.number("theta0")};
    job.goal = {row.number("x1"), row.number("y1")};
    job.has_goal_heading = true;
    job.goal_heading = row.number("theta1");
    job.turning_radius = row.number("rho");
    job.obstacles = &none;
    job.scratch = &scratch;
    job.path = &path;
    job.result = &result;
    if (!job.Validate().ok()) continue;  // radii beyond the planner's 1e15 limit
    ASSERT_TRUE(job.Run().ok());
    ASSERT_TRUE(result.found()) << result.reason;
    EXPECT_TRUE(result.direct);
    const double expected = row.number("best_length");
    EXPECT_LE(std::abs(path.length - expected), 1e-9 * std::max(1.0, expected));
    for (const TurnSegment& segment : path.segments) EXPECT_GT(segment.length, 0.0);
    ++checked;
  }
  EXPECT_GE(checked, 1900);
}

TEST(ArcLineReference, SidesLengthsAnglesAndMidPoints) {
  const CsvTable table = LoadOrSkip("arcline_ref.csv");
  SKIP_IF_EMPTY(table);
  ASSERT_EQ(table.size(), 2000u);
  double worst_length = 0.0, worst_mid = 0.0;
  for (std::size_t i = 0; i < table.size(); ++i) {
    const CsvRow row = table[i];
    SCOPED_TRACE("case " + row.text("case_id") + " (" + row.text("category") + ") " +
                 row.text("flags"));
    const glm::dvec2 from(row.number("x0"), row.number("y0"));
    const glm::dvec2 to(row.number("x1"), row.number("y1"));
    const double heading = row.number("heading0");
    const double r = row.number("r");
    const double scale = std::max({1.0, r, row.number("best_length")});

    TurnPath sides[2];
    const char* side_names[2] = {"L", "R"};
    for (int s = 0; s < 2; ++s) {
      const std::string name = side_names[s];
      sides[s] =
          ArcLinePathOnSide(from, heading, r, to, s == 0 ? TurnSide::kLeft : TurnSide::kRight);
      const bool reachable = row.text(name + "_reachable") == "1";
      ASSERT_EQ(sides[s].ok(), reachable) << name;
      if (!reachable) continue;
      EXPECT_EQ(sides[s].type, s == 0 ? TurnPathType::kLS : TurnPathType::kRS);
      const double length_error = std::abs(sides[s].length - row.number(name + "_length")) / scale;
      worst_length = std::max(worst_length, length_error);
      EXPECT_LE(length_error, 1e-9) << name;
      ASSERT_EQ(sides[s].segment_count, 2);
      EXPECT_NEAR(std::abs(sides[s].segments[0].sweep), row.number(name + "_arc_angle"), 1e-9)
          << name;
      EXPECT_NEAR(sides[s].segments[1].length, row.number(name + "_line_length"), 1e-9 * scale)
          << name;
      EXPECT_NEAR(sides[s].end.position.x, to.x, 1e-9 * scale) << name;
      EXPECT_NEAR(sides[s].end.position.y, to.y, 1e-9 * scale) << name;
    }

    const TurnPath best = ArcLinePath(from, heading, r, to);
    ASSERT_TRUE(best.ok());
    EXPECT_NEAR(best.length, row.number("best_length"), 1e-9 * scale);
    const std::string side = row.text("best_side");
    if (side == "L") {
      EXPECT_EQ(best.type, TurnPathType::kLS);
    } else if (side == "R") {
      EXPECT_EQ(best.type, TurnPathType::kRS);
    }

    // Mid point: on a tie either side's mid point is right.
    const glm::dvec2 mid(row.number("mid_x"), row.number("mid_y"));
    const double mid_heading = row.number("mid_heading");
    double mid_error = 1e300;
    for (const TurnPath& candidate :
         side == "tie" ? std::vector<TurnPath>{sides[0], sides[1]} : std::vector<TurnPath>{best}) {
      const Pose2 pose = SampleTurnPath(candidate, 0.5 * candidate.length);
      const double error =
          std::max(std::hypot(pose.position.x - mid.x, pose.position.y - mid.y) / scale,
                   AngleGap(pose.heading, mid_heading));
      mid_error = std::min(mid_error, error);
    }
    worst_mid = std::max(worst_mid, mid_error);
    EXPECT_LE(mid_error, 1e-9);
  }
  RecordProperty("worst_length_error", Scientific(worst_length));
  RecordProperty("worst_mid_error", Scientific(worst_mid));
}

}  // namespace
}  // namespace md5stage
