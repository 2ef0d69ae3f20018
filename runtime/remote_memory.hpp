// RemoteMemory: one-sided reads and writes of memory in another rank's process across nodes,
// offered by a transport with RMA (ofi: fi_write / fi_read into registered memory). Windows
// (rma/window.hpp) put and get through it towards ranks on other nodes; nothing runs at the
// target but its transport's progress.
//
// Ranks here are WORLD ranks. Not thread-safe: callers hold the event loop, whose passes run
// the completions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "runtime/transport.hpp"

namespace halyard {

class Communicator;

// What a peer needs to reach an exposed region: where it starts, as the transport addresses it,
// and its key.
struct RemoteRegionKey {
  std::uint64_t address = 0;
  std::uint64_t key = 0;
};

class RemoteMemory {
 public:
  // Memory exposed to remote reads and writes until destroyed.
  class Region {
   public:
    virtual ~Region() = default;
    virtual RemoteRegionKey key() const = 0;
  };

  virtual ~RemoteMemory() = default;

  // Exposes [base, base + bytes) to every peer's reads and writes; null when the transport
  // refuses (then the caller reaches this memory otherwise).
  virtual std::unique_ptr<Region> expose(void* base, std::size_t bytes) = 0;

  // Writes `bytes` from `local` to `offset` bytes into the region `remote` of `world_rank`;
  // `done` runs from a later event-loop pass once the bytes are in the target's memory (a read
  // of them by anyone, after it, sees them), or with a failure. `local` stays untouched until
  // then.
  virtual void write(int world_rank, const void* local, std::size_t bytes, RemoteRegionKey remote,
                     std::uint64_t offset, Completion done) = 0;
  // Reads `bytes` at `offset` in the region `remote` of `world_rank` into `local`; `done` runs
  // once they have landed.
  virtual void read(int world_rank, void* local, std::size_t bytes, RemoteRegionKey remote,
                    std::uint64_t offset, Completion done) = 0;
};

// A transport that offers RemoteMemory (found by the Runtime when it wires its transports).
class RemoteMemoryProvider {
 public:
  // Null when this transport cannot (no RMA writes and reads with delivery to memory).
  virtual RemoteMemory* remote_memory() = 0;

 protected:
  ~RemoteMemoryProvider() = default;
};

// The RemoteMemory of the runtime that `comm` belongs to; null when it has none (no ofi
// transport, or one without RMA).
RemoteMemory* remote_memory_of(const Communicator& comm);

}  // namespace halyard
