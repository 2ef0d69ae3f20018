// A job that hangs on purpose, for the flight recorder's verdict (docs/reliability.md,
// "Finding the hung rank").
//   hlaunch -n 4 hang_rank skip|stop|compute
// Every rank runs allreduce #1 (4 bytes) on the world and checks its sum; then every rank but
// rank 2 prints "rank R waits" and calls allreduce #2, which cannot end. Rank 2 instead prints
// "rank 2 skips" and sleeps 60 s (skip), stops itself with SIGSTOP (stop) or spins on the CPU
// for 60 s (compute: a rank stuck in its own computation).
// hlaunch must name rank 2 as the rank the others wait for, and allreduce #2 on comm 0.
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "halyard/halyard.hpp"

int main(int argc, char** argv) {
  using namespace halyard;
  const std::string mode = argc == 2 ? argv[1] : "";
  if (mode != "skip" && mode != "stop" && mode != "compute") {
    std::fprintf(stderr, "usage: hang_rank skip|stop|compute\n");
    return 2;
  }
  Runtime rt;
  const Communicator& world = rt.world();
  const int me = world.rank();
  std::int32_t value = me + 1;
  std::int32_t sum = 0;
  allreduce(world, &value, &sum, 1, Datatype::kInt32, Op::kSum);
  const int n = world.size();
  if (sum != n * (n + 1) / 2) {
    std::printf("rank %d: allreduce #1 gave %d, expected %d\n", me, sum, n * (n + 1) / 2);
    return 1;
  }
  if (me == 2) {
    std::printf("rank 2 skips\n");
    std::fflush(stdout);
    if (mode == "stop") ::raise(SIGSTOP);
    if (mode == "compute") {
      const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
      while (std::chrono::steady_clock::now() < until) {
      }
    }
    ::sleep(60);  // hlaunch ends the job
    return 0;
  }
  std::printf("rank %d waits\n", me);
  std::fflush(stdout);
  allreduce(world, &value, &sum, 1, Datatype::kInt32, Op::kSum);
  std::printf("rank %d: allreduce #2 ended without rank 2\n", me);
  return 1;
}
