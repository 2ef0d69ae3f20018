// HALYARD_COLL_TIMEOUT fails a bcast whose root stalls; rank 0, told of the timeout by its
// request's status, refills its buffer and checks that no byte of it changes for 2 s while the
// root comes back and sends (quiet_buffers.hpp).
//   hlaunch -n 2 [--vnodes 2] -x HALYARD_COLL_TIMEOUT=1 timeout_quiet_check before|during MIB
// before: the root (rank 1) stalls before it posts the bcast; during: it posts it, progresses
// for a moment (the transfer starts), then stalls without progress, so that a transfer whose
// reads need the root's progress (ofi) is in flight when the timeout strikes. Rank 0 prints
// "rank 0 failed at <ms>: timeout: ..." and the watch's line, and exits 3 when nothing changed;
// the root exits 3 too.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "halyard/halyard.hpp"
#include "quiet_buffers.hpp"

namespace {

using namespace halyard;

// Longer than the timeout (1 s) and short of hlaunch's grace after rank 0's exit.
constexpr std::chrono::milliseconds kStall{2500};
// Long enough for the root to announce the bcast and serve the first reads, far too short for
// the whole message (256 MiB in the ofi test).
constexpr std::chrono::milliseconds kStartTransfer{10};
constexpr int kRoot = 1;

int stalling_root(const Communicator& world, std::vector<float>& buffer, bool during) {
  if (!during) std::this_thread::sleep_for(kStall);
  Request bcast = ibcast(world, buffer.data(), buffer.size(), Datatype::kFloat32, kRoot);
  if (during) {
    const auto until = std::chrono::steady_clock::now() + kStartTransfer;
    while (std::chrono::steady_clock::now() < until && !bcast.test()) {
    }
    std::this_thread::sleep_for(kStall);
  }
  const Status status = bcast.wait();
  std::printf("root: its bcast ended: %s\n", status.ok() ? "ok" : status.message.c_str());
  return 3;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string when = argc == 3 ? argv[1] : "";
  if (when != "before" && when != "during") {
    std::fprintf(stderr, "usage: timeout_quiet_check before|during MIB\n");
    return 2;
  }
  const std::size_t count = (std::size_t(std::atoi(argv[2])) << 20) / sizeof(float);
  Runtime rt;
  quiet::survive_sigterm();
  const Communicator& world = rt.world();
  const int me = world.rank();
  std::vector<float> buffer(count, me == kRoot ? 1.0f : 0.0f);
  barrier(world);
  if (me == kRoot) return stalling_root(world, buffer, when == "during");
  if (me != 0) return 3;

  Request bcast = ibcast(world, buffer.data(), count, Datatype::kFloat32, kRoot);
  while (!bcast.test()) std::this_thread::sleep_for(quiet::kPause);
  const Status& failed = bcast.status();
  if (failed.ok()) {
    std::printf("rank 0: the bcast succeeded although its root stalled\n");
    return 1;
  }
  std::printf("rank 0 failed at %lld: %s: %s\n", quiet::now_ms(),
              std::string(error_code_name(failed.code)).c_str(), failed.message.c_str());
  std::fflush(nullptr);
  const std::vector<quiet::Buffer> watched{{buffer.data(), count * sizeof(float)}};
  const std::size_t changed = quiet::watch_after_refill(me, watched, [&] { rt.loop().poll(); });
  return changed == 0 ? 3 : 1;
}
