#include "launcher/launch_options.hpp"

#include <CLI/CLI.hpp>

#include <cstdlib>
#include <string_view>

#include "launcher/slurm_nodelist.hpp"
#include "launcher/usage_error.hpp"

namespace halyard::launcher {
namespace {

// CLI11 only knows single-letter short options, so mpirun's "-np" would read as "-n p". Rename
// it to "-n" among hlaunch's own options, i.e. before PROGRAM, and never inside the program's
// arguments.
std::vector<std::string> rename_np(std::vector<std::string> args) {
  static const std::vector<std::string_view> takes_value = {"-n",
                                                            "--np",
                                                            "-x",
                                                            "--bind-to",
                                                            "--map-by",
                                                            "--vnodes",
                                                            "--timeout",
                                                            "--host",
                                                            "-H",
                                                            "--hostfile",
                                                            "--launcher",
                                                            "--machinefile",
                                                            "--bootstrap-address",
                                                            "--env-file"};
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--" || arg.empty() || arg[0] != '-') break;  // PROGRAM starts here
    if (arg == "-np") {
      args[i] = "-n";
      ++i;  // skip its value
      continue;
    }
    for (auto opt : takes_value) {
      if (arg == opt) {
        ++i;
        break;
      }
    }
  }
  return args;
}

// Fills o.launcher and o.hosts from --host, --hostfile, --launcher and the Slurm environment.
void resolve_hosts(LaunchOptions& o, const std::vector<std::string>& host_lists,
                   const std::string& hostfile, const std::string& launcher, bool vnodes_given) {
  for (const auto& list : host_lists) {
    for (auto& h : parse_host_option(list)) o.hosts.push_back(std::move(h));
  }
  if (!hostfile.empty()) {
    for (auto& h : read_hostfile(hostfile)) o.hosts.push_back(std::move(h));
  }
  const bool in_slurm = std::getenv("SLURM_JOB_ID") != nullptr;
  if (!o.hosts.empty()) {
    if (launcher == "local") throw UsageError("--launcher local cannot run on --host/--hostfile");
    o.launcher = launcher == "slurm" ? LauncherKind::kSlurm : LauncherKind::kRsh;
  } else if (launcher == "slurm" || (launcher == "auto" && in_slurm && !vnodes_given)) {
    o.hosts = slurm_hosts_from_environment();
    o.launcher = LauncherKind::kSlurm;
  } else if (launcher == "ssh") {
    throw UsageError("--launcher ssh needs --host or --hostfile");
  }
  if (!o.hosts.empty() && vnodes_given) {
    throw UsageError(
        "--vnodes emulates nodes on this host; with hosts every host entry is a node already");
  }
}

// -n in decimal digits only: CLI11 would also read "0x10" as 16 and "1e3" as 1000. Returns
// nullopt for anything else, a value outside int included.
std::optional<long long> parse_rank_count(const std::string& text) {
  std::string_view digits = text;
  if (!digits.empty() && digits.front() == '-') digits.remove_prefix(1);
  if (digits.empty() || digits.size() > 12 ||
      digits.find_first_not_of("0123456789") != std::string_view::npos) {
    return std::nullopt;
  }
  return std::stoll(text);
}

}  // namespace

void check_ranks_fit(const LaunchOptions& o, int local_cpus) {
  if (!o.hosts.empty() || o.oversubscribe || o.num_ranks <= local_cpus) return;
  throw UsageError(std::to_string(o.num_ranks) + " ranks are more than the " +
                   std::to_string(local_cpus) +
                   " CPUs hlaunch may use on this host; pass --oversubscribe to run them anyway");
}

ParsedCommandLine parse_command_line(const std::vector<std::string>& argv) {
  ParsedCommandLine parsed;
  LaunchOptions& o = parsed.options;

  CLI::App app{
      "hlaunch -n N [options] PROGRAM [ARGS...]\n"
      "Starts a Halyard job (or any program) as N ranks on this host, on the hosts of --host or\n"
      "--hostfile, or in the Slurm allocation it runs in.",
      "hlaunch"};
  app.footer(
      "Everything from PROGRAM on is passed to the program untouched ('--' may separate it).\n"
      "Exit status: the job's (first failing rank's status, 128+signal for a signal, the abort\n"
      "code), 2 for a usage error, 124 when --timeout ends the job, 125 when hlaunch fails.\n"
      "See docs/launcher.md.");
  app.set_version_flag("--version", std::string("hlaunch (Halyard) ") + HALYARD_VERSION_STRING);
  app.prefix_command();

  std::string num_ranks;
  app.add_option("-n,--np", num_ranks,
                 "Number of ranks to start, in decimal (also -np; default with hosts: their "
                 "slots)")
      ->type_name("N");
  app.add_flag("--oversubscribe", o.oversubscribe,
               "Allow more ranks than the CPUs hlaunch may use on this host (they then take "
               "turns on the CPUs)");
  app.add_option("-x", o.exports,
                 "Export VAR (from hlaunch's environment) or VAR=VALUE to every rank; repeatable")
      ->allow_extra_args(false)
      ->type_name("VAR[=VALUE]");
  std::string bind_to;
  app.add_option("--bind-to", bind_to,
                 "Bind each rank to a core, numa domain or package, or none (default: core "
                 "while ranks <= cores, else none); slurm: keep the CPUs Slurm gives each node's "
                 "step")
      ->check(CLI::IsMember({"core", "numa", "package", "none", "slurm"}));
  std::string map_by = "slot";
  app.add_option("--map-by", map_by,
                 "slot: fill each (emulated) node in turn; node: round-robin over nodes")
      ->check(CLI::IsMember({"slot", "node"}))
      ->default_str("slot");
  app.add_option("--vnodes", o.vnodes, "Emulate K nodes on this host (1 <= K <= N)")
      ->type_name("K")
      ->default_str("1");
  app.add_option("--timeout", o.timeout_s,
                 "End the job, exit 124, if it runs longer than SECONDS (0: no limit)")
      ->type_name("SECONDS");
  app.add_flag("--tag-output", o.tag_output, "Prefix every output line with [rank]");
  std::vector<std::string> host_lists;
  app.add_option("--host,-H", host_lists,
                 "Run on these hosts, HOST[:SLOTS],... (one node per entry; agents through "
                 "HALYARD_RSH, default ssh)")
      ->type_name("LIST")
      ->allow_extra_args(false);
  std::string hostfile;
  app.add_option("--hostfile,--machinefile", hostfile,
                 "Run on the hosts of FILE (Open MPI syntax: 'name slots=N' per line)")
      ->type_name("FILE");
  std::string launcher = "auto";
  app.add_option("--launcher", launcher,
                 "How to reach the hosts: auto (Slurm inside an allocation, else ssh with hosts, "
                 "else local), local, ssh, slurm")
      ->check(CLI::IsMember({"auto", "local", "ssh", "slurm"}))
      ->default_str("auto");
  app.add_option("--bootstrap-address", o.bootstrap_address,
                 "Address or interface the bootstrap server listens on (default: 127.0.0.1 on "
                 "one host, else the first non-loopback IPv4 address)")
      ->type_name("ADDR|IFACE");
  app.add_flag("--agent", parsed.agent, "(internal) run as a host's agent of a multi-host job")
      ->group("");
  app.add_flag("--serve-bootstrap", parsed.serve_bootstrap,
               "Only serve the bootstrap for -n ranks started by another launcher (srun); "
               "prints the variables to export");
  app.add_option("--env-file", o.env_file,
                 "With --serve-bootstrap: write the exports to FILE, created with mode 0600 "
                 "(it must not exist), instead of stdout")
      ->type_name("FILE");
  app.add_flag("--info", parsed.info,
               "Print the transports, libfabric providers and features (RMA, triggered "
               "operations) found on this host, and exit");
  app.add_option("--dump", parsed.dump_pid,
                 "Make the running hlaunch PID print its flight recorder verdict (which rank the "
                 "others wait for; the same as SIGUSR1 to it), and exit")
      ->type_name("PID")
      ->check(CLI::PositiveNumber);

  std::vector<std::string> args = rename_np(argv);
  std::vector<const char*> cargs;
  for (const auto& a : args) cargs.push_back(a.c_str());
  try {
    app.parse(static_cast<int>(cargs.size()), cargs.data());
  } catch (const CLI::CallForHelp&) {
    parsed.exit_now = true;
    parsed.text = app.help();
    return parsed;
  } catch (const CLI::CallForVersion&) {
    parsed.exit_now = true;
    parsed.text = app.version() + "\n";
    return parsed;
  } catch (const CLI::ParseError& e) {
    // The program's name comes after the options, so "-n" missing shows up first here.
    throw UsageError(e.what());
  }

  if (parsed.agent || parsed.info || parsed.dump_pid > 0) return parsed;  // nothing else applies

  std::vector<std::string> rest = app.remaining();
  if (!rest.empty() && rest.front() == "--") {
    rest.erase(rest.begin());
  } else if (!rest.empty() && rest.front().size() > 1 && rest.front()[0] == '-') {
    // prefix_command() hands unknown options over with the program's arguments.
    throw UsageError("unknown option '" + rest.front() + "'");
  }
  const bool vnodes_given = app.count("--vnodes") > 0;
  resolve_hosts(o, host_lists, hostfile, launcher, vnodes_given);
  if (app.count("-n") == 0) {
    if (o.hosts.empty()) throw UsageError("-n N, the number of ranks, is required");
    o.num_ranks = total_slots(o.hosts);
  } else {
    std::optional<long long> n = parse_rank_count(num_ranks);
    if (!n) throw UsageError("-n takes a decimal number of ranks, got '" + num_ranks + "'");
    if (*n < 1) throw UsageError("-n must be at least 1, got " + std::to_string(*n));
    if (*n > kMaxRanks) {
      throw UsageError("-n " + std::to_string(*n) + " is more than the " +
                       std::to_string(kMaxRanks) + " ranks hlaunch can start");
    }
    o.num_ranks = static_cast<int>(*n);
  }
  if (!o.hosts.empty() && o.num_ranks > total_slots(o.hosts)) {
    throw UsageError(std::to_string(o.num_ranks) + " ranks do not fit the " +
                     std::to_string(total_slots(o.hosts)) +
                     " slots of the hosts (give more slots: --host a:8, slots=8 in the hostfile)");
  }
  if (o.vnodes < 1 || o.vnodes > o.num_ranks) {
    throw UsageError("--vnodes must be between 1 and the number of ranks (" +
                     std::to_string(o.num_ranks) + "), got " + std::to_string(o.vnodes));
  }
  if (o.timeout_s < 0) {
    throw UsageError("--timeout must be 0 (no limit) or more seconds, got " +
                     std::to_string(o.timeout_s));
  }
  if (rest.empty() && !parsed.serve_bootstrap) throw UsageError("no PROGRAM to run");
  if (!o.env_file.empty() && !parsed.serve_bootstrap) {
    throw UsageError("--env-file only goes with --serve-bootstrap");
  }
  for (const auto& x : o.exports) {
    if (x.empty() || x[0] == '=') throw UsageError("-x needs VAR or VAR=VALUE, got '" + x + "'");
  }
  if (bind_to == "slurm") {
    if (o.launcher != LauncherKind::kSlurm) {
      throw UsageError("--bind-to slurm needs the Slurm launcher (inside an allocation)");
    }
    o.slurm_binding = true;
    o.bind_to = BindTo::kNone;  // the ranks inherit the step's binding
  } else if (!bind_to.empty()) {
    o.bind_to = bind_to_from_name(bind_to);
  }
  o.map_by = map_by == "node" ? MapBy::kNode : MapBy::kSlot;
  o.command = std::move(rest);
  return parsed;
}

}  // namespace halyard::launcher
