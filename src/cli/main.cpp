// Entry point of the native md5stage command: dispatches to the registered subcommands.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "cli/command_registry.h"

namespace md5stage::cli {

std::vector<Command>& Commands() {
  static std::vector<Command> commands;
  return commands;
}

namespace {

void PrintUsage(std::FILE* out) {
  std::vector<Command> sorted = Commands();
  std::sort(sorted.begin(), sorted.end(),
            [](const Command& a, const Command& b) { return std::strcmp(a.name, b.name) < 0; });
  std::fprintf(out, "usage: md5stage COMMAND [ARGS]\n\ncommands:\n");
  for (const Command& c : sorted) std::fprintf(out, "  md5stage %s\n", c.usage);
}

}  // namespace
}  // namespace md5stage::cli

int main(int argc, char** argv) {
  using md5stage::cli::Commands;
  if (argc < 2 || std::strcmp(argv[1], "help") == 0 || std::strcmp(argv[1], "--help") == 0) {
    md5stage::cli::PrintUsage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  std::vector<std::string> args(argv + 2, argv + argc);
  for (const auto& command : Commands()) {
    if (std::strcmp(command.name, argv[1]) == 0) return command.run(args);
  }
  std::fprintf(stderr, "md5stage: unknown command '%s'\n", argv[1]);
  md5stage::cli::PrintUsage(stderr);
  return 2;
}
