#include "core/material/material_parser.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/material/decl_lexer.h"
#include "core/md5/decimal_parser.h"

namespace md5stage::material {
namespace {

using Type = Token::Type;

bool InList(std::string_view lower, std::initializer_list<std::string_view> list) {
  return std::find(list.begin(), list.end(), lower) != list.end();
}

// Keywords that take no arguments: a line may hold several (`noshadows twosided`).
bool IsMaterialFlag(std::string_view k) {
  return InList(k, {"noshadows",
                    "noselfshadow",
                    "noportalfog",
                    "forceshadows",
                    "forceoverlays",
                    "backsided",
                    "foglight",
                    "blendlight",
                    "ambientlight",
                    "mirror",
                    "nofog",
                    "unsmoothedtangents",
                    "forceopaque",
                    "decal_macro",
                    "clamp",
                    "zeroclamp",
                    "alphazeroclamp",
                    "noclamp",
                    "solid",
                    "water",
                    "playerclip",
                    "monsterclip",
                    "moveableclip",
                    "ikclip",
                    "blood",
                    "trigger",
                    "aassolid",
                    "aasobstacle",
                    "flashlight_trigger",
                    "nonsolid",
                    "nullnormal",
                    "areaportal",
                    "qer_nocarve",
                    "discrete",
                    "nofragment",
                    "slick",
                    "collision",
                    "noimpact",
                    "nodamage",
                    "ladder",
                    "nosteps",
                    "metal",
                    "stone",
                    "flesh",
                    "wood",
                    "cardboard",
                    "liquid",
                    "glass",
                    "plastic",
                    "ricochet",
                    "surftype10",
                    "surftype11",
                    "surftype12",
                    "surftype13",
                    "surftype14",
                    "surftype15",
                    "entitymergable",
                    "nopicmip",
                    "nomipmaps",
                    "portal",
                    "islightgemsurf",
                    "suppressinsubview",
                    "nooverlays",
                    "forceopaque"});
}

// Keywords whose arguments run to the end of the line; read by no one here.
bool IsMaterialKeywordWithArguments(std::string_view k) {
  return InList(k,
                {"qer_editorimage", "qer_trans",        "description",       "sort",
                 "spectrum",        "deform",           "decalinfo",         "renderbump",
                 "renderbumpflat",  "guisurf",          "lightfalloffimage", "lightfalloffcubemap",
                 "ambientrimcolor", "surfaceparm",      "imagemindimension", "deformvertexes",
                 "tesssize",        "fogparms",         "skyparms",          "privatepolygonoffset",
                 "editorimage",     "lightcarvesurface"}) ||
         k.rfind("q3map_", 0) == 0 || k.rfind("qer_", 0) == 0;
}

bool IsStageFlag(std::string_view k) {
  return InList(k, {"nearest",          "linear",          "clamp",        "zeroclamp",
                    "alphazeroclamp",   "noclamp",         "uncompressed", "highquality",
                    "forcehighquality", "nopicmip",        "vertexcolor",  "inversevertexcolor",
                    "colored",          "ignorealphatest", "ignoredepth",  "maskred",
                    "maskgreen",        "maskblue",        "maskalpha",    "maskcolor",
                    "maskdepth",        "depthwrite",      "detail",       "nomipmaps"});
}

bool IsStageKeywordWithArguments(std::string_view k) {
  return InList(k, {"texgen",
                    "scroll",
                    "translate",
                    "scale",
                    "centerscale",
                    "shear",
                    "rotate",
                    "red",
                    "green",
                    "blue",
                    "alpha",
                    "rgb",
                    "rgba",
                    "color",
                    "privatepolygonoffset",
                    "vertexprogram",
                    "fragmentprogram",
                    "program",
                    "vertexparm",
                    "fragmentmap",
                    "megatexture",
                    "cubemap",
                    "cameracubemap",
                    "videomap",
                    "soundmap",
                    "remoterendermap",
                    "mirrorrendermap",
                    "blendfunc",
                    "rgbgen",
                    "alphagen",
                    "tcmod",
                    "tcgen",
                    "depthfunc",
                    "depthfade",
                    "animmap",
                    "normalscale",
                    "normalformat",
                    "texturesize"});
}

// The map keywords of Doom 3 (bumpmap), RBDOOM (normalmap) and Daemon (normalMap, heightMap).
bool MapKeywordKind(std::string_view k, MapKind* kind) {
  if (k == "diffusemap") {
    *kind = MapKind::kDiffuse;
  } else if (k == "bumpmap" || k == "normalmap") {
    *kind = MapKind::kNormal;
  } else if (k == "specularmap") {
    *kind = MapKind::kSpecular;
  } else if (k == "heightmap") {
    *kind = MapKind::kHeight;
  } else {
    return false;
  }
  return true;
}

bool ParseNumber(std::string_view text, float* out) {
  if (text.empty()) return false;
  const char* end = text.data() + text.size();
  const char* p = md5::ParseDecimalFloat(text.data(), end, out);
  return p == end && std::isfinite(*out);
}

class DeclParser {
 public:
  DeclParser(std::string_view file_name, std::string_view text, const DeclLimits& limits)
      : lexer_(file_name, text, limits.max_token_bytes), limits_(limits) {
    file_.file = std::string(file_name);
  }

  Result<DeclFile> ParseDecls(bool skins_by_default) {
    Token name;
    while (lexer_.Next(&name) && name.type != Type::kEnd) {
      if (name.Is(';')) continue;
      if (!name.IsName()) return Fail(lexer_.FailExpected("a decl name", name));
      Token next;
      if (!lexer_.Peek(&next)) break;
      if (next.Is('{')) {
        lexer_.Next(&next);
        if (skins_by_default ? !ParseSkinBody(name, next) : !ParseMaterialBody(name, next)) break;
        continue;
      }
      const std::string type = ToLower(name.text);
      if (next.IsName() && (type == "guide" || type == "inlineguide")) {
        // Quake 4 / TDM: `guide NAME TEMPLATE( args )` on one line, no braces.
        SkipRestOfLine(name.where.line);
        ++file_.skipped_decls;
        continue;
      }
      if (!next.IsName()) return Fail(lexer_.FailExpected("'{' after the decl name", next));
      Token decl_name = next, open;
      lexer_.Next(&next);
      if (!lexer_.Next(&open)) break;
      if (type == "table") {
        // `table NAME { [clamp] [snap] { values } }`
        while (open.type == Type::kWord) {
          if (!lexer_.Next(&open)) break;
        }
      }
      if (!open.Is('{')) {
        return Fail(lexer_.FailExpected(
            "'{' after " + std::string(name.text) + " " + Describe(decl_name), open));
      }
      if (type == "material") {
        if (!ParseMaterialBody(decl_name, open)) break;
      } else if (type == "skin") {
        if (!ParseSkinBody(decl_name, open)) break;
      } else {
        if (!SkipBlock(open)) break;
        ++file_.skipped_decls;
      }
    }
    if (!lexer_.ok()) return lexer_.error();
    return std::move(file_);
  }

  Result<DeclFile> ParseQuakeSkin(std::string_view file_name) {
    Skin skin;
    skin.file = file_.file;
    skin.quake_style = true;
    std::string_view base = file_name.substr(file_name.find_last_of("/\\") + 1);
    skin.name = std::string(base.substr(0, base.find_last_of('.')));
    Token surface;
    while (lexer_.Next(&surface) && surface.type != Type::kEnd) {
      skin.where = skin.remaps.empty() ? surface.where : skin.where;
      Token comma, image;
      if (!surface.IsName() || !lexer_.Peek(&comma) || !comma.Is(',')) {
        if (!lexer_.ok()) break;
        file_.warnings.push_back(MakeWarning(
            file_.file, surface.where.line, surface.where.column,
            "expected SURFACE,IMAGE, found " + Describe(surface) + "; the line is skipped"));
        SkipRestOfLine(surface.where.line);
        continue;
      }
      lexer_.Next(&comma);
      if (!lexer_.Peek(&image)) break;
      SkinRemap remap;
      remap.from = std::string(surface.text);
      remap.where = surface.where;
      if (image.IsName() && image.where.line == surface.where.line) {
        lexer_.Next(&image);
        remap.to = std::string(image.text);
      }
      // `tag_weapon,` lines name tags (no image): nothing to remap.
      if (!remap.to.empty()) skin.remaps.push_back(std::move(remap));
      SkipRestOfLine(surface.where.line);
    }
    if (!lexer_.ok()) return lexer_.error();
    file_.skins.push_back(std::move(skin));
    return std::move(file_);
  }

 private:
  static std::string Describe(const Token& token) { return DeclLexer::Describe(token); }

  Result<DeclFile> Fail(bool) { return lexer_.error(); }

  bool FailUnclosed(const char* what, const Token& name, const Token& open, const Token& found) {
    return lexer_.FailAt(found.where,
                         "expected '}' closing " + std::string(what) + " " + Describe(name) +
                             " (opened at " + std::to_string(open.where.line) + ":" +
                             std::to_string(open.where.column) + "), found " + Describe(found));
  }

  // Skips the tokens after a keyword to the end of its line (and on while ( or [ are open),
  // never past a brace; returns the text skipped.
  std::string_view SkipRestOfLine(int line) {
    int depth = 0;
    const char* first = nullptr;
    const char* last = nullptr;
    Token token;
    while (lexer_.Peek(&token) && token.type != Type::kEnd) {
      if (depth == 0 && token.where.line != line) break;
      if (token.Is('{') || token.Is('}')) break;
      if (token.Is('(') || token.Is('[')) ++depth;
      if ((token.Is(')') || token.Is(']')) && depth > 0) --depth;
      lexer_.Next(&token);
      if (first == nullptr) first = token.begin;
      last = token.end;
    }
    return first == nullptr ? std::string_view() : std::string_view(first, last - first);
  }

  // After `open` ('{'): skips to its matching '}'.
  bool SkipBlock(const Token& open) {
    int depth = 1;
    Token token;
    while (depth > 0) {
      if (!lexer_.Next(&token)) return false;
      if (token.type == Type::kEnd) {
        return lexer_.FailAt(token.where, "expected '}' closing the block opened at " +
                                              std::to_string(open.where.line) + ":" +
                                              std::to_string(open.where.column) +
                                              ", found end of file");
      }
      if (token.Is('{') && ++depth > limits_.max_brace_depth) {
        return lexer_.FailAt(token.where, "expected blocks nested at most " +
                                              std::to_string(limits_.max_brace_depth) +
                                              " deep, found deeper");
      }
      if (token.Is('}')) --depth;
    }
    return true;
  }

  struct Unknown {
    int count = 0;
    std::string first;
    md5::SourceLocation where;
  };

  void NoteUnknown(Unknown* unknown, const Token& keyword) {
    if (unknown->count++ == 0) {
      unknown->first = Describe(keyword);
      unknown->where = keyword.where;
    }
  }

  // IMAGE | NAME( ARG, ... ), where an argument is a number or a program.
  bool ParseProgram(int depth, bool allow_number, ImageProgram* out) {
    Token token;
    if (!lexer_.Next(&token)) return false;
    if (depth > limits_.max_program_depth) {
      return lexer_.FailAt(token.where, "expected image programs nested at most " +
                                            std::to_string(limits_.max_program_depth) +
                                            " deep, found deeper");
    }
    if (!token.IsName()) return lexer_.FailExpected("an image", token);
    out->where = token.where;
    out->text = std::string(token.text);
    Token open;
    if (token.type == Type::kWord && lexer_.Peek(&open) && open.Is('(')) {
      lexer_.Next(&open);
      const std::string function = ToLower(token.text);
      out->op = function == "addnormals"  ? ImageProgram::Op::kAddNormals
                : function == "heightmap" ? ImageProgram::Op::kHeightMap
                                          : ImageProgram::Op::kFunction;
      if (out->op != ImageProgram::Op::kFunction) out->text = function;
      while (true) {
        out->args.emplace_back();
        if (!ParseProgram(depth + 1, true, &out->args.back())) return false;
        Token separator;
        if (!lexer_.Next(&separator)) return false;
        if (separator.Is(')')) break;
        if (!separator.Is(',')) {
          return lexer_.FailExpected("',' or ')' in " + Describe(token) + "( ... )", separator);
        }
      }
      return CheckArity(token, *out);
    }
    if (!lexer_.ok()) return false;
    float number = 0.0f;
    if (allow_number && token.type == Type::kWord && ParseNumber(token.text, &number)) {
      out->op = ImageProgram::Op::kNumber;
      out->number = number;
    }
    return true;
  }

  bool CheckArity(const Token& name, const ImageProgram& program) {
    auto is_image = [](const ImageProgram& p) { return p.op != ImageProgram::Op::kNumber; };
    bool fits = true;
    const char* form = "";
    if (program.op == ImageProgram::Op::kAddNormals) {
      form = "addnormals( IMAGE, IMAGE )";
      fits = program.args.size() == 2 && is_image(program.args[0]) && is_image(program.args[1]);
    } else if (program.op == ImageProgram::Op::kHeightMap) {
      form = "heightmap( IMAGE, SCALE )";
      fits = program.args.size() == 2 && is_image(program.args[0]) && !is_image(program.args[1]);
    }
    if (fits) return true;
    return lexer_.FailAt(name.where, std::string("expected ") + form + ", found " +
                                         std::to_string(program.args.size()) +
                                         " arguments: " + program.ToString());
  }

  // alphaTest N (or an expression, whose text is kept).
  void ParseAlphaTest(const Token& keyword, Material* material) {
    Token value;
    if (!lexer_.Peek(&value)) return;
    float number = 0.0f;
    const bool is_number = value.type == Type::kWord && value.where.line == keyword.where.line &&
                           ParseNumber(value.text, &number);
    if (is_number) lexer_.Next(&value);
    Token after;
    const bool more = lexer_.Peek(&after) && after.type != Type::kEnd &&
                      after.where.line == keyword.where.line && !after.Is('}') && !after.Is('{');
    if (is_number && !more) {
      material->alpha_test = number;
      return;
    }
    const std::string_view rest = SkipRestOfLine(keyword.where.line);
    std::string text = is_number ? std::string(value.text) : std::string();
    if (!rest.empty()) text += (text.empty() ? "" : " ") + std::string(rest);
    material->alpha_test_expression = text;
    if (!material->alpha_test) material->alpha_test = 0.5f;  // the usual threshold
  }

  // A keyword both levels share; false when it is none of them.
  bool ParseCommonKeyword(const std::string& k, const Token& keyword, Material* material) {
    if (k == "twosided") {
      material->two_sided = true;
    } else if (k == "translucent") {
      material->translucent = true;
    } else if (k == "alphatest") {
      ParseAlphaTest(keyword, material);
    } else if (k == "cull") {
      Token mode;
      if (lexer_.Peek(&mode) && mode.type == Type::kWord && mode.where.line == keyword.where.line) {
        lexer_.Next(&mode);
        const std::string m = ToLower(mode.text);
        if (m == "none" || m == "disable" || m == "twosided") material->two_sided = true;
      }
    } else if (k == "alphafunc") {  // Quake 3: GT0, LT128, GE128
      Token mode;
      if (lexer_.Peek(&mode) && mode.type == Type::kWord && mode.where.line == keyword.where.line) {
        lexer_.Next(&mode);
        material->alpha_test = EqualsIgnoreCase(mode.text, "GT0") ? 0.0f : 0.5f;
      }
    } else if (k == "polygonoffset") {  // an optional number
      Token value;
      float number = 0.0f;
      if (lexer_.Peek(&value) && value.type == Type::kWord &&
          value.where.line == keyword.where.line && ParseNumber(value.text, &number)) {
        lexer_.Next(&value);
      }
    } else {
      return false;
    }
    return true;
  }

  bool ParseShortcut(MapKind kind, const Token& keyword, Material* material) {
    Stage stage;
    stage.kind = kind;
    stage.blend = ToLower(keyword.text);
    stage.shortcut = true;
    stage.has_image = true;
    stage.where = keyword.where;
    if (!ParseProgram(0, false, &stage.image)) return false;
    material->stages.push_back(std::move(stage));
    return true;
  }

  bool ParseStage(const Token& open, const Token& name, Material* material, Unknown* unknown) {
    Stage stage;
    stage.where = open.where;
    std::vector<Stage> inline_maps;  // Daemon: `{ diffuseMap X normalMap X_n }`
    Token keyword;
    while (true) {
      if (!lexer_.Next(&keyword)) return false;
      if (keyword.Is('}')) break;
      if (keyword.type == Type::kEnd) return FailUnclosed("the stage of", name, open, keyword);
      if (keyword.Is(';')) continue;
      if (keyword.Is('{')) {
        NoteUnknown(unknown, keyword);
        if (!SkipBlock(keyword)) return false;
        continue;
      }
      if (keyword.type != Type::kWord) {
        NoteUnknown(unknown, keyword);
        SkipRestOfLine(keyword.where.line);
        continue;
      }
      const std::string k = ToLower(keyword.text);
      MapKind kind;
      if (k == "blend") {
        Token mode;
        if (!lexer_.Next(&mode)) return false;
        if (!mode.IsName()) return lexer_.FailExpected("a blend mode after 'blend'", mode);
        stage.blend = ToLower(mode.text);
        Token comma;
        if (lexer_.Peek(&comma) && comma.Is(',')) {
          lexer_.Next(&comma);
          if (!lexer_.Next(&mode)) return false;
          if (!mode.IsName()) return lexer_.FailExpected("a second blend factor", mode);
          stage.blend += ", " + ToLower(mode.text);
        }
        MapKeywordKind(stage.blend, &stage.kind);
        if (stage.kind == MapKind::kHeight) stage.kind = MapKind::kOther;
      } else if (k == "map" || k == "clampmap") {
        stage.image = ImageProgram();
        if (!ParseProgram(0, false, &stage.image)) return false;
        stage.has_image = true;
      } else if (MapKeywordKind(k, &kind)) {
        Stage map;
        map.kind = kind;
        map.blend = k;
        map.shortcut = true;
        map.has_image = true;
        map.where = keyword.where;
        if (!ParseProgram(0, false, &map.image)) return false;
        inline_maps.push_back(std::move(map));
      } else if (k == "if") {
        stage.conditional = true;
        SkipRestOfLine(keyword.where.line);
      } else if (ParseCommonKeyword(k, keyword, material)) {
      } else if (IsStageFlag(k)) {
      } else if (IsStageKeywordWithArguments(k)) {
        SkipRestOfLine(keyword.where.line);
      } else {
        NoteUnknown(unknown, keyword);
        SkipRestOfLine(keyword.where.line);
      }
      if (!lexer_.ok()) return false;
    }
    for (Stage& map : inline_maps) {
      map.conditional = stage.conditional;
      material->stages.push_back(std::move(map));
    }
    if (inline_maps.empty() || stage.has_image) material->stages.push_back(std::move(stage));
    return true;
  }

  bool ParseMaterialBody(const Token& name, const Token& open) {
    Material material;
    material.name = std::string(name.text);
    material.file = file_.file;
    material.where = name.where;
    Unknown unknown;
    Token keyword;
    while (true) {
      if (!lexer_.Next(&keyword)) return false;
      if (keyword.Is('}')) break;
      if (keyword.type == Type::kEnd) return FailUnclosed("material", name, open, keyword);
      if (keyword.Is(';')) continue;
      if (keyword.Is('{')) {
        if (!ParseStage(keyword, name, &material, &unknown)) return false;
        continue;
      }
      if (keyword.type != Type::kWord) {
        NoteUnknown(&unknown, keyword);
        SkipRestOfLine(keyword.where.line);
        continue;
      }
      const std::string k = ToLower(keyword.text);
      MapKind kind;
      if (MapKeywordKind(k, &kind)) {
        if (!ParseShortcut(kind, keyword, &material)) return false;
      } else if (ParseCommonKeyword(k, keyword, &material)) {
      } else if (IsMaterialFlag(k)) {
      } else if (IsMaterialKeywordWithArguments(k)) {
        SkipRestOfLine(keyword.where.line);
      } else {
        NoteUnknown(&unknown, keyword);
        SkipRestOfLine(keyword.where.line);
      }
      if (!lexer_.ok()) return false;
    }
    if (unknown.count > 0) {
      std::string message =
          "material " + Describe(name) + ": skipped unknown keyword " + unknown.first;
      if (unknown.count > 1) message += " and " + std::to_string(unknown.count - 1) + " more";
      file_.warnings.push_back(
          MakeWarning(file_.file, unknown.where.line, unknown.where.column, std::move(message)));
    }
    file_.materials.push_back(std::move(material));
    return true;
  }

  bool ParseSkinBody(const Token& name, const Token& open) {
    Skin skin;
    skin.name = std::string(name.text);
    skin.file = file_.file;
    skin.where = name.where;
    Token from;
    while (true) {
      if (!lexer_.Next(&from)) return false;
      if (from.Is('}')) break;
      if (from.type == Type::kEnd) return FailUnclosed("skin", name, open, from);
      if (from.Is(';') || from.Is(',')) continue;
      if (!from.IsName()) return lexer_.FailExpected("a shader name or 'model'", from);
      Token to;
      if (!lexer_.Next(&to)) return false;
      if (!to.IsName()) {
        return lexer_.FailExpected("the shader that replaces " + Describe(from), to);
      }
      if (from.type == Type::kWord && EqualsIgnoreCase(from.text, "model")) {
        skin.models.emplace_back(to.text);
      } else {
        skin.remaps.push_back({std::string(from.text), std::string(to.text), from.where});
      }
    }
    file_.skins.push_back(std::move(skin));
    return true;
  }

  DeclLexer lexer_;
  DeclLimits limits_;
  DeclFile file_;
};

Status CheckSize(std::string_view file_name, std::string_view text, const DeclLimits& limits) {
  if (text.size() > limits.max_file_bytes) {
    return MakeError(std::string(file_name), 0, 0,
                     "expected a decl file of at most " + std::to_string(limits.max_file_bytes) +
                         " bytes, found " + std::to_string(text.size()));
  }
  return {};
}

std::string_view Extension(std::string_view file_name) {
  const std::size_t dot = file_name.find_last_of('.');
  const std::size_t slash = file_name.find_last_of("/\\");
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash)) return {};
  return file_name.substr(dot + 1);
}

}  // namespace

Result<DeclFile> ParseMaterialFile(std::string_view file_name, std::string_view text,
                                   const DeclLimits& limits) {
  const Status size = CheckSize(file_name, text, limits);
  if (!size.ok()) return size.error();
  return DeclParser(file_name, text, limits).ParseDecls(false);
}

Result<DeclFile> ParseSkinFile(std::string_view file_name, std::string_view text,
                               const DeclLimits& limits) {
  const Status size = CheckSize(file_name, text, limits);
  if (!size.ok()) return size.error();
  // Quake style when the first two tokens are a name and a comma.
  DeclLexer probe(file_name, text, limits.max_token_bytes);
  Token first, second;
  const bool quake = probe.Next(&first) && first.IsName() && probe.Next(&second) &&
                     second.Is(',') && second.where.line == first.where.line;
  if (quake) return DeclParser(file_name, text, limits).ParseQuakeSkin(file_name);
  return DeclParser(file_name, text, limits).ParseDecls(true);
}

Result<DeclFile> ParseDeclFile(std::string_view file_name, std::string_view text,
                               const DeclLimits& limits) {
  if (EqualsIgnoreCase(Extension(file_name), "skin")) {
    return ParseSkinFile(file_name, text, limits);
  }
  return ParseMaterialFile(file_name, text, limits);
}

bool IsDeclFileName(std::string_view file_name) {
  const std::string_view ext = Extension(file_name);
  return EqualsIgnoreCase(ext, "mtr") || EqualsIgnoreCase(ext, "shader") ||
         EqualsIgnoreCase(ext, "skin");
}

}  // namespace md5stage::material
