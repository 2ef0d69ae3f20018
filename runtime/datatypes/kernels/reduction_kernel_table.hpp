// The contract between the dispatcher (runtime/datatypes/reduction.cpp) and the per-ISA kernel
// translation units. Each ISA's file is compiled with its own target flags and fills one table;
// only the dispatcher decides, from the CPU's features, which table may be called.
#pragma once

#include <cstddef>

#include "runtime/datatypes/datatype.hpp"
#include "runtime/datatypes/reduce_op.hpp"

namespace halyard::kernels {

// out[i] = a[i] (op) b[i] for i < count. out may be identical to a and/or b; the buffers are
// aligned to the element size (the dispatcher stages misaligned buffers).
using ReductionKernel = void (*)(void* out, const void* a, const void* b, std::size_t count);

struct ReductionKernelTable {
  // [op][datatype]; nullptr where the op is not defined for the datatype. A plain array, not
  // std::array: the AVX files must not instantiate library templates that the linker could
  // share with portable code (see reduction_loops.hpp).
  ReductionKernel kernels[kOpCount][kDatatypeCount] = {};

  ReductionKernel find(Op op, Datatype type) const {
    return kernels[static_cast<std::size_t>(op)][static_cast<std::size_t>(type)];
  }
};

// Portable kernels, built with the baseline flags (SSE2 on x86-64); callable everywhere.
const ReductionKernelTable& scalar_reduction_kernels();

// Built only on x86-64 (HALYARD_REDUCTION_X86); call only after the CPU check in
// runtime/datatypes/reduction_isa.cpp, since they contain AVX2+FMA+F16C / AVX-512 instructions.
const ReductionKernelTable& avx2_reduction_kernels();
const ReductionKernelTable& avx512_reduction_kernels();

}  // namespace halyard::kernels
