#include "bench/hbench/benchmark.hpp"

#include <array>
#include <utility>

namespace hbench {

namespace {

constexpr std::array<std::pair<Benchmark, std::string_view>, 7> kNames{{
    {Benchmark::kBcast, "bcast"},
    {Benchmark::kReduce, "reduce"},
    {Benchmark::kAllreduce, "allreduce"},
    {Benchmark::kAllgather, "allgather"},
    {Benchmark::kBarrier, "barrier"},
    {Benchmark::kAlltoall, "alltoall"},
    {Benchmark::kP2p, "p2p"},
}};

}  // namespace

std::string benchmark_name(Benchmark benchmark) {
  for (const auto& [value, name] : kNames) {
    if (value == benchmark) return std::string(name);
  }
  return "invalid";
}

std::vector<Benchmark> all_benchmarks() {
  std::vector<Benchmark> all;
  for (const auto& entry : kNames) all.push_back(entry.first);
  return all;
}

std::optional<Benchmark> parse_benchmark(std::string_view name) {
  for (const auto& [value, known] : kNames) {
    if (known == name) return value;
  }
  return std::nullopt;
}

std::optional<halyard::select::Collective> selection_collective(Benchmark benchmark) {
  using halyard::select::Collective;
  switch (benchmark) {
    case Benchmark::kBcast:
      return Collective::kBcast;
    case Benchmark::kReduce:
      return Collective::kReduce;
    case Benchmark::kAllreduce:
      return Collective::kAllreduce;
    case Benchmark::kAllgather:
      return Collective::kAllgather;
    case Benchmark::kBarrier:
      return Collective::kBarrier;
    case Benchmark::kAlltoall:
      return Collective::kAlltoall;
    case Benchmark::kP2p:
      return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace hbench
