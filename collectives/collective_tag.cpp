#include "collectives/collective_tag.hpp"

#include <cstdint>
#include <unordered_map>

namespace halyard {

int next_collective_tag(const Communicator& comm) {
  // Keyed by context id: each communicator has its own, and dup() gets a new one. Collectives
  // are posted from the thread that drives the event loop, so no lock is needed.
  static std::unordered_map<std::uint32_t, std::uint32_t> calls;
  std::uint32_t n = calls[comm.context()]++;
  constexpr std::uint32_t kWrap = 1u << 24;
  return kFirstCollectiveTag - static_cast<int>(n % kWrap);
}

}  // namespace halyard
