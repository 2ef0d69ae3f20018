#include "collectives/base/arguments.hpp"

#include <limits>
#include <string>

#include "collectives/collectives.hpp"
#include "runtime/error.hpp"

namespace halyard::base {

namespace {

[[noreturn]] void invalid(std::string_view operation, const std::string& what) {
  throw Error(ErrorCode::kInvalidArgument, std::string(operation) + ": " + what);
}

}  // namespace

void check_communicator(const Communicator& comm, std::string_view operation) {
  if (!comm.valid()) invalid(operation, "comm is not a valid communicator");
}

void check_root(const Communicator& comm, int root, std::string_view operation) {
  if (root < 0 || root >= comm.size()) {
    invalid(operation, "root " + std::to_string(root) + " is outside the communicator of size " +
                           std::to_string(comm.size()));
  }
}

void check_datatype(Datatype type, std::string_view operation) {
  if (!datatype_is_valid(type)) {
    invalid(operation, "type " + std::to_string(static_cast<int>(type)) + " is not a Datatype");
  }
}

void check_reduction(Op op, Datatype type, std::string_view operation) {
  check_datatype(type, operation);
  if (!op_is_valid(op)) {
    invalid(operation, "op " + std::to_string(static_cast<int>(op)) + " is not an Op");
  }
  try {
    check_op_supported(op, type);
  } catch (const Error& error) {
    invalid(operation, error.what());
  }
}

void check_buffer(const void* buffer, std::size_t count, std::string_view name,
                  std::string_view operation, bool in_place_allowed) {
  if (!in_place_allowed && is_in_place(buffer)) {
    invalid(operation, std::string(name) + " may not be kInPlace here");
  }
  if (buffer == nullptr && count > 0) {
    invalid(operation, std::string(name) + " is null with count " + std::to_string(count));
  }
}

std::size_t checked_bytes(std::size_t count, Datatype type, std::size_t blocks,
                          std::string_view operation) {
  constexpr std::size_t kMax = std::numeric_limits<std::size_t>::max();
  std::size_t element = datatype_size(type);
  if (count != 0 && (element > kMax / count || blocks > kMax / (count * element))) {
    invalid(operation, "count " + std::to_string(count) + " is too large");
  }
  return count * element * blocks;
}

bool is_in_place(const void* buffer) noexcept {
  return buffer == kInPlace;
}

}  // namespace halyard::base
