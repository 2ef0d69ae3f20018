// The hosts a job runs on and how many ranks ("slots") each takes, from --host, --hostfile or
// Slurm (slurm_nodelist.hpp). Each entry becomes one node of the job: two entries that reach
// the same machine under different names count as two nodes, which is how tests emulate hosts.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace halyard::launcher {

struct HostEntry {
  std::string name;  // as given: what HALYARD_RSH (ssh) or srun is asked to reach
  int slots = 1;     // ranks it takes before the job is oversubscribed
};

// The most ranks one job may have (-n, or the slots of its hosts added up): far beyond any
// machine, small enough that the per-rank tables always fit in memory.
inline constexpr int kMaxRanks = 1 << 20;

// "a:4,b:4,c" (c takes 1 slot). A name given twice adds its slots to the first entry, as
// Open MPI does. Throws UsageError naming the bad entry, a name that begins with '-' (ssh would
// read it as an option) and slots that add up to more than kMaxRanks.
std::vector<HostEntry> parse_host_option(std::string_view text);

// Open MPI's hostfile syntax: one host per line, "name [slots=N] [max_slots=M]", '#' starts a
// comment, blank lines are skipped; a line without slots= takes 1 slot. `origin` names the file
// in error messages. Throws UsageError naming the line (names and slot sums as above).
std::vector<HostEntry> parse_hostfile(std::string_view text, const std::string& origin);

// Reads and parses the file at `path`; throws UsageError when it cannot be read or is empty.
std::vector<HostEntry> read_hostfile(const std::string& path);

// Sum of the slots; throws UsageError above kMaxRanks.
int total_slots(const std::vector<HostEntry>& hosts);

// Whether `name` is this machine as far as starting processes goes ("localhost", "127.0.0.1"
// or this host's name): its agent is started directly, without HALYARD_RSH.
bool is_this_host(const std::string& name);

}  // namespace halyard::launcher
