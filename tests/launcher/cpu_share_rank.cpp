// A job-test rank under `taskset -c CPU hlaunch ...`: checks that hlaunch kept it on that CPU,
// that the runtime busy-polls (and spins long before yielding) only where the host's ranks
// have a CPU each, and that the selection sees the same (CommShape::cpus_shared: on more than 2
// ranks sharing CPUs, a 16 MiB allreduce takes the rule of shared CPUs, the shm engine, where
// ranks with a CPU each would take intranode:cma).
//   cpu_share_rank CPU spin|sleep     the CPU hlaunch was given; the loop's expected choice
#include <sched.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "collectives/core/comm_shape.hpp"
#include "collectives/select/selection.hpp"
#include "halyard/halyard.hpp"

int main(int argc, char** argv) {
  using namespace halyard;
  if (argc != 3) {
    std::fprintf(stderr, "usage: taskset -c CPU hlaunch -n N cpu_share_rank CPU spin|sleep\n");
    return 2;
  }
  const int cpu = std::atoi(argv[1]);
  const bool want_spin = std::string(argv[2]) == "spin";
  Runtime runtime;
  int failures = 0;
  cpu_set_t mine;
  CPU_ZERO(&mine);
  if (sched_getaffinity(0, sizeof mine, &mine) != 0 || CPU_COUNT(&mine) != 1 ||
      !CPU_ISSET(cpu, &mine)) {
    std::fprintf(stderr, "rank %d: may run on %d CPUs, not only on CPU %d as hlaunch was\n",
                 runtime.rank(), CPU_COUNT(&mine), cpu);
    ++failures;
  }
  const long host_cpus = runtime.topology().cpus_on_host(runtime.rank());
  if (host_cpus != 1) {
    std::fprintf(stderr, "rank %d: cpus_on_host is %ld, expected 1\n", runtime.rank(), host_cpus);
    ++failures;
  }
  const bool spins = runtime.loop().busy_poll().count() > 0;
  if (spins != want_spin) {
    std::fprintf(stderr, "rank %d: the event loop %s, expected it to %s\n", runtime.rank(),
                 spins ? "busy-polls" : "sleeps at once", want_spin ? "spin" : "sleep");
    ++failures;
  }
  const int passes = runtime.loop().spin_passes();
  const int want_passes = want_spin ? EventLoop::kSpinPasses : EventLoop::kSharedCpuSpinPasses;
  if (passes != want_passes) {
    std::fprintf(stderr, "rank %d: the event loop spins %d passes before yielding, expected %d\n",
                 runtime.rank(), passes, want_passes);
    ++failures;
  }
  if (runtime.loop().cpu_shared() == want_spin) {
    std::fprintf(stderr, "rank %d: the event loop says the CPUs are %s\n", runtime.rank(),
                 want_spin ? "shared" : "not shared");
    ++failures;
  }
  const select::CommShape shape = select::shape_of(runtime.world());
  if (shape.cpus_shared == want_spin) {
    std::fprintf(stderr, "rank %d: the world's shape says the CPUs are %s\n", runtime.rank(),
                 want_spin ? "shared" : "not shared");
    ++failures;
  }
  if (shape.size > 2 && shape.cpus_shared) {
    const auto chosen =
        select::choose(select::Collective::kAllreduce, shape, std::size_t{16} << 20);
    if (chosen.algorithm != select::Algorithm::kShm) {
      std::fprintf(stderr, "rank %d: a 16 MiB allreduce on %d ranks sharing a CPU chose %s\n",
                   runtime.rank(), shape.size, select::algorithm_name(chosen).c_str());
      ++failures;
    }
  }
  runtime.finalize();
  return failures == 0 ? 0 : 1;
}
