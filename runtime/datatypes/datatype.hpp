// Element types that collectives reduce and the MPI shim maps its datatypes onto.
//
// float16 (IEEE binary16) and bfloat16 have no C++20 type: buffers hold their bit patterns as
// std::uint16_t, and the reduction kernels convert them to float32 to compute.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace halyard {

enum class Datatype : std::uint8_t {
  kInt8,
  kInt16,
  kInt32,
  kInt64,
  kUint8,
  kUint16,
  kUint32,
  kUint64,
  kFloat16,
  kBFloat16,
  kFloat32,
  kFloat64,
};

// Number of Datatype values; valid values are 0 .. kDatatypeCount - 1.
inline constexpr std::size_t kDatatypeCount = 12;

namespace detail {
// Indexed by the enum's value; the order must follow the enum.
inline constexpr std::uint8_t kDatatypeSizes[kDatatypeCount] = {1, 2, 4, 8, 1, 2, 4, 8, 2, 2, 4, 8};
[[noreturn]] void invalid_datatype(Datatype type);
}  // namespace detail

// Size of one element in bytes. Throws Error(kInvalidArgument) for a value outside the enum.
// Inline: every call's path asks it several times.
inline std::size_t datatype_size(Datatype type) {
  const auto index = static_cast<std::size_t>(type);
  if (index >= kDatatypeCount) [[unlikely]]
    detail::invalid_datatype(type);
  return detail::kDatatypeSizes[index];
}

// Lower-case name, e.g. "int32", "uint8", "float16", "bfloat16"; "invalid" outside the enum.
std::string_view datatype_name(Datatype type);

// True for the eight integer types (the ones bitwise ops are defined for).
bool datatype_is_integer(Datatype type);

// True when `type` is one of the enumerators (guards against casts from raw integers).
bool datatype_is_valid(Datatype type);

}  // namespace halyard
