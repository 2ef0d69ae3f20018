// flag_floor: what this machine's hardware allows a flag-based collective between two cores,
// with no runtime at all. Two processes share one mapping; each pins itself to a core and
// exchanges sequence numbers through cache lines that only one of them writes, as the shm
// engine does (collectives/shm/channel_layout.hpp). Prints:
//   - exchange: ns per round where both publish and wait for the other's flag (a 2-rank
//     barrier or allreduce of one flag line);
//   - bcast: the per-rank average of a timed 8-byte bcast (root writes data and flag, the other
//     waits and copies), each followed by an untimed exchange, as bench/mpi_collectives.c
//     times MPI_Bcast between barriers.
// Any library's 2-rank figure is bounded below by these (docs/benchmarks.md, "The shm engine").
//   flag_floor [rounds]   (default 1000000)
#include <sched.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

namespace {

struct alignas(64) Line {
  std::atomic<unsigned long> seq{0};
  char data[56] = {};
};

struct Shared {
  Line exchange[2];  // one per process
  Line bcast;        // written by process 0
};

void pin(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  (void)sched_setaffinity(0, sizeof set, &set);
}

void exchange(Shared& s, int me, unsigned long round) {
  s.exchange[me].seq.store(round, std::memory_order_release);
  while (s.exchange[1 - me].seq.load(std::memory_order_acquire) < round) {
  }
}

}  // namespace

int main(int argc, char** argv) {
  const long rounds = argc > 1 ? std::atol(argv[1]) : 1000000;
  void* memory =
      mmap(nullptr, sizeof(Shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED || rounds < 1) return 2;
  auto* s = new (memory) Shared;
  const pid_t child = fork();
  if (child < 0) return 2;
  const int me = child == 0 ? 1 : 0;
  pin(me);
  using Clock = std::chrono::steady_clock;
  auto start = Clock::now();
  for (long i = 1; i <= rounds; ++i) exchange(*s, me, static_cast<unsigned long>(i));
  const double exchange_ns =
      std::chrono::duration<double, std::nano>(Clock::now() - start).count() / rounds;
  double bcast_ns = 0;
  char copy[8];
  for (long i = 1; i <= rounds; ++i) {
    const auto round = static_cast<unsigned long>(rounds + i);
    auto t0 = Clock::now();
    if (me == 0) {
      std::memcpy(s->bcast.data, "payload", 8);
      s->bcast.seq.store(round, std::memory_order_release);
    } else {
      while (s->bcast.seq.load(std::memory_order_acquire) < round) {
      }
      std::memcpy(copy, s->bcast.data, sizeof copy);
    }
    bcast_ns += std::chrono::duration<double, std::nano>(Clock::now() - t0).count();
    exchange(*s, me, round);
  }
  if (me == 1) {
    std::printf("bcast, non-root: %.1f ns\n", bcast_ns / rounds);
    return copy[0] == 'p' ? 0 : 1;
  }
  int status = 0;
  waitpid(child, &status, 0);
  std::printf("exchange: %.1f ns per round\nbcast, root: %.1f ns\n", exchange_ns,
              bcast_ns / rounds);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
