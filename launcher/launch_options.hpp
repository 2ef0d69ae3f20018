// hlaunch's command line: `hlaunch -n N [options] PROGRAM [ARGS...]`, parsed with CLI11.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "launcher/cpu_binding.hpp"
#include "launcher/host_list.hpp"
#include "launcher/rank_placement.hpp"

namespace halyard::launcher {

// How ranks reach their hosts.
enum class LauncherKind {
  kLocal,  // this host only, ranks forked directly (--vnodes emulates nodes)
  kRsh,    // --host/--hostfile: one agent per host through HALYARD_RSH (default ssh)
  kSlurm,  // inside a Slurm allocation: one agent per node through srun
};

struct LaunchOptions {
  int num_ranks = 0;
  LauncherKind launcher = LauncherKind::kLocal;
  std::vector<HostEntry> hosts;      // kRsh and kSlurm: one node per entry, in order
  std::string bootstrap_address;     // --bootstrap-address as given ("" chooses)
  std::vector<std::string> exports;  // -x VAR or VAR=VALUE, in command-line order
  std::optional<BindTo> bind_to;     // nullopt: core while ranks fit on the cores, else none
  bool slurm_binding = false;        // --bind-to slurm: ranks keep the CPUs Slurm binds the step to
  MapBy map_by = MapBy::kSlot;
  int vnodes = 1;     // emulated nodes on this host
  int timeout_s = 0;  // 0: no limit
  bool tag_output = false;
  bool oversubscribe = false;        // more ranks than this host's CPUs are allowed
  std::string env_file;              // --serve-bootstrap: write the exports here (mode 0600)
  std::vector<std::string> command;  // PROGRAM and its arguments, exactly as given
};

// What main should do after parsing.
struct ParsedCommandLine {
  bool exit_now = false;         // --help or --version: print `text` to stdout and exit 0
  bool agent = false;            // --agent: run as a host's agent (agent.hpp), nothing else applies
  bool serve_bootstrap = false;  // --serve-bootstrap: serve -n ranks started by someone else
  bool info = false;             // --info: print what this host offers (system_info.hpp) and exit 0
  int dump_pid = 0;              // --dump PID: ask the hlaunch PID for its flight recorder verdict
  std::string text;
  LaunchOptions options;
};

// Parses argv (argv[0] included). Throws UsageError for anything hlaunch cannot run: unknown
// options, -n missing (without hosts to count slots from), not decimal, below 1 or above
// kMaxRanks, --vnodes outside 1..N or combined with hosts, more ranks than the hosts' slots,
// --env-file without --serve-bootstrap, a missing PROGRAM. Whether PROGRAM exists is checked
// separately (program_lookup.hpp). Reads SLURM_JOB_ID/SLURM_JOB_NODELIST when no
// launcher is named.
ParsedCommandLine parse_command_line(const std::vector<std::string>& argv);

// On this host alone (no hosts), a job may have at most one rank per CPU hlaunch may use
// (`local_cpus`) unless --oversubscribe was given, as with mpirun; hosts' slots are checked by
// parse_command_line. Throws UsageError naming both numbers and the option.
void check_ranks_fit(const LaunchOptions& options, int local_cpus);

// The one-line hint printed after every usage error.
inline constexpr const char* kUsageHint =
    "usage: hlaunch -n N [options] PROGRAM [ARGS...] (run 'hlaunch --help' for the options)";

}  // namespace halyard::launcher
