// halyard_bench_han_latency: average latency of the collectives mpi_collectives.c does not
// cover (barrier, allgather), with the algorithm HALYARD_<COLL>_ALG forces. Used to decide
// where HAN's barrier and allgather are the default (docs/han.md).
//
//   hlaunch -n 8 --vnodes 2 -x HALYARD_BARRIER_ALG=han halyard_bench_han_latency barrier [iters]
//   hlaunch -n 8 --vnodes 2 -x HALYARD_ALLGATHER_ALG=han halyard_bench_han_latency allgather
//           BYTES_PER_RANK [iters]
//
// Rank 0 prints the average, minimum and maximum of the ranks' average times (us).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "halyard/halyard.hpp"

int main(int argc, char** argv) {
  const std::string coll = argc > 1 ? argv[1] : "barrier";
  const bool allgather = coll == "allgather";
  const std::size_t bytes = allgather && argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 0;
  const int iterations = std::atoi(argc > (allgather ? 3 : 2) ? argv[allgather ? 3 : 2] : "100");
  halyard::Runtime runtime;
  const halyard::Communicator& world = runtime.world();
  std::vector<std::byte> send(bytes, std::byte{1});
  std::vector<std::byte> recv(bytes * static_cast<std::size_t>(world.size()));
  auto once = [&] {
    if (allgather) {
      halyard::allgather(world, send.data(), recv.data(), bytes, halyard::Datatype::kUint8);
    } else {
      halyard::barrier(world);
    }
  };
  for (int i = 0; i < 5; ++i) once();
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < iterations; ++i) once();
  double mine =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() /
      iterations;
  std::vector<double> all(static_cast<std::size_t>(world.size()));
  halyard::allgather(world, &mine, all.data(), 1, halyard::Datatype::kFloat64);
  if (runtime.rank() == 0) {
    double sum = 0;
    for (double t : all) sum += t;
    std::printf("%s %zu B %d ranks: avg %.2f us min %.2f max %.2f\n", coll.c_str(), bytes,
                world.size(), sum / static_cast<double>(all.size()),
                *std::min_element(all.begin(), all.end()),
                *std::max_element(all.begin(), all.end()));
  }
  runtime.finalize();
  return 0;
}
