// Dynamic resolution's controller (viewer/render_scale.h) fed tables of frame times: steady
// frames over budget step the scale down to the bound and no further, frames well under budget
// bring it back to 1, frames between the two thresholds hold it (hysteresis), and frames whose
// cost follows the pixels drawn settle on one scale instead of oscillating.
#include "viewer/render_scale.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace md5stage::viewer {
namespace {

struct Row {
  std::string what;
  double minimum;
  double start_ms;  // frames before the measured run: this long each (0: none)
  // The measured run: a frame's time at the current scale.
  std::function<double(double scale)> frame_ms;
  double final_scale;
  int max_changes_in_last_half;  // changes during the second half of the run
};

TEST(RenderScaleControllerTest, StepsDownToTheBoundRecoversAndHolds) {
  const double kBudget = RenderScaleSettings().budget_ms;
  const std::vector<Row> rows = {
      {"steady over budget: down to the bound", 0.5, 0, [=](double) { return 3 * kBudget; }, 0.5,
       0},
      {"steady over budget, bound 0.25", 0.25, 0, [=](double) { return 3 * kBudget; }, 0.25, 0},
      {"bound 1: never steps down", 1.0, 0, [=](double) { return 3 * kBudget; }, 1.0, 0},
      {"under budget after a slow start: back to 1", 0.5, 3 * kBudget,
       [=](double) { return 0.2 * kBudget; }, 1.0, 0},
      {"between the thresholds after a slow start: holds low (hysteresis)", 0.5, 3 * kBudget,
       [=](double) { return 0.7 * kBudget; }, 0.5, 0},
      {"just under budget from the start: stays at 1", 0.5, 0,
       [=](double) { return 0.95 * kBudget; }, 1.0, 0},
      // Cost in proportion to the pixels (scale squared), 1.5 budgets at full size: steps down
      // until it fits, then stays (0.8^2 * 1.5 = 0.96 budgets).
      {"cost follows the pixels: settles at 0.8", 0.25, 0,
       [=](double s) { return 1.5 * kBudget * s * s; }, 0.8, 0},
      // Cost just under twice the recover threshold above the fitting level: never climbs back.
      {"cost follows the pixels, 4 budgets at full size: settles", 0.25, 0,
       [=](double s) { return 4.0 * kBudget * s * s; }, 0.4096, 0},
      {"non-finite and negative times are not counted", 0.5, 0,
       [](double) { return std::numeric_limits<double>::quiet_NaN(); }, 1.0, 0},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(row.what);
    RenderScaleController controller;
    controller.SetMinimum(row.minimum);
    if (row.start_ms > 0) {
      for (int i = 0; i < 400; ++i) controller.Observe(row.start_ms);
      EXPECT_DOUBLE_EQ(controller.scale(), row.minimum) << "the slow start reaches the bound";
    }
    int changes_at_half = 0;
    for (int i = 0; i < 2000; ++i) {
      if (i == 1000) changes_at_half = controller.changes();
      const double scale = controller.Observe(row.frame_ms(controller.scale()));
      ASSERT_GE(scale, row.minimum);
      ASSERT_LE(scale, 1.0);
    }
    EXPECT_NEAR(controller.scale(), row.final_scale, 1e-9);
    EXPECT_LE(controller.changes() - changes_at_half, row.max_changes_in_last_half);
  }
}

TEST(RenderScaleControllerTest, OneStepPerWindowAndTheWindowAfterAChangeIsSkipped) {
  RenderScaleSettings settings;
  RenderScaleController controller(settings);
  controller.SetMinimum(0.25);
  const double slow = 2 * settings.budget_ms;
  for (int i = 0; i < settings.window - 1; ++i) controller.Observe(slow);
  EXPECT_EQ(controller.scale(), 1.0) << "no decision before a window is full";
  controller.Observe(slow);
  EXPECT_DOUBLE_EQ(controller.scale(), settings.step);
  for (int i = 0; i < settings.window; ++i) controller.Observe(slow);
  EXPECT_DOUBLE_EQ(controller.scale(), settings.step) << "the window after a change is skipped";
  for (int i = 0; i < settings.window; ++i) controller.Observe(slow);
  EXPECT_DOUBLE_EQ(controller.scale(), settings.step * settings.step);
  EXPECT_EQ(controller.changes(), 2);
}

TEST(RenderScaleControllerTest, TheMinimumIsClampedAndLiftsTheScale) {
  struct Case {
    double given, minimum;
  };
  for (const Case& c : std::vector<Case>{{0.5, 0.5},
                                         {0.1, 0.25},
                                         {-3, 0.25},
                                         {2, 1.0},
                                         {std::numeric_limits<double>::infinity(), 1.0},
                                         {std::numeric_limits<double>::quiet_NaN(), 1.0}}) {
    SCOPED_TRACE(c.given);
    RenderScaleController controller;
    controller.SetMinimum(c.given);
    EXPECT_EQ(controller.minimum(), c.minimum);
  }
  RenderScaleController controller;
  controller.SetMinimum(0.25);
  for (int i = 0; i < 400; ++i) controller.Observe(100.0);
  EXPECT_DOUBLE_EQ(controller.scale(), 0.25);
  controller.SetMinimum(0.6);
  EXPECT_DOUBLE_EQ(controller.scale(), 0.6) << "a higher bound lifts the scale at once";
}

}  // namespace
}  // namespace md5stage::viewer
