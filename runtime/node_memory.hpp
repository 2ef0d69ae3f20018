// NodeMemory: what a node-local transport offers the collectives of one node.
//
// The intra-node collective primitives (collectives/intranode, HAN's "sm" and "cma" submodules)
// need two things p2p messages do not give them: a region of memory every rank of the node maps
// (copy-in/copy-out through it costs one copy per side and no message per byte), and single-copy
// reads straight out of another rank's buffers (Cross-Memory Attach, the modern KNEM). The shm
// transport owns both (its segment and its peers' pids), so it implements this interface and the
// collectives never include a transport: they ask node_memory_of(comm).
//
// Ranks here are WORLD ranks; only ranks of this process's node are valid. Not thread-safe
// (one thread drives the event loop, as everywhere in the runtime).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "runtime/support/error.hpp"

namespace halyard {

class Communicator;

class NodeMemory {
 public:
  virtual ~NodeMemory() = default;

  // True when `world_rank` maps this node's memory (it is on this node).
  virtual bool on_this_node(int world_rank) const = 0;

  // Whether single-copy reads may be attempted: false with HALYARD_SHM_SINGLE_COPY=none, or once
  // a probe found that the kernel refuses CMA towards a peer (logged once at debug). Collectives
  // decide their flavour with it before they start, so every rank of a node decides alike.
  virtual bool single_copy_usable() = 0;
  // Whether HALYARD_SHM_SINGLE_COPY=cma asked for single copies where they are optional (the shm
  // collective engine's 2-rank bcast and reduce, which copy through their cells otherwise).
  virtual bool single_copy_requested() const = 0;

  // Copies `bytes` from address `remote` in the process of `world_rank` to `local`. Returns ok,
  // or a kTransport status naming the rank and errno. Synchronous: callers keep each call
  // bounded (a chunk) so that the event loop is never held for long.
  virtual Status read(int world_rank, const void* remote, void* local, std::size_t bytes) = 0;

  // The scratch slot of `world_rank`: a region of the node's shared segment that only that rank
  // writes and every rank of the node may read, at this process's address. Same size for all.
  virtual std::span<std::byte> scratch_slot(int world_rank) = 0;
  virtual std::size_t scratch_slot_bytes() const = 0;

  // The collective channels of `world_rank` (collectives/shm): a region of the node's shared
  // segment, zero when the job starts, that only that rank writes and every rank of the node
  // reads, at this process's address. Same size for all.
  virtual std::span<std::byte> channel_region(int world_rank) = 0;

  // Waking a rank that waits on shared memory. `world_rank` raises its sleeping flag (in the
  // segment) before its event loop sleeps in poll(), then fences and checks its memory once
  // more; a rank that changed memory it may wait on reads the flag (one load, done inline by
  // the caller) and, when it is up, calls wake(). Only the waker that clears the flag sends, so
  // a sleeper gets one wake-up. Without a full fence between the change and the read of the
  // flag a rank going to sleep meanwhile may be missed: the caller fences later and looks again;
  // a missed rank still wakes by its loop's time bound.
  virtual const std::uint32_t* sleeping_flag(int world_rank) = 0;
  virtual void wake(int world_rank) = 0;
};

// A transport that can hand out NodeMemory (the shm transport). The runtime looks for one after
// wiring its transports.
class NodeMemoryProvider {
 public:
  // Null until connect() has run.
  virtual NodeMemory* node_memory() = 0;

 protected:
  ~NodeMemoryProvider() = default;
};

// The NodeMemory of the runtime that `comm` belongs to (RuntimeServices::node_memory); null when
// that runtime has none (the shm transport is off or not built).
NodeMemory* node_memory_of(const Communicator& comm);

}  // namespace halyard
