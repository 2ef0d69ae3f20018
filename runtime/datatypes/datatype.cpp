#include "runtime/datatypes/datatype.hpp"

#include <array>
#include <string>

#include "runtime/support/error.hpp"

namespace halyard {
namespace {

struct DatatypeInfo {
  std::string_view name;
  bool integer;
};

// Indexed by the enum's value; the order must follow the enum (as detail::kDatatypeSizes does).
constexpr std::array<DatatypeInfo, kDatatypeCount> kInfo = {{
    {"int8", true},
    {"int16", true},
    {"int32", true},
    {"int64", true},
    {"uint8", true},
    {"uint16", true},
    {"uint32", true},
    {"uint64", true},
    {"float16", false},
    {"bfloat16", false},
    {"float32", false},
    {"float64", false},
}};

std::size_t index_of(Datatype type) {
  return static_cast<std::size_t>(type);
}

}  // namespace

bool datatype_is_valid(Datatype type) {
  return index_of(type) < kDatatypeCount;
}

void detail::invalid_datatype(Datatype type) {
  throw Error(ErrorCode::kInvalidArgument,
              "datatype " + std::to_string(index_of(type)) + " is not a valid Datatype");
}

std::string_view datatype_name(Datatype type) {
  return datatype_is_valid(type) ? kInfo[index_of(type)].name : std::string_view("invalid");
}

bool datatype_is_integer(Datatype type) {
  return datatype_is_valid(type) && kInfo[index_of(type)].integer;
}

}  // namespace halyard
