// Custom reductions: element-wise functions the runtime has no kernel for, supplied by its
// caller (the MPI shim's MPI_Op_create functions, MAXLOC/MINLOC on the MPI pair types).
//
// A registered function gets an Op value above the predefined ones, so it travels through
// CollArgs, the selection and the algorithms exactly as MPI_SUM does, and reduce_into /
// reduce_to (reduction.hpp) call it. A custom Op is defined on Datatype::kUint8 only: the
// vector is `count` bytes holding whole elements of `element_bytes` each. Only algorithms that
// reduce whole vectors may run it (core::Supports::custom_ops), since an algorithm that splits
// the vector into blocks could cut an element in two; a non-commutative one needs an algorithm
// that also combines in rank order (core::Supports::rank_order, docs/collectives.md).
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include "runtime/datatypes/reduce_op.hpp"

namespace halyard {

struct CustomOp {
  // inout[i] = in[i] (op) inout[i] for `elements` elements: `in` is the left operand, MPI's
  // convention for user functions.
  std::function<void(const void* in, void* inout, std::size_t elements)> combine;
  std::size_t element_bytes = 1;
  bool commutative = true;
  std::string name = "custom";  // what op_name() and error messages say
};

// How many custom ops may be registered at once (the values Op has left above the predefined).
inline constexpr std::size_t kMaxCustomOps = 256 - kOpCount;

// Registers `op` and returns its value. Throws Error(kResourceExhausted) when kMaxCustomOps are
// registered, Error(kInvalidArgument) for an empty function or element size 0. Thread-safe.
Op register_custom_op(CustomOp op);
// Makes the value free for a later registration. A reduction still running with it must have
// finished (the MPI shim keeps its registrations alive until their requests complete).
void release_custom_op(Op op);

// True for a registered custom op (false for the predefined ones).
bool op_is_custom(Op op);
// False only for a registered custom op declared non-commutative.
bool op_is_commutative(Op op);
// The registered op behind `op`; throws Error(kInvalidArgument) when none is.
const CustomOp& custom_op(Op op);

}  // namespace halyard
