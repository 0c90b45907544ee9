// Running the md5stage command from a test: temporary files, both output streams captured, and
// the output split into lines (shared by the CLI tests of plan and of the obstacle options).
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace md5stage::testing {

struct CliRun {
  int status;
  std::string out;
  std::string err;
};

inline std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// A path in the test's temporary folder, unique to this process.
inline std::string TempPath(const std::string& name) {
  return ::testing::TempDir() + "md5stage_cli_" + std::to_string(::getpid()) + "_" + name;
}

inline void WriteFile(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// Writes `text` to TempPath(name) and returns that path.
inline std::string WriteTempFile(const std::string& name, const std::string& text) {
  const std::string path = TempPath(name);
  WriteFile(path, text);
  return path;
}

// Runs `md5stage ARGS` (shell words the test controls) with `stdin_text` as its input.
inline CliRun RunCli(const std::string& args, const std::string& stdin_text = "") {
  const std::string out = TempPath("out.txt"), err = TempPath("err.txt"), in = TempPath("in.txt");
  WriteFile(in, stdin_text);
  const std::string command = std::string("'") + MD5STAGE_CLI + "' " + args + " <'" + in + "' >'" +
                              out + "' 2>'" + err + "'";
  const int raw = std::system(command.c_str());
  const int status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return {status, ReadFile(out), ReadFile(err)};
}

inline std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

}  // namespace md5stage::testing
