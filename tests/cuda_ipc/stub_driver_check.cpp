// stub_driver_check: run with the CUDA toolkit's stub libcuda.so preloaded (what a machine
// without a driver finds first when lib64/stubs is on the library path). Every CUDA call then
// answers cudaErrorStubLibrary, which means "no device" (issue 27, item 18): host allreduce and
// allgather on buffers outside the brk heap (so that Halyard asks CUDA about them) must work and
// give the right data. Exits 1 on any difference, 2 if the stub is not loaded.
#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "halyard/halyard.hpp"

int main() {
  using namespace halyard;
  if (::dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD) == nullptr) {
    std::fprintf(stderr, "stub_driver_check: libcuda.so.1 is not loaded (preload the stub)\n");
    return 2;
  }
  Runtime runtime;
  const Communicator& world = runtime.world();
  const int me = world.rank();
  const int n = world.size();
  constexpr std::size_t kCount = std::size_t{1} << 20;  // 4 MiB: mmap'ed, not in the brk heap
  std::vector<std::int32_t> send(kCount, me + 1);
  std::vector<std::int32_t> sum(kCount, 0);
  allreduce(world, send.data(), sum.data(), kCount, Datatype::kInt32, Op::kSum);
  std::vector<std::int32_t> gathered(kCount * static_cast<std::size_t>(n), -1);
  allgather(world, send.data(), gathered.data(), kCount, Datatype::kInt32);
  int failures = 0;
  const std::int32_t expected_sum = n * (n + 1) / 2;
  for (std::size_t i = 0; i < kCount; ++i) failures += sum[i] != expected_sum;
  for (std::size_t i = 0; i < gathered.size(); ++i) {
    failures += gathered[i] != static_cast<std::int32_t>(i / kCount) + 1;
  }
  runtime.finalize();
  if (failures > 0) {
    std::fprintf(stderr, "rank %d: %d wrong elements\n", me, failures);
    return 1;
  }
  if (me == 0) std::printf("stub_driver_check: host collectives correct on %d ranks\n", n);
  return 0;
}
