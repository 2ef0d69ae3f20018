// The device-buffer suites (device_collective_suites.hpp) on the machine's GPU(s), through
// hlaunch: ranks share the GPUs (rank i uses device local_rank % devices). Exits 77
// ("skipped: no CUDA device") where there is no GPU; CTest reports that as skipped.
//
//   cuda_collective_check pairs|sizes|cache|mixed
#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "halyard/halyard.hpp"
#include "tests/cuda_ipc/device_collective_suites.hpp"
#include "tests/cuda_ipc/device_test_support.hpp"
#include "transports/cuda_ipc/cuda_device_support.hpp"

namespace {

using namespace halyard;

class CudaMemory final : public testing::DeviceMemory {
 public:
  ~CudaMemory() override { release_all(); }
  std::byte* allocate(std::size_t bytes) override {
    void* p = nullptr;
    testing::cuda_ok(cudaMalloc(&p, bytes == 0 ? 1 : bytes), "cudaMalloc");
    allocations_.push_back(p);
    return static_cast<std::byte*>(p);
  }
  void release_all() override {
    for (void* p : allocations_) (void)cudaFree(p);
    allocations_.clear();
  }
  void upload(std::byte* device, const std::vector<std::byte>& host) override {
    testing::cuda_ok(cudaMemcpy(device, host.data(), host.size(), cudaMemcpyHostToDevice),
                     "upload");
  }
  std::vector<std::byte> download(const std::byte* device, std::size_t bytes) override {
    std::vector<std::byte> host(bytes);
    testing::cuda_ok(cudaMemcpy(host.data(), device, bytes, cudaMemcpyDeviceToHost), "download");
    return host;
  }

 private:
  std::vector<void*> allocations_;
};

}  // namespace

int main(int argc, char** argv) {
  const std::string suite = argc > 1 ? argv[1] : "pairs";
  if (!testing::have_cuda_device()) {
    std::printf("cuda_collective_check %s: skipped: no CUDA device\n", suite.c_str());
    return testing::kSkipExitCode;
  }
  int devices = 0;
  testing::cuda_ok(cudaGetDeviceCount(&devices), "cudaGetDeviceCount");
  const char* local = std::getenv("HALYARD_LOCAL_RANK");
  testing::cuda_ok(cudaSetDevice((local != nullptr ? std::atoi(local) : 0) % devices),
                   "cudaSetDevice");

  Runtime runtime;
  const int rank = runtime.rank();
  auto* support = dynamic_cast<cuda_ipc::CudaDeviceSupport*>(runtime.device_support());
  if (support == nullptr) {
    std::fprintf(stderr, "rank %d: the runtime has no CUDA device support\n", rank);
    return 1;
  }
  int failures = 0;
  {
    CudaMemory memory;
    failures = testing::run_device_suite(
        {runtime, memory, &support->mappings(), std::size_t{256} << 20}, suite);
  }
  runtime.finalize();
  if (failures > 0) return 1;
  if (rank == 0) {
    std::printf("cuda_collective_check %s: correct on %d ranks\n", suite.c_str(), runtime.size());
  }
  return 0;
}
