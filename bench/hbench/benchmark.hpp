// What hbench can measure: six collectives and a point-to-point ping-pong, by name.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "collectives/select/selected_algorithm.hpp"

namespace hbench {

enum class Benchmark { kBcast, kReduce, kAllreduce, kAllgather, kBarrier, kAlltoall, kP2p };

// "bcast", ..., "p2p".
std::string benchmark_name(Benchmark benchmark);
std::vector<Benchmark> all_benchmarks();
// nullopt for an unknown name.
std::optional<Benchmark> parse_benchmark(std::string_view name);

// The runtime's name for the collective (what HALYARD_<COLL>_ALG selects); nullopt for p2p.
std::optional<halyard::select::Collective> selection_collective(Benchmark benchmark);

}  // namespace hbench
