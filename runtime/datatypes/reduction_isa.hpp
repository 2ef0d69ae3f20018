// Which family of CPU reduction kernels runs: chosen once from the CPU's features (the best one
// available), or forced with HALYARD_REDUCE_ISA=scalar|avx2|avx512 (auto = the default), or
// switched by tests and benchmarks with use_reduction_isa().
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "runtime/datatypes/kernels/reduction_kernel_table.hpp"

namespace halyard {

enum class ReductionIsa : std::uint8_t {
  kScalar,  // portable code, baseline flags; always available
  kAvx2,    // AVX2 + FMA + F16C (x86-64)
  kAvx512,  // AVX-512 F/BW/DQ/VL (x86-64)
};

// "scalar", "avx2" or "avx512".
std::string_view reduction_isa_name(ReductionIsa isa);

// Whether this build contains the family and this CPU (and OS) can run it.
bool reduction_isa_available(ReductionIsa isa);

// The available families, from scalar to the best.
std::vector<ReductionIsa> available_reduction_isas();

// What HALYARD_REDUCE_ISA asks for: the best available family when unset or "auto". Throws
// Error(kInvalidArgument) for an unknown name and Error(kUnsupported) naming the family when
// it is not available here.
ReductionIsa reduction_isa_from_environment();

// The family reduce_into/reduce_to use. The first call reads HALYARD_REDUCE_ISA (and throws as
// above); call it (or reduction_isa()) at start-up so that a bad value fails early.
ReductionIsa active_reduction_isa();

// Switches every later reduction to `isa`; throws Error(kUnsupported) when it is not
// available. For tests and benchmarks; the switch is atomic but not meant to race with
// reductions in flight.
void use_reduction_isa(ReductionIsa isa);

// The kernel table of a family; `isa` must be available.
const kernels::ReductionKernelTable& reduction_kernels(ReductionIsa isa);

}  // namespace halyard
