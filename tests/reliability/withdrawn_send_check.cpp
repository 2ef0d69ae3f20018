// A send that fails while its receiver lives: the send completes only once the receiver can no
// longer read its buffer (docs/reliability.md, "No byte after the error").
//   hlaunch -n 2 [--vnodes 2] -x HALYARD_COLL_TIMEOUT=1 withdrawn_send_check MIB
// Rank 0 sends MIB MiB to rank 1 (a rendezvous: the bytes stay in rank 0's buffer until rank 1
// reads them), then waits in a barrier that rank 1 never joins, so the watchdog fails rank 0's
// process after 1 s; rank 1 is not told. Rank 0 waits for its send's failure, refills the
// buffer with another byte and keeps progressing. Rank 1 posts its receive only after 2.5 s
// without progress. Its receive must fail as withdrawn (over ofi also: refused, the sender
// having closed its registration when no answer came within 1 s) or bring the original bytes:
// never the refill, which would mean its read ran after rank 0's send had completed. Both ranks
// print what they saw and exit 3 when it holds.
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

constexpr unsigned char kOriginal = 0xA5;
constexpr int kTag = 7;
// Past the watchdog's 1 s, so the sender has failed (and, without the rule, refilled) by then.
constexpr std::chrono::milliseconds kReceiverStall{2500};

int failing_sender(Runtime& rt, const Communicator& world, std::vector<unsigned char>& buffer) {
  Request send = world.isend(1, kTag, buffer.data(), buffer.size());
  const Status barrier_status = ibarrier(world).wait();
  std::printf("rank 0: barrier: %s\n", std::string(error_code_name(barrier_status.code)).c_str());
  const Status status = send.wait();
  std::printf("rank 0: send failed at %lld: %s\n", quiet::now_ms(),
              status.ok() ? "no, it succeeded" : status.message.c_str());
  std::fflush(nullptr);
  if (barrier_status.ok() || status.ok()) return 1;
  // From here the receiver must never see these bytes.
  quiet::watch_after_refill(0, {{buffer.data(), buffer.size()}}, [&] { rt.loop().poll(); });
  return 3;
}

int late_receiver(const Communicator& world, std::vector<unsigned char>& buffer) {
  std::this_thread::sleep_for(kReceiverStall);
  const Status status = world.irecv(0, kTag, buffer.data(), buffer.size()).wait();
  if (!status.ok()) {
    std::printf("rank 1: receive at %lld: %s\n", quiet::now_ms(), status.message.c_str());
    // Withdrawn, or (ofi) its read refused once the sender closed the registration after 1 s
    // without an answer: either way no byte of the sender's buffer was taken for data.
    const bool refused = status.message.find("withdrew this message") != std::string::npos ||
                         status.message.find("is unreachable") != std::string::npos;
    return refused ? 3 : 1;
  }
  std::size_t refilled = 0, other = 0;
  for (unsigned char b : buffer) {
    if (b == quiet::refill_byte(0))
      ++refilled;
    else if (b != kOriginal)
      ++other;
  }
  std::printf("rank 1: receive at %lld: ok, %zu bytes of the sender's refill, %zu others\n",
              quiet::now_ms(), refilled, other);
  return refilled == 0 && other == 0 ? 3 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: withdrawn_send_check MIB\n");
    return 2;
  }
  const std::size_t bytes = std::size_t(std::atoi(argv[1])) << 20;
  Runtime rt;
  quiet::survive_sigterm();
  const Communicator& world = rt.world();
  std::vector<unsigned char> buffer(bytes, world.rank() == 0 ? kOriginal : 0);
  barrier(world);
  const int code =
      world.rank() == 0 ? failing_sender(rt, world, buffer) : late_receiver(world, buffer);
  std::fflush(nullptr);
  // Neither rank can finalize with the other (one failed): end here, as hlaunch expects.
  std::_Exit(code);
}
