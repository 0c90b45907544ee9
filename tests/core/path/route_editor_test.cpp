// The route editor: anchors ↔ segments (both ways, exactly), pen-tool edits and their handle
// coupling, shape-preserving point insertion, picking of screen points, nearest point on a route.
#include "core/path/route_editor.h"

#include <gtest/gtest.h>

#include <cmath>
#include <glm/geometric.hpp>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace md5stage {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
using Kind = RouteSegment::Kind;

bool OnGrid(glm::dvec2 p) {
  return std::round(p.x * 100.0) / 100.0 == p.x && std::round(p.y * 100.0) / 100.0 == p.y;
}

RouteEditor MustRead(const std::vector<RouteSegment>& segments, bool closed) {
  Result<RouteEditor> editor = RouteEditor::FromSegments(segments, closed);
  EXPECT_TRUE(editor.ok()) << editor.error().ToString();
  return editor.ok() ? std::move(editor).value() : RouteEditor();
}

Route MustBuild(const RouteEditor& editor) {
  Result<Route> route = editor.BuildRoute();
  EXPECT_TRUE(route.ok()) << route.error().ToString();
  return route.ok() ? std::move(route).value() : Route();
}

// Builds an editor from anchors given directly (no rounding involved).
RouteEditor FromAnchors(const std::vector<RouteAnchor>& anchors, bool closed) {
  RouteEditor editor(0.0);
  for (const RouteAnchor& anchor : anchors) {
    const std::size_t i = editor.AddPoint(anchor.position).value();
    if (anchor.has_in) {
      EXPECT_TRUE(editor.MoveHandle(i, HandleSide::kIn, anchor.in_point, true));
    }
    if (anchor.has_out) {
      EXPECT_TRUE(editor.MoveHandle(i, HandleSide::kOut, anchor.out_point, true));
    }
  }
  if (closed) {
    EXPECT_TRUE(editor.Close());
  }
  return editor;
}

RouteAnchor Corner(glm::dvec2 p) {
  RouteAnchor anchor;
  anchor.position = p;
  return anchor;
}

RouteAnchor WithHandles(glm::dvec2 p, const glm::dvec2* in, const glm::dvec2* out) {
  RouteAnchor anchor = Corner(p);
  if (in != nullptr) {
    anchor.has_in = true;
    anchor.in_point = *in;
  }
  if (out != nullptr) {
    anchor.has_out = true;
    anchor.out_point = *out;
  }
  return anchor;
}

// ---- Anchors → segments ------------------------------------------------------------------------

struct ConversionCase {
  const char* name;
  std::vector<RouteAnchor> anchors;
  bool closed;
  std::vector<RouteSegment> expected;
};

TEST(RouteEditorSegments, FollowThePenToolRules) {
  const glm::dvec2 out_a(1, 1), in_b(3, 1), out_b(5, -1), in_a(-1, -1), zero_b(4, 0);
  const ConversionCase cases[] = {
      {"empty", {}, false, {}},
      {"one_anchor", {Corner({1, 2})}, false, {}},
      {"two_corners_make_a_line",
       {Corner({0, 0}), Corner({4, 0})},
       false,
       {RouteSegment::Line({0, 0}, {4, 0})}},
      {"out_handle_only",
       {WithHandles({0, 0}, nullptr, &out_a), Corner({4, 0})},
       false,
       {RouteSegment::Bezier({0, 0}, {1, 1}, {4, 0}, {4, 0})}},
      {"in_handle_only",
       {Corner({0, 0}), WithHandles({4, 0}, &in_b, nullptr)},
       false,
       {RouteSegment::Bezier({0, 0}, {0, 0}, {3, 1}, {4, 0})}},
      {"both_handles_and_an_unused_in_handle_at_the_start",
       {WithHandles({0, 0}, &in_a, &out_a), WithHandles({4, 0}, &in_b, &out_b), Corner({8, 0})},
       false,
       {RouteSegment::Bezier({0, 0}, {1, 1}, {3, 1}, {4, 0}),
        RouteSegment::Bezier({4, 0}, {5, -1}, {8, 0}, {8, 0})}},
      {"zero_length_handles_still_make_a_bezier",
       {Corner({0, 0}), WithHandles({4, 0}, &zero_b, nullptr)},
       false,
       {RouteSegment::Bezier({0, 0}, {0, 0}, {4, 0}, {4, 0})}},
      {"closed_triangle",
       {Corner({0, 0}), Corner({4, 0}), Corner({0, 3})},
       true,
       {RouteSegment::Line({0, 0}, {4, 0}), RouteSegment::Line({4, 0}, {0, 3}),
        RouteSegment::Line({0, 3}, {0, 0})}},
      {"closing_segment_uses_the_first_in_handle",
       {WithHandles({0, 0}, &in_a, nullptr), Corner({4, 0})},
       true,
       {RouteSegment::Line({0, 0}, {4, 0}),
        RouteSegment::Bezier({4, 0}, {4, 0}, {-1, -1}, {0, 0})}},
      {"closed_with_two_points_goes_there_and_back",
       {Corner({0, 0}), Corner({4, 0})},
       true,
       {RouteSegment::Line({0, 0}, {4, 0}), RouteSegment::Line({4, 0}, {0, 0})}},
  };
  for (const ConversionCase& c : cases) {
    SCOPED_TRACE(c.name);
    const RouteEditor editor = FromAnchors(c.anchors, c.closed);
    EXPECT_EQ(editor.Segments(), c.expected);
    EXPECT_EQ(editor.segment_count(), c.expected.size());
    EXPECT_EQ(editor.BuildRoute().ok(), !c.expected.empty());
  }
}

TEST(RouteEditorSegments, ToSegmentsReusesAndReplacesTheOutput) {
  RouteEditor editor;
  editor.AddPoint({0, 0});
  editor.AddPoint({1, 0});
  std::vector<RouteSegment> out(7, RouteSegment::Line({9, 9}, {8, 8}));
  editor.ToSegments(&out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0], RouteSegment::Line({0, 0}, {1, 0}));
}

// ---- Segments → anchors ------------------------------------------------------------------------

struct RoundTripCase {
  const char* name;
  std::vector<RouteSegment> segments;
  bool closed;
  std::size_t anchors;
};

TEST(RouteEditorFromSegments, ReproducesTheSegmentsExactly) {
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> coordinate(-1000.0, 1000.0);
  auto point = [&] { return glm::dvec2(coordinate(random), coordinate(random)); };
  std::vector<RouteSegment> wandering;
  glm::dvec2 at = point();
  for (int i = 0; i < 50; ++i) {
    const glm::dvec2 next = point();
    if (i % 3 == 0) {
      wandering.push_back(RouteSegment::Line(at, next));
    } else {
      wandering.push_back(RouteSegment::Bezier(at, point(), point(), next));
    }
    at = next;
  }
  std::vector<RouteSegment> wandering_loop = wandering;
  wandering_loop.push_back(RouteSegment::Bezier(at, point(), point(), wandering[0].start()));

  const RoundTripCase cases[] = {
      {"one_line", {RouteSegment::Line({0, 0}, {3, 4})}, false, 2},
      {"zero_length_line", {RouteSegment::Line({1, 1}, {1, 1})}, false, 2},
      {"coincident_points",
       {RouteSegment::Line({1, 1}, {1, 1}), RouteSegment::Bezier({1, 1}, {1, 1}, {1, 1}, {1, 1}),
        RouteSegment::Line({1, 1}, {2, 1})},
       false,
       4},
      {"bezier_with_both_handles_on_its_anchors",
       {RouteSegment::Bezier({0, 0}, {0, 0}, {5, 0}, {5, 0})},
       false,
       2},
      {"line_bezier_line",
       {RouteSegment::Line({0, 0}, {1, 0}), RouteSegment::Bezier({1, 0}, {2, 0}, {2, 1}, {3, 1}),
        RouteSegment::Line({3, 1}, {4, 1})},
       false,
       4},
      {"closed_square",
       {RouteSegment::Line({0, 0}, {1, 0}), RouteSegment::Line({1, 0}, {1, 1}),
        RouteSegment::Line({1, 1}, {0, 1}), RouteSegment::Line({0, 1}, {0, 0})},
       true,
       4},
      {"closed_single_bezier_loop",
       {RouteSegment::Bezier({0, 0}, {5, 5}, {-5, 5}, {0, 0})},
       true,
       1},
      {"closed_two_beziers",
       {RouteSegment::Bezier({0, 0}, {1, 1}, {2, 1}, {3, 0}),
        RouteSegment::Bezier({3, 0}, {2, -1}, {1, -1}, {0, 0})},
       true,
       2},
      {"random_doubles_open", wandering, false, 51},
      {"random_doubles_closed", wandering_loop, true, 51},
  };
  for (const RoundTripCase& c : cases) {
    SCOPED_TRACE(c.name);
    const RouteEditor editor = MustRead(c.segments, c.closed);
    EXPECT_EQ(editor.anchor_count(), c.anchors);
    EXPECT_EQ(editor.closed(), c.closed);
    EXPECT_EQ(editor.Segments(), c.segments);  // bit for bit
  }
}

TEST(RouteEditorFromSegments, RejectsWhatRouteBuildRejects) {
  EXPECT_FALSE(RouteEditor::FromSegments({}, false).ok());
  const Result<RouteEditor> gap = RouteEditor::FromSegments(
      {RouteSegment::Line({0, 0}, {1, 0}), RouteSegment::Line({2, 0}, {3, 0})}, false);
  ASSERT_FALSE(gap.ok());
  EXPECT_NE(gap.error().message.find("segments[1] starts at"), std::string::npos);
  EXPECT_FALSE(RouteEditor::FromSegments({RouteSegment::Line({0, 0}, {1, 0})}, true).ok());
  EXPECT_FALSE(RouteEditor::FromSegments({RouteSegment::Line({0, kNaN}, {1, 0})}, false).ok());
}

TEST(RouteEditorFromSegments, GuessesAnchorKindsFromTheHandles) {
  struct Case {
    const char* name;
    glm::dvec2 in_control;  // control point before the middle anchor at (10, 0)
    glm::dvec2 out_control;
    AnchorKind expected;
  };
  const Case cases[] = {
      {"mirrored", {7, -1}, {13, 1}, AnchorKind::kSymmetric},
      {"collinear_different_lengths", {7, -1}, {16, 2}, AnchorKind::kSmooth},
      {"bent", {7, -1}, {13, 2}, AnchorKind::kCorner},
      {"same_side", {13, 1}, {16, 2}, AnchorKind::kCorner},
      {"zero_length_in", {10, 0}, {13, 1}, AnchorKind::kCorner},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const RouteEditor editor =
        MustRead({RouteSegment::Bezier({0, 0}, {3, 3}, c.in_control, {10, 0}),
                  RouteSegment::Bezier({10, 0}, c.out_control, {17, 3}, {20, 0})},
                 false);
    ASSERT_EQ(editor.anchor_count(), 3u);
    EXPECT_EQ(editor.anchors()[1].kind, c.expected);
    EXPECT_EQ(editor.anchors()[0].kind, AnchorKind::kCorner);  // one handle only
  }
  // A line next to a curve: one handle, a corner.
  const RouteEditor mixed = MustRead(
      {RouteSegment::Line({0, 0}, {1, 0}), RouteSegment::Bezier({1, 0}, {2, 0}, {2, 1}, {3, 1})},
      false);
  EXPECT_FALSE(mixed.anchors()[1].has_in);
  EXPECT_TRUE(mixed.anchors()[1].has_out);
  EXPECT_EQ(mixed.anchors()[1].kind, AnchorKind::kCorner);
}

// ---- Edits -------------------------------------------------------------------------------------

TEST(RouteEditorEdits, PlacedPointsAreRoundedToTheGrid) {
  RouteEditor editor;
  const std::size_t a = editor.AddPoint({1.234567, -2.3449}).value();
  EXPECT_EQ(editor.anchors()[a].position, glm::dvec2(123 / 100.0, -234 / 100.0));
  const std::size_t b = editor.AddSmoothPoint({10.0049, 3.0}, {2.0061, -0.3333}).value();
  const RouteAnchor& smooth = editor.anchors()[b];
  EXPECT_EQ(smooth.position, glm::dvec2(10.0, 3.0));
  EXPECT_EQ(smooth.out_point, glm::dvec2(1201 / 100.0, 267 / 100.0));
  EXPECT_EQ(smooth.in_point, glm::dvec2(799 / 100.0, 333 / 100.0));
  EXPECT_TRUE(editor.MoveAnchor(a, {5.55555, 5.55555}));
  EXPECT_TRUE(editor.MoveHandle(b, HandleSide::kOut, {12.3456, 4.5678}));
  EXPECT_TRUE(editor.MoveAnchor(b, {20.017, 30.023}));
  for (const RouteSegment& segment : editor.Segments()) {
    for (const glm::dvec2& p : segment.points) EXPECT_TRUE(OnGrid(p)) << p.x << ", " << p.y;
  }

  RouteEditor exact(0.0);
  EXPECT_EQ(exact.AddPoint({1.234567, -2.3449}).value(), 0u);
  EXPECT_EQ(exact.anchors()[0].position, glm::dvec2(1.234567, -2.3449));
  EXPECT_EQ(RouteEditor(kNaN).snap_scale(), 0.0);
  EXPECT_EQ(RouteEditor(10.0).Snap({0.26, -0.34}), glm::dvec2(0.3, -0.3));
}

TEST(RouteEditorEdits, PenToolDrawingSession) {
  // Click, click-and-drag, click, click on the first point: a closed route.
  RouteEditor editor;
  editor.AddPoint({0, 0});
  const std::size_t smooth = editor.AddPoint({10, 0}).value();
  EXPECT_TRUE(editor.DragOut(smooth, {1, 0}));  // drag in progress...
  EXPECT_TRUE(editor.DragOut(smooth, {3, 2}));  // ...released here
  editor.AddPoint({10, 10});
  EXPECT_TRUE(editor.Close());
  const std::vector<RouteSegment> expected = {
      RouteSegment::Bezier({0, 0}, {0, 0}, {7, -2}, {10, 0}),
      RouteSegment::Bezier({10, 0}, {13, 2}, {10, 10}, {10, 10}),
      RouteSegment::Line({10, 10}, {0, 0})};
  EXPECT_EQ(editor.Segments(), expected);
  EXPECT_EQ(editor.anchors()[smooth].kind, AnchorKind::kSymmetric);
  EXPECT_TRUE(editor.BuildRoute().ok());
}

TEST(RouteEditorEdits, DragOutOfZeroRemovesTheHandles) {
  RouteEditor editor;
  editor.AddSmoothPoint({0, 0}, {2, 2});
  editor.AddPoint({5, 0});
  EXPECT_TRUE(editor.DragOut(0, {0.004, -0.002}));  // rounds to nothing
  EXPECT_FALSE(editor.anchors()[0].has_in);
  EXPECT_FALSE(editor.anchors()[0].has_out);
  EXPECT_EQ(editor.anchors()[0].kind, AnchorKind::kCorner);
  EXPECT_EQ(editor.Segment(0), RouteSegment::Line({0, 0}, {5, 0}));
}

TEST(RouteEditorEdits, MoveAnchorCarriesItsHandles) {
  RouteEditor editor;
  editor.AddPoint({0, 0});
  editor.AddSmoothPoint({10, 0}, {2, 1});
  editor.AddPoint({20, 0});
  EXPECT_TRUE(editor.MoveAnchor(1, {11, 5}));
  const RouteAnchor& moved = editor.anchors()[1];
  EXPECT_EQ(moved.position, glm::dvec2(11, 5));
  EXPECT_EQ(moved.out_offset(), glm::dvec2(2, 1));
  EXPECT_EQ(moved.in_offset(), glm::dvec2(-2, -1));
  EXPECT_EQ(editor.Segment(0), RouteSegment::Bezier({0, 0}, {0, 0}, {9, 4}, {11, 5}));
  // Handles off the grid (split off a curve) keep their offsets exactly.
  ASSERT_TRUE(editor.InsertPoint(1, 1.0 / 3.0).ok());
  const glm::dvec2 offset = editor.anchors()[2].out_offset();
  EXPECT_TRUE(editor.MoveAnchor(2, {30, 30}));
  EXPECT_NEAR(editor.anchors()[2].out_offset().x, offset.x, 1e-12);
  EXPECT_NEAR(editor.anchors()[2].out_offset().y, offset.y, 1e-12);
}

struct HandleCase {
  const char* name;
  AnchorKind kind;
  bool break_mirror;
  glm::dvec2 new_out;
  glm::dvec2 expected_in;
  AnchorKind expected_kind;
};

TEST(RouteEditorEdits, MoveHandleCouplesByAnchorKind) {
  // Anchor at (10, 0) with in (7, 0) and out (12, 0).
  const HandleCase cases[] = {
      {"symmetric_mirrors",
       AnchorKind::kSymmetric,
       false,
       {10, 4},
       {10, -4},
       AnchorKind::kSymmetric},
      {"smooth_keeps_its_length",
       AnchorKind::kSmooth,
       false,
       {10, 4},
       {10, -3},
       AnchorKind::kSmooth},
      {"smooth_turns_round", AnchorKind::kSmooth, false, {6, 0}, {13, 0}, AnchorKind::kSmooth},
      {"corner_leaves_the_other", AnchorKind::kCorner, false, {10, 4}, {7, 0}, AnchorKind::kCorner},
      {"break_mirror", AnchorKind::kSymmetric, true, {10, 4}, {7, 0}, AnchorKind::kCorner},
      {"smooth_zero_length_keeps_the_other",
       AnchorKind::kSmooth,
       false,
       {10, 0},
       {7, 0},
       AnchorKind::kSmooth},
      {"symmetric_zero_length_collapses_both",
       AnchorKind::kSymmetric,
       false,
       {10, 0},
       {10, 0},
       AnchorKind::kSymmetric},
  };
  for (const HandleCase& c : cases) {
    SCOPED_TRACE(c.name);
    RouteEditor editor;
    editor.AddPoint({0, 0});
    editor.AddPoint({10, 0});
    editor.AddPoint({20, 0});
    ASSERT_TRUE(editor.MoveHandle(1, HandleSide::kIn, {7, 0}, true));
    ASSERT_TRUE(editor.MoveHandle(1, HandleSide::kOut, {12, 0}, true));
    ASSERT_TRUE(editor.SetKind(1, c.kind));
    ASSERT_TRUE(editor.MoveHandle(1, HandleSide::kOut, c.new_out, c.break_mirror));
    const RouteAnchor& anchor = editor.anchors()[1];
    EXPECT_EQ(anchor.out_point, c.new_out);
    EXPECT_NEAR(anchor.in_point.x, c.expected_in.x, 1e-12);
    EXPECT_NEAR(anchor.in_point.y, c.expected_in.y, 1e-12);
    EXPECT_EQ(anchor.kind, c.expected_kind);
    // Both segments stay Beziers (zero-length handles included).
    EXPECT_EQ(editor.Segment(0).kind, Kind::kBezier);
    EXPECT_EQ(editor.Segment(1).kind, Kind::kBezier);
  }
}

TEST(RouteEditorEdits, SmoothPointsStayFreeOfKinks) {
  // Collinear handles of different lengths: the route must not flag a kink at the anchor.
  RouteEditor editor;
  editor.AddPoint({0, 0});
  editor.AddSmoothPoint({10, 0}, {3, 0});
  editor.AddPoint({20, 10});
  ASSERT_TRUE(editor.SetKind(1, AnchorKind::kSmooth));
  ASSERT_TRUE(editor.MoveHandle(1, HandleSide::kIn, {10 - 1.37, 0.91}));
  ASSERT_TRUE(editor.MoveHandle(1, HandleSide::kOut, {13.11, -2.07}));
  const Route route = MustBuild(editor);
  const double at_anchor = route.segment_start_distance(1);
  for (const TightStretch& stretch : route.FindTightStretches(1e-3)) {
    EXPECT_FALSE(stretch.start_distance <= at_anchor + 1e-9 &&
                 stretch.end_distance >= at_anchor - 1e-9)
        << "tight at the smooth anchor, radius " << stretch.min_radius;
  }
}

TEST(RouteEditorEdits, HandlesCanBeRemoved) {
  RouteEditor editor;
  editor.AddSmoothPoint({0, 0}, {1, 1});
  editor.AddSmoothPoint({5, 0}, {1, -1});
  EXPECT_TRUE(editor.RemoveHandle(1, HandleSide::kIn));
  EXPECT_EQ(editor.anchors()[1].kind, AnchorKind::kCorner);
  EXPECT_EQ(editor.Segment(0), RouteSegment::Bezier({0, 0}, {1, 1}, {5, 0}, {5, 0}));
  EXPECT_TRUE(editor.RemoveHandles(0));
  EXPECT_EQ(editor.Segment(0), RouteSegment::Line({0, 0}, {5, 0}));
}

TEST(RouteEditorEdits, DeletePoint) {
  RouteEditor editor;
  editor.AddPoint({0, 0});
  editor.AddSmoothPoint({5, 5}, {1, 0});
  editor.AddPoint({10, 0});
  editor.AddPoint({15, 0});
  // The neighbours of a deleted point are joined with their own handles.
  EXPECT_TRUE(editor.DeletePoint(2));
  EXPECT_EQ(editor.Segments(),
            (std::vector<RouteSegment>{RouteSegment::Bezier({0, 0}, {0, 0}, {4, 5}, {5, 5}),
                                       RouteSegment::Bezier({5, 5}, {6, 5}, {15, 0}, {15, 0})}));
  EXPECT_TRUE(editor.DeletePoint(1));
  EXPECT_EQ(editor.Segments(), (std::vector<RouteSegment>{RouteSegment::Line({0, 0}, {15, 0})}));
  EXPECT_FALSE(editor.DeletePoint(2).ok());
  EXPECT_TRUE(editor.DeletePoint(1));  // the last point
  EXPECT_EQ(editor.anchor_count(), 1u);
  EXPECT_TRUE(editor.Segments().empty());
  EXPECT_FALSE(editor.BuildRoute().ok());
  EXPECT_TRUE(editor.DeletePoint(0));
  EXPECT_EQ(editor.anchor_count(), 0u);
  EXPECT_FALSE(editor.DeletePoint(0).ok());
}

TEST(RouteEditorEdits, CloseAndOpen) {
  RouteEditor editor;
  EXPECT_FALSE(editor.Close().ok());
  editor.AddPoint({0, 0});
  EXPECT_FALSE(editor.Close().ok());
  editor.AddPoint({4, 0});
  EXPECT_TRUE(editor.Close());
  EXPECT_EQ(editor.segment_count(), 2u);
  editor.AddPoint({4, 3});  // grows the loop before its closing segment
  EXPECT_EQ(editor.Segments(), (std::vector<RouteSegment>{RouteSegment::Line({0, 0}, {4, 0}),
                                                          RouteSegment::Line({4, 0}, {4, 3}),
                                                          RouteSegment::Line({4, 3}, {0, 0})}));
  // Opening at the middle segment makes the route start after it.
  EXPECT_TRUE(editor.OpenAt(1));
  EXPECT_FALSE(editor.closed());
  EXPECT_EQ(editor.Segments(), (std::vector<RouteSegment>{RouteSegment::Line({4, 3}, {0, 0}),
                                                          RouteSegment::Line({0, 0}, {4, 0})}));
  EXPECT_FALSE(editor.OpenAt(0).ok());  // already open
  EXPECT_TRUE(editor.Close());
  EXPECT_FALSE(editor.OpenAt(3).ok());
  EXPECT_TRUE(editor.OpenAt(2));  // the closing segment: same as Open()
  EXPECT_EQ(editor.anchors()[0].position, glm::dvec2(4, 3));
  EXPECT_TRUE(editor.Close());
  // A closed route that loses points down to one opens.
  EXPECT_TRUE(editor.DeletePoint(0));
  EXPECT_TRUE(editor.closed());
  EXPECT_TRUE(editor.DeletePoint(0));
  EXPECT_FALSE(editor.closed());
  EXPECT_TRUE(editor.Open());
}

TEST(RouteEditorEdits, RejectsBadIndicesAndNonFiniteInput) {
  RouteEditor editor;
  editor.AddPoint({0, 0});
  editor.AddPoint({1, 0});
  EXPECT_FALSE(editor.AddPoint({kNaN, 0}).ok());
  EXPECT_FALSE(editor.AddPoint({0, kInf}).ok());
  EXPECT_FALSE(editor.AddSmoothPoint({0, 0}, {kNaN, 1}).ok());
  EXPECT_FALSE(editor.DragOut(2, {1, 1}).ok());
  EXPECT_FALSE(editor.DragOut(0, {kInf, 1}).ok());
  EXPECT_FALSE(editor.MoveAnchor(5, {1, 1}).ok());
  EXPECT_FALSE(editor.MoveAnchor(0, {kNaN, 1}).ok());
  EXPECT_FALSE(editor.MoveHandle(9, HandleSide::kIn, {1, 1}).ok());
  EXPECT_FALSE(editor.MoveHandle(0, HandleSide::kIn, {kNaN, 1}).ok());
  EXPECT_FALSE(editor.RemoveHandle(2, HandleSide::kIn).ok());
  EXPECT_FALSE(editor.RemoveHandles(2).ok());
  EXPECT_FALSE(editor.SetKind(2, AnchorKind::kSmooth).ok());
  EXPECT_EQ(editor.anchor_count(), 2u);
  EXPECT_EQ(editor.Segments(), (std::vector<RouteSegment>{RouteSegment::Line({0, 0}, {1, 0})}));
  editor.Clear();
  EXPECT_EQ(editor.anchor_count(), 0u);
}

TEST(RouteEditorEdits, RandomSessionsKeepAValidRouteThatReadsBack) {
  std::mt19937_64 random(5);
  std::uniform_real_distribution<double> coordinate(-20.0, 20.0);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  auto point = [&] { return glm::dvec2(coordinate(random), coordinate(random)); };
  for (int session = 0; session < 40; ++session) {
    SCOPED_TRACE(session);
    RouteEditor editor;
    for (int step = 0; step < 60; ++step) {
      const std::size_t n = editor.anchor_count();
      const std::size_t any = n > 0 ? random() % n : 0;
      switch (random() % 10) {
        case 0:
        case 1:
          editor.AddPoint(point());
          break;
        case 2:
          editor.AddSmoothPoint(point(), point() * 0.2);
          break;
        case 3:
          if (n > 0) editor.MoveAnchor(any, point());
          break;
        case 4:
          if (n > 0) {
            editor.MoveHandle(any, random() % 2 ? HandleSide::kIn : HandleSide::kOut, point(),
                              random() % 4 == 0);
          }
          break;
        case 5:
          if (n > 2) editor.DeletePoint(any);
          break;
        case 6:
          if (editor.segment_count() > 0) {
            editor.InsertPoint(random() % editor.segment_count(), 0.05 + 0.9 * unit(random));
          }
          break;
        case 7:
          if (random() % 2) {
            editor.Close();
          } else {
            editor.Open();
          }
          break;
        case 8:
          if (n > 0) editor.DragOut(any, point() * 0.1);
          break;
        default:
          if (n > 0) editor.RemoveHandles(any);
          break;
      }
      EXPECT_EQ(editor.BuildRoute().ok(), editor.segment_count() > 0);
      if (editor.closed()) {
        EXPECT_GE(editor.anchor_count(), 2u);
      }
      if (editor.segment_count() == 0) continue;
      const std::vector<RouteSegment> segments = editor.Segments();
      const Result<RouteEditor> read = RouteEditor::FromSegments(segments, editor.closed());
      ASSERT_TRUE(read.ok()) << read.error().ToString();
      EXPECT_EQ(read.value().Segments(), segments);
      // Symmetric and smooth anchors have opposite handles: no kink where they join two curves.
      for (const RouteAnchor& anchor : editor.anchors()) {
        if (anchor.kind == AnchorKind::kCorner || !anchor.has_in || !anchor.has_out) continue;
        const glm::dvec2 in = anchor.in_offset(), out = anchor.out_offset();
        if (glm::length(in) == 0.0 || glm::length(out) == 0.0) continue;
        EXPECT_LT(std::abs(Cross(in, out)), 1e-9 * glm::length(in) * glm::length(out));
        EXPECT_LT(glm::dot(in, out), 0.0);
      }
    }
  }
}

// ---- Insertion ---------------------------------------------------------------------------------

// Both routes pass through the same points at the same distances.
void ExpectSameShape(const Route& a, const Route& b) {
  ASSERT_NEAR(a.length(), b.length(), 1e-9 * std::max(1.0, a.length()));
  for (int i = 0; i <= 400; ++i) {
    const double d = a.length() * i / 400.0;
    const glm::dvec2 pa = a.Sample(d).position;
    const glm::dvec2 pb = b.Sample(d).position;
    EXPECT_LT(glm::length(pa - pb), 1e-8) << "at distance " << d;
  }
}

struct InsertCase {
  const char* name;
  std::vector<RouteSegment> segments;
  bool closed;
  std::size_t segment;
  double t;
};

TEST(RouteEditorInsert, KeepsTheShape) {
  const std::vector<RouteSegment> mixed = {
      RouteSegment::Line({0, 0}, {10, 0}),
      RouteSegment::Bezier({10, 0}, {15, 0}, {20, 5}, {20, 10}),
      RouteSegment::Bezier({20, 10}, {20, 10}, {10, 20}, {0, 10})};  // missing out handle
  const std::vector<RouteSegment> loop = {RouteSegment::Bezier({0, 0}, {5, -3}, {10, -3}, {10, 0}),
                                          RouteSegment::Line({10, 0}, {10, 5}),
                                          RouteSegment::Bezier({10, 5}, {6, 9}, {-3, 4}, {0, 0})};
  const InsertCase cases[] = {
      {"line_middle", mixed, false, 0, 0.5},
      {"bezier_third", mixed, false, 1, 1.0 / 3.0},
      {"bezier_near_start", mixed, false, 1, 1e-6},
      {"bezier_with_missing_handle", mixed, false, 2, 0.7},
      {"closing_bezier", loop, true, 2, 0.25},
      {"closing_line_of_square",
       {RouteSegment::Line({0, 0}, {1, 0}), RouteSegment::Line({1, 0}, {0, 0})},
       true,
       1,
       0.5},
      {"cusp_bezier", {RouteSegment::Bezier({0, 0}, {10, 0}, {0, 0}, {10, 0})}, false, 0, 0.5},
  };
  for (const InsertCase& c : cases) {
    SCOPED_TRACE(c.name);
    RouteEditor editor = MustRead(c.segments, c.closed);
    const Route before = MustBuild(editor);
    const Result<std::size_t> inserted = editor.InsertPoint(c.segment, c.t);
    ASSERT_TRUE(inserted.ok()) << inserted.error().ToString();
    EXPECT_EQ(inserted.value(), c.segment + 1);
    EXPECT_EQ(editor.segment_count(), c.segments.size() + 1);
    const Route after = MustBuild(editor);
    ExpectSameShape(before, after);
    const RouteAnchor& anchor = editor.anchors()[inserted.value()];
    const bool line = c.segments[c.segment].kind == Kind::kLine;
    EXPECT_EQ(anchor.has_in, !line);
    EXPECT_EQ(anchor.kind, line ? AnchorKind::kCorner : AnchorKind::kSmooth);
    // Untouched segments keep their exact points.
    for (std::size_t i = 0; i < c.segments.size(); ++i) {
      if (i == c.segment) continue;
      EXPECT_EQ(editor.Segment(i < c.segment ? i : i + 1), c.segments[i]);
    }
  }
}

TEST(RouteEditorInsert, SymmetricNeighboursBecomeSmooth) {
  RouteEditor editor;
  editor.AddSmoothPoint({0, 0}, {2, 2});
  editor.AddSmoothPoint({10, 0}, {2, -2});
  ASSERT_TRUE(editor.InsertPoint(0, 0.5).ok());
  EXPECT_EQ(editor.anchors()[0].kind, AnchorKind::kSmooth);
  EXPECT_EQ(editor.anchors()[2].kind, AnchorKind::kSmooth);
  EXPECT_NEAR(glm::length(editor.anchors()[0].out_offset()), 0.5 * std::sqrt(8.0), 1e-12);
}

TEST(RouteEditorInsert, RejectsEndsAndBadSegments) {
  RouteEditor editor;
  editor.AddPoint({0, 0});
  EXPECT_FALSE(editor.InsertPoint(0, 0.5).ok());  // no segment yet
  editor.AddPoint({1, 0});
  for (double t : {0.0, 1.0, -0.1, 1.5, kNaN}) {
    EXPECT_FALSE(editor.InsertPoint(0, t).ok()) << t;
  }
  EXPECT_FALSE(editor.InsertPoint(1, 0.5).ok());
  EXPECT_EQ(editor.anchor_count(), 2u);
}

// ---- Picking -----------------------------------------------------------------------------------

TEST(RouteEditorPick, NearestScreenPointWithinTheRadius) {
  const glm::dvec2 points[] = {{100, 100}, {105, 100}, {kNaN, 100}, {200, 200}, {105, 100}};
  struct Case {
    const char* name;
    glm::dvec2 cursor;
    double radius;
    int expected;
  };
  const Case cases[] = {
      {"exact_hit", {100, 100}, 8, 0},
      {"nearer_second", {104, 101}, 8, 1},  // ties with index 4: the lower index wins
      {"outside", {150, 150}, 8, -1},
      {"on_the_radius", {208, 200}, 8, 3},
      {"just_outside", {208.01, 200}, 8, -1},
      {"zero_radius_exact", {200, 200}, 0, 3},
      {"negative_radius", {200, 200}, -1, -1},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(PickNearestScreenPoint(points, 5, c.cursor, c.radius), c.expected);
  }
  EXPECT_EQ(PickNearestScreenPoint(nullptr, 0, {0, 0}, 10), -1);
}

TEST(RouteEditorPick, EditPointsThroughAProjection) {
  RouteEditor editor;
  editor.AddPoint({0, 0});
  editor.AddSmoothPoint({10, 0}, {2, 1});
  ASSERT_TRUE(editor.MoveHandle(0, HandleSide::kOut, {0, 0}));  // zero length, on its anchor
  std::vector<RouteEditPoint> points;
  editor.ListEditPoints(&points);
  ASSERT_EQ(points.size(), 5u);
  EXPECT_EQ(points[0].kind, RouteEditPoint::Kind::kAnchor);
  EXPECT_EQ(points[2].kind, RouteEditPoint::Kind::kOutHandle);
  EXPECT_EQ(points[2].anchor, 0u);
  EXPECT_EQ(points[3].kind, RouteEditPoint::Kind::kInHandle);
  EXPECT_EQ(points[3].ground, glm::dvec2(8, -1));
  // Screen = 20 px per unit, y down, origin at (400, 300); points with x > 11 are "behind".
  auto project = [](glm::dvec2 ground) {
    if (ground.x > 11.0) return glm::dvec2(kNaN);
    return glm::dvec2(400 + 20 * ground.x, 300 - 20 * ground.y);
  };
  auto pick = [&](glm::dvec2 cursor) { return PickEditPoint(points, project, cursor, 10.0); };
  EXPECT_EQ(pick({401, 301}), 0);   // the anchor, not its zero-length handle
  EXPECT_EQ(pick({562, 318}), 3);   // in handle at (560, 320)
  EXPECT_EQ(pick({640, 280}), -1);  // out handle (12, 1) is not visible
  EXPECT_EQ(pick({596, 300}), 1);   // anchor (10, 0) at (600, 300)
}

// ---- Nearest point and hover -------------------------------------------------------------------

TEST(RouteNearestPoint, AgreesWithDenseSampling) {
  const Route route =
      MustBuild(MustRead({RouteSegment::Line({0, 0}, {10, 0}),
                          RouteSegment::Bezier({10, 0}, {20, 0}, {20, 10}, {10, 10}),
                          RouteSegment::Bezier({10, 10}, {0, 10}, {15, 3}, {-5, 5}),
                          RouteSegment::Line({-5, 5}, {-5, 5})},
                         false));
  std::mt19937_64 random(3);
  std::uniform_real_distribution<double> coordinate(-10.0, 25.0);
  constexpr int kDense = 100000;
  for (int q = 0; q < 25; ++q) {
    const glm::dvec2 query(coordinate(random), coordinate(random));
    double best_gap = kInf, best_distance = 0.0;
    for (int i = 0; i <= kDense; ++i) {
      const double d = route.length() * i / kDense;
      const double gap = glm::length(route.Sample(d).position - query);
      if (gap < best_gap) {
        best_gap = gap;
        best_distance = d;
      }
    }
    const RouteNearestPoint nearest = NearestPointOnRoute(route, query);
    SCOPED_TRACE(q);
    // Never worse than dense sampling, and at most a sampling step better.
    EXPECT_LE(nearest.gap, best_gap + 1e-12);
    EXPECT_NEAR(nearest.gap, best_gap, 4e-4);
    EXPECT_NEAR(nearest.distance, best_distance, 1e-3);
    EXPECT_NEAR(glm::length(nearest.position - query), nearest.gap, 1e-12);
    EXPECT_LT(glm::length(route.Sample(nearest.distance).position - nearest.position), 1e-7);
  }
}

TEST(RouteNearestPoint, LinesCirclesAndEdgeCases) {
  const Route line = MustBuild(MustRead({RouteSegment::Line({0, 0}, {10, 0})}, false));
  struct Case {
    glm::dvec2 query;
    double distance;
    double gap;
  };
  for (const Case& c : {Case{{3, 4}, 3, 4}, Case{{-3, 4}, 0, 5}, Case{{13, -4}, 10, 5}}) {
    const RouteNearestPoint nearest = NearestPointOnRoute(line, c.query);
    EXPECT_DOUBLE_EQ(nearest.distance, c.distance);
    EXPECT_DOUBLE_EQ(nearest.gap, c.gap);
    EXPECT_EQ(nearest.radius, kInf);
  }
  EXPECT_EQ(NearestPointOnRoute(line, {kNaN, 0}).gap, kInf);
  EXPECT_EQ(NearestPointOnRoute(Route(), {0, 0}).gap, kInf);
  // A quarter circle of radius 5 around the origin: the nearest point to (6, 6) is on the
  // diagonal, and the radius of curvature there is about 5 (the cubic strays < 2.5%).
  const double k = 0.5522847498307936 * 5;
  const Route arc =
      MustBuild(MustRead({RouteSegment::Bezier({5, 0}, {5, k}, {k, 5}, {0, 5})}, false));
  const RouteNearestPoint on_arc = NearestPointOnRoute(arc, {6, 6});
  EXPECT_NEAR(on_arc.position.x, on_arc.position.y, 1e-9);
  EXPECT_NEAR(on_arc.distance, 0.5 * arc.length(), 1e-9);
  EXPECT_NEAR(on_arc.radius, 5.0, 0.125);
  // A route of zero length answers its start.
  const Route dot = MustBuild(MustRead({RouteSegment::Line({1, 1}, {1, 1})}, false));
  const RouteNearestPoint at_dot = NearestPointOnRoute(dot, {4, 5});
  EXPECT_EQ(at_dot.position, glm::dvec2(1, 1));
  EXPECT_DOUBLE_EQ(at_dot.gap, 5.0);
}

TEST(RouteHover, FindStretchAtTheHoveredDistance) {
  const Route square = MustBuild(
      MustRead({RouteSegment::Line({0, 0}, {10, 0}), RouteSegment::Line({10, 0}, {10, 10}),
                RouteSegment::Line({10, 10}, {0, 0})},
               true));
  std::vector<TightStretch> stretches = square.FindTightStretches(1.0);
  ASSERT_EQ(stretches.size(), 3u);  // kinks at 10, 20 and the closing one at the length
  struct Case {
    const char* name;
    double distance;
    double tolerance;
    int expected;
  };
  const double length = square.length();
  const Case cases[] = {
      {"on_a_kink", 10.0, 0.0, 0},
      {"near_a_kink", 10.3, 0.5, 0},
      {"too_far", 10.6, 0.5, -1},
      {"nearer_of_two", 19.0, 20.0, 1},
      {"closing_kink_from_the_start", 0.2, 0.5, 2},
      {"closing_kink_at_the_end", length - 0.2, 0.5, 2},
      {"nan", kNaN, 1.0, -1},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(FindStretchAt(square, stretches, c.distance, c.tolerance), c.expected);
  }
  // A stretch with extent contains the distances inside it.
  stretches = {{2.0, 5.0, 0.5, 3.0}};
  EXPECT_EQ(FindStretchAt(square, stretches, 4.0, 0.0), 0);
  const Route open = MustBuild(MustRead({RouteSegment::Line({0, 0}, {10, 0})}, false));
  EXPECT_EQ(FindStretchAt(open, {{10.0, 10.0, 0.0, 10.0}}, 0.2, 0.5), -1);  // no wrap when open
}

}  // namespace
}  // namespace md5stage
