// The CUDA IPC transport's DeviceSupport (runtime/device_support.hpp): memory-kind detection,
// IPC export and cached mapping of peers' allocations, copies and reduction kernels on a pool
// of streams whose events the event loop polls, and pinned staging buffers.
//
// Nothing touches CUDA until the first device buffer: a host-only program linked against a
// CUDA build of Halyard never creates a CUDA context (see cuda_driver_loaded()).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "runtime/device_support.hpp"
#include "runtime/event_loop.hpp"
#include "runtime/transport_registry.hpp"
#include "transports/cuda_ipc/device_work_queue.hpp"
#include "transports/cuda_ipc/ipc_mapping_cache.hpp"
#include "transports/cuda_ipc/pinned_pool.hpp"

namespace halyard::cuda_ipc {

// Registers CudaDeviceSupport as the registry's device support.
void register_cuda_ipc(TransportRegistry& registry);

class CudaDeviceSupport final : public DeviceSupport, public CompletionSource {
 public:
  explicit CudaDeviceSupport(EventLoop& loop);
  ~CudaDeviceSupport() override;

  MemoryKind kind_of(const void* pointer) override;
  bool may_hold_device_memory() override;
  void wait_for_caller_work() override;
  DeviceBufferExport export_buffer(const void* pointer, std::size_t bytes) override;
  PeerMapping map_peer_buffer(int world_rank, const DeviceBufferExport& exported) override;
  Request copy(void* destination, const void* source, std::size_t bytes) override;
  Request reduce(Op op, Datatype type, void* out, std::span<const void* const> inputs,
                 std::size_t count) override;
  PinnedBuffer pinned(std::size_t bytes) override;

  int progress() override { return work_.progress(); }
  // No fd signals a CUDA event, so while device work is in flight the loop must keep polling
  // (false: "work is there, do not sleep"); when idle, this source never keeps it awake.
  bool prepare_to_block() override { return work_.idle(); }

  const IpcMappingCache& mappings() const { return mappings_; }

 private:
  // Throws Error(kUnsupported) unless device memory on `device` can be used by this process.
  void require_usable(int device);

  // Declared so that the work queue goes first: its destructor waits for the streams, and only
  // then may the mappings and staging buffers the work used go.
  IpcMappingCache mappings_;
  std::shared_ptr<PinnedPool> pinned_;
  DeviceWorkQueue work_;
};

}  // namespace halyard::cuda_ipc
