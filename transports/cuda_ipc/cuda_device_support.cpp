#include "transports/cuda_ipc/cuda_device_support.hpp"

#include <cuda_runtime_api.h>

#include <cstring>
#include <optional>
#include <string>

#include "runtime/support/config.hpp"
#include "runtime/support/log.hpp"
#include "transports/cuda_ipc/cuda_error.hpp"
#include "transports/cuda_ipc/cuda_pointer_query.hpp"
#include "transports/cuda_ipc/device_reduction.hpp"

namespace halyard::cuda_ipc {

void register_cuda_ipc(TransportRegistry& registry) {
  registry.add_device_support([](EventLoop& loop) -> std::unique_ptr<DeviceSupport> {
    return std::make_unique<CudaDeviceSupport>(loop);
  });
}

namespace {

static_assert(sizeof(cudaIpcMemHandle_t) == sizeof(DeviceBufferExport::ipc_handle));
static_assert(DeviceSupport::kMaxReductionInputs == kMaxKernelInputs);

void* open_ipc_handle(const DeviceBufferExport& exported) {
  cudaIpcMemHandle_t handle;
  std::memcpy(&handle, exported.ipc_handle.data(), sizeof handle);
  void* mapped = nullptr;
  // Lazy peer access: a peer on another GPU of the node is reached over NVLink/PCIe P2P.
  check_cuda(cudaIpcOpenMemHandle(&mapped, handle, cudaIpcMemLazyEnablePeerAccess),
             "cudaIpcOpenMemHandle");
  return mapped;
}

// HALYARD_CUDA_STREAMS: streams the copies and kernels of collectives are spread over.
std::size_t stream_count() {
  const std::int64_t streams = config::env_int("HALYARD_CUDA_STREAMS", 4);
  if (streams < 1 || streams > 64) {
    throw Error(ErrorCode::kInvalidArgument, "HALYARD_CUDA_STREAMS='" + std::to_string(streams) +
                                                 "' is not valid: expected 1 to 64");
  }
  return static_cast<std::size_t>(streams);
}

void close_ipc_handle(void* mapped) {
  // The last holder of a mapping may be any thread: close it on the device it was opened on.
  cudaPointerAttributes attributes{};
  if (cudaPointerGetAttributes(&attributes, mapped) != cudaSuccess) (void)cudaGetLastError();
  std::optional<DeviceWorkQueue::DeviceScope> scope;
  try {
    scope.emplace(attributes.device);
  } catch (const Error& e) {
    log::debug("cuda_ipc: {}", e.what());
  }
  cudaError_t status = cudaIpcCloseMemHandle(mapped);
  if (status != cudaSuccess) {
    (void)cudaGetLastError();
    log::debug("cuda_ipc: {}", describe_cuda_error(status, "cudaIpcCloseMemHandle"));
  }
}

}  // namespace

CudaDeviceSupport::CudaDeviceSupport(EventLoop& loop)
    : mappings_(open_ipc_handle, close_ipc_handle),
      pinned_(std::make_shared<PinnedPool>()),
      work_(loop, stream_count()) {}

CudaDeviceSupport::~CudaDeviceSupport() = default;

void CudaDeviceSupport::require_usable(int device) {
  if (device >= 0 && device == work_.device()) return;  // checked before: the common case
  int devices = 0;
  cudaError_t status = cudaGetDeviceCount(&devices);
  if (status != cudaSuccess || device < 0 || device >= devices) {
    if (status != cudaSuccess) (void)cudaGetLastError();
    throw Error(ErrorCode::kUnsupported,
                "a buffer is CUDA device memory (device " + std::to_string(device) +
                    ") but this process cannot use that device: " +
                    (status != cudaSuccess ? describe_cuda_error(status, "cudaGetDeviceCount")
                                           : std::to_string(devices) + " device(s) visible"));
  }
  try {
    work_.start(device);  // the rank's device: every later CUDA call of Halyard binds it
  } catch (const Error& e) {
    throw Error(ErrorCode::kUnsupported,
                "a buffer is CUDA device memory but this process cannot use the device: " +
                    std::string(e.what()));
  }
  if (work_.device() != device) {
    throw Error(ErrorCode::kUnsupported,
                "a buffer is on CUDA device " + std::to_string(device) +
                    " but Halyard's streams are on device " + std::to_string(work_.device()) +
                    " (the device current at the first device collective): one device per "
                    "process is supported");
  }
}

bool CudaDeviceSupport::may_hold_device_memory() {
  // Device memory cannot exist before the driver is loaded.
  return cuda_driver_loaded();
}

MemoryKind CudaDeviceSupport::kind_of(const void* pointer) {
  PointerKind found = query_pointer_kind(pointer);
  if (found.kind == MemoryKind::kDevice) require_usable(found.device);
  return found.kind;
}

void CudaDeviceSupport::wait_for_caller_work() {
  work_.wait_for_default_streams();
}

DeviceBufferExport CudaDeviceSupport::export_buffer(const void* pointer, std::size_t bytes) {
  work_.start();
  DeviceWorkQueue::DeviceScope scope(work_.device());
  AllocationRange range = query_allocation(pointer);
  DeviceBufferExport exported = export_inside_allocation(
      reinterpret_cast<std::uint64_t>(pointer), bytes, range.base, range.bytes, range.buffer_id);
  cudaIpcMemHandle_t handle;
  check_cuda(cudaIpcGetMemHandle(&handle, reinterpret_cast<void*>(range.base)),
             "cudaIpcGetMemHandle (memory from cudaMalloc can be exported; memory from "
             "cudaMallocAsync pools or the VMM API cannot)");
  std::memcpy(exported.ipc_handle.data(), &handle, sizeof handle);
  return exported;
}

PeerMapping CudaDeviceSupport::map_peer_buffer(int world_rank, const DeviceBufferExport& exported) {
  work_.start();  // mapping needs the device context the copies will use
  DeviceWorkQueue::DeviceScope scope(work_.device());
  return mappings_.map(world_rank, exported);
}

Request CudaDeviceSupport::copy(void* destination, const void* source, std::size_t bytes) {
  return work_.submit(
      "cudaMemcpyAsync of " + std::to_string(bytes) + " bytes", [=](cudaStream_t stream) {
        if (bytes == 0) return cudaSuccess;
        return cudaMemcpyAsync(destination, source, bytes, cudaMemcpyDefault, stream);
      });
}

Request CudaDeviceSupport::reduce(Op op, Datatype type, void* out,
                                  std::span<const void* const> inputs, std::size_t count) {
  check_op_supported(op, type);
  if (inputs.empty() || inputs.size() > kMaxReductionInputs) {
    throw Error(ErrorCode::kInvalidArgument,
                "device reduction of " + std::to_string(inputs.size()) + " inputs (1 to " +
                    std::to_string(kMaxReductionInputs) + " are supported)");
  }
  std::string what = "reduction kernel (" + std::string(op_name(op)) + ", " +
                     std::string(datatype_name(type)) + ", " + std::to_string(count) + " elements)";
  return work_.submit(what, [&](cudaStream_t stream) {
    return launch_reduction(op, type, out, inputs.data(), inputs.size(), count, stream);
  });
}

PinnedBuffer CudaDeviceSupport::pinned(std::size_t bytes) {
  work_.start();
  DeviceWorkQueue::DeviceScope scope(work_.device());
  return pinned_->acquire(bytes);
}

}  // namespace halyard::cuda_ipc
