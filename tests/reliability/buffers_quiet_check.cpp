// A peer is killed (SIGKILL) in the middle of a large transfer; each survivor, told of the
// failure by its request's status (C++ API), refills its buffers and checks that no byte of
// them changes for 2 s (quiet_buffers.hpp).
//   hlaunch -n N [--vnodes K] buffers_quiet_check recv|bcast|allreduce VICTIM MIB
// recv: rank 0 receives MIB MiB from every other rank at once; bcast (root 0) and allreduce
// (sum) move MIB MiB of floats. Survivors wait with test() and 1 ms pauses, then print "rank R
// failed: <code>: <message>", then the watch's line, and exit 3 when nothing changed (1 otherwise);
// hlaunch exits 137 (the victim's SIGKILL).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "halyard/halyard.hpp"
#include "quiet_buffers.hpp"

namespace {

using namespace halyard;

constexpr int kTag = 7;

}  // namespace

int main(int argc, char** argv) {
  const std::string op = argc == 4 ? argv[1] : "";
  if (op != "recv" && op != "bcast" && op != "allreduce") {
    std::fprintf(stderr, "usage: buffers_quiet_check recv|bcast|allreduce VICTIM MIB\n");
    return 2;
  }
  const int victim = std::atoi(argv[2]);
  const std::size_t count = (std::size_t(std::atoi(argv[3])) << 20) / sizeof(float);
  Runtime rt;
  quiet::survive_sigterm();
  const Communicator& world = rt.world();
  const int me = world.rank();
  const int n = world.size();

  // The buffers of `count` floats each rank moves and, after the error, watches. Allocated and
  // touched before the barrier, so that every rank posts within the same few milliseconds.
  const int buffer_count = op == "recv" ? (me == 0 ? n - 1 : 1) : (op == "bcast" ? 1 : 2);
  const float value = op == "recv" && me == 0 ? 0.0f : float(me + 1);
  std::vector<std::vector<float>> buffers(static_cast<std::size_t>(buffer_count),
                                          std::vector<float>(count, value));
  std::vector<Request> requests;
  barrier(world);
  if (op == "recv") {
    if (me == 0) {
      for (int peer = 1; peer < n; ++peer) {
        requests.push_back(
            world.irecv(peer, kTag, buffers[std::size_t(peer - 1)].data(), count * sizeof(float)));
      }
    } else {
      requests.push_back(world.isend(0, kTag, buffers[0].data(), count * sizeof(float)));
    }
  } else if (op == "bcast") {
    requests.push_back(ibcast(world, buffers[0].data(), count, Datatype::kFloat32, 0));
  } else {
    requests.push_back(iallreduce(world, buffers[0].data(), buffers[1].data(), count,
                                  Datatype::kFloat32, Op::kSum));
  }

  if (me == victim) {
    const auto until = std::chrono::steady_clock::now() + quiet::kVictimDelay;
    while (std::chrono::steady_clock::now() < until && !requests.front().test()) {
    }
    if (requests.front().done()) {
      std::printf("victim %d: its transfer finished before it could die\n", me);
      return 1;
    }
    quiet::die_by_sigkill(me);
  }
  auto all_done = [&] {
    bool done = true;
    for (const Request& r : requests) done = r.test() && done;
    return done;
  };
  while (!all_done()) std::this_thread::sleep_for(quiet::kPause);
  Status failed;
  for (const Request& r : requests) {
    if (failed.ok() && !r.status().ok()) failed = r.status();
  }
  if (failed.ok()) {
    // Its part was done before the failure reached it (a leaf of a bcast tree): the next
    // call must report it.
    std::printf("rank %d: the %s completed before the failure reached it\n", me, op.c_str());
    try {
      barrier(world);
      std::printf("rank %d: a barrier after rank %d died succeeded\n", me, victim);
      return 1;
    } catch (const Error& e) {
      failed = Status::failure(e.code(), e.what());
    }
  }
  std::printf("rank %d failed at %lld: %s: %s\n", me, quiet::now_ms(),
              std::string(error_code_name(failed.code)).c_str(), failed.message.c_str());
  std::fflush(nullptr);
  std::vector<quiet::Buffer> watched;
  for (auto& b : buffers) watched.push_back({b.data(), b.size() * sizeof(float)});
  const std::size_t changed = quiet::watch_after_refill(me, watched, [&] { rt.loop().poll(); });
  return changed == 0 ? 3 : 1;
}
