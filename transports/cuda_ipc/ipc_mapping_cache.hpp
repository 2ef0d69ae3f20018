// IpcMappingCache: each peer allocation is opened once (cudaIpcOpenMemHandle is expensive, tens
// of microseconds to milliseconds) and reused by every later collective on any buffer inside it.
//
// Pure C++ (the open and close calls are injected), so the invalidation rules are unit-tested
// without a GPU (tests/cuda_ipc/ipc_mapping_cache_test.cpp).
//
// An entry is keyed by (peer, buffer id, allocation base, allocation size). CUDA gives every
// allocation of a process a buffer id that is never reused, so when a peer frees an allocation
// and a new one lands on the same addresses, the export carries a new id: the lookup misses,
// and every entry of that peer whose address range overlaps the new allocation is closed first
// (those allocations are gone; their mappings would pin freed memory and alias the new one).
// Each peer keeps at most `max_per_peer` entries; beyond that the least recently used goes.
//
// map() hands out a PeerMapping that shares ownership of the mapping: a collective keeps it
// until its device work is done, so an entry the cache drops meanwhile (the limit, a replaced
// allocation, clear()) is unmapped only when the last holder lets it go, never under a copy or
// kernel that still uses it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <list>
#include <memory>

#include "runtime/device_support.hpp"

namespace halyard::cuda_ipc {

struct AllocationKey {
  int peer = -1;
  std::uint64_t buffer_id = 0;
  std::uint64_t base = 0;
  std::uint64_t bytes = 0;

  static AllocationKey of(int peer, const DeviceBufferExport& exported);
  bool overlaps(const AllocationKey& other) const;
  friend bool operator==(const AllocationKey&, const AllocationKey&) = default;
};

class IpcMappingCache {
 public:
  // Maps an exported allocation; returns its base address in this process. Throws on failure.
  using OpenFn = std::function<void*(const DeviceBufferExport&)>;
  // Unmaps what OpenFn returned. Must not throw (it also runs from the destructor).
  using CloseFn = std::function<void(void*)>;

  IpcMappingCache(OpenFn open, CloseFn close, std::size_t max_per_peer = 64);
  ~IpcMappingCache();
  IpcMappingCache(const IpcMappingCache&) = delete;
  IpcMappingCache& operator=(const IpcMappingCache&) = delete;

  // The address in this process of the buffer `peer` exported (the mapped base + its offset),
  // holding the mapping open. Throws Error(kInvalidArgument) when the export's offset lies
  // outside its allocation.
  PeerMapping map(int peer, const DeviceBufferExport& exported);

  // Drops every entry; each mapping closes once no PeerMapping of it is held.
  void clear();

  std::size_t size() const { return entries_.size(); }
  std::uint64_t opens() const { return opens_; }
  std::uint64_t hits() const { return hits_; }
  std::uint64_t closes() const { return closer_->closes; }

 private:
  // Shared with every mapping's deleter, which may run after the cache is gone.
  struct Closer {
    CloseFn close;
    std::uint64_t closes = 0;
  };
  struct Entry {
    AllocationKey key;
    std::shared_ptr<std::byte> mapped_base;  // closes the mapping when the last holder goes
  };
  std::size_t entries_of(int peer) const;

  OpenFn open_;
  std::shared_ptr<Closer> closer_;
  std::size_t max_per_peer_;
  std::list<Entry> entries_;  // most recently used first
  std::uint64_t opens_ = 0;
  std::uint64_t hits_ = 0;
};

}  // namespace halyard::cuda_ipc
