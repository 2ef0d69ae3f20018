#include "collectives/core/collective_tag.hpp"

#include <cstdint>

namespace halyard {

int next_collective_tag(const Communicator& comm) {
  // Each communicator counts its own calls (dup() gets a new count); collectives are posted
  // with the loop held, so no lock is needed.
  std::uint32_t n = comm.next_collective_call();
  constexpr std::uint32_t kWrap = 1u << 24;
  return kFirstCollectiveTag - static_cast<int>(n % kWrap);
}

}  // namespace halyard
