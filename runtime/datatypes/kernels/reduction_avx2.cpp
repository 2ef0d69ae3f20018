// The avx2 reduction kernels: the shared loops compiled with this file's target flags
// (runtime/datatypes.cmake sets them).
#define HALYARD_KERNEL_ISA avx2
#include "runtime/datatypes/kernels/reduction_loops.hpp"

namespace halyard::kernels {

const ReductionKernelTable& avx2_reduction_kernels() {
  static const ReductionKernelTable table = avx2::build_kernel_table();
  return table;
}

}  // namespace halyard::kernels
