// hbench: latency of Halyard's collectives and point-to-point per message size, with optional
// injected noise. Runs under hlaunch: `hlaunch -n 4 hbench --coll allreduce`. See
// docs/benchmarks.md and `hbench --help`.
#include <unistd.h>

#include <strings.h>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <set>
#include <string>

#include "bench/hbench/noise.hpp"
#include "bench/hbench/options.hpp"
#include "bench/hbench/output_writers.hpp"
#include "bench/hbench/progress.hpp"
#include "bench/hbench/session.hpp"
#include "halyard/halyard.hpp"

namespace {

using hbench::Options;
using hbench::UsageError;

// --alg and --adapt-variant act through the runtime's own variables (HALYARD_<COLL>_ALG,
// HALYARD_ADAPT_VARIANT), set before the runtime starts, so hbench measures exactly what an
// application run with those variables gets. A different value already in the environment is
// a conflict, not something to override silently.
void set_variable(const char* name, const std::string& value, const char* option) {
  if (const char* existing = std::getenv(name);
      existing != nullptr && strcasecmp(existing, value.c_str()) != 0) {
    throw UsageError(std::string(name) + "=" + existing + " is set and " + option + " asks for " +
                     value + "; unset one of them");
  }
  setenv(name, value.c_str(), 1);
}

void apply_selection(const Options& o) {
  if (o.algorithm != "auto") {
    for (hbench::Benchmark benchmark : o.benchmarks) {
      if (auto collective = hbench::selection_collective(benchmark)) {
        set_variable(halyard::select::algorithm_variable(*collective), o.algorithm, "--alg");
      }
    }
  }
  if (!o.adapt_variant.empty())
    set_variable("HALYARD_ADAPT_VARIANT", o.adapt_variant, "--adapt-variant");
}

// Checks that need the job's size.
void check_against_job(const Options& o, int ranks) {
  if (o.root >= ranks) {
    throw UsageError("--root " + std::to_string(o.root) + " is outside the job (" +
                     std::to_string(ranks) + " ranks)");
  }
  for (int rank : o.delay.ranks) {
    if (rank >= ranks) {
      throw UsageError("--noise-ranks: rank " + std::to_string(rank) + " is outside the job (" +
                       std::to_string(ranks) + " ranks)");
    }
  }
  for (hbench::Benchmark benchmark : o.benchmarks) {
    if (benchmark == hbench::Benchmark::kP2p && ranks < 2) {
      throw UsageError("p2p needs at least 2 ranks (hlaunch -n 2 hbench --coll p2p)");
    }
  }
}

hbench::RunInfo describe_run(const Options& o, const halyard::Runtime& runtime) {
  hbench::RunInfo info;
  info.ranks = runtime.size();
  std::set<int> nodes;
  for (int r = 0; r < runtime.topology().size(); ++r) nodes.insert(runtime.topology()[r].node_id);
  info.nodes = static_cast<int>(nodes.size());
  info.buffers = "host";
  char host[256] = "";
  gethostname(host, sizeof host - 1);
  info.host = host;
  char date[32] = "";
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", &utc);
  info.date_utc = date;
  info.command = o.command_line;
  info.per_rank = o.per_rank;
  return info;
}

}  // namespace

int main(int argc, char** argv) {
  std::optional<Options> parsed;
  try {
    parsed = hbench::parse_options(argc, argv);
    if (!parsed) return 0;
    apply_selection(*parsed);
  } catch (const UsageError& e) {
    std::fprintf(stderr, "hbench: %s\n(hbench --help lists the options)\n", e.what());
    return 2;
  }
  const Options& options = *parsed;

  int rank = 0;
  try {
    // The runtime's helper threads must never take the uniform noise's SIGALRM.
    hbench::block_noise_signal();
    halyard::Runtime runtime;
    hbench::unblock_noise_signal();
    rank = runtime.rank();
    try {
      check_against_job(options, runtime.size());
    } catch (const UsageError& e) {
      if (rank == 0) std::fprintf(stderr, "hbench: %s\n", e.what());
      return 2;
    }
    const hbench::RunInfo info = describe_run(options, runtime);
    std::optional<hbench::TableWriter> table;
    if (rank == 0) table.emplace(stdout, info, options.noisy());
    hbench::Progress progress(rank == 0 && !options.quiet);
    const std::vector<hbench::ResultRow> rows =
        hbench::run_session(options, runtime.world(), table ? &*table : nullptr, progress);
    if (rank == 0) {
      if (!options.csv_path.empty()) hbench::write_csv(options.csv_path, info, rows);
      if (!options.json_path.empty()) hbench::write_json(options.json_path, info, rows);
    }
    runtime.finalize();
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hbench: rank %d: %s\n", rank, e.what());
    return 1;
  }
}
