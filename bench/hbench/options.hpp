// hbench's command line: what to measure, how long, with which noise, and where to write it.
// parse_options() never touches the runtime, so a bad option fails before any rank connects.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/hbench/benchmark.hpp"

namespace hbench {

// A bad option or a combination hbench cannot run; main() prints it and exits 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class Buffers { kHost, kCuda };

// `--noise-delay-ms D --noise-ranks LIST`: D ms of busy CPU on the listed ranks in every
// iteration, before the rank posts its part (or, with --noise-delay-where inside, from the event
// loop --noise-delay-at-us after the post, as if the OS took the core mid-collective).
struct FixedDelay {
  double ms = 0;
  std::vector<int> ranks;
  bool inside = false;
  long at_us = 0;
  bool active() const { return ms > 0; }
};

// `--noise-uniform-ms X --noise-hz F [--noise-seed S]`: on every rank, F times a second, a busy
// wait of uniform 0..X ms (dissertation section 3.4: 0-10 ms at 10 Hz is 5% noise on average).
struct UniformNoise {
  double max_ms = 0;
  double hz = 10;
  std::uint64_t seed = 1;
  bool active() const { return max_ms > 0; }
};

struct Options {
  std::vector<Benchmark> benchmarks;
  std::string algorithm = "auto";  // "auto" or a HALYARD_<COLL>_ALG name
  std::string adapt_variant;       // empty: the runtime's (HALYARD_ADAPT_VARIANT or event)
  Buffers buffers = Buffers::kHost;
  std::size_t min_size = 1;
  std::size_t max_size = std::size_t{64} << 20;
  std::optional<int> iterations;  // overrides the size schedule
  std::optional<int> warmup;
  double scale = 1.0;  // multiplies the scheduled iteration counts
  int root = 0;
  bool per_rank = false;
  std::string csv_path;
  std::string json_path;
  FixedDelay delay;
  UniformNoise uniform;
  // A uniform-noise run lasts at least this long per size, so every rank sees enough noise
  // events (at 10 Hz, 3 s is about 30 per rank) for the slowdown to mean something.
  double noise_seconds = 3.0;
  bool quiet = false;
  std::string command_line;  // as given, for the outputs' metadata

  bool noisy() const { return delay.active() || uniform.active(); }
};

// Returns nullopt after printing --help or --version (exit 0); throws UsageError otherwise.
std::optional<Options> parse_options(int argc, const char* const* argv);

}  // namespace hbench
