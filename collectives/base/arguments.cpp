#include "collectives/base/arguments.hpp"

#include <string>

#include "collectives/collectives.hpp"
#include "runtime/error.hpp"

namespace halyard::base {

namespace {

[[noreturn]] void invalid(std::string_view operation, const std::string& what) {
  throw Error(ErrorCode::kInvalidArgument, std::string(operation) + ": " + what);
}

}  // namespace

namespace detail {

void invalid_communicator(std::string_view operation) {
  invalid(operation, "comm is not a valid communicator");
}

void invalid_root(const Communicator& comm, int root, std::string_view operation) {
  invalid(operation, "root " + std::to_string(root) + " is outside the communicator of size " +
                         std::to_string(comm.size()));
}

void invalid_datatype(Datatype type, std::string_view operation) {
  invalid(operation, "type " + std::to_string(static_cast<int>(type)) + " is not a Datatype");
}

void invalid_op(Op op, std::string_view operation) {
  invalid(operation, "op " + std::to_string(static_cast<int>(op)) + " is not an Op");
}

void check_op_for_type(Op op, Datatype type, std::string_view operation) {
  try {
    check_op_supported(op, type);
  } catch (const Error& error) {
    invalid(operation, error.what());
  }
}

void invalid_buffer(const void* buffer, std::size_t count, std::string_view name,
                    std::string_view operation) {
  // Only called when a check failed: a kInPlace buffer here is the one that was not allowed.
  if (is_in_place(buffer)) invalid(operation, std::string(name) + " may not be kInPlace here");
  invalid(operation, std::string(name) + " is null with count " + std::to_string(count));
}

void count_too_large(std::size_t count, std::string_view operation) {
  invalid(operation, "count " + std::to_string(count) + " is too large");
}

}  // namespace detail

bool is_in_place(const void* buffer) noexcept {
  return buffer == kInPlace;
}

}  // namespace halyard::base
