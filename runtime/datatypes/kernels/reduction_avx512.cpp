// The avx512 reduction kernels: the shared loops compiled with this file's target flags
// (runtime/datatypes.cmake sets them).
#define HALYARD_KERNEL_ISA avx512
#include "runtime/datatypes/kernels/reduction_loops.hpp"

namespace halyard::kernels {

const ReductionKernelTable& avx512_reduction_kernels() {
  static const ReductionKernelTable table = avx512::build_kernel_table();
  return table;
}

}  // namespace halyard::kernels
