// The device-buffer suites (device_collective_suites.hpp) on FakeDevice, so that the GPU-aware
// collectives' protocol (notices, tokens, the IPC cache, staging through the node leaders,
// failures) runs in every build, GPU or not:
//
//   fake_device_check pairs|sizes|cache|mixed
//   fake_device_check fail RANK   exports fail on world rank RANK: every rank's allreduce,
//                                 reduce and bcast must fail (none may hang), and the
//                                 communicator must work afterwards
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

// Every collective must fail on every rank when one rank cannot export; none may hang.
int failure_suite(Runtime& runtime, testing::FakeDevice& device, int failing_rank) {
  const Communicator& world = runtime.world();
  int failures = 0;
  constexpr std::size_t kCount = 1000;
  std::byte* send = device.allocate(kCount * 4);
  std::byte* recv = device.allocate(kCount * 4);
  auto expect_failure = [&](const char* what, auto&& call) {
    try {
      call();
      std::fprintf(stderr, "rank %d: %s did not fail\n", world.rank(), what);
      ++failures;
    } catch (const Error& e) {
      if (world.rank() == 0) std::printf("%s: %s\n", what, e.what());
    }
  };
  expect_failure("allreduce",
                 [&] { allreduce(world, send, recv, kCount, Datatype::kFloat32, Op::kSum); });
  expect_failure("reduce", [&] {
    reduce(world, send, recv, kCount, Datatype::kFloat32, Op::kSum, failing_rank == 0 ? 1 : 0);
  });
  expect_failure("bcast", [&] { bcast(world, send, kCount, Datatype::kFloat32, failing_rank); });
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
