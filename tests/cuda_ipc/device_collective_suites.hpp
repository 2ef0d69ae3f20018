// The multi-rank checks of bcast, reduce and allreduce on device buffers, written once and run
// on a real GPU (cuda_collective_check, CUDA IPC) and on FakeDevice (fake_device_check, every
// build): every element against a serial reduction on the host.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "halyard/halyard.hpp"
#include "transports/cuda_ipc/ipc_mapping_cache.hpp"

namespace halyard::testing {

// How a check gets device buffers and moves data in and out of them.
class DeviceMemory {
 public:
  virtual ~DeviceMemory() = default;
  virtual std::byte* allocate(std::size_t bytes) = 0;
  // Frees every allocation (a later allocate() may return the same addresses).
  virtual void release_all() = 0;
  virtual void upload(std::byte* device, const std::vector<std::byte>& host) = 0;
  virtual std::vector<std::byte> download(const std::byte* device, std::size_t bytes) = 0;
};

struct SuiteContext {
  Runtime& runtime;
  DeviceMemory& memory;
  const cuda_ipc::IpcMappingCache* mappings;  // this rank's IPC cache, for the "cache" suite
  std::size_t largest_bytes;                  // the "sizes" suite goes up to this
};

// Runs `suite` ("pairs", "sizes", "cache", "mixed"; see device_collective_suites.cpp) and
// returns how many checks failed on this rank (each printed on stderr).
int run_device_suite(const SuiteContext& context, const std::string& suite);

}  // namespace halyard::testing
