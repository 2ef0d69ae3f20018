// One hbench run over the chosen benchmarks and sizes: per size a checked call, the timed loop
// without noise, and (when noise is asked for) the same size again under noise, whose row
// carries the slowdown against the quiet one.
#pragma once

#include <vector>

#include "bench/hbench/options.hpp"
#include "bench/hbench/output_writers.hpp"
#include "bench/hbench/progress.hpp"
#include "bench/hbench/results.hpp"
#include "runtime/communicator.hpp"

namespace hbench {

// Collective over `world`. `table` is null on ranks other than 0.
std::vector<ResultRow> run_session(const Options& options, const halyard::Communicator& world,
                                   TableWriter* table, Progress& progress);

// The algorithm the runtime selects for this call ("base:ring", "adapt:binary/event", "p2p").
std::string selected_algorithm(Benchmark benchmark, int ranks, std::size_t bytes);

// "delay 1 ms on rank 6", "uniform 0-10 ms at 10 Hz (seed 1)", or both joined by " + ".
std::string noise_label(const Options& options);

}  // namespace hbench
