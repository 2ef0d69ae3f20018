// How the shim's handles are made (mpi.h): a handle's top byte is its kind
// (HALYARD_MPI_KIND_COMM, ..._DATATYPE, ...), the bits below it its index in that kind's table,
// where index 0 is the null handle.
#pragma once

#include <cstddef>
#include <cstdint>

namespace halyard::mpi_shim {

inline constexpr std::uint32_t kHandleKindMask = 0xff000000u;

// The table index `handle` holds when it is a handle of `kind`, else 0 (the null slot).
inline std::size_t handle_index(int handle, int kind) {
  const auto bits = static_cast<std::uint32_t>(handle);
  if ((bits & kHandleKindMask) != static_cast<std::uint32_t>(kind)) return 0;
  return bits & ~kHandleKindMask;
}

}  // namespace halyard::mpi_shim
