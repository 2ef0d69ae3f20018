// Reduction operations, with the same meaning as MPI's predefined ops.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "runtime/datatypes/datatype.hpp"

namespace halyard {

enum class Op : std::uint8_t {
  kSum,
  kProd,
  kMin,
  kMax,
  kBand,  // bitwise and (integers only)
  kBor,   // bitwise or (integers only)
  kBxor,  // bitwise xor (integers only)
  kLand,  // logical and: 1 when both are non-zero, else 0, in the datatype
  kLor,
  kLxor,
};

// Number of predefined Op values: 0 .. kOpCount - 1. Values above are custom ops while they are
// registered (custom_op.hpp).
inline constexpr std::size_t kOpCount = 10;

// Lower-case name, e.g. "sum", "band"; a custom op's own name; "invalid" for anything else.
std::string_view op_name(Op op);

// True when `op` is one of the enumerators or a registered custom op.
bool op_is_valid(Op op);

// Whether `op` is defined for `type`: bitwise ops only for integer types, custom ops only for
// kUint8 (a byte vector of whole elements), everything else for every type. False when either
// value is invalid.
bool op_supports(Op op, Datatype type);

// Throws Error(kInvalidArgument) when op_supports is false, naming the pair, e.g.
// "op band is not defined for float32".
void check_op_supported(Op op, Datatype type);

}  // namespace halyard
