// kInPlace, MPI_IN_PLACE's counterpart. It lives below the algorithm families so that they can
// recognise it without including the public API (collectives/collectives.hpp re-exports it).
#pragma once

#include <cstdint>

namespace halyard {

// Pass as the send buffer of reduce (at the root), allreduce, gather (at the root) and allgather
// to take this rank's contribution from the receive buffer, like MPI_IN_PLACE.
inline const void* const kInPlace = reinterpret_cast<const void*>(std::uintptr_t{1});

namespace core {

inline bool is_in_place(const void* buffer) noexcept {
  return buffer == kInPlace;
}

}  // namespace core
}  // namespace halyard
