// The IPC mapping cache's rules, with a fake open/close (no GPU needed): one open per
// allocation, reuse for every buffer inside it, invalidation when a peer's addresses come back
// with a new buffer id, the per-peer limit, and closing everything at the end.
#include "transports/cuda_ipc/ipc_mapping_cache.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <vector>

#include "runtime/support/error.hpp"

namespace halyard::cuda_ipc {
namespace {

// Hands out distinct fake addresses and records which are open.
struct FakeIpc {
  std::uintptr_t next = 0x10000;
  std::map<void*, std::uint64_t> open;  // mapped base -> buffer id
  std::vector<std::uint64_t> closed_ids;

  IpcMappingCache make(std::size_t max_per_peer = 64) {
    return IpcMappingCache(
        [this](const DeviceBufferExport& e) {
          void* p = reinterpret_cast<void*>(next);
          next += 0x100000;
          open[p] = e.buffer_id;
          return p;
        },
        [this](void* p) {
          closed_ids.push_back(open.at(p));
          open.erase(p);
        },
        max_per_peer);
  }
};

DeviceBufferExport allocation(std::uint64_t id, std::uint64_t base, std::uint64_t bytes,
                              std::uint64_t offset = 0) {
  DeviceBufferExport e;
  e.buffer_id = id;
  e.allocation_base = base;
  e.allocation_bytes = bytes;
  e.offset = offset;
  return e;
}

TEST(IpcMappingCache, OpensEachAllocationOnceAndAddsTheOffset) {
  FakeIpc ipc;
  auto cache = ipc.make();
  auto* first = cache.map(1, allocation(7, 0x5000000, 4096, 0)).get();
  auto* inside = cache.map(1, allocation(7, 0x5000000, 4096, 256)).get();
  EXPECT_EQ(inside - first, 256);
  EXPECT_EQ(cache.opens(), 1u);
  EXPECT_EQ(cache.hits(), 1u);
  EXPECT_EQ(ipc.open.size(), 1u);
}

TEST(IpcMappingCache, PeersAreKeptApart) {
  FakeIpc ipc;
  auto cache = ipc.make();
  void* a = cache.map(1, allocation(7, 0x5000000, 4096)).get();
  void* b = cache.map(2, allocation(7, 0x5000000, 4096)).get();  // same id and address, other peer
  EXPECT_NE(a, b);
  EXPECT_EQ(cache.opens(), 2u);
  EXPECT_EQ(cache.size(), 2u);
}

TEST(IpcMappingCache, ANewBufferIdOverTheSameAddressesReplacesTheOldMapping) {
  FakeIpc ipc;
  auto cache = ipc.make();
  void* old_mapping = cache.map(1, allocation(7, 0x5000000, 1 << 20)).get();
  // The peer freed it; a new allocation starts inside the old range.
  void* new_mapping = cache.map(1, allocation(8, 0x5080000, 1 << 20)).get();
  EXPECT_NE(old_mapping, new_mapping);
  EXPECT_EQ(ipc.closed_ids, std::vector<std::uint64_t>{7});
  EXPECT_EQ(cache.size(), 1u);
  EXPECT_EQ(ipc.open.count(old_mapping), 0u);
  // The old id is gone for good: asking for it again opens anew (and evicts id 8).
  cache.map(1, allocation(7, 0x5000000, 1 << 20));
  EXPECT_EQ(ipc.closed_ids, (std::vector<std::uint64_t>{7, 8}));
}

TEST(IpcMappingCache, DisjointAllocationsOfAPeerStayOpen) {
  FakeIpc ipc;
  auto cache = ipc.make();
  cache.map(1, allocation(7, 0x5000000, 4096));
  cache.map(1, allocation(8, 0x5001000, 4096));  // adjacent, not overlapping
  EXPECT_TRUE(ipc.closed_ids.empty());
  EXPECT_EQ(cache.size(), 2u);
}

TEST(IpcMappingCache, EvictsTheLeastRecentlyUsedBeyondThePerPeerLimit) {
  FakeIpc ipc;
  auto cache = ipc.make(2);
  cache.map(1, allocation(1, 0x1000000, 4096));
  cache.map(1, allocation(2, 0x2000000, 4096));
  cache.map(1, allocation(1, 0x1000000, 4096));  // 1 is now the most recent
  cache.map(1, allocation(3, 0x3000000, 4096));
  EXPECT_EQ(ipc.closed_ids, std::vector<std::uint64_t>{2});
  cache.map(2, allocation(9, 0x9000000, 4096));  // another peer has its own budget
  EXPECT_EQ(ipc.closed_ids, std::vector<std::uint64_t>{2});
}

TEST(IpcMappingCache, RejectsAnOffsetOutsideTheAllocation) {
  FakeIpc ipc;
  auto cache = ipc.make();
  EXPECT_THROW(cache.map(1, allocation(7, 0x5000000, 4096, 4096)), Error);
  EXPECT_THROW(cache.map(1, allocation(7, 0x5000000, 0, 0)), Error);
  EXPECT_EQ(cache.opens(), 0u);
}

TEST(IpcMappingCache, ClosesEverythingWhenDestroyed) {
  FakeIpc ipc;
  {
    auto cache = ipc.make();
    cache.map(1, allocation(1, 0x1000000, 4096));
    cache.map(2, allocation(2, 0x1000000, 4096));
  }
  EXPECT_TRUE(ipc.open.empty());
  EXPECT_EQ(ipc.closed_ids.size(), 2u);
}

TEST(IpcMappingCache, AFailedOpenCachesNothing) {
  IpcMappingCache cache(
      [](const DeviceBufferExport&) -> void* {
        throw Error(ErrorCode::kTransport, "cudaIpcOpenMemHandle: refused");
      },
      [](void*) {});
  EXPECT_THROW(cache.map(1, allocation(1, 0x1000000, 4096)), Error);
  EXPECT_EQ(cache.size(), 0u);
}

// Issue 27, item 18: the cache may drop an entry (least recently used, or an allocation the peer
// replaced) while device work still reads or writes through it; the mapping must stay open until
// the last holder lets it go.
TEST(IpcMappingCache, AMappingInUseOutlivesItsEviction) {
  FakeIpc ipc;
  auto cache = ipc.make(1);
  auto in_use = cache.map(1, allocation(7, 0x5000000, 4096));  // a copy still reads it
  cache.map(1, allocation(8, 0x6000000, 4096));                // the limit evicts 7
  EXPECT_TRUE(ipc.closed_ids.empty()) << "unmapped while device work used it";
  in_use = {};
  EXPECT_EQ(ipc.closed_ids, std::vector<std::uint64_t>{7});

  auto replaced = cache.map(2, allocation(9, 0x7000000, 4096));
  cache.map(2, allocation(10, 0x7000000, 4096));  // peer 2 freed 9; 10 lies over it
  EXPECT_EQ(ipc.closed_ids.size(), 1u) << "unmapped while device work used it";
  replaced = {};
  EXPECT_EQ(ipc.closed_ids.back(), 9u);
}

TEST(IpcMappingCache, AMappingInUseOutlivesTheCache) {
  FakeIpc ipc;
  auto in_use = [&] {
    auto cache = ipc.make();
    return cache.map(1, allocation(7, 0x5000000, 4096));
  }();
  EXPECT_TRUE(ipc.closed_ids.empty());
  in_use = {};
  EXPECT_EQ(ipc.closed_ids, std::vector<std::uint64_t>{7});
}

}  // namespace
}  // namespace halyard::cuda_ipc
