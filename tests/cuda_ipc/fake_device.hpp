// FakeDevice: a DeviceSupport without a GPU, so that the GPU-aware collectives' state machines
// (notices, tokens, IPC mapping, staging, failures) run for real in CI. "Device memory" is an
// arena shared by every rank of the job (a memfd rank 0 makes and the others open through
// /proc), each rank allocating in its own region; an export is an offset into the arena, so a
// peer maps it by adding its own arena base, through the real IpcMappingCache. Copies are
// memcpy and reductions the CPU kernels, folded like the GPU kernels (every input of an
// element read before it is written); both complete through the event loop.
#pragma once

#include <cstddef>
#include <cstdint>

#include "halyard/halyard.hpp"
#include "runtime/device_support.hpp"
#include "transports/cuda_ipc/ipc_mapping_cache.hpp"

namespace halyard::testing {

class FakeDevice final : public DeviceSupport {
 public:
  static constexpr std::size_t kRegionBytes = std::size_t{64} << 20;  // per rank

  // Collective over `runtime.world()`: maps the arena and takes over the runtime's
  // DeviceSupport. `failing_rank` (world rank; -1: none) fails every export_buffer.
  FakeDevice(Runtime& runtime, int failing_rank);
  ~FakeDevice() override;

  // "cudaMalloc" in this rank's region; release_all() is "cudaFree" of everything, after which
  // new allocations come back at the same addresses with new buffer ids.
  std::byte* allocate(std::size_t bytes);
  void release_all() { next_ = 0; }

  const cuda_ipc::IpcMappingCache& mappings() const { return mappings_; }

  MemoryKind kind_of(const void* pointer) override;
  DeviceBufferExport export_buffer(const void* pointer, std::size_t bytes) override;
  PeerMapping map_peer_buffer(int world_rank, const DeviceBufferExport& exported) override;
  Request copy(void* destination, const void* source, std::size_t bytes) override;
  Request reduce(Op op, Datatype type, void* out, std::span<const void* const> inputs,
                 std::size_t count) override;
  PinnedBuffer pinned(std::size_t bytes) override;

 private:
  struct Allocation {
    std::uint64_t offset;  // in the arena
    std::uint64_t bytes;
    std::uint64_t id;
  };
  const Allocation& allocation_of(const void* pointer) const;

  Runtime& runtime_;
  int failing_rank_;
  std::byte* arena_ = nullptr;
  std::size_t arena_bytes_ = 0;
  std::byte* region_ = nullptr;  // this rank's part of the arena
  std::size_t next_ = 0;         // bump allocator in the region
  std::uint64_t next_id_ = 1;
  std::vector<Allocation> allocations_;
  cuda_ipc::IpcMappingCache mappings_;
};

}  // namespace halyard::testing
