// Collectives called wrongly, through hlaunch on 4 ranks:
//   misuse_check check-count | check-root | check-collective
//       (with HALYARD_CHECK=1) one rank calls with another count, root or collective: every
//       rank must print "rank R: invalid argument: HALYARD_CHECK: ..." with the same message,
//       then all run a correct allreduce and exit 0.
//   misuse_check stall
//       (with HALYARD_COLL_TIMEOUT) rank 2 never calls the gather to root 0 (it sleeps); rank 0
//       must print "rank 0 timed out after T s: HALYARD_COLL_TIMEOUT: ..." naming rank 2.
//   misuse_check nocheck-allreduce | nocheck-bcast | nocheck-reduce | nocheck-allgather
//       (without the check) rank 1 passes twice the count and rank 2 half of it; whatever the
//       outcome (an error, a timeout, wrong data), no rank's collective may write outside its
//       buffers nor leave a receive posted: each prints "rank R: guards intact (STATUS)" or
//       exits 1. Run under ASan too.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "halyard/halyard.hpp"

namespace {

using namespace halyard;

constexpr std::size_t kCount = 1024;

std::string describe(const Status& s) {
  return s.ok() ? std::string("ok") : std::string(error_code_name(s.code)) + ": " + s.message;
}

void check_agreement_failure(const Communicator& world, const std::string& mode) {
  const int me = world.rank();
  std::vector<std::int32_t> send(2 * kCount, 1), recv(2 * kCount, 0);
  try {
    if (mode == "check-count") {
      allreduce(world, send.data(), recv.data(), me == 1 ? kCount / 2 : kCount, Datatype::kInt32,
                Op::kSum);
    } else if (mode == "check-root") {
      bcast(world, send.data(), kCount, Datatype::kInt32, me == 3 ? 1 : 0);
    } else {
      if (me == 2) {
        reduce(world, send.data(), recv.data(), kCount, Datatype::kInt32, Op::kSum, 0);
      } else {
        allreduce(world, send.data(), recv.data(), kCount, Datatype::kInt32, Op::kSum);
      }
    }
    std::printf("rank %d: the mismatched call succeeded\n", me);
    std::exit(1);
  } catch (const Error& e) {
    std::printf("rank %d: %s: %s\n", me, std::string(error_code_name(e.code())).c_str(), e.what());
  }
  // Every rank failed the same call before posting anything: the communicator is still usable.
  allreduce(world, send.data(), recv.data(), kCount, Datatype::kInt32, Op::kSum);
  for (std::size_t i = 0; i < kCount; ++i) {
    if (recv[i] != world.size()) {
      std::printf("rank %d: allreduce after the failed check: element %zu is %d\n", me, i, recv[i]);
      std::exit(1);
    }
  }
  std::printf("rank %d: the next collective is correct\n", me);
}

void stall(const Communicator& world) {
  const int me = world.rank();
  if (me == 2) {
    std::printf("rank 2 stalls\n");
    std::fflush(stdout);
    ::sleep(60);  // hlaunch ends it once rank 0 failed
    return;
  }
  std::int32_t value = me;
  std::vector<std::int32_t> all(static_cast<std::size_t>(world.size()));
  auto start = std::chrono::steady_clock::now();
  Status s = igather(world, &value, all.data(), 1, Datatype::kInt32, 0).wait();
  double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (s.ok()) {
    std::printf("rank %d: gather done\n", me);
    if (me == 0) std::exit(1);  // the root cannot finish without rank 2
    ::sleep(60);                // keep the job alive until rank 0 fails
    return;
  }
  std::printf("rank %d timed out after %.1f s: %s\n", me, waited, s.message.c_str());
  std::fflush(stdout);
  std::_Exit(s.code == ErrorCode::kTimeout ? 3 : 1);
}

// A buffer of `count` int32 between two guard zones of a known pattern.
class GuardedBuffer {
 public:
  static constexpr std::size_t kGuard = 4096;
  explicit GuardedBuffer(std::size_t count, std::byte fill)
      : bytes_(count * sizeof(std::int32_t)), storage_(kGuard + bytes_ + kGuard) {
    std::memset(storage_.data(), kPatternByte, kGuard);
    std::memset(storage_.data() + kGuard, static_cast<int>(fill), bytes_);
    std::memset(storage_.data() + kGuard + bytes_, kPatternByte, kGuard);
  }
  void* data() { return storage_.data() + kGuard; }
  bool intact() const {
    for (std::size_t i = 0; i < kGuard; ++i) {
      if (storage_[i] != kPattern || storage_[kGuard + bytes_ + i] != kPattern) return false;
    }
    return true;
  }

 private:
  static constexpr unsigned char kPatternByte = 0xA5;
  static constexpr std::byte kPattern{kPatternByte};
  std::size_t bytes_;
  std::vector<std::byte> storage_;
};

void mismatch_without_check(const Communicator& world, const std::string& collective) {
  const int me = world.rank();
  // Every rank has finished starting: one that ends early (below) fails the job, and a rank
  // still connecting would abort on that instead of checking its guards.
  barrier(world);
  // Big enough for rendezvous paths (64 KiB+), mismatched both ways.
  std::size_t count = 64 * kCount;
  if (me == 1) count *= 2;
  if (me == 2) count /= 2;
  const std::size_t blocks = static_cast<std::size_t>(world.size());
  GuardedBuffer send(count, std::byte{1});
  GuardedBuffer recv(collective == "allgather" ? count * blocks : count, std::byte{0});
  Request r;
  if (collective == "allreduce") {
    r = iallreduce(world, send.data(), recv.data(), count, Datatype::kInt32, Op::kSum);
  } else if (collective == "bcast") {
    r = ibcast(world, recv.data(), count, Datatype::kInt32, 0);
  } else if (collective == "reduce") {
    r = ireduce(world, send.data(), recv.data(), count, Datatype::kInt32, Op::kSum, 0);
  } else {
    r = iallgather(world, send.data(), recv.data(), count, Datatype::kInt32);
  }
  Status s = r.wait();
  if (!send.intact() || !recv.intact()) {
    std::printf("rank %d: a guard zone was overwritten (%s)\n", me, describe(s).c_str());
    std::fflush(stdout);
    std::_Exit(1);
  }
  // Whatever the outcome, the call left no receive posted to take a later message.
  if (const std::size_t left = world.posted_receives(); left != 0) {
    std::printf("rank %d: %zu receive(s) still posted (%s)\n", me, left, describe(s).c_str());
    std::fflush(stdout);
    std::_Exit(1);
  }
  std::printf("rank %d: guards intact (%s)\n", me, describe(s).c_str());
  std::fflush(stdout);
  // Other ranks may still be waiting for us: leave without the closing barrier.
  std::_Exit(0);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc == 2 ? argv[1] : "";
  Runtime rt;
  const Communicator& world = rt.world();
  if (mode.rfind("check-", 0) == 0) {
    check_agreement_failure(world, mode);
  } else if (mode == "stall") {
    stall(world);
  } else if (mode.rfind("nocheck-", 0) == 0) {
    mismatch_without_check(world, mode.substr(8));
  } else {
    std::fprintf(stderr,
                 "usage: misuse_check check-count|check-root|check-collective|stall|"
                 "nocheck-allreduce|nocheck-bcast|nocheck-reduce|nocheck-allgather\n");
    return 2;
  }
  rt.finalize();
  return 0;
}
