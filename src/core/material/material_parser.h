// Parsers for material decl files (.mtr, Daemon .shader) and skin files (.skin, both the Doom 3
// decl form and Quake-style `surface,image` lines). Structural faults are errors with
// FILE:LINE:COL; unknown keywords are skipped with one warning per material.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "core/common/result.h"
#include "core/material/material.h"

namespace md5stage::material {

struct DeclLimits {
  std::size_t max_file_bytes = std::size_t{32} << 20;
  std::size_t max_token_bytes = 4096;  // Doom 3's lexer stops at 1024; some paths are long
  int max_brace_depth = 32;            // nested { } in a skipped decl or stage
  int max_program_depth = 16;          // nested image programs: addnormals( heightmap( ... ) )
};

// A .mtr or .shader file: every `name { }` block is a material; `material name { }` and
// `skin name { }` are read too; other typed decls (`table`, `particle`, `guide ...`) are skipped.
Result<DeclFile> ParseMaterialFile(std::string_view file_name, std::string_view text,
                                   const DeclLimits& limits = {});

// A .skin file: Doom 3 decls (`skin NAME { [model M] FROM TO ... }`, where untyped blocks are
// skins), or, when its first line is `surface,image`, one Quake-style skin named after the file.
Result<DeclFile> ParseSkinFile(std::string_view file_name, std::string_view text,
                               const DeclLimits& limits = {});

// By extension: .skin files as skins, anything else (.mtr, .shader, .def) as material decls.
Result<DeclFile> ParseDeclFile(std::string_view file_name, std::string_view text,
                               const DeclLimits& limits = {});

// True for the extensions ParseDeclFile reads as decls: mtr, shader, skin (any case).
bool IsDeclFileName(std::string_view file_name);

}  // namespace md5stage::material
