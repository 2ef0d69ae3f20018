// hlaunch's command line: `hlaunch -n N [options] PROGRAM [ARGS...]`, parsed with CLI11.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "launcher/cpu_binding.hpp"
#include "launcher/rank_placement.hpp"

namespace halyard::launcher {

struct LaunchOptions {
  int num_ranks = 0;
  std::vector<std::string> exports;  // -x VAR or VAR=VALUE, in command-line order
  std::optional<BindTo> bind_to;     // nullopt: core while ranks fit on the cores, else none
  MapBy map_by = MapBy::kSlot;
  int vnodes = 1;     // emulated nodes on this host
  int timeout_s = 0;  // 0: no limit
  bool tag_output = false;
  std::vector<std::string> command;  // PROGRAM and its arguments, exactly as given
};

// What main should do after parsing.
struct ParsedCommandLine {
  bool exit_now = false;  // --help or --version: print `text` to stdout and exit 0
  std::string text;
  LaunchOptions options;
};

// Parses argv (argv[0] included). Throws UsageError for anything hlaunch cannot run: unknown
// options, -n missing or below 1, --vnodes outside 1..N, a missing PROGRAM. Whether PROGRAM
// exists is checked separately (program_lookup.hpp).
ParsedCommandLine parse_command_line(const std::vector<std::string>& argv);

// The one-line hint printed after every usage error.
inline constexpr const char* kUsageHint =
    "usage: hlaunch -n N [options] PROGRAM [ARGS...] (run 'hlaunch --help' for the options)";

}  // namespace halyard::launcher
