#include "runtime/datatypes/datatype.hpp"

#include <array>
#include <string>

#include "runtime/support/error.hpp"

namespace halyard {
namespace {

struct DatatypeInfo {
  std::string_view name;
  std::size_t size;
  bool integer;
};

// Indexed by the enum's value; the order must follow the enum.
constexpr std::array<DatatypeInfo, kDatatypeCount> kInfo = {{
    {"int8", 1, true},
    {"int16", 2, true},
    {"int32", 4, true},
    {"int64", 8, true},
    {"uint8", 1, true},
    {"uint16", 2, true},
    {"uint32", 4, true},
    {"uint64", 8, true},
    {"float16", 2, false},
    {"bfloat16", 2, false},
    {"float32", 4, false},
    {"float64", 8, false},
}};

std::size_t index_of(Datatype type) {
  return static_cast<std::size_t>(type);
}

}  // namespace

bool datatype_is_valid(Datatype type) {
  return index_of(type) < kDatatypeCount;
}

std::size_t datatype_size(Datatype type) {
  if (!datatype_is_valid(type)) {
    throw Error(ErrorCode::kInvalidArgument,
                "datatype " + std::to_string(index_of(type)) + " is not a valid Datatype");
  }
  return kInfo[index_of(type)].size;
}

std::string_view datatype_name(Datatype type) {
  return datatype_is_valid(type) ? kInfo[index_of(type)].name : std::string_view("invalid");
}

bool datatype_is_integer(Datatype type) {
  return datatype_is_valid(type) && kInfo[index_of(type)].integer;
}

}  // namespace halyard
