// HALYARD_COLL_TIMEOUT counts every finished operation as progress, sends included: a rank
// whose collective waits while its sends keep completing is not timed out.
//   hlaunch -n 2 [--vnodes 2] -x HALYARD_COLL_TIMEOUT=1 timeout_sends_progress_check
// Rank 0 posts a barrier, then sends one 1 MiB message (a rendezvous: it completes only when
// rank 1 reads it) every 100 ms for 2.5 s; rank 1 receives them at that pace and joins the
// barrier only afterwards. No receive or collective step of rank 0 finishes in those 2.5 s,
// only its sends. The barrier is also the first collective call on the communicator: through
// the shm engine it agrees on a channel with rank 1, which must not block rank 0's ibarrier()
// (it did: rank 0 waited in it for rank 1, which waited for rank 0's sends). Both ranks print what
// they saw and exit 0 when every message arrived intact and the barrier succeeded.
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "halyard/halyard.hpp"

namespace {

using namespace halyard;

constexpr int kMessages = 25;
constexpr std::size_t kBytes = std::size_t(1) << 20;
constexpr std::chrono::milliseconds kPace{100};
constexpr int kTag = 11;

unsigned char byte_of(int message, std::size_t i) {
  return static_cast<unsigned char>(message * 31 + i);
}

int sender(const Communicator& world) {
  Request barrier = ibarrier(world);
  std::vector<unsigned char> buffer(kBytes);
  for (int m = 0; m < kMessages; ++m) {
    for (std::size_t i = 0; i < kBytes; ++i) buffer[i] = byte_of(m, i);
    const Status sent = world.isend(1, kTag, buffer.data(), buffer.size()).wait();
    if (!sent.ok()) {
      std::printf("rank 0: send %d failed: %s\n", m, sent.message.c_str());
      return 1;
    }
  }
  const Status status = barrier.wait();
  std::printf("rank 0: %d sends, barrier: %s\n", kMessages,
              status.ok() ? "ok" : status.message.c_str());
  return status.ok() ? 0 : 1;
}

int paced_receiver(const Communicator& world) {
  std::vector<unsigned char> buffer(kBytes);
  int wrong = 0;
  for (int m = 0; m < kMessages; ++m) {
    std::this_thread::sleep_for(kPace);
    const Status got = world.irecv(0, kTag, buffer.data(), buffer.size()).wait();
    if (!got.ok()) {
      std::printf("rank 1: receive %d failed: %s\n", m, got.message.c_str());
      return 1;
    }
    for (std::size_t i = 0; i < kBytes; ++i) wrong += buffer[i] != byte_of(m, i);
  }
  const Status status = ibarrier(world).wait();
  std::printf("rank 1: %d messages, %d wrong bytes, barrier: %s\n", kMessages, wrong,
              status.ok() ? "ok" : status.message.c_str());
  return status.ok() && wrong == 0 ? 0 : 1;
}

}  // namespace

int main() {
  Runtime rt;
  const Communicator& world = rt.world();
  if (world.size() != 2) {
    std::fprintf(stderr, "timeout_sends_progress_check: run it on 2 ranks\n");
    return 2;
  }
  return world.rank() == 0 ? sender(world) : paced_receiver(world);
}
