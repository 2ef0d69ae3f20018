// hlaunch: starts a job of N ranks (on this host, on --host/--hostfile hosts, or in a Slurm
// allocation) and exits with the job's status; `--agent` is its per-host half.
// Options, the environment ranks get and the exit codes are in docs/launcher.md.
#include <sched.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <exception>
#include <fstream>
#include <string>
#include <vector>

#include "launcher/agent.hpp"
#include "launcher/bootstrap_service.hpp"
#include "launcher/job.hpp"
#include "launcher/launch_options.hpp"
#include "launcher/output_forwarder.hpp"
#include "launcher/program_lookup.hpp"
#include "launcher/system_info.hpp"
#include "launcher/usage_error.hpp"

namespace {

// The CPUs hlaunch may run on (taskset, a batch system's cpuset): the local slots.
int usable_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) != 0) return 1;
  return CPU_COUNT(&set);
}

int usage_failure(const std::string& what) {
  halyard::launcher::write_fully(STDERR_FILENO,
                                 "hlaunch: " + what + "\n" + halyard::launcher::kUsageHint + "\n");
  return halyard::launcher::kExitUsage;
}

// hlaunch --dump PID: SIGUSR1 makes that hlaunch print its job's flight recorder verdict on its
// own stderr. Only an hlaunch is signalled: SIGUSR1 would end most other programs.
int ask_for_dump(int pid) {
  std::ifstream comm_file("/proc/" + std::to_string(pid) + "/comm");
  std::string comm;
  std::getline(comm_file, comm);
  if (comm != "hlaunch") {
    halyard::launcher::write_fully(
        STDERR_FILENO, "hlaunch: --dump " + std::to_string(pid) + ": " +
                           (comm.empty() ? "no such process" : "process is '" + comm + "'") +
                           ", not an hlaunch\n");
    return 1;
  }
  if (::kill(pid, SIGUSR1) != 0) {
    halyard::launcher::write_fully(STDERR_FILENO, "hlaunch: --dump " + std::to_string(pid) + ": " +
                                                      std::strerror(errno) + "\n");
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace halyard::launcher;
  std::vector<std::string> args(argv, argv + argc);
  LaunchOptions options;
  std::string program_path;
  try {
    ParsedCommandLine parsed = parse_command_line(args);
    if (parsed.exit_now) {
      write_fully(STDOUT_FILENO, parsed.text);
      return 0;
    }
    if (parsed.agent) return run_agent();
    if (parsed.info) {
      write_fully(STDOUT_FILENO, system_info_text());
      return 0;
    }
    if (parsed.dump_pid > 0) return ask_for_dump(parsed.dump_pid);
    options = std::move(parsed.options);
    if (parsed.serve_bootstrap) return serve_bootstrap(options);
    check_ranks_fit(options, usable_cpus());
    // On other hosts the agents look the program up on their own PATH.
    program_path =
        options.hosts.empty() ? resolve_program(options.command.front()) : options.command.front();
  } catch (const UsageError& e) {
    return usage_failure(e.what());
  } catch (const std::exception& e) {
    write_fully(STDERR_FILENO, std::string("hlaunch: ") + e.what() + "\n");
    return kExitLauncherFailure;
  }
  try {
    Job job(std::move(options), std::move(program_path));
    return job.run();
  } catch (const UsageError& e) {
    // --bootstrap-address naming no address or interface is found only here.
    return usage_failure(e.what());
  } catch (const std::exception& e) {
    write_fully(STDERR_FILENO, std::string("hlaunch: ") + e.what() + "\n");
    return kExitLauncherFailure;
  }
}
