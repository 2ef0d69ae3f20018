// What one hbench run produced: a row per (benchmark, size, noise setting), and the facts about
// the run that every output format repeats (ranks, nodes, host, date, command).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "bench/hbench/benchmark.hpp"
#include "bench/hbench/statistics.hpp"

namespace hbench {

struct ResultRow {
  Benchmark benchmark = Benchmark::kBcast;
  std::string algorithm;  // what the runtime selected, e.g. "base:ring"; "p2p" for ping-pong
  std::size_t bytes = 0;
  int iterations = 0;
  int warmup = 0;
  std::string noise = "none";  // "none", or a label without commas (noise_label())
  Summary summary;
  // Rows measured under noise: the same size without noise, and noisy avg / quiet avg - 1.
  std::optional<double> baseline_avg_us;
  std::optional<double> slowdown;
  double noise_ms_per_rank = 0;  // mean uniform noise each rank absorbed in the timed loop
};

struct RunInfo {
  int ranks = 0;
  int nodes = 0;
  std::string buffers = "host";
  std::string host;
  std::string date_utc;
  std::string command;
  bool per_rank = false;
};

}  // namespace hbench
