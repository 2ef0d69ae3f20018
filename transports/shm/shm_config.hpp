// The HALYARD_SHM_* knobs, read once when a transport is made.
#pragma once

#include <cstddef>
#include <cstdint>

#include <unistd.h>

namespace halyard::shm {

// How a rendezvous payload moves (HALYARD_SHM_SINGLE_COPY).
enum class SingleCopyMode {
  kAuto,  // CMA, and the staged copy where the kernel refuses CMA
  kCma,   // CMA only: a refusal fails the transfer instead of falling back
  kNone,  // always the staged copy-in/copy-out through the segment
};

struct ShmConfig {
  // Payloads up to this size travel inline in ring cells; larger ones use the rendezvous.
  // From ping-pong measurements (docs/transport-shm.md, "Eager limit"): on the 2-core VM a CMA
  // read pays a fixed 2.5-3 us, so the two eager copies win up to 64 KiB (16 KiB 0.59-0.61 us
  // against 3.55-3.89 by CMA, 64 KiB 1.76 against 6.9-7.7), and the staged copy catches up with
  // eager only near 64 KiB too. The first measurements (2026-11-21, another machine state) put
  // the crossover with CMA at 8 KiB.
  std::size_t eager_limit = kEagerLimitWithCma;
  static constexpr std::size_t kEagerLimitWithCma = 64 * 1024;
  static constexpr std::size_t kEagerLimitStaged = 64 * 1024;
  // Ring geometry of the segment (the creating rank's values win; the others read them back
  // from the segment header). Cells are multiples of a cache line.
  std::uint32_t cell_size = 4096;
  std::uint32_t ring_cells = 64;
  // Staging area of the copy-in/copy-out fallback, per ordered pair of ranks.
  std::uint32_t staging_chunk = 64 * 1024;
  std::uint32_t staging_slots = 8;
  // Bytes one CMA pull copies per progress() pass, so that a huge transfer does not hold the
  // event loop for its whole duration.
  std::size_t cma_chunk = 4 * 1024 * 1024;
  SingleCopyMode single_copy = SingleCopyMode::kAuto;
  // Whether a large CMA transfer is copied by both ends at once (HALYARD_SHM_SHARED_COPY;
  // copy_share.hpp): kAuto shares where the node's ranks do not outnumber its CPUs (a receiver
  // must not wait on a chunk held by a sender the scheduler has put aside).
  enum class SharedCopy { kAuto, kOn, kOff };
  SharedCopy shared_copy = SharedCopy::kAuto;
  // The CPUs the host's ranks may run on (TopologyTable::cpus_on_host): the machine's online
  // CPUs unless the runtime says fewer (taskset, a container's cpuset).
  long host_cpus = ::sysconf(_SC_NPROCESSORS_ONLN);
  // Whether copies are shared on a node of `local_ranks` ranks and `cpus` usable CPUs.
  bool shares_copies(std::size_t local_ranks, long cpus) const {
    if (shared_copy != SharedCopy::kAuto) return shared_copy == SharedCopy::kOn;
    return cpus > 0 && local_ranks <= static_cast<std::size_t>(cpus);
  }

  // Reads the environment; throws Error(kInvalidArgument) naming a malformed variable.
  static ShmConfig from_environment();
};

}  // namespace halyard::shm
