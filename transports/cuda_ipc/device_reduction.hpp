// GPU reduction kernels: every (op, datatype) pair the CPU kernels have, with the same
// semantics (runtime/datatypes/reduction.hpp): the element operations are the CPU kernels' own
// functors (runtime/datatypes/kernels/reduction_loops.hpp, constexpr so device code may call them),
// and float16 / bfloat16 are computed in float32 and rounded back after every operation.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "runtime/datatypes/datatype.hpp"
#include "runtime/datatypes/reduce_op.hpp"

namespace halyard::cuda_ipc {

// Inputs one kernel folds (DeviceSupport::kMaxReductionInputs; this header stays C++17 for nvcc).
inline constexpr std::size_t kMaxKernelInputs = 64;

// Enqueues out[i] = inputs[0][i] op inputs[1][i] op ... op inputs[n-1][i] for i < count on
// `stream`. 1 <= input_count <= kMaxKernelInputs; `out` may equal an input.
// Returns cudaErrorInvalidValue for an unsupported pair or input count, else the launch status.
cudaError_t launch_reduction(Op op, Datatype type, void* out, const void* const* inputs,
                             std::size_t input_count, std::size_t count, cudaStream_t stream);

}  // namespace halyard::cuda_ipc
