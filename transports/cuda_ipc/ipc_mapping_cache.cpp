#include "transports/cuda_ipc/ipc_mapping_cache.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "runtime/support/error.hpp"

namespace halyard::cuda_ipc {

AllocationKey AllocationKey::of(int peer, const DeviceBufferExport& exported) {
  return {peer, exported.buffer_id, exported.allocation_base, exported.allocation_bytes};
}

bool AllocationKey::overlaps(const AllocationKey& other) const {
  return peer == other.peer && base < other.base + other.bytes && other.base < base + bytes;
}

IpcMappingCache::IpcMappingCache(OpenFn open, CloseFn close, std::size_t max_per_peer)
    : open_(std::move(open)),
      closer_(std::make_shared<Closer>(Closer{std::move(close)})),
      max_per_peer_(std::max<std::size_t>(max_per_peer, 1)) {}

IpcMappingCache::~IpcMappingCache() {
  clear();
}

PeerMapping IpcMappingCache::map(int peer, const DeviceBufferExport& exported) {
  if (exported.allocation_bytes == 0 || exported.offset >= exported.allocation_bytes) {
    throw Error(ErrorCode::kInvalidArgument,
                "device buffer export of rank " + std::to_string(peer) + ": offset " +
                    std::to_string(exported.offset) + " is outside its allocation of " +
                    std::to_string(exported.allocation_bytes) + " bytes");
  }
  const AllocationKey key = AllocationKey::of(peer, exported);
  const std::shared_ptr<std::byte>& base = [&]() -> const std::shared_ptr<std::byte>& {
    auto hit = std::find_if(entries_.begin(), entries_.end(),
                            [&](const Entry& e) { return e.key == key; });
    if (hit != entries_.end()) {
      ++hits_;
      entries_.splice(entries_.begin(), entries_, hit);
      return entries_.front().mapped_base;
    }
    // A new allocation: the peer freed whatever it overlaps.
    std::erase_if(entries_, [&](const Entry& e) { return e.key.overlaps(key); });
    while (entries_of(peer) >= max_per_peer_) {
      auto oldest = std::find_if(entries_.rbegin(), entries_.rend(),
                                 [&](const Entry& e) { return e.key.peer == peer; });
      entries_.erase(std::prev(oldest.base()));
    }
    auto* mapped = static_cast<std::byte*>(open_(exported));
    ++opens_;
    std::shared_ptr<std::byte> owned(mapped, [closer = closer_](std::byte* p) {
      closer->close(p);
      ++closer->closes;
    });
    entries_.push_front(Entry{key, std::move(owned)});
    return entries_.front().mapped_base;
  }();
  // Aliasing: the buffer's address, sharing ownership of the whole mapping.
  return PeerMapping(base, base.get() + exported.offset);
}

void IpcMappingCache::clear() {
  entries_.clear();
}

std::size_t IpcMappingCache::entries_of(int peer) const {
  return static_cast<std::size_t>(std::count_if(
      entries_.begin(), entries_.end(), [&](const Entry& e) { return e.key.peer == peer; }));
}

}  // namespace halyard::cuda_ipc
