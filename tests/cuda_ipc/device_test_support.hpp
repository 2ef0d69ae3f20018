// Helpers shared by the GPU tests: skipping without a device, device buffers that free
// themselves, values for every datatype, and the CPU reference reduction.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/datatypes/datatype.hpp"
#include "runtime/datatypes/reduce_op.hpp"

namespace halyard::testing {

// Exit code of a job test that found no GPU; CTest's SKIP_RETURN_CODE for those tests.
inline constexpr int kSkipExitCode = 77;

// True when this process can use at least one CUDA device.
inline bool have_cuda_device() {
  int devices = 0;
  cudaError_t status = cudaGetDeviceCount(&devices);
  if (status != cudaSuccess) (void)cudaGetLastError();
  return status == cudaSuccess && devices > 0;
}

inline void cuda_ok(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(status));
  }
}

// cudaMalloc'ed memory, freed by the destructor.
class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t bytes) : bytes_(bytes) {
    cuda_ok(cudaMalloc(&data_, bytes == 0 ? 1 : bytes), "cudaMalloc");
  }
  ~DeviceBuffer() { (void)cudaFree(data_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  std::byte* data() const { return static_cast<std::byte*>(data_); }
  std::size_t bytes() const { return bytes_; }
  void upload(const std::vector<std::byte>& host) const {
    cuda_ok(cudaMemcpy(data_, host.data(), host.size(), cudaMemcpyHostToDevice), "upload");
  }
  std::vector<std::byte> download() const {
    std::vector<std::byte> host(bytes_);
    cuda_ok(cudaMemcpy(host.data(), data_, bytes_, cudaMemcpyDeviceToHost), "download");
    return host;
  }

 private:
  void* data_ = nullptr;
  std::size_t bytes_;
};

// True for bit patterns that are NaN in a floating-point `type` (NaN payloads may differ
// between the CPU and GPU kernels; NaN-ness may not).
inline bool is_nan_bits(Datatype type, const std::byte* p) {
  switch (type) {
    case Datatype::kFloat16: {
      std::uint16_t b;
      std::memcpy(&b, p, 2);
      return (b & 0x7FFFu) > 0x7C00u;
    }
    case Datatype::kBFloat16: {
      std::uint16_t b;
      std::memcpy(&b, p, 2);
      return (b & 0x7FFFu) > 0x7F80u;
    }
    case Datatype::kFloat32: {
      float f;
      std::memcpy(&f, p, 4);
      return f != f;
    }
    case Datatype::kFloat64: {
      double d;
      std::memcpy(&d, p, 8);
      return d != d;
    }
    default:
      return false;
  }
}

// Index of the first element where `got` and `want` differ (both NaN counts as equal), or -1.
inline long first_difference(Datatype type, const std::vector<std::byte>& got,
                             const std::vector<std::byte>& want) {
  const std::size_t size = datatype_size(type);
  for (std::size_t i = 0; i * size < want.size(); ++i) {
    const std::byte* g = got.data() + i * size;
    const std::byte* w = want.data() + i * size;
    if (std::memcmp(g, w, size) == 0) continue;
    if (is_nan_bits(type, g) && is_nan_bits(type, w)) continue;
    return static_cast<long>(i);
  }
  return -1;
}

// Every (op, datatype) pair the reductions define.
struct OpType {
  Op op;
  Datatype type;
};
inline std::vector<OpType> every_op_type() {
  std::vector<OpType> pairs;
  for (std::size_t o = 0; o < kOpCount; ++o) {
    for (std::size_t t = 0; t < kDatatypeCount; ++t) {
      const auto op = static_cast<Op>(o);
      const auto type = static_cast<Datatype>(t);
      if (op_supports(op, type)) pairs.push_back({op, type});
    }
  }
  return pairs;
}

}  // namespace halyard::testing
