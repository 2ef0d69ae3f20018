// Argument checks shared by every collective entry point (the public API and the base
// algorithms, which HAN also calls directly). Each throws Error(kInvalidArgument) with a message
// that names the operation and the argument, on the calling rank, before any tag is consumed.
#pragma once

#include <cstddef>
#include <string_view>

#include "runtime/communicator.hpp"
#include "runtime/datatype.hpp"
#include "runtime/reduce_op.hpp"

namespace halyard::base {

// A valid (non-empty) communicator.
void check_communicator(const Communicator& comm, std::string_view operation);
// 0 <= root < comm.size().
void check_root(const Communicator& comm, int root, std::string_view operation);
// A datatype inside the enum.
void check_datatype(Datatype type, std::string_view operation);
// A valid op defined for `type` (check_op_supported names the pair).
void check_reduction(Op op, Datatype type, std::string_view operation);
// Not null when count > 0; `in_place_allowed` says whether kInPlace may stand for it.
void check_buffer(const void* buffer, std::size_t count, std::string_view name,
                  std::string_view operation, bool in_place_allowed);
// count * datatype_size(type) * blocks without overflow; returns the product.
std::size_t checked_bytes(std::size_t count, Datatype type, std::size_t blocks,
                          std::string_view operation);

// kInPlace, without including collectives.hpp into the algorithms.
bool is_in_place(const void* buffer) noexcept;

}  // namespace halyard::base
