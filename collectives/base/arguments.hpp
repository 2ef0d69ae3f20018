// Argument checks shared by every collective entry point (the public API and the base
// algorithms, which HAN also calls directly). Each throws Error(kInvalidArgument) with a message
// that names the operation and the argument, on the calling rank, before any tag is consumed.
//
// The tests are inline and the messages are built out of line: every collective call runs
// several checks (the public entry, then the algorithm's own), and the operation's name only
// needs measuring (strlen) when a check fails.
#pragma once

#include <cstddef>
#include <limits>
#include <string_view>

#include "runtime/communicator.hpp"
#include "runtime/datatype.hpp"
#include "runtime/reduce_op.hpp"

namespace halyard::base {

// kInPlace, without including collectives.hpp into the algorithms.
bool is_in_place(const void* buffer) noexcept;

namespace detail {
[[noreturn]] void invalid_communicator(std::string_view operation);
[[noreturn]] void invalid_root(const Communicator& comm, int root, std::string_view operation);
[[noreturn]] void invalid_datatype(Datatype type, std::string_view operation);
[[noreturn]] void invalid_op(Op op, std::string_view operation);
// Runs check_op_supported and rethrows its error prefixed with the operation.
void check_op_for_type(Op op, Datatype type, std::string_view operation);
[[noreturn]] void invalid_buffer(const void* buffer, std::size_t count, std::string_view name,
                                 std::string_view operation);
[[noreturn]] void count_too_large(std::size_t count, std::string_view operation);
}  // namespace detail

// A valid (non-empty) communicator.
inline void check_communicator(const Communicator& comm, std::string_view operation) {
  if (!comm.valid()) detail::invalid_communicator(operation);
}
// 0 <= root < comm.size().
inline void check_root(const Communicator& comm, int root, std::string_view operation) {
  if (root < 0 || root >= comm.size()) detail::invalid_root(comm, root, operation);
}
// A datatype inside the enum.
inline void check_datatype(Datatype type, std::string_view operation) {
  if (!datatype_is_valid(type)) detail::invalid_datatype(type, operation);
}
// A valid op defined for `type` (check_op_supported names the pair).
inline void check_reduction(Op op, Datatype type, std::string_view operation) {
  check_datatype(type, operation);
  if (!op_is_valid(op)) detail::invalid_op(op, operation);
  if (!op_supports(op, type)) detail::check_op_for_type(op, type, operation);
}
// Not null when count > 0; `in_place_allowed` says whether kInPlace may stand for it.
inline void check_buffer(const void* buffer, std::size_t count, std::string_view name,
                         std::string_view operation, bool in_place_allowed) {
  if ((!in_place_allowed && is_in_place(buffer)) || (buffer == nullptr && count > 0)) {
    detail::invalid_buffer(buffer, count, name, operation);
  }
}
// count * datatype_size(type) * blocks without overflow; returns the product.
inline std::size_t checked_bytes(std::size_t count, Datatype type, std::size_t blocks,
                                 std::string_view operation) {
  constexpr std::size_t kMax = std::numeric_limits<std::size_t>::max();
  std::size_t element = datatype_size(type);
  if (count != 0 && (element > kMax / count || blocks > kMax / (count * element))) {
    detail::count_too_large(count, operation);
  }
  return count * element * blocks;
}

}  // namespace halyard::base
