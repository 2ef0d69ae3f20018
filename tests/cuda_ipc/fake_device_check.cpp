// The device-buffer suites (device_collective_suites.hpp) on FakeDevice, so that the GPU-aware
// collectives' protocol (notices, tokens, the IPC cache, staging through the node leaders,
// failures) runs in every build, GPU or not:
//
//   fake_device_check pairs|sizes|cache|mixed
//   fake_device_check fail RANK   exports fail on world rank RANK: allreduce, reduce and bcast
//                                 fail where their result depends on it (none may hang, none
//                                 may finish with a wrong result), and the communicator works
//                                 afterwards
//   fake_device_check refuse      device buffers passed to calls without a device path
//                                 (allgather, gather, scatter, alltoall, p2p) are refused with
//                                 kUnsupported naming the call, and host calls still work
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "halyard/halyard.hpp"
#include "tests/cuda_ipc/device_collective_suites.hpp"
#include "tests/cuda_ipc/fake_device.hpp"

namespace {

using namespace halyard;

class FakeMemory final : public testing::DeviceMemory {
 public:
  explicit FakeMemory(testing::FakeDevice& device) : device_(device) {}
  std::byte* allocate(std::size_t bytes) override { return device_.allocate(bytes); }
  void release_all() override { device_.release_all(); }
  void upload(std::byte* device, const std::vector<std::byte>& host) override {
    if (!host.empty()) std::memcpy(device, host.data(), host.size());
  }
  std::vector<std::byte> download(const std::byte* device, std::size_t bytes) override {
    return std::vector<std::byte>(device, device + bytes);
  }

 private:
  testing::FakeDevice& device_;
};

// One rank cannot export its buffers. No rank may hang; a rank whose result depends on the
// failed rank must fail, and a rank that finishes must hold the right result:
//   allreduce: the failed rank's node fails; other nodes fail too, unless the failure hit after
//              their result was complete (a failed leader's last node step), then they are right;
//   reduce:    a root that finishes holds the right result (the failed rank's export may not
//              have been needed: a leader reducing its node exports nothing);
//   bcast from the failed rank: every rank fails.
int failure_suite(Runtime& runtime, testing::FakeDevice& device, int failing_rank) {
  const Communicator& world = runtime.world();
  const int me = world.rank();
  int failures = 0;
  constexpr std::size_t kCount = 1000;
  auto* send = reinterpret_cast<float*>(device.allocate(kCount * 4));
  auto* recv = reinterpret_cast<float*>(device.allocate(kCount * 4));
  std::fill(send, send + kCount, 1.0f);
  // Returns whether `call` failed; an unexpected success is counted.
  auto failed = [&](const char* what, bool must_fail, auto&& call) {
    try {
      call();
      if (must_fail) {
        std::fprintf(stderr, "rank %d: %s did not fail\n", me, what);
        ++failures;
      }
      return false;
    } catch (const Error& e) {
      if (me == 0) std::printf("%s: %s\n", what, e.what());
      return true;
    }
  };
  const bool failing_node = world.same_node(me, failing_rank);
  if (!failed("allreduce", failing_node,
              [&] { allreduce(world, send, recv, kCount, Datatype::kFloat32, Op::kSum); })) {
    if (std::any_of(recv, recv + kCount, [&](float v) { return v != float(world.size()); })) {
      std::fprintf(stderr, "rank %d: allreduce finished with a wrong result\n", me);
      ++failures;
    }
  }
  const int reduce_root = failing_rank == 0 ? 1 : 0;
  std::fill(recv, recv + kCount, 0.0f);
  const bool reduce_failed = failed("reduce", false, [&] {
    reduce(world, send, recv, kCount, Datatype::kFloat32, Op::kSum, reduce_root);
  });
  if (!reduce_failed && me == reduce_root &&
      std::any_of(recv, recv + kCount, [&](float v) { return v != float(world.size()); })) {
    std::fprintf(stderr, "rank %d: reduce finished with a wrong result\n", me);
    ++failures;
  }
  failed("bcast", true, [&] { bcast(world, send, kCount, Datatype::kFloat32, failing_rank); });
  // Host collectives on the same communicator still work (no message was left behind).
  float one = 1.0f;
  float sum = 0.0f;
  allreduce(world, &one, &sum, 1, Datatype::kFloat32, Op::kSum);
  if (sum != static_cast<float>(world.size())) {
    std::fprintf(stderr, "rank %d: host allreduce after the failures gave %g\n", world.rank(),
                 static_cast<double>(sum));
    ++failures;
  }
  return failures;
}

// Issue 27, item 18: the host algorithms would read device memory with the CPU (a crash on a
// GPU); the call must be refused instead, on every rank, before any message is sent.
int refusal_suite(Runtime& runtime, testing::FakeDevice& device) {
  const Communicator& world = runtime.world();
  const int me = world.rank();
  const auto n = static_cast<std::size_t>(world.size());
  int failures = 0;
  auto* send = reinterpret_cast<std::int32_t*>(device.allocate(n * 4));
  auto* recv = reinterpret_cast<std::int32_t*>(device.allocate(n * 4));
  std::vector<std::int32_t> host(n, me);
  auto refused = [&](const std::string& what, auto&& call) {
    try {
      call();
      std::fprintf(stderr, "rank %d: %s took device buffers\n", me, what.c_str());
      ++failures;
    } catch (const Error& e) {
      const std::string message = e.what();
      if (e.code() != ErrorCode::kUnsupported || message.find(what + ": ") != 0 ||
          message.find("is CUDA device memory") == std::string::npos) {
        std::fprintf(stderr, "rank %d: %s: unexpected error %s\n", me, what.c_str(),
                     message.c_str());
        ++failures;
      } else if (me == 0) {
        std::printf("%s\n", message.c_str());
      }
    }
  };
  refused("iallgather", [&] { allgather(world, send, recv, 1, Datatype::kInt32); });
  refused("igather", [&] { gather(world, send, recv, 1, Datatype::kInt32, 0); });
  refused("iscatter", [&] { scatter(world, send, recv, 1, Datatype::kInt32, 0); });
  refused("ialltoall", [&] { alltoall(world, send, recv, 1, Datatype::kInt32); });
  const int peer = (me + 1) % world.size();
  refused("isend", [&] { world.isend(peer, 5, send, 4).wait_ok(); });
  refused("send", [&] { world.send(peer, 5, send, 4); });
  refused("irecv", [&] { world.irecv(peer, 5, recv, 4).wait_ok(); });
  refused("recv", [&] { world.recv(peer, 5, recv, 4); });
  // Host buffers still work, and no message was left behind by the refused calls.
  std::vector<std::int32_t> gathered(n, -1);
  allgather(world, host.data(), gathered.data(), 1, Datatype::kInt32);
  for (std::size_t r = 0; r < n; ++r) {
    if (gathered[r] != static_cast<std::int32_t>(r)) {
      std::fprintf(stderr, "rank %d: host allgather gave %d from rank %zu\n", me, gathered[r], r);
      ++failures;
    }
  }
  return failures;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string suite = argc > 1 ? argv[1] : "pairs";
  const int failing_rank = suite == "fail" && argc > 2 ? std::atoi(argv[2]) : -1;
  Runtime runtime;
  const int rank = runtime.rank();
  int failures = 0;
  {
    testing::FakeDevice device(runtime, failing_rank);
    if (suite == "fail") {
      failures = failure_suite(runtime, device, failing_rank);
    } else if (suite == "refuse") {
      failures = refusal_suite(runtime, device);
    } else {
      FakeMemory memory(device);
      failures = testing::run_device_suite(
          {runtime, memory, &device.mappings(), std::size_t{1} << 20}, suite);
    }
    barrier(runtime.world());  // nobody unmaps the arena while a peer may still read it
  }
  runtime.finalize();
  if (failures > 0) return 1;
  if (rank == 0) {
    std::printf("fake_device_check %s: correct on %d ranks\n", suite.c_str(), runtime.size());
  }
  return 0;
}
