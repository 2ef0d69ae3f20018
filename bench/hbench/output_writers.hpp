// hbench's three outputs: a table on stdout (printed row by row as sizes finish), and CSV and
// JSON files written at the end. Only rank 0 writes.
//
// CSV columns: benchmark,algorithm,buffers,ranks,nodes,size_bytes,iterations,warmup,noise,rank,
//   avg_us,min_us,max_us,baseline_avg_us,slowdown. `rank` is "all" for a row's figures over
//   ranks (average, minimum and maximum of the ranks' averages); with --per-rank each row is
//   followed by one line per rank with that rank's own average/min/max over iterations.
//   baseline_avg_us and slowdown are empty for rows without noise.
// JSON: {"run": {ranks, nodes, buffers, host, date_utc, command, version},
//        "results": [{benchmark, algorithm, size_bytes, iterations, warmup, noise, avg_us,
//                     min_us, max_us, baseline_avg_us, slowdown, noise_ms_per_rank,
//                     per_rank: [{rank, avg_us, min_us, max_us}] (with --per-rank)}]}
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "bench/hbench/results.hpp"

namespace hbench {

class TableWriter {
 public:
  TableWriter(std::FILE* out, const RunInfo& info, bool show_noise);
  void begin(Benchmark benchmark, const std::string& algorithm_option);
  void row(const ResultRow& row);

 private:
  std::FILE* out_;
  RunInfo info_;
  bool show_noise_;
};

// Throw std::runtime_error naming the file when it cannot be written.
void write_csv(const std::string& path, const RunInfo& info, const std::vector<ResultRow>& rows);
void write_json(const std::string& path, const RunInfo& info, const std::vector<ResultRow>& rows);

}  // namespace hbench
