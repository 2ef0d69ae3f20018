// The GPU reduction kernels, one template instantiated per (op, datatype) pair in this single
// file (one architecture, CMAKE_CUDA_ARCHITECTURES), so CUDA adds one translation unit to the
// build. See device_reduction.hpp for the semantics.
#include <cuda_fp16.h>

#include <cstdint>

#include "transports/cuda_ipc/device_reduction.hpp"

// The CPU kernels' element operations, in a namespace of their own for this file.
#define HALYARD_KERNEL_ISA cuda_functors
#include "runtime/datatypes/kernels/reduction_loops.hpp"

namespace halyard::cuda_ipc {

namespace {

namespace ops = halyard::kernels::cuda_functors;

constexpr std::size_t kMaxInputs = kMaxKernelInputs;

// Passed by value as a kernel parameter (512 bytes, well within the 4 KiB limit).
struct InputPointers {
  const void* pointers[kMaxInputs];
};

// How a datatype is loaded into the type the operation computes in, and stored back.
template <class T>
struct Native {
  using Storage = T;
  using Compute = T;
  __device__ static Compute load(Storage x) { return x; }
  __device__ static Storage store(Compute x) { return x; }
};

struct Half {
  using Storage = std::uint16_t;
  using Compute = float;
  __device__ static Compute load(Storage x) { return __half2float(__ushort_as_half(x)); }
  __device__ static Storage store(Compute x) { return __half_as_ushort(__float2half_rn(x)); }
};

// Same rounding as the CPU's float_to_bfloat16: nearest, ties to even; NaN stays a quiet NaN.
struct BFloat16 {
  using Storage = std::uint16_t;
  using Compute = float;
  __device__ static Compute load(Storage x) { return __uint_as_float(std::uint32_t{x} << 16); }
  __device__ static Storage store(Compute x) {
    const std::uint32_t bits = __float_as_uint(x);
    const std::uint32_t rounded = bits + 0x7FFFu + ((bits >> 16) & 1u);
    return static_cast<Storage>((x != x ? (bits | 0x00400000u) : rounded) >> 16);
  }
};

// Each thread folds whole elements left to right: every input of element i is read before
// out[i] is written, so out may be one of the inputs. Rounding to Storage after every step
// matches the CPU's pairwise kernels for the half types.
template <class Format, class Operation>
__global__ void fold_inputs(typename Format::Storage* out, InputPointers inputs, int input_count,
                            std::size_t count) {
  using Storage = typename Format::Storage;
  const std::size_t stride = std::size_t{gridDim.x} * blockDim.x;
  for (std::size_t i = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count; i += stride) {
    Storage acc = static_cast<const Storage*>(inputs.pointers[0])[i];
    for (int k = 1; k < input_count; ++k) {
      const Storage next = static_cast<const Storage*>(inputs.pointers[k])[i];
      acc = Format::store(Operation{}(Format::load(acc), Format::load(next)));
    }
    out[i] = acc;
  }
}

using Launcher = cudaError_t (*)(void* out, const InputPointers& inputs, int input_count,
                                 std::size_t count, cudaStream_t stream);

template <class Format, class Operation>
cudaError_t launch(void* out, const InputPointers& inputs, int input_count, std::size_t count,
                   cudaStream_t stream) {
  constexpr unsigned kThreads = 256;
  constexpr std::size_t kMaxBlocks = 4096;  // grid-stride beyond: enough to fill any GPU
  const std::size_t wanted = (count + kThreads - 1) / kThreads;
  const auto blocks = static_cast<unsigned>(wanted < kMaxBlocks ? wanted : kMaxBlocks);
  fold_inputs<Format, Operation><<<blocks, kThreads, 0, stream>>>(
      static_cast<typename Format::Storage*>(out), inputs, input_count, count);
  return cudaGetLastError();
}

template <class Operation>
Launcher integer_launcher(Datatype type) {
  switch (type) {
    case Datatype::kInt8:
      return &launch<Native<std::int8_t>, Operation>;
    case Datatype::kInt16:
      return &launch<Native<std::int16_t>, Operation>;
    case Datatype::kInt32:
      return &launch<Native<std::int32_t>, Operation>;
    case Datatype::kInt64:
      return &launch<Native<std::int64_t>, Operation>;
    case Datatype::kUint8:
      return &launch<Native<std::uint8_t>, Operation>;
    case Datatype::kUint16:
      return &launch<Native<std::uint16_t>, Operation>;
    case Datatype::kUint32:
      return &launch<Native<std::uint32_t>, Operation>;
    case Datatype::kUint64:
      return &launch<Native<std::uint64_t>, Operation>;
    default:
      return nullptr;
  }
}

template <class Operation>
Launcher any_launcher(Datatype type) {
  switch (type) {
    case Datatype::kFloat16:
      return &launch<Half, Operation>;
    case Datatype::kBFloat16:
      return &launch<BFloat16, Operation>;
    case Datatype::kFloat32:
      return &launch<Native<float>, Operation>;
    case Datatype::kFloat64:
      return &launch<Native<double>, Operation>;
    default:
      return integer_launcher<Operation>(type);
  }
}

Launcher launcher_for(Op op, Datatype type) {
  switch (op) {
    case Op::kSum:
      return any_launcher<ops::SumOp>(type);
    case Op::kProd:
      return any_launcher<ops::ProdOp>(type);
    case Op::kMin:
      return any_launcher<ops::MinOp>(type);
    case Op::kMax:
      return any_launcher<ops::MaxOp>(type);
    case Op::kBand:
      return integer_launcher<ops::BandOp>(type);
    case Op::kBor:
      return integer_launcher<ops::BorOp>(type);
    case Op::kBxor:
      return integer_launcher<ops::BxorOp>(type);
    case Op::kLand:
      return any_launcher<ops::LandOp>(type);
    case Op::kLor:
      return any_launcher<ops::LorOp>(type);
    case Op::kLxor:
      return any_launcher<ops::LxorOp>(type);
  }
  return nullptr;
}

}  // namespace

cudaError_t launch_reduction(Op op, Datatype type, void* out, const void* const* inputs,
                             std::size_t input_count, std::size_t count, cudaStream_t stream) {
  Launcher launcher = launcher_for(op, type);
  if (launcher == nullptr || input_count == 0 || input_count > kMaxInputs) {
    return cudaErrorInvalidValue;
  }
  if (count == 0) return cudaSuccess;
  InputPointers pointers{};
  for (std::size_t k = 0; k < input_count; ++k) pointers.pointers[k] = inputs[k];
  return launcher(out, pointers, static_cast<int>(input_count), count, stream);
}

}  // namespace halyard::cuda_ipc
