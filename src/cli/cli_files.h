// What the md5stage subcommands do alike with files: print a parser's warnings, write an output
// file whole, and read a mesh into a model, each reporting to stderr in the parsers' format.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/anim/model.h"
#include "core/common/result.h"

namespace md5stage::cli {

// One line a diagnostic on stderr (`file:line:col: warning: ...`).
void PrintDiagnostics(const std::vector<Diagnostic>& diagnostics);

// Writes `bytes` to `path` whole; false (the error printed, naming the path) when it cannot.
bool WriteBytes(const std::string& path, const std::string& bytes);

// The .md5mesh at `mesh_path` read and parsed (its warnings printed), or null (the error printed).
std::shared_ptr<const anim::Model> LoadMeshModel(const std::string& mesh_path);

}  // namespace md5stage::cli
