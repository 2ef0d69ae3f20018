#include "bench/hbench/options.hpp"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <sstream>

#include "runtime/support/config.hpp"
#include "runtime/support/error.hpp"

namespace hbench {

namespace {

constexpr const char* kFooter =
    "Sizes: every power-of-two multiple of --min-size up to --max-size (OSU style); a size is\n"
    "the bytes per rank (allgather, alltoall: one rank's block). Reductions sum float32, so\n"
    "their sizes are rounded down to whole elements and start at 4 B. barrier has one row.\n"
    "Iterations per size (warm-up in brackets), before --scale: <= 8K: 1000 (100);\n"
    "<= 128K: 200 (20); <= 2M: 50 (5); <= 16M: 20 (2); larger: 10 (1).\n"
    "With noise, each size runs its iterations with and without noise, alternating in 5\n"
    "blocks, and reports the slowdown (noisy average / quiet average - 1); uniform noise\n"
    "raises the iterations so the noisy ones last at least --noise-seconds.\n"
    "Exit status: 0, 1 when a run fails (wrong data, a transport error), 2 for a usage error.\n"
    "See docs/benchmarks.md.";

std::vector<int> parse_rank_list(const std::string& text) {
  std::vector<int> ranks;
  std::stringstream stream(text);
  std::string item;
  while (std::getline(stream, item, ',')) {
    std::size_t used = 0;
    int rank = -1;
    try {
      rank = std::stoi(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != item.size() || item.empty() || rank < 0) {
      throw UsageError("--noise-ranks: '" + item + "' is not a rank (expected e.g. 6 or 1,5,9)");
    }
    ranks.push_back(rank);
  }
  if (ranks.empty()) throw UsageError("--noise-ranks needs at least one rank");
  return ranks;
}

std::size_t parse_size(const std::string& text, const char* option) {
  try {
    return halyard::config::parse_bytes(text, option);
  } catch (const halyard::Error& e) {
    throw UsageError(e.what());
  }
}

std::vector<Benchmark> parse_benchmarks(const std::string& text) {
  if (text == "all") return all_benchmarks();
  std::vector<Benchmark> chosen;
  std::stringstream stream(text);
  std::string item;
  while (std::getline(stream, item, ',')) {
    auto benchmark = parse_benchmark(item);
    if (!benchmark) {
      throw UsageError("--coll: '" + item +
                       "' is not a benchmark (expected all, or a list of bcast, reduce, "
                       "allreduce, allgather, barrier, alltoall, p2p)");
    }
    chosen.push_back(*benchmark);
  }
  if (chosen.empty()) throw UsageError("--coll needs at least one benchmark");
  return chosen;
}

// --alg NAME must be a selection name of every chosen collective (p2p has no algorithms).
void check_algorithm(const Options& o) {
  if (o.algorithm == "auto") return;
  for (Benchmark benchmark : o.benchmarks) {
    auto collective = selection_collective(benchmark);
    if (!collective) throw UsageError("--alg " + o.algorithm + ": p2p has no algorithms");
    try {
      halyard::select::parse_algorithm(*collective, o.algorithm, "--alg");
    } catch (const halyard::Error& e) {
      throw UsageError(e.what());
    }
  }
}

void check_ranges(const Options& o) {
  if (o.min_size > o.max_size) throw UsageError("--min-size is larger than --max-size");
  if (o.iterations && *o.iterations < 1) throw UsageError("--iterations must be at least 1");
  if (o.warmup && *o.warmup < 0) throw UsageError("--warmup must be at least 0");
  if (!(o.scale > 0)) throw UsageError("--scale must be above 0");
  if (o.root < 0) throw UsageError("--root must be at least 0");
  if (o.delay.ms < 0) throw UsageError("--noise-delay-ms must be at least 0");
  if (o.delay.active() && o.delay.ranks.empty()) {
    throw UsageError("--noise-delay-ms needs --noise-ranks (which ranks to delay)");
  }
  if (!o.delay.ranks.empty() && !o.delay.active()) {
    throw UsageError("--noise-ranks needs --noise-delay-ms (how long to delay them)");
  }
  if (o.uniform.max_ms < 0) throw UsageError("--noise-uniform-ms must be at least 0");
  if (!(o.uniform.hz > 0) || o.uniform.hz > 1000)
    throw UsageError("--noise-hz must be in (0, 1000]");
  if (!(o.noise_seconds >= 0)) throw UsageError("--noise-seconds must be at least 0");
  if (o.buffers == Buffers::kCuda) {
    throw UsageError(
        "--buffers cuda: CUDA buffers need the CUDA IPC transport (issue 10), which Halyard "
        "does not have yet; use --buffers host");
  }
}

}  // namespace

std::optional<Options> parse_options(int argc, const char* const* argv) {
  Options o;
  for (int i = 0; i < argc; ++i) o.command_line += (i ? " " : "") + std::string(argv[i]);

  CLI::App app{
      "hbench [options]   (under hlaunch: hlaunch -n 4 hbench --coll allreduce)\n"
      "Latency of Halyard's collectives and point-to-point per message size.",
      "hbench"};
  app.footer(kFooter);
  app.set_version_flag("--version", std::string("hbench (Halyard) ") + HALYARD_VERSION_STRING);

  std::string benchmarks = "all";
  std::string buffers = "host";
  std::string min_size = "1";
  std::string max_size = "64M";
  std::string noise_ranks;
  std::string delay_where = "before";
  app.add_option("--coll", benchmarks,
                 "all, or a comma-separated list of bcast, reduce, allreduce, allgather, "
                 "barrier, alltoall, p2p")
      ->default_str("all");
  app.add_option("--alg", o.algorithm,
                 "auto (the runtime's selection), or a name HALYARD_<COLL>_ALG takes, e.g. "
                 "base:ring, adapt:binary, han; it must suit every chosen collective")
      ->default_str("auto");
  app.add_option("--adapt-variant", o.adapt_variant,
                 "ADAPT's variant for adapt:<tree> runs (sets HALYARD_ADAPT_VARIANT)")
      ->check(CLI::IsMember({"event", "blocking", "waitall"}));
  app.add_option("--buffers", buffers, "host, or cuda (not available yet: issue 10)")
      ->check(CLI::IsMember({"host", "cuda"}))
      ->default_str("host");
  app.add_option("--min-size", min_size, "smallest size, bytes with optional K/M/G")
      ->default_str("1");
  app.add_option("--max-size", max_size, "largest size")->default_str("64M");
  app.add_option("--iterations", o.iterations, "timed iterations at every size");
  app.add_option("--warmup", o.warmup, "untimed iterations at every size");
  app.add_option("--scale", o.scale, "multiply the scheduled iteration counts")->default_str("1");
  app.add_option("--root", o.root, "root of bcast and reduce")->default_str("0");
  app.add_flag("--per-rank", o.per_rank, "also report every rank's own average/min/max");
  app.add_option("--csv", o.csv_path, "write the results as CSV to FILE")->type_name("FILE");
  app.add_option("--json", o.json_path, "write the results as JSON to FILE")->type_name("FILE");
  app.add_option("--noise-delay-ms", o.delay.ms, "fixed delay on --noise-ranks every iteration")
      ->type_name("D");
  app.add_option("--noise-ranks", noise_ranks, "ranks that --noise-delay-ms delays, e.g. 6 or 1,5")
      ->type_name("LIST");
  app.add_option("--noise-delay-where", delay_where,
                 "before: before the rank posts its part; inside: from the event loop, "
                 "--noise-delay-at-us after the post")
      ->check(CLI::IsMember({"before", "inside"}))
      ->default_str("before");
  app.add_option("--noise-delay-at-us", o.delay.at_us, "see --noise-delay-where")->default_str("0");
  app.add_option("--noise-uniform-ms", o.uniform.max_ms,
                 "on every rank, delays of uniform 0..X ms at --noise-hz")
      ->type_name("X");
  app.add_option("--noise-hz", o.uniform.hz, "frequency of the uniform delays")->default_str("10");
  app.add_option("--noise-seed", o.uniform.seed, "seed of the uniform delays")->default_str("1");
  app.add_option("--noise-seconds", o.noise_seconds,
                 "least timed duration of a uniform-noise run per size")
      ->default_str("3");
  app.add_flag("--quiet", o.quiet, "no progress lines on stderr");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::fputs(app.help().c_str(), stdout);
    return std::nullopt;
  } catch (const CLI::CallForVersion&) {
    std::printf("%s\n", app.version().c_str());
    return std::nullopt;
  } catch (const CLI::ParseError& e) {
    throw UsageError(e.what());
  }

  o.benchmarks = parse_benchmarks(benchmarks);
  o.buffers = buffers == "cuda" ? Buffers::kCuda : Buffers::kHost;
  o.min_size = parse_size(min_size, "--min-size");
  o.max_size = parse_size(max_size, "--max-size");
  if (!noise_ranks.empty()) o.delay.ranks = parse_rank_list(noise_ranks);
  o.delay.inside = delay_where == "inside";
  check_ranges(o);
  check_algorithm(o);
  return o;
}

}  // namespace hbench
