// halyard_bench_barrier: average barrier latency with the algorithm HALYARD_BARRIER_ALG forces
// (mpi_collectives.c has no barrier). Used to decide when HAN's barrier is the default
// (docs/han.md).
//
//   hlaunch -n 8 --vnodes 2 -x HALYARD_BARRIER_ALG=han halyard_bench_barrier [iterations]
//
// Rank 0 prints the average, minimum and maximum of the ranks' average times (us).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "halyard/halyard.hpp"

int main(int argc, char** argv) {
  const int iterations = argc > 1 ? std::atoi(argv[1]) : 500;
  halyard::Runtime runtime;
  const halyard::Communicator& world = runtime.world();
  for (int i = 0; i < 20; ++i) halyard::barrier(world);
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < iterations; ++i) halyard::barrier(world);
  double mine =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() /
      iterations;
  std::vector<double> all(static_cast<std::size_t>(world.size()));
  halyard::allgather(world, &mine, all.data(), 1, halyard::Datatype::kFloat64);
  if (runtime.rank() == 0) {
    double sum = 0;
    for (double t : all) sum += t;
    std::printf("barrier %d ranks: avg %.2f us min %.2f max %.2f\n", world.size(),
                sum / static_cast<double>(all.size()), *std::min_element(all.begin(), all.end()),
                *std::max_element(all.begin(), all.end()));
  }
  runtime.finalize();
  return 0;
}
