#include "runtime/datatypes/reduce_op.hpp"

#include <array>
#include <string>

#include "runtime/datatypes/custom_op.hpp"
#include "runtime/support/error.hpp"

namespace halyard {
namespace {

// Indexed by the enum's value; the order must follow the enum.
constexpr std::array<std::string_view, kOpCount> kOpNames = {"sum", "prod", "min",  "max", "band",
                                                             "bor", "bxor", "land", "lor", "lxor"};

std::size_t index_of(Op op) {
  return static_cast<std::size_t>(op);
}

bool is_bitwise(Op op) {
  return op == Op::kBand || op == Op::kBor || op == Op::kBxor;
}

}  // namespace

bool op_is_valid(Op op) {
  return index_of(op) < kOpCount || op_is_custom(op);
}

std::string_view op_name(Op op) {
  if (index_of(op) < kOpCount) return kOpNames[index_of(op)];
  return op_is_custom(op) ? std::string_view(custom_op(op).name) : std::string_view("invalid");
}

bool op_supports(Op op, Datatype type) {
  if (!op_is_valid(op) || !datatype_is_valid(type)) return false;
  if (op_is_custom(op)) return type == Datatype::kUint8;  // bytes of whole elements
  return !is_bitwise(op) || datatype_is_integer(type);
}

void check_op_supported(Op op, Datatype type) {
  if (!op_is_valid(op)) {
    throw Error(ErrorCode::kInvalidArgument,
                "op " + std::to_string(index_of(op)) + " is not a valid Op");
  }
  if (!datatype_is_valid(type)) {
    throw Error(
        ErrorCode::kInvalidArgument,
        "datatype " + std::to_string(static_cast<unsigned>(type)) + " is not a valid Datatype");
  }
  if (!op_supports(op, type)) {
    throw Error(ErrorCode::kInvalidArgument, "op " + std::string(op_name(op)) +
                                                 " is not defined for " +
                                                 std::string(datatype_name(type)));
  }
}

}  // namespace halyard
