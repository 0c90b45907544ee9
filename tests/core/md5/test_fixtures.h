// Hand-made MD5 fixtures for the md5 tests: small valid files whose line numbers the error tables
// refer to, and a helper that derives a broken variant by one textual replacement.
#pragma once

#include <gtest/gtest.h>

#include <string>

namespace md5stage::md5::testing {

// Line numbers matter: error tables name them.
inline const char kMeshFixture[] =
    "MD5Version 10\n"                      // 1
    "commandline \"test\"\n"               // 2
    "\n"                                   // 3
    "numJoints 2\n"                        // 4
    "numMeshes 1\n"                        // 5
    "\n"                                   // 6
    "joints {\n"                           // 7
    "\t\"root\" -1 ( 0 0 0 ) ( 0 0 0 )\n"  // 8
    "\t\"child\" 0 ( 0 0 1 ) ( 0 0 0 )\n"  // 9
    "}\n"                                  // 10
    "\n"                                   // 11
    "mesh {\n"                             // 12
    "\tshader \"skin\"\n"                  // 13
    "\tnumverts 3\n"                       // 14
    "\tvert 0 ( 0 0 ) 0 1\n"               // 15
    "\tvert 1 ( 1 0 ) 1 1\n"               // 16
    "\tvert 2 ( 0 1 ) 2 1\n"               // 17
    "\tnumtris 1\n"                        // 18
    "\ttri 0 0 1 2\n"                      // 19
    "\tnumweights 3\n"                     // 20
    "\tweight 0 0 1 ( 0 0 0 )\n"           // 21
    "\tweight 1 0 1 ( 1 0 0 )\n"           // 22
    "\tweight 2 1 1 ( 0 1 0 )\n"           // 23
    "}\n";                                 // 24

// Joint "child" has flags 40 = Qx|Qz: its translation and Qy come from the baseframe.
inline const char kAnimFixture[] =
    "MD5Version 10\n"             // 1
    "commandline \"\"\n"          // 2
    "\n"                          // 3
    "numFrames 3\n"               // 4
    "numJoints 2\n"               // 5
    "frameRate 10\n"              // 6
    "numAnimatedComponents 4\n"   // 7
    "\n"                          // 8
    "hierarchy {\n"               // 9
    "\t\"root\" -1 3 0\n"         // 10
    "\t\"child\" 0 40 2\n"        // 11
    "}\n"                         // 12
    "\n"                          // 13
    "bounds {\n"                  // 14
    "\t( -1 -1 -1 ) ( 1 1 1 )\n"  // 15
    "\t( -1 -1 -1 ) ( 2 2 2 )\n"  // 16
    "\t( -1 -1 -1 ) ( 3 3 3 )\n"  // 17
    "}\n"                         // 18
    "\n"                          // 19
    "baseframe {\n"               // 20
    "\t( 0 0 0 ) ( 0 0 0 )\n"     // 21
    "\t( 0 0 1 ) ( 0 0.6 0 )\n"   // 22
    "}\n"                         // 23
    "\n"                          // 24
    "frame 0 {\n"                 // 25
    "\t0 0 0 0\n"                 // 26
    "}\n"                         // 27
    "frame 1 {\n"                 // 28
    "\t1 2 0.5 0\n"               // 29
    "}\n"                         // 30
    "frame 2 {\n"                 // 31
    "\t2 4 0 0.6\n"               // 32
    "}\n";                        // 33

// `text` with the first occurrence of `from` replaced by `to` (the test fails if absent).
inline std::string Replace(const std::string& text, const std::string& from,
                           const std::string& to) {
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << "fixture has no '" << from << "'";
  if (at == std::string::npos) return text;
  std::string out = text;
  out.replace(at, from.size(), to);
  return out;
}

}  // namespace md5stage::md5::testing
