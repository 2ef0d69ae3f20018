// Byte-offset arithmetic on untyped collective buffers (counts are in elements; the
// algorithms work in bytes once the datatype size is known).
#pragma once

#include <cstddef>

namespace halyard::base {

inline std::byte* byte_at(void* buffer, std::size_t offset) {
  return static_cast<std::byte*>(buffer) + offset;
}
inline const std::byte* byte_at(const void* buffer, std::size_t offset) {
  return static_cast<const std::byte*>(buffer) + offset;
}

}  // namespace halyard::base
