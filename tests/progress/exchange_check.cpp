// exchange_check [MAX_BYTES]: alltoall and allgather at every size from 0 to MAX_BYTES per peer
// (default 8 MiB), with each algorithm (alltoall: pairwise, Bruck, the built-in choice;
// allgather: ring, Bruck, HAN, the built-in choice), first without and
// then with the progress thread, all in one launch. Every received element is checked against
// what its sender wrote. With the thread on, each non-blocking call is left to the progress
// thread while this rank computes and only reads done(), as an overlapping application would.
// Bruck is checked up to 1 MiB: it is the small-message algorithm and copies every block
// log2(p) times. Exits non-zero on the first mismatch, naming it.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "collectives/base/base.hpp"
#include "collectives/collectives.hpp"
#include "collectives/han/han.hpp"
#include "halyard/halyard.hpp"

namespace {

using namespace halyard;
using Clock = std::chrono::steady_clock;

constexpr std::size_t kBruckLimitBytes = std::size_t{1} << 20;

std::int32_t element(int from, int to, std::size_t i) {
  return static_cast<std::int32_t>(from * 1'000'003 + to * 7919 + static_cast<int>(i % 65521));
}

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "exchange_check: %s\n", what.c_str());
  std::exit(1);
}

// An algorithm entry point of collectives/base or han: internal, so it is called with the loop
// held (the public API takes the lock itself).
using Start =
    std::function<Request(const Communicator&, const void*, void*, std::size_t, Datatype)>;

Request post(const Communicator& comm, const Start& start, const void* send, void* recv,
             std::size_t count) {
  EventLoop::Access access(comm.loop());
  return start(comm, send, recv, count, Datatype::kInt32);
}

// Waits like an application would: blocking, or (progress thread) computing until done().
void finish(Runtime& rt, const Request& r, const std::string& what) {
  if (rt.progress_thread_running()) {
    volatile double x = 1.0;
    const auto deadline = Clock::now() + std::chrono::seconds(60);
    while (!r.done() && Clock::now() < deadline) {
      for (int i = 0; i < 2000; ++i) x = x * 1.0000001;
    }
    if (!r.done()) fail(what + ": the progress thread did not complete it in 60 s");
  }
  Status s = r.wait();
  if (!s.ok()) fail(what + ": " + s.message);
}

void check_alltoall(Runtime& rt, const std::string& name, const Start& start, std::size_t count) {
  const Communicator& w = rt.world();
  const int n = w.size(), me = w.rank();
  std::vector<std::int32_t> send(count * n), recv(count * n, -1);
  for (int to = 0; to < n; ++to) {
    for (std::size_t i = 0; i < count; ++i) send[to * count + i] = element(me, to, i);
  }
  const std::string what = "alltoall " + name + " of " + std::to_string(count * 4) +
                           " bytes per peer on rank " + std::to_string(me);
  finish(rt, post(w, start, send.data(), recv.data(), count), what);
  for (int from = 0; from < n; ++from) {
    for (std::size_t i = 0; i < count; ++i) {
      if (recv[from * count + i] != element(from, me, i)) {
        fail(what + ": element " + std::to_string(i) + " from rank " + std::to_string(from) +
             " is " + std::to_string(recv[from * count + i]) + ", expected " +
             std::to_string(element(from, me, i)));
      }
    }
  }
}

void check_allgather(Runtime& rt, const std::string& name, const Start& start, std::size_t count) {
  const Communicator& w = rt.world();
  const int n = w.size(), me = w.rank();
  std::vector<std::int32_t> mine(count), recv(count * n, -1);
  for (std::size_t i = 0; i < count; ++i) mine[i] = element(me, 0, i);
  const std::string what = "allgather " + name + " of " + std::to_string(count * 4) +
                           " bytes per rank on rank " + std::to_string(me);
  finish(rt, post(w, start, mine.data(), recv.data(), count), what);
  for (int from = 0; from < n; ++from) {
    for (std::size_t i = 0; i < count; ++i) {
      if (recv[from * count + i] != element(from, 0, i)) {
        fail(what + ": element " + std::to_string(i) + " from rank " + std::to_string(from) +
             " is " + std::to_string(recv[from * count + i]));
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t max_bytes = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : 8u << 20;
  Runtime rt;
  const std::vector<std::pair<std::string, Start>> alltoalls = {
      {"pairwise", base::ialltoall_pairwise},
      {"bruck", base::ialltoall_bruck},
      {"default", [](const Communicator& c, const void* s, void* r, std::size_t n, Datatype t) {
         return ialltoall(c, s, r, n, t);
       }}};
  const std::vector<std::pair<std::string, Start>> allgathers = {
      {"ring", base::iallgather_ring},
      {"bruck", base::iallgather_bruck},
      {"han", han::iallgather},
      {"default", [](const Communicator& c, const void* s, void* r, std::size_t n, Datatype t) {
         return iallgather(c, s, r, n, t);
       }}};
  // Bytes per peer: 0, odd small sizes, the eager/rendezvous boundaries, 1 and 8 MiB.
  std::vector<std::size_t> counts;
  for (std::size_t bytes : {0u, 4u, 28u, 4100u, 65536u, 300000u, 1u << 20, 8u << 20}) {
    if (bytes <= max_bytes) counts.push_back(bytes / 4);
  }
  for (bool thread : {false, true}) {
    if (thread) rt.start_progress_thread();
    for (std::size_t count : counts) {
      for (const auto& [name, start] : alltoalls) {
        if (name == "bruck" && count * 4 > kBruckLimitBytes) continue;
        check_alltoall(rt, name, start, count);
      }
      for (const auto& [name, start] : allgathers) {
        if (name == "bruck" && count * 4 > kBruckLimitBytes) continue;
        check_allgather(rt, name, start, count);
      }
    }
    barrier(rt.world());
  }
  rt.stop_progress_thread();
  // Every exchange has completed: none may have left a receive posted (it would match a later
  // call's message once collective tags wrap).
  if (const std::size_t left = rt.world().posted_receives(); left != 0) {
    fail("rank " + std::to_string(rt.rank()) + ": " + std::to_string(left) +
         " receive(s) still posted on the world communicator");
  }
  if (rt.rank() == 0) {
    std::printf(
        "exchange_check: alltoall and allgather up to %zu bytes per peer ok on %d ranks, "
        "progress thread off and on\n",
        max_bytes, rt.size());
  }
  return 0;
}
