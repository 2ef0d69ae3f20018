#include "transports/cuda_ipc/cuda_pointer_query.hpp"

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <link.h>

#include <time.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <string>

#include "runtime/support/log.hpp"
#include "transports/cuda_ipc/cuda_error.hpp"

namespace halyard::cuda_ipc {

namespace {

// dlopen(RTLD_NOLOAD) of a library that is not loaded searches the disk (over 100 us); this
// runs on every collective call of host-only programs, so look at the loaded objects instead,
// and only when some object was loaded since the last look (dlpi_adds counts loads): about 15
// ns per call.
int read_load_count(dl_phdr_info* info, std::size_t, void* out) {
  *static_cast<unsigned long long*>(out) = info->dlpi_adds;
  return 1;  // the first object is enough
}

int find_driver(dl_phdr_info* info, std::size_t, void* out) {
  if (info->dlpi_name == nullptr || std::strstr(info->dlpi_name, "/libcuda.so") == nullptr) {
    return 0;
  }
  *static_cast<std::string*>(out) = info->dlpi_name;
  return 1;
}

// The coarse monotonic clock, in its own ticks (1-10 ms: the kernel's CONFIG_HZ), read from the
// vDSO in about 3 ns.
std::int64_t coarse_tick() {
  timespec now{};
  ::clock_gettime(CLOCK_MONOTONIC_COARSE, &now);
  return std::int64_t{now.tv_sec} * 1'000'000'000 + now.tv_nsec;
}

void* loaded_driver() {
  // Once loaded, the driver stays loaded: remember its handle.
  static std::atomic<void*> handle{nullptr};
  static std::atomic<unsigned long long> loads_seen{~0ull};
  // A look that found no driver holds for the rest of the coarse clock's tick it began in
  // (at most 10 ms): device memory cannot appear that soon where the driver was absent, since
  // loading libcuda alone takes milliseconds and cuInit, which any allocation needs, tens of
  // milliseconds or more. The look itself takes the loader's lock (dl_iterate_phdr, about 150
  // instructions a call); the clock, a few.
  static std::atomic<std::int64_t> absent_in_tick{-1};
  void* h = handle.load(std::memory_order_acquire);
  if (h != nullptr) return h;
  const std::int64_t tick = coarse_tick();
  if (absent_in_tick.load(std::memory_order_relaxed) == tick) return nullptr;
  unsigned long long loads = 0;
  ::dl_iterate_phdr(read_load_count, &loads);
  if (loads_seen.exchange(loads) != loads) {
    std::string path;
    if (::dl_iterate_phdr(find_driver, &path) != 0) {
      h = ::dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD);
      if (h != nullptr) {
        handle.store(h, std::memory_order_release);
        return h;
      }
    }
  }
  absent_in_tick.store(tick, std::memory_order_relaxed);
  return nullptr;
}

// Errors meaning "no GPU here": this process cannot own device memory then. A stub libcuda.so
// (the toolkit's lib64/stubs, found first on a machine without a driver) loads but answers
// cudaErrorStubLibrary to everything: no device either, not a failure of host collectives.
bool means_no_device(cudaError_t status) {
  return status == cudaErrorNoDevice || status == cudaErrorInsufficientDriver ||
         status == cudaErrorInitializationError || status == cudaErrorCompatNotSupportedOnDevice ||
         status == cudaErrorStubLibrary || status == cudaErrorDevicesUnavailable;
}

using PointerGetAttribute = CUresult (*)(void* data, CUpointer_attribute attribute,
                                         CUdeviceptr pointer);

PointerGetAttribute pointer_get_attribute() {
  static std::atomic<PointerGetAttribute> found{nullptr};  // kept once found, never a miss
  PointerGetAttribute fn = found.load(std::memory_order_acquire);
  if (fn == nullptr) {
    void* driver = loaded_driver();
    void* symbol = driver == nullptr ? nullptr : ::dlsym(driver, "cuPointerGetAttribute");
    fn = reinterpret_cast<PointerGetAttribute>(symbol);
    if (fn != nullptr) found.store(fn, std::memory_order_release);
  }
  if (fn == nullptr) {
    throw Error(ErrorCode::kTransport,
                "cuPointerGetAttribute was not found in the loaded CUDA driver (libcuda.so.1)");
  }
  return fn;
}

template <class T>
T driver_attribute(const void* pointer, CUpointer_attribute attribute, const char* name) {
  T value{};
  CUresult result =
      pointer_get_attribute()(&value, attribute, reinterpret_cast<CUdeviceptr>(pointer));
  if (result != CUDA_SUCCESS) {
    throw Error(ErrorCode::kTransport, std::string("cuPointerGetAttribute(") + name +
                                           ") failed with CUresult " + std::to_string(result));
  }
  return value;
}

// Asks the driver itself, which works even where Halyard's CUDA runtime cannot start (a driver
// older than the toolkit Halyard was built with, while the application's older runtime runs).
// False for host memory and whenever the driver cannot answer.
bool driver_says_device_memory(const void* pointer) {
  unsigned int type = 0;
  PointerGetAttribute get = nullptr;
  try {
    get = pointer_get_attribute();
  } catch (const Error&) {
    return false;
  }
  return get(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, reinterpret_cast<CUdeviceptr>(pointer)) ==
             CUDA_SUCCESS &&
         type == CU_MEMORYTYPE_DEVICE;
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
      if (driver_says_device_memory(pointer)) {
        throw Error(ErrorCode::kUnsupported,
                    "a buffer is CUDA device memory but Halyard cannot use CUDA in this process: " +
                        describe_cuda_error(status, "cudaPointerGetAttributes") +
                        " (Halyard was built with CUDA " + std::to_string(CUDART_VERSION / 1000) +
                        "." + std::to_string(CUDART_VERSION % 1000 / 10) +
                        "; an older driver cannot run it)");
      }
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
  range.buffer_id =
      driver_attribute<unsigned long long>(pointer, CU_POINTER_ATTRIBUTE_BUFFER_ID, "BUFFER_ID");
  return range;
}

}  // namespace halyard::cuda_ipc
