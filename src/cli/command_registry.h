// The md5stage command's subcommands register themselves here, so each lives in its own file.
#pragma once

#include <string>
#include <vector>

namespace md5stage::cli {

// A subcommand gets the arguments after its name; it returns the process exit status.
using CommandFunction = int (*)(const std::vector<std::string>& args);

struct Command {
  const char* name;
  const char* usage;  // one line, shown by `md5stage help`
  CommandFunction run;
};

std::vector<Command>& Commands();

// Static registration: `static CommandRegistrar reg{{"info", "info FILE...", &RunInfo}};`
struct CommandRegistrar {
  explicit CommandRegistrar(Command command) { Commands().push_back(command); }
};

}  // namespace md5stage::cli
