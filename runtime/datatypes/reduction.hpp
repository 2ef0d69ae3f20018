// Element-wise reductions on host memory: the arithmetic behind reduce and allreduce.
//
// Semantics (every ISA computes the same bits, except possibly NaN payloads):
// - integer sum and prod wrap modulo 2^bits (no undefined behaviour on overflow);
// - land, lor and lxor yield 0 or 1 of the datatype (1.0 for floats; NaN counts as true);
// - float16 and bfloat16 are bit patterns in uint16 buffers, computed in float32 and rounded
//   back to nearest-even, which equals the correctly rounded half-precision result;
// - float min/max: if either operand is NaN the result is NaN (unlike C's fmin, which drops
//   it, but like MPI implementations that use plain comparisons; a NaN must not vanish in an
//   allreduce). For operands that compare equal (+0 and -0) the result is the second operand.
// Buffers need no particular alignment (misaligned ones are staged through aligned blocks).
#pragma once

#include <cstddef>
#include <string_view>

#include "runtime/datatypes/datatype.hpp"
#include "runtime/datatypes/reduce_op.hpp"

namespace halyard {

// inout[i] = inout[i] (op) in[i] for i < count. inout and in may be identical but must not
// overlap otherwise. Throws Error(kInvalidArgument) for an unsupported (op, type) pair, a null
// buffer with count > 0, or partially overlapping buffers. count == 0 does nothing.
void reduce_into(Op op, Datatype type, void* inout, const void* in, std::size_t count);

// out[i] = a[i] (op) b[i] for i < count. out may be identical to a and/or b (which saves a copy
// in tree reductions) but must not overlap them otherwise. Same errors as reduce_into.
void reduce_to(Op op, Datatype type, void* out, const void* a, const void* b, std::size_t count);

// reduce_to without its checks, for an engine's hot path whose call was validated once
// (core/validate.hpp: the op is supported on the type, the buffers are not null and are identical
// or disjoint): some 150 instructions fewer per small reduction.
void reduce_validated(Op op, Datatype type, void* out, const void* a, const void* b,
                      std::size_t count);

// The kernel family in use: "avx512", "avx2" or "scalar" (see runtime/datatypes/reduction_isa.hpp).
std::string_view reduction_isa();

}  // namespace halyard
