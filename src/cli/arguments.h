// Parsing the md5stage command's own argument text: whole-field numbers and "X,Y[,H]" tuples,
// shared by the subcommands that take points and poses (turn, plan).
#pragma once

#include <string>
#include <vector>

#include "core/path/pose.h"

namespace md5stage::cli {

// Whole-field number parse: "1.5" yes, "1.5x" and "" no; "nan" and "inf" only when allowed.
bool ParseNumber(const std::string& text, double* out, bool allow_non_finite = false);

std::vector<std::string> Split(const std::string& text, char separator);

// "X,Y" or "X,Y,H": fills values and returns their count (0 when malformed).
int ParseTuple(const std::string& text, double values[3]);

// --from: "X,Y,HEADING" into `pose`; false when malformed.
bool ParseStartPose(const std::string& text, Pose2* pose);

// --to: "X,Y" or "X,Y,HEADING": the point, whether a final heading was given, and which (0
// when not); false when malformed.
bool ParseGoal(const std::string& text, glm::dvec2* point, bool* has_heading, double* heading);

}  // namespace md5stage::cli
