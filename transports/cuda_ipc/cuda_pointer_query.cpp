#include "transports/cuda_ipc/cuda_pointer_query.hpp"

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <atomic>
#include <string>

#include "runtime/log.hpp"
#include "transports/cuda_ipc/cuda_error.hpp"

namespace halyard::cuda_ipc {

namespace {

void* loaded_driver() {
  // Once loaded, the driver stays loaded: remember the handle, keep asking until then.
  static std::atomic<void*> handle{nullptr};
  void* h = handle.load(std::memory_order_acquire);
  if (h == nullptr) {
    h = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (h != nullptr) handle.store(h, std::memory_order_release);
  }
  return h;
}

// Errors meaning "no GPU here": this process cannot own device memory then.
bool means_no_device(cudaError_t status) {
  return status == cudaErrorNoDevice || status == cudaErrorInsufficientDriver ||
         status == cudaErrorInitializationError || status == cudaErrorCompatNotSupportedOnDevice;
}

using PointerGetAttribute = CUresult (*)(void* data, CUpointer_attribute attribute,
                                         CUdeviceptr pointer);

PointerGetAttribute pointer_get_attribute() {
  static PointerGetAttribute fn = [] {
    void* driver = loaded_driver();
    void* symbol = driver == nullptr ? nullptr : ::dlsym(driver, "cuPointerGetAttribute");
    return reinterpret_cast<PointerGetAttribute>(symbol);
  }();
  if (fn == nullptr) {
    throw Error(ErrorCode::kTransport,
                "cuPointerGetAttribute was not found in the loaded CUDA driver (libcuda.so.1)");
  }
  return fn;
}

template <class T>
T driver_attribute(const void* pointer, CUpointer_attribute attribute, const char* name) {
  T value{};
  CUresult result = pointer_get_attribute()(&value, attribute,
                                            reinterpret_cast<CUdeviceptr>(pointer));
  if (result != CUDA_SUCCESS) {
    throw Error(ErrorCode::kTransport, std::string("cuPointerGetAttribute(") + name +
                                           ") failed with CUresult " + std::to_string(result));
  }
  return value;
}

}  // namespace

bool cuda_driver_loaded() {
  return loaded_driver() != nullptr;
}

PointerKind query_pointer_kind(const void* pointer) {
  if (pointer == nullptr || !cuda_driver_loaded()) return {};
  cudaPointerAttributes attributes{};
  cudaError_t status = cudaPointerGetAttributes(&attributes, pointer);
  if (status != cudaSuccess) {
    (void)cudaGetLastError();  // not sticky, but do not leave it for the application to find
    if (status == cudaErrorInvalidValue) return {};  // unregistered host memory (CUDA < 11)
    if (means_no_device(status)) {
      static std::atomic<bool> logged{false};
      if (!logged.exchange(true)) {
        log::debug("cuda_ipc: {}; every buffer is treated as host memory",
                   describe_cuda_error(status, "cudaPointerGetAttributes"));
      }
      return {};
    }
    check_cuda(status, "cudaPointerGetAttributes");
  }
  if (attributes.type == cudaMemoryTypeDevice) return {MemoryKind::kDevice, attributes.device};
  return {};  // host, registered host, managed, unregistered
}

AllocationRange query_allocation(const void* pointer) {
  AllocationRange range;
  range.base = driver_attribute<CUdeviceptr>(pointer, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR,
                                             "RANGE_START_ADDR");
  range.bytes =
      driver_attribute<std::size_t>(pointer, CU_POINTER_ATTRIBUTE_RANGE_SIZE, "RANGE_SIZE");
  range.buffer_id = driver_attribute<unsigned long long>(pointer, CU_POINTER_ATTRIBUTE_BUFFER_ID,
                                                         "BUFFER_ID");
  return range;
}

}  // namespace halyard::cuda_ipc
