// The portable ("scalar") reduction kernels: the shared loops compiled with the baseline flags
// (SSE2 on x86-64, which the compiler still vectorizes for). Callable on every CPU.
#define HALYARD_KERNEL_ISA scalar
#include "runtime/datatypes/kernels/reduction_loops.hpp"

namespace halyard::kernels {

const ReductionKernelTable& scalar_reduction_kernels() {
  static const ReductionKernelTable table = scalar::build_kernel_table();
  return table;
}

}  // namespace halyard::kernels
