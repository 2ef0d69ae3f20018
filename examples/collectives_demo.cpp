// A first Halyard job: every rank contributes a vector, the ranks allreduce it, broadcast a
// message from the last rank, gather one value each, and print what they got, checked against
// what the arithmetic says it must be.
//
//   hlaunch -n 4 --vnodes 2 halyard_collectives_demo [elements]
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

#include "halyard/halyard.hpp"

namespace {

using namespace halyard;

// Exits non-zero with a message naming what differed, so a wrong result can never look fine.
void expect(bool ok, int rank, const std::string& what) {
  if (ok) return;
  std::fprintf(stderr, "rank %d: %s\n", rank, what.c_str());
  std::exit(1);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    Runtime runtime;
    const Communicator& world = runtime.world();
    const int rank = world.rank();
    const int size = world.size();
    const std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1 << 20;

    // allreduce: element i of rank r is r + i, so the sum is size*i + size*(size-1)/2.
    std::vector<double> mine(n), sum(n);
    for (std::size_t i = 0; i < n; ++i) mine[i] = rank + static_cast<double>(i);
    allreduce(world, mine, sum);  // the typed API: float64 and the count come from the vectors
    const double base = size * (size - 1) / 2.0;
    for (std::size_t i = 0; i < n; ++i) {
      expect(sum[i] == size * static_cast<double>(i) + base, rank,
             "allreduce element " + std::to_string(i) + " is " + std::to_string(sum[i]));
    }

    // bcast: the last rank's greeting reaches everyone.
    char greeting[64] = {};
    if (rank == size - 1) std::snprintf(greeting, sizeof greeting, "hello from rank %d", rank);
    bcast(world, greeting, size - 1);
    expect(std::string(greeting) == "hello from rank " + std::to_string(size - 1), rank,
           std::string("bcast delivered '") + greeting + "'");

    // allgather: everyone learns every rank's node id.
    std::int32_t node = world.topology_of(rank).node_id;
    std::vector<std::int32_t> nodes(static_cast<std::size_t>(size));
    allgather(world, std::span(&node, 1), nodes);
    expect(nodes[static_cast<std::size_t>(rank)] == node, rank, "allgather lost my node id");

    std::printf(
        "rank %d/%d on node %d: allreduce of %zu doubles ok (sum[1] = %.0f), bcast got '%s'\n",
        rank, size, node, n, n > 1 ? sum[1] : sum[0], greeting);
    std::fflush(stdout);
    // A non-blocking barrier, waited for with its request.
    ibarrier(world).wait_ok();
    if (rank == 0) {
      std::string list;
      for (int r = 0; r < size; ++r) {
        if (r > 0) list += ',';
        list += std::to_string(nodes[static_cast<std::size_t>(r)]);
      }
      std::printf("all %d ranks agree; node of each rank: [%s]\n", size, list.c_str());
    }
    runtime.finalize();
  } catch (const Error& e) {
    std::fprintf(stderr, "halyard_collectives_demo: %s\n", e.what());
    return 1;
  }
  return 0;
}
