// CmaPull: the "cma" flavour of bcast, gather and allgather. Every rank that needs a peer's
// block reads it straight out of the peer's buffer with one CMA copy (HierKNEM's receiver-driven
// single copy): the owner sends its buffer's address in a notice, the reader pulls (a chunk per
// event-loop pass) and says "done"; the owner's part ends once all its readers are done.
#pragma once

#include <cstddef>
#include <vector>

#include "collectives/intranode/notice_machine.hpp"

namespace halyard::intranode {

struct PullPlan {
  std::size_t bytes = 0;  // of every block
  // This rank's block that others pull (null: none) and who pulls it (comm ranks).
  const void* provided = nullptr;
  std::vector<int> pullers;
  // The blocks this rank pulls: from whom, and where each goes.
  std::vector<int> providers;
  std::vector<void*> destinations;
};

Request start_cma_pull(const Communicator& comm, NodeMemory& memory, PullPlan plan, int address_tag,
                       int done_tag);

// Bytes one CMA read copies before the machine yields to the event loop.
inline constexpr std::size_t kCmaChunkBytes = 1024 * 1024;

}  // namespace halyard::intranode
